/**
 * `campaignctl lsp` driven over stdio as an editor drives it: the built binary is spawned (for the
 * seven-mistake session and the exit status; the other sessions run the server in this process
 * over a pair of streams, lsp-session.ts), and the test speaks to it through
 * vscode-languageserver's own protocol connection (initialize,
 * didOpen, didChange, didClose, shutdown, exit). On issue 27's file with seven mistakes the
 * published diagnostics equal `validate --json`'s for that file (codes, ranges converted to LSP's
 * 0-based UTF-16 positions, severities, hints), with the fixture's policy in force; a change
 * republishes from the unsaved text, not the file on disk. Each wait is for a message, never for
 * time: the server runs with `--debounce 0`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
} from "vscode-languageserver/node";
import { essentials, start, startProcess, stop, tempFolder, validateAsLsp } from "./lsp-session.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/lsp/seven-mistakes.yaml", import.meta.url));
const URI = pathToFileURL(FIXTURE).href;
const A_YAML = `version: 1
organization: Riverside Democrats
projects:
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    name: GOTV Reminder
    channel: 10dlc
    message: "Hi {{first_name|friend}}, vote tomorrow! Reply STOP to opt out"
    state: draft
`;
const B_YAML = `version: 1
organization: Riverside Democrats
projects:
  gotv-followup:
    id: 9a000000-0000-4000-8000-000000000002
    name: GOTV Follow-up
    channel: 10dlc
    message: "Polls close at 7pm tonight! Reply STOP to opt out"
    state: draft
    after: [gotv-reminder]
  gotv-again:
    id: 9a000000-0000-4000-8000-000000000001
    name: GOTV Again
    channel: 10dlc
    message: "Vote today! Reply STOP to opt out"
    state: draft
`;
describe("campaignctl lsp over stdio", () => {
  test("publishes validate's diagnostics for the seven-mistake file, and follows the unsaved text", async () => {
    const text = readFileSync(FIXTURE, "utf8");
    const expected = await validateAsLsp(FIXTURE, text);
    expect(expected.map((d) => d.code)).toEqual([
      "lint.opt-out-missing",
      "policy.require-opt-out-language",
      "lint.non-gsm-character",
      "lint.non-gsm-character",
      "message.unknown-tag",
      "campaign.test-phone-not-nanp",
      "lint.quiet-hours",
      "policy.send-window",
      "campaign.after-unknown",
    ]);

    const session = await startProcess();
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "yaml", version: 1, text },
    });
    const opened = await session.published(URI, 1);
    expect(essentials(opened.diagnostics)).toEqual(expected);
    for (const d of opened.diagnostics) expect(d.source).toBe("campaignctl");
    const tag = opened.diagnostics.find((d) => d.code === "message.unknown-tag");
    expect(tag?.message).toContain("{{frist_name}}");
    expect(tag?.message).toContain("\nhint: did you mean {{first_name}}?");
    // The emoji at column 15 is a surrogate pair: the tag after it starts at character 23, not 22.
    expect(tag?.range.start).toEqual({ line: 19, character: 23 });
    const window = opened.diagnostics.find((d) => d.code === "policy.send-window");
    expect(window?.message).toContain("outside the policy's send_window 09:00-20:00");

    // Hover on the schedule: the time in the zone and in UTC, in the quiet hours.
    const lines = text.split("\n");
    const atLine = lines.findIndex((l) => l.includes("2026-12-07T22:00:00-06:00"));
    const onSchedule = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: URI },
      position: { line: atLine, character: (lines[atLine] ?? "").indexOf("2026") + 2 },
    });
    const scheduleText = JSON.stringify(onSchedule?.contents);
    expect(scheduleText).toContain("22:00 in America/Chicago (UTC-06:00)");
    expect(scheduleText).toContain("2026-12-08 04:00 UTC");
    expect(scheduleText).toContain("In the quiet hours");
    // Hover on the message: each rendering, its encoding and segments.
    const messageLine = lines.findIndex((l) => l.includes("frist_name"));
    const onMessage = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: URI },
      position: { line: messageLine, character: 30 },
    });
    const messageText = JSON.stringify(onMessage?.contents);
    expect(messageText).toContain("a contact with no values: UCS-2");
    expect(messageText).toContain("a contact with a value for frist_name: UCS-2");
    expect(messageText).toContain("[frist_name]");
    expect(messageText).toContain("no offline snapshot");
    // Completion of a merge tag offers the file's merge_defaults and the standard fields.
    const tagCharacter = (lines[messageLine] ?? "").indexOf("{{") + 2;
    const tags = await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: URI },
      position: { line: messageLine, character: tagCharacter },
    });
    const tagLabels = (Array.isArray(tags) ? tags : (tags?.items ?? [])).map((i) => i.label);
    expect(tagLabels).toEqual(expect.arrayContaining(["first_name", "last_name", "zip"]));
    // The code action on the tag's typo.
    const tagRange = opened.diagnostics.find((d) => d.code === "message.unknown-tag")?.range;
    const actions = await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range: tagRange ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: opened.diagnostics.filter((d) => d.code === "message.unknown-tag") },
    });
    expect((actions ?? []).map((a) => a.title)).toEqual(["Change to {{first_name}}"]);

    // An unsaved edit: the `after:` typo fixed in the buffer only (the file on disk keeps it).
    const line = text.split("\n").findIndex((l) => l.includes("gotv-remnder"));
    const character = (text.split("\n")[line] ?? "").indexOf("gotv-remnder");
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        {
          range: { start: { line, character }, end: { line, character: character + "gotv-remnder".length } },
          text: "gotv-reminder",
        },
      ],
    });
    const changed = await session.published(URI, 2);
    expect(essentials(changed.diagnostics)).toEqual(
      expected.filter((d) => d.code !== "campaign.after-unknown"),
    );
    expect(readFileSync(FIXTURE, "utf8")).toBe(text);

    // A whole-text change that breaks the YAML is reported as validate reports it.
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ text: "version: 1\nprojects: [\n" }],
    });
    const broken = await session.published(URI, 3);
    expect(broken.diagnostics.map((d) => d.code)).toEqual(["campaign.unclosed-bracket"]);

    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: URI },
    });
    const closed = await session.published(URI);
    expect(closed.diagnostics).toEqual([]);

    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("in a workspace folder, findings across files follow the other files' unsaved buffers", async () => {
    const folder = tempFolder();
    const a = join(folder, "a.yaml");
    const b = join(folder, "b.yaml");
    writeFileSync(a, A_YAML);
    writeFileSync(b, B_YAML);
    const [aUri, bUri] = [pathToFileURL(a).href, pathToFileURL(b).href];
    // Across the folder: gotv-reminder is declared in a.yaml (no after-unknown), its id is repeated.
    const expected = await validateAsLsp(b, B_YAML, folder);
    expect(expected.map((d) => d.code)).toEqual(["campaign.duplicate-id"]);

    const session = await start(folder);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: bUri, languageId: "yaml", version: 1, text: B_YAML },
    });
    const opened = await session.published(bUri, 1);
    expect(essentials(opened.diagnostics)).toEqual(expected);
    expect(opened.diagnostics[0]?.relatedInformation?.[0]?.location.uri).toBe(aUri);

    // Completion of `after:` offers the addresses of both files, the project's own left out.
    const afterLine = B_YAML.split("\n").findIndex((l) => l.includes("after: [gotv-"));
    const character = (B_YAML.split("\n")[afterLine] ?? "").indexOf("[gotv-") + "[gotv-".length;
    const offered = await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: bUri },
      position: { line: afterLine, character },
    });
    const labels = (Array.isArray(offered) ? offered : (offered?.items ?? [])).map((i) => i.label);
    expect(labels).toEqual(["gotv-again", "gotv-reminder"]);

    // a.yaml renames the project in its buffer only: b.yaml's `after:` no longer resolves.
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: aUri, languageId: "yaml", version: 1, text: A_YAML },
    });
    await session.published(aUri, 1);
    const renamed = A_YAML.replace("gotv-reminder:", "gotv-reminded:");
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: aUri, version: 2 },
      contentChanges: [{ text: renamed }],
    });
    await session.published(aUri, 2);
    const afterRename = session.drain(bUri).at(-1);
    // The same as validate over a folder where a.yaml says so on disk.
    const edited = tempFolder();
    writeFileSync(join(edited, "a.yaml"), renamed);
    writeFileSync(join(edited, "b.yaml"), B_YAML);
    const expectedAfter = await validateAsLsp(join(edited, "b.yaml"), B_YAML, edited);
    expect(expectedAfter.map((d) => d.code)).toEqual(["campaign.after-unknown", "campaign.duplicate-id"]);
    expect(essentials(afterRename?.diagnostics ?? [])).toEqual(expectedAfter);
    expect(readFileSync(a, "utf8")).toBe(A_YAML);
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("every campaign file of examples/ and the gallery fixtures gets validate's diagnostics", async () => {
    const corpus = [
      "../../examples/.reference/annotated.yaml",
      "../../examples/early-vote.yaml",
      "../../examples/gotv.yaml",
      "../../examples/volunteers.yaml",
      "../gallery/fixtures/early-vote.yaml",
      "../gallery/fixtures/gotv.yaml",
      "../gallery/fixtures/volunteers.yaml",
    ].map((f) => fileURLToPath(new URL(f, import.meta.url)));
    const session = await start();
    let version = 0;
    for (const path of corpus) {
      const text = readFileSync(path, "utf8");
      const uri = pathToFileURL(path).href;
      version += 1;
      await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "yaml", version, text },
      });
      const published = await session.published(uri, version);
      expect(essentials(published.diagnostics), path).toEqual(await validateAsLsp(path, text));
      await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
        textDocument: { uri },
      });
    }
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("an exit without shutdown ends the server with status 1", async () => {
    const session = await startProcess();
    await session.connection.sendNotification(ExitNotification.type);
    expect(await session.exited).toBe(1);
  });

  test("a policy file or a YAML file of another schema gets no diagnostics", async () => {
    const session = await start();
    const policy = fileURLToPath(new URL("../fixtures/lsp/campaignctl.policy.yaml", import.meta.url));
    const policyUri = pathToFileURL(policy).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: policyUri, languageId: "yaml", version: 1, text: readFileSync(policy, "utf8") },
    });
    expect((await session.published(policyUri, 1)).diagnostics).toEqual([]);
    const otherUri = pathToFileURL(
      fileURLToPath(new URL("../fixtures/lsp/other.yaml", import.meta.url)),
    ).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: otherUri,
        languageId: "yaml",
        version: 1,
        text: "# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json\non: push\n",
      },
    });
    expect((await session.published(otherUri, 1)).diagnostics).toEqual([]);
    expect(await stop(session)).toBe(0);
  });
});
