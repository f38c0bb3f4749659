/** The headers file of `webhooks verify` (src/webhooks/headers-file.ts): JSON object or `Name: value` lines. */
import { describe, expect, test } from "vitest";
import { parseHeadersFile } from "../../src/webhooks/headers-file.js";

describe("parseHeadersFile", () => {
  test.each([
    ["a JSON object, names in any case", '{"X-Event-ID": "evt_1", "x-timestamp": "1796137200"}'],
    ["Name: value lines", "X-Event-ID: evt_1\nX-Timestamp:1796137200\n"],
    [
      "an HTTP dump with its request line, CRLF, and the body after a blank line",
      'POST /hooks HTTP/1.1\r\nX-Event-ID: evt_1\r\nX-Timestamp: 1796137200\r\n\r\n{"a":1}\r\n',
    ],
    [
      "a curl -i dump with a status line and blank lines before",
      "\n\nHTTP/1.1 200 OK\nx-event-id: evt_1\nx-timestamp: 1796137200",
    ],
  ])("reads %s", (_name, text) => {
    expect(parseHeadersFile(text)).toEqual({
      ok: true,
      headers: { "x-event-id": "evt_1", "x-timestamp": "1796137200" },
    });
  });

  test("joins a repeated header with a comma, as HTTP does", () => {
    const result = parseHeadersFile("X-A: 1\nX-A: 2\n");
    expect(result.ok && result.headers["x-a"]).toBe("1, 2");
  });

  test.each([
    [
      "a line that is not a header",
      "X-Event-ID: evt_1\nthis is not a header\n",
      2,
      "this line is not `Name: value`",
    ],
    ["broken JSON", '{"X-Event-ID": ', null, "not valid JSON"],
    [
      "a JSON value that is not a string",
      '{"X-Timestamp": 1796137200}',
      null,
      'the value of "X-Timestamp" is not a string',
    ],
  ])("refuses %s", (_name, text, line, message) => {
    const result = parseHeadersFile(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.line).toBe(line);
    expect(result.message).toContain(message);
  });
});
