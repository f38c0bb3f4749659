/**
 * The saved plan's hash, which every approval names (issue 37 point 6): the sha256 of the plan
 * document's canonical JSON, the JSON Canonicalization Scheme of RFC 8785 for what a plan holds
 * (object keys sorted by UTF-16 code units, no whitespace, strings and numbers as `JSON.stringify`
 * writes them). So the hash is the plan's, not its file's layout: re-indenting or re-ordering keys
 * does not change it; changing any value does. Pure.
 */
import { createHash } from "node:crypto";

/** `value` (parsed JSON) as canonical JSON text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}

/** The plan hash of a parsed plan document: lower-case hex sha256 of its canonical JSON's UTF-8 bytes. */
export function planSha256(document: unknown): string {
  return createHash("sha256").update(canonicalJson(document), "utf8").digest("hex");
}

/** A plan hash as messages show it: `sha256:` and its first 12 hex digits. */
export function shortHash(sha256: string): string {
  return `sha256:${sha256.slice(0, 12)}`;
}
