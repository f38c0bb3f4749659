/**
 * The offline snapshot (issue 27 item 3): `plan` writes `.campaignctl/snapshot.json` beside the
 * campaign files (valid against schemas/snapshot.schema.json, no key in it), and the language
 * server, started in a network namespace with no network at all (`unshare -rn`), completes the
 * names of the file's organization's lists, numbers, brands and registrations and its merge tags
 * from it. Without a snapshot, completion of a name says once how to make one.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  type CompletionItem,
  CompletionRequest,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from "vscode-languageserver/node";
import { TEST_NOW } from "../helpers/clock.js";
import { schemaErrors } from "../helpers/schemas.js";
import { fileProject, KEY, liveProject } from "../plan-command/fixture-builder.js";
import { planIn, withCase } from "../plan-command/harness.js";
import { type Session, start, startProcess, stop, tempFolder } from "./lsp-session.js";

/** True when this machine lets an unprivileged process make a network namespace. */
const UNSHARE = spawnSync("unshare", ["-rn", "true"]).status === 0;

async function labelsAt(session: Session, uri: string, line: number, character: number): Promise<string[]> {
  const offered = await session.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position: { line, character },
  });
  const items: CompletionItem[] = Array.isArray(offered) ? offered : (offered?.items ?? []);
  return items.map((i) => i.label);
}

const TYPED = `version: 1
organization: Test Democrats
fields: [polling_place]
projects:
  reminder:
    id: p1
    message: "Hi {{
    contact_lists: [
    phone_numbers: [
    brand: 
    campaign: 
`;

describe("the offline snapshot", () => {
  test("plan writes it, and the server completes names from it with the network cut off", async () => {
    // Say loudly when the machine cannot cut the network: the preload of lsp-session.ts still
    // reports any connection, but the namespace is what this test is for.
    expect(UNSHARE, "unshare -rn is not permitted on this machine").toBe(true);
    await withCase(
      { live: [liveProject(1, TEST_NOW)], files: { first: fileProject(1, {}) } },
      async (sandbox, dir) => {
        const r = await planIn(sandbox, dir, []);
        expect(r.stderr).not.toContain("snapshot");
        const file = join(dir, ".campaignctl/snapshot.json");
        const text = readFileSync(file, "utf8");
        expect(text).not.toContain(KEY);
        const snapshot = JSON.parse(text);
        expect(schemaErrors("snapshot", snapshot)).toEqual([]);
        expect(snapshot.written_by).toBe("plan");
        // The API's clock at the read: the sandbox's frozen clock, give or take its reading.
        const after = Date.parse(snapshot.read_at) - TEST_NOW.getTime();
        expect(after).toBeGreaterThanOrEqual(0);
        expect(after).toBeLessThan(60_000);
        const org = snapshot.organizations.find((o: { name: string }) => o.name === "Test Democrats");
        expect(org.contact_lists.map((l: { name: string }) => l.name)).toEqual(
          expect.arrayContaining(["Do Not Text", "Volunteers", "Voters"]),
        );
        // Another organization's lists are its own.
        expect(JSON.stringify(org)).not.toContain("Their List");

        const path = join(dir, "typing.yaml");
        writeFileSync(path, TYPED);
        const uri = pathToFileURL(path).href;
        const session = await startProcess(dir, [], ["unshare", "-rn"]);
        await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: "yaml", version: 1, text: TYPED },
        });
        const lines = TYPED.split("\n");
        const at = (needle: string): [number, number] => {
          const line = lines.findIndex((l) => l.includes(needle));
          return [line, (lines[line] ?? "").length];
        };
        expect(await labelsAt(session, uri, ...at("contact_lists: ["))).toEqual(
          expect.arrayContaining(["Do Not Text", "Volunteers", "Voters"]),
        );
        expect(await labelsAt(session, uri, ...at("contact_lists: ["))).not.toContain("Their List");
        expect(await labelsAt(session, uri, ...at("phone_numbers: ["))).toContain("+15035550101");
        expect(await labelsAt(session, uri, ...at("brand: "))).toContain("Test Brand");
        expect(await labelsAt(session, uri, ...at("campaign: "))).toContain("GOTV");
        const tags = await labelsAt(session, uri, ...at('"Hi {{'));
        expect(tags).toEqual(expect.arrayContaining(["first_name", "zip", "polling_place"]));
        // Hover on a name says what it resolves to; on the message, recipients and cost as last read.
        const campaign = join(dir, "campaign.yaml");
        const campaignText = readFileSync(campaign, "utf8");
        const campaignUri = pathToFileURL(campaign).href;
        await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri: campaignUri, languageId: "yaml", version: 1, text: campaignText },
        });
        const hover = async (needle: string, skip = 1): Promise<string> => {
          const cLines = campaignText.split("\n");
          const line = cLines.findIndex((l) => l.includes(needle));
          const character = (cLines[line] ?? "").indexOf(needle) + skip;
          const h = await session.connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: campaignUri },
            position: { line, character },
          });
          return h !== null && typeof h.contents === "object" && "value" in h.contents
            ? h.contents.value
            : "";
        };
        const voters = org.contact_lists.find((l: { name: string }) => l.name === "Voters");
        expect(await hover("Voters")).toBe(
          `\`Voters\`: contact list ${voters.id} in Test Democrats (offline snapshot).`,
        );
        const project = org.projects[0];
        const messageHover = await hover("message:", "message: ".length + 1);
        expect(messageHover).toContain("a contact with no values: GSM-7");
        expect(messageHover).toContain(`${project.total_recipients} recipient`);
        expect(messageHover).toContain(`$${(project.estimated_cost_cents / 100).toFixed(2)} in all`);
        expect(session.messages).toEqual([]);
        expect(await stop(session)).toBe(0);
        expect(session.stderr()).toBe("");
      },
    );
  });

  test("without a snapshot, completion of a name says once how to make one", async () => {
    const dir = tempFolder();
    const path = join(dir, "typing.yaml");
    writeFileSync(path, TYPED);
    const uri = pathToFileURL(path).href;
    const session = await start(dir);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text: TYPED },
    });
    const line = TYPED.split("\n").findIndex((l) => l.includes("contact_lists: ["));
    const character = "    contact_lists: [".length;
    expect(await labelsAt(session, uri, line, character)).toEqual([]);
    expect(await labelsAt(session, uri, line, character)).toEqual([]);
    // Merge tags still come from the file and the standard fields.
    const tagLine = TYPED.split("\n").findIndex((l) => l.includes('"Hi {{'));
    expect(await labelsAt(session, uri, tagLine, '    message: "Hi {{'.length)).toContain("polling_place");
    expect(await stop(session)).toBe(0);
    expect(session.messages).toHaveLength(1);
    expect(session.messages[0]).toContain("campaignctl plan");
    expect(session.stderr()).toBe("");
  });
});
