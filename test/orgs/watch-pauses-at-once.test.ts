/**
 * `watch` with keys per organization: the pauses of one poll are tried at once, so one
 * organization's pause waiting out its key's 429s (`Retry-After: 30`, five attempts: two minutes)
 * never holds back another organization's, whose key answers. Over real HTTP against the sandbox on
 * loopback, virtual clock, every JSON line checked against its schema.
 */
import { rmSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { watchCommand } from "../../cli/commands/watch.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { io, orgKeys, virtual } from "./harness.js";
import { buildOrgWorld, type OrgWorld, writeCampaignFile } from "./world.js";

let sb: SandboxHandle | undefined;
let world: OrgWorld | undefined;
afterEach(async () => {
  await sb?.close();
  if (world !== undefined) rmSync(world.dir, { recursive: true, force: true });
  sb = undefined;
  world = undefined;
});

const START_MS = Date.parse("2026-12-01T15:00:00Z");

test("one organization's pause refused 429 for minutes does not hold back another's", async () => {
  const w = buildOrgWorld(2, 2);
  world = w;
  // The first project of each organization sends from 10 s after the start, failing every message.
  const projects = (w.fixture as unknown as { projects: FixtureProject[] }).projects;
  const senders = w.orgs.map((o) => o.projects[0]?.id as string);
  for (const p of projects)
    if (senders.includes(p.project_id)) {
      p.status = "scheduled";
      p.scheduled_at = new Date(START_MS + 10_000).toISOString();
      p.scheduled_timezone = "America/Chicago";
    }
  for (const o of w.orgs)
    writeCampaignFile(w.dir, o, (doc) => {
      (doc.defaults as Record<string, unknown>).guard = { max_failure_rate: 0.2, min_sample: 1 };
    });
  const [first, second] = w.orgs;
  const [slow, quick] = senders as [string, string];
  if (first === undefined || second === undefined) throw new Error("world");
  const s = await startSandbox({
    fixture: w.fixture,
    rateLimits: true,
    timeScale: 0,
    faults: `POST /projects/{id}/pause: status(429, retry-after=30) org=${first.id}`,
  });
  sb = s;
  await admin(s, "PATCH", "/simulation", {
    messages_per_batch: 1,
    batch_interval_ms: 600_000,
    failure_rate: 0,
    reply_rate: 0,
    project_failure_rates: { [slow]: 1, [quick]: 1 },
  });
  await admin(s, "POST", "/clock/advance", { ms: 20_000 });
  const tripAt = new Date(s.clock.nowMs()).toISOString();
  const out = { stdout: "", stderr: "" };
  const bed = { world: w, sb: s };
  const v = virtual(bed);
  const outcome = await watchCommand(
    ["campaign"],
    { baseUrl: s.baseUrl, once: true, json: true, color: false },
    io(bed, orgKeys(bed), out),
    { session: v, sleep: v.sleep, onInterrupt: () => () => {} },
  );
  checkCliDocuments(["watch", "--json"], out.stdout, w.dir);
  const log: { method: string; path: string; at: string; status: number }[] = (
    await admin(s, "GET", "/requests")
  ).body.data.requests;
  const pauses = log.filter((r) => r.method === "POST" && r.path.endsWith("/pause"));
  // The second organization's pause went at the trip, not after the first's two minutes of 429s.
  const landed = pauses.filter((r) => r.path.includes(quick));
  expect(landed.map((r) => [r.at, r.status])).toEqual([[tripAt, 200]]);
  expect(pauses.filter((r) => r.path.includes(slow)).map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
  expect(s.store.world.projects[quick]?.status).toBe("paused");
  // The first's pause is still pending as --once ends: exit 1, both trips reported.
  const events = out.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(events.at(-1)).toMatchObject({ type: "stop", tripped: 2, paused: 1, pending: 1 });
  expect(exitCodeOf(outcome)).toBe(1);
});
