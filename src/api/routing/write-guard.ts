/**
 * The write port's guard: every write the router sends (test, schedule, pause, reply, email upsert)
 * passes here first, and a write the cross-organization rule refuses (cross-organization.ts) makes
 * no request. It answers with a {@link portRefusal}, which the one write executor turns into a
 * `blocked` outcome (nothing sent, nothing to re-read, never recorded as the API's refusal), and
 * `apiErrorDiagnostic` into `apply.cross-organization-key` naming the flag.
 *
 * The facts: the key's organization (its identity, key-identity.ts) and the owner's (the project's
 * `organization_id` as read; an email list's organization as its file names it, looked up in what
 * the key lists). A pause needs neither: it goes with any key that may act on the project.
 */
import type { ApiClient } from "../client.js";
import {
  CROSS_ORGANIZATION_FLAG,
  crossOrganizationReason,
  crossOrganizationVerdict,
  type WriteKind,
} from "../cross-organization.js";
import type { ApiError, ApiHttpError, RequestIdentity } from "../result.js";
import type { KeyIdentities, KeyIdentity } from "./key-identity.js";

/** The code of a refusal by the write port (never an API's code: the API has no such code). */
export const PORT_REFUSAL_CODE = "CROSS_ORGANIZATION_KEY";

/** The owner's organization id, or why it could not be known (then nothing is written). */
export type OwnerOrganization =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly why: string };

/** One write as the guard judges it. */
export interface GuardedWrite {
  readonly write: WriteKind;
  readonly client: ApiClient;
  /** The request the write would be (the refusal's method, route and path). */
  readonly identity: RequestIdentity;
  /** How messages name what is written ("project 9c00...", "email list young-volunteers"). */
  readonly subject: string;
  /** What kind of owner it is ("the project", "the email list"), for the rule's reason. */
  readonly ownerNoun: string;
  /** The owner's organization, given what the write's key lists. */
  readonly owner: (key: Extract<KeyIdentity, { ok: true }>) => Promise<OwnerOrganization>;
}

/** The refusal of `w` (sent nowhere), or null when it may be sent. */
export async function guardWrite(
  w: GuardedWrite,
  identities: KeyIdentities,
  allowed: boolean,
): Promise<ApiHttpError | null> {
  // A pause sends nothing; the flag lets any key write: neither needs the facts.
  if (w.write === "pause" || allowed) return null;
  const key = await identities.of(w.client);
  if (!key.ok)
    return portRefusal(
      w.identity,
      `${w.subject}: the key's organization could not be read (${key.error.route}: ${key.error.message}), so the cross-organization rule cannot be checked: the ${WRITE_WORDS[w.write]} is not sent`,
      null,
    );
  const owner = await w.owner(key);
  if (!owner.ok)
    return portRefusal(
      w.identity,
      `${w.subject}: ${owner.why}, so the cross-organization rule cannot be checked: the ${WRITE_WORDS[w.write]} is not sent with this key (organization ${key.root.id})`,
      null,
    );
  const verdict = crossOrganizationVerdict({
    write: w.write,
    keyOrganization: key.root.id,
    ownerOrganization: owner.id,
    allowed,
  });
  switch (verdict) {
    case "own-key":
    case "pause":
    case "allowed":
      return null;
    case "refused":
      return portRefusal(
        w.identity,
        `${w.subject}: ${crossOrganizationReason(key.root.id, owner.id, w.ownerNoun)}: its ${WRITE_WORDS[w.write]} is not sent with this key (pass ${CROSS_ORGANIZATION_FLAG} to allow it)`,
        { key_organization: key.root.id, owner_organization: owner.id },
      );
  }
}

/** How each write is named in a refusal. */
export const WRITE_WORDS: Readonly<Record<WriteKind, string>> = {
  test: "test",
  schedule: "schedule",
  pause: "pause",
  reply: "reply",
  "email-upsert": "email list upsert",
};

/** How a refusal names what is written, by the owner's kind. */
export const OWNER_NOUN: Readonly<Record<"project" | "email-list" | "email-campaign", string>> = {
  project: "the project",
  "email-list": "the email list",
  "email-campaign": "the email campaign",
};

/** A refusal of the write port: an error shaped like the API's, with no attempt made. */
function portRefusal(
  identity: RequestIdentity,
  message: string,
  organizations: { readonly key_organization: string; readonly owner_organization: string } | null,
): ApiHttpError {
  return {
    ...identity,
    kind: "http",
    status: 403,
    code: PORT_REFUSAL_CODE,
    message,
    shape: "standard",
    correlationId: null,
    details: organizations,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 0,
  };
}

/** Whether `error` is the write port's refusal (no request was made). */
export function isPortRefusal(error: ApiError): boolean {
  return error.kind === "http" && error.code === PORT_REFUSAL_CODE && error.attempts === 0;
}

/** The owner organization named in a port refusal, when the rule (not a failed lookup) refused it. */
export function refusedOwnerOrganization(error: ApiError): string | null {
  if (!isPortRefusal(error) || error.kind !== "http") return null;
  const details = error.details as { readonly owner_organization?: unknown } | null;
  return details !== null && !Array.isArray(details) && typeof details.owner_organization === "string"
    ? details.owner_organization
    : null;
}

/**
 * The organization an email list belongs to, from what its file names (`organization`, a name or an
 * id) and what the write's key lists: a file that names none describes the key's own organization's
 * list (docs/email.md).
 */
export function namedOrganization(
  written: string | undefined,
  key: Extract<KeyIdentity, { ok: true }>,
): OwnerOrganization {
  if (written === undefined) return { ok: true, id: key.root.id };
  const found = key.orgs.find((o) => o.id === written || o.display_name === written);
  return found === undefined
    ? { ok: false, why: `organization "${written}" is not among the organizations the key sees` }
    : { ok: true, id: found.id };
}
