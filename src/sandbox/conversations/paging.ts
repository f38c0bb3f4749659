/**
 * Cursor pages (design.md: `{data, has_more, next_cursor}`, `limit` 1 to 200, default 50), shared by
 * the conversation list, threads and email campaigns. A cursor is opaque to clients: base64url JSON
 * of the position after the last row returned (keyset paging) and the filters of the first page,
 * plus a checksum, so a truncated or edited cursor is a 400 rather than a wrong page.
 */
import { CURSOR_MAX, CURSOR_PAGE_DEFAULT, CURSOR_PAGE_MAX } from "../../contract/limits.js";
import { type ApiResponse, invalid } from "../http/responses.js";
import { hash32 } from "../ids.js";

/** A page as the contract shows it. Invariant: `next_cursor` is null exactly when `has_more` is false. */
export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** What a cursor carries: which listing (`kind`) and that listing's own position and filters. */
export type CursorPayload = { readonly kind: string } & Readonly<Record<string, unknown>>;

export function encodeCursor(payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${hash32(`cursor|${body}`).toString(36)}`;
}

/** The cursor's payload for `kind`, or a 400 VALIDATION_ERROR on `cursor`. */
export function decodeCursor(raw: string, kind: string): Record<string, unknown> | ApiResponse {
  const bad = invalid(["cursor"], "cursor is not a valid cursor of this listing", "invalid_string");
  if (raw.length > CURSOR_MAX)
    return invalid(["cursor"], `cursor must be at most ${CURSOR_MAX} characters`, "too_big");
  const [body = "", check, ...rest] = raw.split(".");
  if (rest.length > 0 || check !== hash32(`cursor|${body}`).toString(36)) return bad;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null || (parsed as { kind?: unknown }).kind !== kind)
      return bad;
    return parsed as Record<string, unknown>;
  } catch {
    return bad;
  }
}

/** `limit`: an integer 1 to 200, default 50. */
export function limitParam(query: URLSearchParams): number | ApiResponse {
  const raw = query.get("limit");
  if (raw === null || raw === "") return CURSOR_PAGE_DEFAULT;
  if (!/^-?\d+$/.test(raw)) return invalid(["limit"], "limit must be an integer", "invalid_type");
  const n = Number(raw);
  if (n < 1) return invalid(["limit"], "limit must be at least 1", "too_small");
  if (n > CURSOR_PAGE_MAX) return invalid(["limit"], `limit must be at most ${CURSOR_PAGE_MAX}`, "too_big");
  return n;
}

/** `true` / `false` (or absent: `fallback`). */
export function booleanParam(query: URLSearchParams, name: string, fallback: boolean): boolean | ApiResponse {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  return invalid([name], `${name} must be true or false`, "invalid_type");
}

/**
 * One page of `rows` (already sorted and filtered, positioned after the cursor): the first `limit`
 * rows, and a cursor built from the last of them when more follow.
 */
export function pageOf<R, T>(
  rows: readonly R[],
  limit: number,
  view: (row: R) => T,
  cursorAfter: (row: R) => CursorPayload,
): CursorPage<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return {
    data: page.map(view),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(cursorAfter(last)) : null,
  };
}
