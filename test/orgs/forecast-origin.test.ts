/**
 * A forecast finding on a template instance (issue 26 item 1) carries the other place it came from
 * (template-origin.ts): `plan --forecast` over the sandbox on loopback, one template whose local send
 * time runs into quiet hours, its finding at the template's line with the instance related.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { stringify } from "yaml";
import { planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

let open: { world: OrgWorld; sb: SandboxHandle }[] = [];
afterEach(async () => {
  for (const b of open) {
    await b.sb.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  open = [];
});

/** Every diagnostic of a JSON document, wherever it sits. */
function diagnosticsIn(value: unknown): Diagnostic[] {
  if (Array.isArray(value)) return value.flatMap(diagnosticsIn);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  const own =
    typeof record.code === "string" && typeof record.severity === "string" ? [value as Diagnostic] : [];
  return [...own, ...Object.values(record).flatMap(diagnosticsIn)];
}

test("plan --forecast: a quiet-hours finding on an instance has the instance related", async () => {
  const world = buildOrgWorld(1, 1);
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: true });
  open.push({ world, sb });
  const [adams] = world.orgs;
  const project = adams?.projects[0];
  if (adams === undefined || project === undefined) throw new Error("world");
  rmSync(join(world.dir, adams.file));
  const text = stringify({
    version: 1,
    merge_defaults: { first_name: "friend" },
    templates: {
      gotv: {
        message: { en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out" },
        channel: "10dlc",
        brand: adams.name,
        campaign: "GOTV 2026",
        phone_numbers: ["+15035550001"],
        contact_lists: ["Likely Voters"],
        suppression_lists: ["Do Not Text"],
        state: "scheduled",
        timezone: "America/Chicago",
        schedule: { local: "2026-12-07T22:30" },
        instances: {
          [project.address]: { organization: adams.name, id: project.id, language: "en", name: "GOTV 1" },
        },
      },
    },
  });
  writeFileSync(join(world.dir, "campaign", "gotv.yaml"), text);
  const out = { stdout: "", stderr: "" };
  const io: Io = {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", [adams.variable]: adams.key },
    cwd: world.dir,
    clock: () => sb.clock.nowMs(),
  };
  await planCommand(
    ["campaign"],
    { target: [], exclude: [], color: false, baseUrl: sb.baseUrl, refresh: true, json: true, forecast: true },
    io,
    { clock: { now: () => sb.clock.nowMs() }, sleep: (ms: number) => sb.clock.advance(ms) },
  );
  checkCliDocuments(["plan", "--json", "--forecast"], out.stdout, world.dir);
  const found = diagnosticsIn(JSON.parse(out.stdout)).filter((d) => d.code.startsWith("forecast."));
  expect(found.length).toBeGreaterThan(0);
  const lines = text.split("\n");
  const instanceLine = lines.findIndex((l) => l.includes(`${project.address}:`)) + 1;
  for (const d of found)
    expect(
      d.related?.some((r) => r.range.start.line === instanceLine && r.message.startsWith("for instance")),
    ).toBe(true);
});
