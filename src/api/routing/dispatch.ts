/**
 * The router's state and its ways of sending a request by owner (the endpoint table, endpoint-table.ts,
 * says which way each endpoint goes):
 *
 * - **by project**: its route's client; a project no route names is read by the first key in use
 *   that sees it (and then written with that key), else goes with the default key;
 * - **by conversation**: its project's, the project learned from the conversations listed (or placed
 *   by the caller that knows it); a conversation whose project is not known is read by the first key
 *   in use that sees it;
 * - **by email list**: its route's client (the key of the organization its file names);
 * - **every key in use**: bulk reads, merged (bulk.ts).
 *
 * Every write passes the write guard (write-guard.ts) first. Learned on the way: each key's identity
 * (from listings), each project's organization (from project reads and statistics rows), each
 * conversation's project (from conversation listings).
 */

import type { Conversation, Project, ProjectStatsRow } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import type { WriteKind } from "../cross-organization.js";
import type { ApiError, ApiResult, RequestIdentity } from "../result.js";
import { FailureMarks, firstVisible } from "./bulk.js";
import { KeyIdentities } from "./key-identity.js";
import type { KeyRing } from "./key-ring.js";
import type { Owner } from "./owners.js";
import { keysFailed, noKeyError, organizationFailed, type Route, type Routes } from "./routes.js";
import { guardWrite, namedOrganization, OWNER_NOUN, type OwnerOrganization } from "./write-guard.js";

type Call<T> = (client: ApiClient) => Promise<ApiResult<T>>;

export class Dispatch {
  readonly identities = new KeyIdentities();
  readonly marks = new FailureMarks();
  /**
   * The keys whose organization has no email yet (403 EMAIL_EARLY_ACCESS), as the last merged
   * GET /email/campaigns found them: what it lists leaves their organizations' campaigns out.
   */
  readonly withoutEmail = new Set<ApiClient>();
  private routes: Routes | null = null;
  private readonly projectOrganizations = new Map<string, string>();
  private readonly conversationProjects = new Map<string, string>();
  /** Projects no route names, by the client that could read them. */
  private readonly readers = new Map<string, ApiClient>();

  constructor(readonly keys: KeyRing) {}

  setRoutes(routes: Routes): void {
    this.routes = routes;
  }

  /** The clients in use: the routes', else the default client alone (none before routing without one). */
  inUse(): readonly ApiClient[] {
    return this.routes?.inUse ?? (this.keys.defaultKey === null ? [] : [this.keys.defaultKey.client]);
  }

  get defaultClient(): ApiClient | null {
    return this.keys.defaultKey?.client ?? null;
  }

  /**
   * No key serves `identity`'s request: when the routes left no key in use because the owners' keys
   * failed, the first of those failures (routes.ts `keysFailed`); else no key was given for it.
   */
  none(identity: RequestIdentity): ApiError {
    const failed = this.inUse().length === 0 ? this.firstKeyFailure() : undefined;
    return failed === undefined
      ? noKeyError(identity.method, identity.route, identity.path)
      : keysFailed(failed, identity.method, identity.route, identity.path);
  }

  /** The first owner's route that is its key's failure, if any. */
  private firstKeyFailure(): ApiError | undefined {
    for (const route of this.routes?.projects.values() ?? []) if ("error" in route) return route.error;
    for (const list of this.routes?.emailLists.values() ?? [])
      if ("error" in list.route) return list.route.error;
    return undefined;
  }

  /** Sends `call` with `route`'s client, unless its key failed (then its error, sent nowhere). */
  via<T>(route: Route, call: Call<T>): Promise<ApiResult<T>> {
    if ("error" in route) return Promise.resolve({ ok: false, error: route.error });
    const failure = this.marks.of(route.client);
    if (failure !== undefined) return Promise.resolve({ ok: false, error: organizationFailed(failure) });
    return call(route.client);
  }

  /** A project's route: routed, else the key that read it, else the default key; undefined: none. */
  projectRoute(id: string): Route | undefined {
    const routed = this.routes?.projects.get(id);
    if (routed !== undefined) return routed;
    const client = this.readers.get(id) ?? this.defaultClient;
    return client === null ? undefined : { client };
  }

  /** GET /projects/{id}: by its route; a project no route names, by the first key in use that sees it. */
  async readProject(id: string, identity: RequestIdentity, call: Call<Project>): Promise<ApiResult<Project>> {
    const routed = this.routes?.projects.get(id);
    if (routed !== undefined) return this.learnProject(await this.via(routed, call));
    const seen = await firstVisible(this.inUse(), call, this.none(identity));
    if (seen.client !== null && seen.result.ok) this.readers.set(id, seen.client);
    return this.learnProject(seen.result);
  }

  /** A write about project `id` (test, schedule, pause, reply): its route's key, past the guard. */
  async writeProject<T>(
    write: WriteKind,
    id: string,
    subject: string,
    identity: RequestIdentity,
    call: Call<T>,
  ): Promise<ApiResult<T>> {
    const route = this.projectRoute(id);
    if (route === undefined) return { ok: false, error: this.none(identity) };
    return this.via(route, async (client) => {
      const refusal = await guardWrite(
        {
          write,
          client,
          identity,
          subject,
          ownerNoun: write === "reply" ? "the conversation's project" : OWNER_NOUN.project,
          owner: () => this.projectOrganization(id, client),
        },
        this.identities,
        this.routes?.allowCrossOrganizationKey === true,
      );
      return refusal === null ? call(client) : { ok: false, error: refusal };
    });
  }

  /** A read in conversation `id`: its project's key, else the first key in use that sees it. */
  async readConversation<T>(id: string, identity: RequestIdentity, call: Call<T>): Promise<ApiResult<T>> {
    const project = this.conversationProjects.get(id);
    const route = project === undefined ? undefined : this.routes?.projects.get(project);
    if (route !== undefined) return this.via(route, call);
    return (await firstVisible(this.inUse(), call, this.none(identity))).result;
  }

  /** A reply in conversation `id`: a write about its project. */
  writeConversation<T>(id: string, identity: RequestIdentity, call: Call<T>): Promise<ApiResult<T>> {
    const project = this.conversationProjects.get(id);
    // The worker answers only conversations whose project it knows, and tells the router so.
    if (project === undefined)
      throw new Error(`replyToConversation: the project of conversation ${id} is not known to the router`);
    return this.writeProject("reply", project, `conversation ${id} of project ${project}`, identity, call);
  }

  /**
   * An upsert into email list `id`: the key of the organization its file names, past the guard. A
   * list no route names (its file's organization unknown here) is written with no key: sent nowhere.
   */
  writeEmailList<T>(id: string, identity: RequestIdentity, call: Call<T>): Promise<ApiResult<T>> {
    const entry = this.routes?.emailLists.get(id);
    if (entry === undefined) return Promise.resolve({ ok: false, error: this.none(identity) });
    const subject = `email list ${entry.address}`;
    return this.via(entry.route, async (client) => {
      const refusal = await guardWrite(
        {
          write: "email-upsert",
          client,
          identity,
          subject,
          ownerNoun: OWNER_NOUN["email-list"],
          owner: async (key) => namedOrganization(entry.organization, key),
        },
        this.identities,
        this.routes?.allowCrossOrganizationKey === true,
      );
      return refusal === null ? call(client) : { ok: false, error: refusal };
    });
  }

  /** The client an owner's requests go with; null when none (its key failed, or no key serves it). */
  ownerClient(owner: Owner): ApiClient | null {
    const route =
      owner.kind === "project"
        ? this.projectRoute(owner.id)
        : owner.kind === "email-list"
          ? this.routes?.emailLists.get(owner.id)?.route
          : undefined;
    return route !== undefined && "client" in route && this.marks.of(route.client) === undefined
      ? route.client
      : null;
  }

  /** Says which project a conversation belongs to, when the caller knows and no listing has said. */
  placeConversation(conversationId: string, projectId: string): void {
    if (!this.conversationProjects.has(conversationId))
      this.conversationProjects.set(conversationId, projectId);
  }

  learnConversations(result: ApiResult<{ readonly data: readonly Conversation[] }>): void {
    if (result.ok)
      for (const c of result.value.data) this.conversationProjects.set(c.conversation_id, c.project_id);
  }

  learnStatsRows(rows: readonly ProjectStatsRow[]): void {
    for (const row of rows) this.projectOrganizations.set(row.id, row.organization_id);
  }

  private learnProject(result: ApiResult<Project>): ApiResult<Project> {
    if (result.ok) this.projectOrganizations.set(result.value.project_id, result.value.organization_id);
    return result;
  }

  /** The organization of project `id`: as read before, else read now with `client`. */
  private async projectOrganization(id: string, client: ApiClient): Promise<OwnerOrganization> {
    const known = this.projectOrganizations.get(id);
    if (known !== undefined) return { ok: true, id: known };
    const read = this.learnProject(await client.getProject(id));
    return read.ok
      ? { ok: true, id: read.value.organization_id }
      : { ok: false, why: `project ${id} could not be read (${read.error.message})` };
  }
}
