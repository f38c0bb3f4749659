/**
 * The request path as the sandbox routes it. The raw path (before any URL normalisation) is split
 * into segments and each is percent-decoded once; a dot segment (`.`, `..`, also written `%2e`), an
 * empty segment (`//`), or a segment that decodes to a slash, a backslash or a NUL is refused, so
 * `/v1/../_sandbox/clock` cannot reach the control routes and `/v1/projects/%2e%2e/organizations`
 * cannot reach `/v1/organizations`.
 */

export type RequestPath =
  | { readonly ok: true; readonly path: string; readonly query: URLSearchParams }
  | { readonly ok: false; readonly reason: string };

/** What may make a raw path refused: a percent sign, a backslash, a NUL, `//`, or a `.`/`..` segment. */
const SUSPECT = /[%\\\0]|\/\/|\/\.\.?(?:\/|$)/;

export function parseRequestPath(rawUrl: string): RequestPath {
  const q = rawUrl.indexOf("?");
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1));
  if (!rawPath.startsWith("/")) return { ok: false, reason: "the path must start with /" };
  if (rawPath === "/") return { ok: true, path: "/", query };
  // Nothing percent-encoded, no backslash or NUL, no empty or dot segment: every check below passes.
  if (!SUSPECT.test(rawPath)) return { ok: true, path: rawPath, query };
  const segments = rawPath.slice(1).split("/");
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === "" && !last) return { ok: false, reason: "the path has an empty segment (//)" };
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { ok: false, reason: "the path has a malformed percent-encoding" };
    }
    if (decoded === "." || decoded === "..") return { ok: false, reason: "the path has a dot segment" };
    if (/[/\\\0]/.test(decoded))
      return { ok: false, reason: "a path segment encodes a slash, a backslash or a NUL" };
  }
  return { ok: true, path: rawPath, query };
}
