/**
 * Hover and completion on every part of a file that can be read (issue 35 point 3), through the
 * real server over stdio. Issue 27's file with its one phone in `defaults` written without quotes
 * (a schema error): validate still judges every project, and hover still explains each project's
 * message, schedule and lists, and completion still offers the file's `merge_defaults`. A file whose
 * unrelated part cannot be built (an alias that expands too far) still completes its `fields`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  type CompletionItem,
  CompletionRequest,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from "vscode-languageserver/node";
import { essentials, type Session, start, stop, tempFolder, validateAsLsp } from "./lsp-session.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/lsp/seven-mistakes.yaml", import.meta.url));

async function hoverText(session: Session, uri: string, line: number, character: number): Promise<string> {
  const h = await session.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line, character },
  });
  return h !== null && typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "";
}

async function labelsAt(session: Session, uri: string, line: number, character: number): Promise<string[]> {
  const offered = await session.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position: { line, character },
  });
  const items: CompletionItem[] = Array.isArray(offered) ? offered : (offered?.items ?? []);
  return items.map((i) => i.label);
}

/** The (line, character) just inside the `nth` (0-based) occurrence of `needle`, `skip` characters in. */
function place(text: string, needle: string, skip = 1, nth = 0): [number, number] {
  const lines = text.split("\n");
  const found = lines.flatMap((l, i) => (l.includes(needle) ? [i] : []));
  const line = found[nth];
  if (line === undefined) throw new Error(`no ${needle} #${nth}`);
  return [line, (lines[line] ?? "").indexOf(needle) + skip];
}

describe("hover and completion on a file with a schema error", () => {
  test("one unquoted phone in defaults leaves every project's message, schedule and lists explained", async () => {
    const text = readFileSync(FIXTURE, "utf8").replace('    - "+15035550101"', "    - +15035550101");
    const folder = tempFolder();
    const path = join(folder, "campaign.yaml");
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const expected = await validateAsLsp(path, text);
    // validate still judges the projects: the phone's error and the other findings it can trust.
    expect(expected.map((d) => d.code)).toContain("campaign.yaml-unquoted-phone");
    expect(expected.map((d) => d.code)).toContain("message.unknown-tag");

    const session = await start(folder);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
    expect(essentials((await session.published(uri, 1)).diagnostics)).toEqual(expected);

    const first = await hoverText(session, uri, ...place(text, "🗳️ Hi", 3));
    expect(first).toContain("**gotv-reminder**: what a contact receives");
    expect(first).toContain("a contact with a value for frist_name: UCS-2");
    const second = await hoverText(session, uri, ...place(text, "Polls close", 3));
    expect(second).toContain("**gotv-followup**: what a contact receives");
    expect(second).toContain("a contact with no values: GSM-7");
    const schedule = await hoverText(session, uri, ...place(text, "2026-12-08T15:00", 3));
    expect(schedule).toContain("**gotv-followup** sends at:");
    expect(schedule).toContain("2026-12-08 21:00 UTC");
    // The list in `defaults` explains itself for the first project that takes it (no snapshot here).
    expect(await hoverText(session, uri, ...place(text, "Ward 3 Likely Voters", 3))).toContain(
      "`Ward 3 Likely Voters`: no offline snapshot",
    );
    expect(await hoverText(session, uri, ...place(text, "brand: Riverside", "brand: ".length + 2))).toContain(
      "`Riverside Democrats`: no offline snapshot",
    );
    // The broken phone itself explains nothing: it cannot be read.
    expect(await hoverText(session, uri, ...place(text, "+15035550101", 3))).toBe("");
    // Completion of a merge tag still offers the file's merge_defaults and the standard fields.
    const tags = await labelsAt(session, uri, ...place(text, "{{frist_name", 2));
    expect(tags).toEqual(expect.arrayContaining(["first_name", "last_name", "zip"]));
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("a part that cannot be built (an alias expanding too far) leaves fields and merge_defaults offered", async () => {
    const levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 5; i++)
      levels.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(", ")}]`,
      );
    const text = [
      "version: 1",
      "organization: Test Democrats",
      "fields: [polling_place]",
      "merge_defaults:",
      "  first_name: friend",
      "projects:",
      "  reminder:",
      "    id: p1",
      '    message: "Hi {{}}, vote tomorrow"',
      "bomb:",
      ...levels.map((l) => `  ${l}`),
      "",
    ].join("\n");
    const folder = tempFolder();
    const path = join(folder, "typing.yaml");
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const session = await start(folder);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
    const tags = await labelsAt(session, uri, ...place(text, '"Hi {{', '"Hi {{'.length));
    expect(tags).toEqual(expect.arrayContaining(["polling_place", "first_name", "zip"]));
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });
});
