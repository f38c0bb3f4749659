/**
 * A strict RFC 4180 reader for the tests (no dependency has one): CRLF records, fields quoted with
 * `"` where they hold a comma, a quote, CR or LF, quotes doubled inside. Throws on anything else, so
 * a test that parses our CSV back also checks that it is well formed.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let i = 0;
  const endField = (): void => {
    record.push(field);
    field = "";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === "") {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      if (i < text.length && text[i] !== "," && text.slice(i, i + 2) !== "\r\n")
        throw new Error(`text after a closing quote at ${i}`);
      continue;
    }
    if (c === ",") {
      endField();
      i++;
      continue;
    }
    if (c === "\r" && text[i + 1] === "\n") {
      endField();
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    if (c === '"' || c === "\r" || c === "\n") throw new Error(`unquoted ${JSON.stringify(c)} at ${i}`);
    field += c;
    i++;
  }
  if (field !== "" || record.length > 0) throw new Error("the last record does not end in CRLF");
  return records;
}
