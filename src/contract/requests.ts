/**
 * Request bodies of the contract (v1.4.0) that `resources.ts` does not define. Shared by the client
 * and the sandbox; field names are the wire names.
 */

/** One row of POST /email/lists/{id}/contacts. Additional properties are allowed by the contract. */
export interface EmailContactInput {
  /** At most 320 characters. */
  email: string;
  /** Free-form merge fields. */
  fields?: Record<string, unknown>;
  /** At most 255 characters. */
  consent_source?: string;
  /** ISO 8601 date-time. */
  consent_at?: string;
  [extra: string]: unknown;
}

/** POST /email/lists/{id}/contacts body: 1 to 1000 contacts. */
export interface UpsertContactsRequest {
  contacts: EmailContactInput[];
}

/** POST /conversations/{id}/messages body: `text` only (unknown properties are a 400). */
export interface ReplyRequest {
  text: string;
}
