/**
 * The headers of a stored delivery, as `webhooks verify --headers FILE` reads them. Two forms: a
 * JSON object of header names to strings (`{"X-Webhook-Signature": "sha256=..."}`), or `Name: value`
 * lines as an HTTP dump shows them (a first request or status line such as `POST /hooks HTTP/1.1`
 * is skipped, blank lines before the headers too; a blank line after them ends them, as in HTTP). Names are matched without regard to case. Pure.
 */

/** Header names in lower case to values; or the 1-based line that is not a header, and why. */
export type HeadersFileResult =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly line: number | null; readonly message: string };

const REQUEST_OR_STATUS_LINE = /^(?:[A-Z]+ \S+ HTTP\/\d(?:\.\d)?|HTTP\/\d(?:\.\d)? \d{3}.*)$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

export function parseHeadersFile(text: string): HeadersFileResult {
  const unmarked = text.replace(/^\uFEFF/, "");
  if (unmarked.trim().startsWith("{")) return fromJson(unmarked);
  const headers: Record<string, string> = Object.create(null);
  let first = true;
  for (const [i, line] of unmarked.split(/\r?\n/).entries()) {
    // As in HTTP, a blank line after the headers ends them (a dump may go on with the body).
    if (line.trim() === "") {
      if (Object.keys(headers).length > 0) break;
      continue;
    }
    const skip = first && REQUEST_OR_STATUS_LINE.test(line);
    first = false;
    if (skip) continue;
    const match = HEADER_LINE.exec(line);
    if (match === null) return { ok: false, line: i + 1, message: "this line is not `Name: value`" };
    const name = (match[1] ?? "").toLowerCase();
    const value = match[2] ?? "";
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { ok: true, headers };
}

function fromJson(text: string): HeadersFileResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      line: null,
      message: `not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, line: null, message: "not a JSON object" };
  const headers: Record<string, string> = Object.create(null);
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== "string")
      return { ok: false, line: null, message: `the value of ${JSON.stringify(name)} is not a string` };
    headers[name.toLowerCase()] = v;
  }
  return { ok: true, headers };
}
