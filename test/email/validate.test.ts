/**
 * `validate` checks email lists' CSV files offline, with file and line: address syntax, the 320 and
 * 255 limits, date-times, duplicates within the file, missing consent under the policy, a missing
 * column, a column mapping, an unclosed quote, a missing file.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative as relativePath } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { MAX_ROW_BYTES } from "../../cli/email/csv-rows.js";
import { runCli } from "../helpers/run-cli.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function repo(csv: string, list: Record<string, unknown> = {}, policy?: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-email-validate-"));
  dirs.push(dir);
  mkdirSync(join(dir, "campaign", "lists"), { recursive: true });
  writeFileSync(join(dir, "campaign", "lists", "people.csv"), csv);
  writeFileSync(
    join(dir, "campaign", "email.yaml"),
    stringify({ version: 1, email_lists: { people: { id: "el_1", csv: "lists/people.csv", ...list } } }),
  );
  if (policy !== undefined) writeFileSync(join(dir, "policy.yaml"), stringify({ version: 1, rules: policy }));
  return dir;
}

interface Found {
  code: string;
  message?: string;
  range?: { file: string; start: { line: number } };
}

async function validate(dir: string, extra: string[] = []): Promise<{ code: number; found: Found[] }> {
  const run = await runCli(["validate", "--json", ...extra, "campaign"], { cwd: dir });
  return { code: run.code, found: JSON.parse(run.stdout).diagnostics };
}

const at = (found: Found[]) => found.map((d) => `${d.range?.file}:${d.range?.start.line} ${d.code}`);

describe("validate: email list CSV files", () => {
  test("each row problem with the CSV file and line", async () => {
    const long = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(63)}.org`;
    const dir = repo(
      [
        "email,consent_source,consent_at,first_name",
        "ok@example.org,form,2026-03-01T09:30:00Z,Ann",
        "not-an-address,form,2026-03-01T09:30:00Z,Bob",
        `${long},form,2026-03-01T09:30:00Z,Cy`,
        `long@example.org,${"s".repeat(256)},2026-03-01T09:30:00Z,Di`,
        "date@example.org,form,2026-03-01 09:30,Ed",
        "OK@Example.org,form,2026-03-01T09:30:00Z,Fay",
        '"quoted,comma@example.org",form,2026-03-01T09:30:00Z,"multi',
        'line"',
        "ok2@example.org,form,2026-03-01T09:30:00Z,Gus",
        "",
      ].join("\n"),
    );
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual([
      "campaign/lists/people.csv:3 email.invalid-address",
      "campaign/lists/people.csv:4 email.address-too-long",
      "campaign/lists/people.csv:5 email.consent-source-too-long",
      "campaign/lists/people.csv:6 email.invalid-consent-at",
      "campaign/lists/people.csv:7 email.duplicate-row",
      "campaign/lists/people.csv:8 email.invalid-address",
    ]);
  });

  test("the policy's require_email_consent refuses rows without consent; without the policy they pass", async () => {
    const csv = "email,consent_source,consent_at\na@example.org,,\nb@example.org,form,2026-03-01T09:30:00Z\n";
    expect((await validate(repo(csv))).found).toEqual([]);
    const dir = repo(csv, {}, { require_email_consent: true });
    const { code, found } = await validate(dir, ["--policy", "policy.yaml"]);
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:2 policy.require-email-consent"]);
  });

  test("declared columns map other headers; a missing column is named with the header", async () => {
    const csv = "Email Address,Source,Opted In,Zip\na@example.org,form,2026-03-01T09:30:00Z,97201\n";
    const mapped = repo(csv, {
      columns: { email: "Email Address", consent_source: "Source", consent_at: "Opted In" },
    });
    expect((await validate(mapped)).found).toEqual([]);
    const { code, found } = await validate(repo(csv));
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:1 email.csv-column-missing"]);
    // One column read as two standard ones would let the address stand for its own consent.
    const doubled = repo(csv, {
      columns: { email: "Email Address", consent_source: "Email Address", consent_at: "Opted In" },
    });
    expect((await validate(doubled)).found.map((d) => d.code)).toEqual(["email.csv-column-missing"]);
  });

  test("a CRLF file with a quoted line break: each CRLF is one line, in the row and after it", async () => {
    const dir = repo(
      [
        "\uFEFFemail,consent_source,consent_at",
        'a@example.org,"multi',
        'line",2026-03-01T09:30:00',
        '"b@example.org","two',
        "more",
        'breaks",2026-03-01T09:30:00Z',
        "bad,form,2026-03-01T09:30:00Z",
        "",
      ].join("\r\n"),
    );
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual([
      "campaign/lists/people.csv:2 email.invalid-consent-at",
      "campaign/lists/people.csv:7 email.invalid-address",
    ]);
  });

  test("a consent column named under columns: that the header lacks is an error, not consent dropped", async () => {
    const csv = "email,consent_source,consent_at\na@example.org,form,2026-03-01T09:30:00Z\n";
    const { code, found } = await validate(repo(csv, { columns: { consent_source: "Source" } }));
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:1 email.csv-column-missing"]);
    const when = await validate(repo(csv, { columns: { consent_at: "Opted In" } }));
    expect(at(when.found)).toEqual(["campaign/lists/people.csv:1 email.csv-column-missing"]);
  });

  test("a header naming a standard column twice is an error, not the first one read silently", async () => {
    const csv =
      "email,email,consent_source,consent_at\na@example.org,b@example.org,form,2026-03-01T09:30:00Z\n";
    const { code, found } = await validate(repo(csv));
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:1 email.csv-malformed"]);
    const consent = "email,consent_at,consent_source,consent_at\na@example.org,,form,2026-03-01T09:30:00Z\n";
    expect(at((await validate(repo(consent))).found)).toEqual([
      "campaign/lists/people.csv:1 email.csv-malformed",
    ]);
  });

  test("a CSV outside the repository (a ../ path, an absolute one, a symlink) is not read", async () => {
    const outside = mkdtempSync(join(tmpdir(), "campaignctl-email-outside-"));
    dirs.push(outside);
    writeFileSync(join(outside, "secret.csv"), "email\nleak@example.org\nTOKEN=s3cret\n");
    const dir = repo("email\na@example.org\n");
    const relative = relativePath(join(dir, "campaign"), join(outside, "secret.csv"));
    for (const csv of [relative, join(outside, "secret.csv")]) {
      const { code, found } = await validate(repo("email\n", { csv }));
      expect(code).toBe(1);
      expect(found.map((d) => d.code)).toEqual(["email.csv-unreadable"]);
      expect(JSON.stringify(found)).not.toContain("s3cret");
    }
    const viaLink = repo("email\n", { csv: "lists/link.csv" });
    symlinkSync(join(outside, "secret.csv"), join(viaLink, "campaign", "lists", "link.csv"));
    const { code, found } = await validate(viaLink);
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
    // Inside the repository (the directory holding .git), a ../ path is fine.
    const git = repo("email\n", { csv: "../shared/people.csv" });
    mkdirSync(join(git, ".git"));
    mkdirSync(join(git, "shared"));
    writeFileSync(join(git, "shared", "people.csv"), "email\nok@example.org\n");
    expect(await validate(git)).toEqual({ code: 0, found: [] });
  });

  test("consent_at must be an RFC 3339 date-time as the API reads it (seconds, offset with a colon)", async () => {
    const dir = repo(
      [
        "email,consent_source,consent_at",
        "a@example.org,form,2026-03-01T09:30:00Z",
        "b@example.org,form,2026-03-01T09:30:00.250-05:00",
        "c@example.org,form,2026-03-01T09:30Z",
        "d@example.org,form,2026-03-01T09:30:00+0530",
        "e@example.org,form,2026-03-01T09:30:00",
        "",
      ].join("\n"),
    );
    const { found } = await validate(dir);
    expect(at(found)).toEqual([
      "campaign/lists/people.csv:4 email.invalid-consent-at",
      "campaign/lists/people.csv:5 email.invalid-consent-at",
      "campaign/lists/people.csv:6 email.invalid-consent-at",
    ]);
  });

  test("a consent header spelt nearly right is an error, not the consent sent as a merge field", async () => {
    for (const header of ["email,Consent Source,consent_at", "email,consent_source,CONSENT-AT"]) {
      const { code, found } = await validate(repo(`${header}\na@example.org,form,2026-03-01T09:30:00Z\n`));
      expect(code).toBe(1);
      expect(at(found)).toEqual(["campaign/lists/people.csv:1 email.csv-column-missing"]);
    }
  });

  test("a quoted email_lists key (JSON style) is read, not skipped", async () => {
    const dir = repo("email\nbad\n");
    writeFileSync(
      join(dir, "campaign", "email.yaml"),
      '{"version": 1, "email_lists": {"people": {"id": "el_1", "csv": "lists/people.csv"}}}\n',
    );
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:2 email.invalid-address"]);
  });

  test("in a CRLF file a row's range starts at its first byte, after blank lines and quoted breaks", async () => {
    const csv = ["email", "bad1", "", '"bad', '2"', "bad3", ""].join("\r\n");
    const { found } = await validate(repo(csv));
    const offsets = found.map((d) => (d.range?.start as { offset?: number } | undefined)?.offset);
    expect(offsets).toEqual(["bad1", '"bad', "bad3"].map((row) => csv.indexOf(row)));
  });

  test("an unclosed quote is reported at the line where the quoted row starts, not the file's end", async () => {
    const csv = 'email\na@example.org\n"b@example.org\nc@example.org\nd@example.org\n';
    const { code, found } = await validate(repo(csv));
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:3 email.csv-malformed"]);
  });

  test("a row that never ends (a quote never closed before a long tail) is an error at its row, not a memory hog", async () => {
    const tail = "x".repeat(MAX_ROW_BYTES + 10);
    const csv = `email\na@example.org\n"b@example.org,${tail}\nc@example.org\n`;
    const { code, found } = await validate(repo(csv));
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/lists/people.csv:3 email.csv-malformed"]);
    expect(found[0]?.message).toContain("longer than 1,048,576 bytes");
  });

  test("two entries naming one list: the second is an error at its key", async () => {
    const dir = repo("email\na@example.org\n");
    writeFileSync(
      join(dir, "campaign", "more.yaml"),
      stringify({ version: 1, email_lists: { again: { id: "el_1", csv: "lists/people.csv" } } }),
    );
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/more.yaml:3 email.list-repeated"]);
  });

  test("an unclosed quote and a missing file are errors of the file, with where", async () => {
    const broken = await validate(repo('email\n"a@example.org\n'));
    expect(broken.found.map((d) => d.code)).toEqual(["email.csv-malformed"]);
    const dir = repo("email\n");
    rmSync(join(dir, "campaign", "lists", "people.csv"));
    const missing = await validate(dir);
    expect(missing.code).toBe(1);
    expect(at(missing.found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
  });
});
