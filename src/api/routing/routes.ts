/**
 * The routes of one run, set once the campaign is known (route-owners.ts), and the errors a request
 * answers with when no key may serve it. Invariant: a route never names a key of another
 * organization than its owner's unless routing chose it on purpose (a parent's default key reading
 * for an organization without its own key; its writes then meet the cross-organization rule).
 */
import type { ApiClient } from "../client.js";
import { isRateLimitStall } from "../rate-limit-stall.js";
import type { ApiError } from "../result.js";

/** Where the requests of one owner go: a client, or the error its organization's key met (sent nowhere). */
export type Route = { readonly client: ApiClient } | { readonly error: ApiError };

/** An email list's route and the organization its file names (its owner for the write rule). */
export interface EmailListRoute {
  readonly route: Route;
  /** As written (name or id); undefined: the file names none, so the list is its key's own organization's. */
  readonly organization: string | undefined;
  readonly address: string;
}

export interface Routes {
  /** By project id. */
  readonly projects: ReadonlyMap<string, Route>;
  /** By live email list id. */
  readonly emailLists: ReadonlyMap<string, EmailListRoute>;
  /** The clients the run uses, default first when used: bulk reads go over these. */
  readonly inUse: readonly ApiClient[];
  /** `--allow-cross-organization-key`: the write port lets a key of another organization write. */
  readonly allowCrossOrganizationKey: boolean;
}

/**
 * What an owner's request answers when its organization's key failed a bulk read (`failure`): the
 * same error (status, code, route), said to be its organization's, sent nowhere.
 */
export function organizationFailed(failure: ApiError): ApiError {
  return {
    ...failure,
    message: `this project's organization key failed ${failure.route} (${failure.message}), so its organization is not read and nothing is sent for it; the other organizations go on`,
    attempts: 0,
    outcome: "none",
  };
}

/**
 * Whether `error` is the router's own answer for a request it sent nowhere (`organizationFailed`,
 * `keysFailed`, `noKeyError`): no attempt, nothing happened. A request the client made has an
 * attempt; the client's one unsent error, a refused wait for the rate limit, is not the router's.
 */
export function isSentNowhere(error: ApiError): boolean {
  return error.attempts === 0 && error.outcome === "none" && !isRateLimitStall(error);
}

/**
 * What a request answers when no key is in use because its owners' keys failed (`failure`, the
 * first: a key whose `GET /organizations` could not be read, routing's warning): that failure,
 * sent nowhere, so that a run says what the API answered, never that a key was refused when it was
 * not (a `noKeyError` is a 401 of our own).
 */
export function keysFailed(failure: ApiError, method: "GET" | "POST", route: string, path: string): ApiError {
  return {
    ...failure,
    message: `no key is in use: the organizations' keys failed ${failure.route} (${failure.message}), so nothing is read or sent`,
    attempts: 0,
    outcome: "none",
    method,
    route,
    path,
  };
}

/**
 * What a request answers when no key serves it: no route names its owner and no key is in use (a
 * request made before routing with keys per organization only). Sent nowhere. Routing says which
 * variable to set before this can happen (`api.no-organization-key`).
 */
export function noKeyError(method: "GET" | "POST", route: string, path: string): ApiError {
  return {
    kind: "http",
    status: 401,
    code: "NO_KEY",
    message: `no API key serves ${route}: no key is in use for it (set the variable of its organization's key, CAMPAIGNCTL_API_KEY_<SLUG>, or CAMPAIGNCTL_API_KEY)`,
    shape: "auth",
    correlationId: null,
    details: null,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 0,
    method,
    route,
    path,
  };
}
