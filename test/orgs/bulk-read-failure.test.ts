import { afterEach, expect, test } from "vitest";
import { openSession } from "../../cli/gather/session.js";
import { projectOwners } from "../../src/api/routing/owners.js";
import { routeOwners } from "../../src/api/routing/route-owners.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import { apply, bed, closeBeds, io, type LogEntry, orgKeys, plan, type Section, virtual } from "./harness.js";

afterEach(closeBeds);

async function scheduledIds(sb: SandboxHandle): Promise<Set<string>> {
  const effects = (await admin(sb, "GET", "/effects")).body.data.effects as {
    project_id: string;
    kind: string;
    changed: boolean;
  }[];
  return new Set(effects.filter((e) => e.kind === "schedule" && e.changed).map((e) => e.project_id));
}

/** Every request that failed with the fault, by the organization of its key. */
async function faulted(sb: SandboxHandle): Promise<Set<string | null>> {
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as (LogEntry & {
    fault: string | null;
  })[];
  return new Set(log.filter((r) => r.fault !== null).map((r) => r.key_organization_id));
}

for (const route of ["/contact-lists", "/projects/stats"] as const)
  test(`GET ${route} failing for one organization's key: only that organization is unreadable; the others apply`, async () => {
    const b = await bed(3, 2, (w) => `GET ${route}: status(500) org=${w.orgs[1]?.id}`);
    const [adams, baker, clark] = b.world.orgs;
    if (adams === undefined || baker === undefined || clark === undefined) throw new Error("world");

    const planned = await plan(b, orgKeys(b), { json: true });
    expect(planned.code).toBe(1);
    const planDoc = JSON.parse(planned.stdout);
    expect(planDoc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
      "Adams County Democrats:ready",
      "Baker County Democrats:failed",
      "Clark County Democrats:ready",
    ]);
    // Only Baker's projects are unreadable, each with the diagnostic naming the read that failed.
    type PlanProject = { address: string; diagnostics: { code: string; message: string }[] };
    const unreadable = (planDoc.projects as PlanProject[]).filter((p) =>
      p.diagnostics.some((d) => d.code === "plan.project-unreadable"),
    );
    expect(unreadable.map((p) => p.address).sort()).toEqual(baker.projects.map((p) => p.address).sort());
    for (const p of unreadable)
      expect(p.diagnostics.find((d) => d.code === "plan.project-unreadable")?.message).toContain(
        `organization key failed GET ${route}`,
      );
    expect(await faulted(b.sb)).toEqual(new Set([baker.id]));

    const run = await apply(b, orgKeys(b), { json: true });
    expect(run.code).toBe(4);
    const doc = JSON.parse(run.stdout);
    expect(doc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
      "Adams County Democrats:done",
      "Baker County Democrats:failed",
      "Clark County Democrats:done",
    ]);
    const scheduled = await scheduledIds(b.sb);
    expect([...scheduled].sort()).toEqual([...adams.projects, ...clark.projects].map((p) => p.id).sort());
  });

test("every key's bulk read failing fails the refresh as a whole, as with one key", async () => {
  const b = await bed(2, 1, () => "GET /contact-lists: status(500)");
  const run = await plan(b, orgKeys(b), { json: true });
  expect(run.code).toBe(1);
  const doc = JSON.parse(run.stdout);
  expect(doc.plan ?? null).toBeNull();
  expect(run.stdout).toContain("GET /contact-lists");
});

test("every organization's key failing GET /organizations: the plan says what the API answered, never that a key was refused", async () => {
  const b = await bed(2, 1, () => "GET /organizations: status(503)");
  const planned = await plan(b, orgKeys(b), { json: true });
  expect(planned.code).toBe(1);
  const diagnostics = JSON.parse(planned.stdout).diagnostics as {
    severity: string;
    code: string;
    message: string;
  }[];
  const found = diagnostics.filter((d) => d.code.startsWith("api."));
  expect(found.map((d) => `${d.severity}:${d.code}`)).toEqual([
    "warning:api.server-error",
    "warning:api.server-error",
    "error:api.server-error",
  ]);
  for (const org of b.world.orgs)
    expect(found.some((d) => d.message.includes(`the key in ${org.variable} could not be used`))).toBe(true);
  expect(found[2]?.message).toContain("answered 503");
  expect(found[2]?.message).toContain("no key is in use");
  expect(JSON.stringify(diagnostics)).not.toContain("refused");
});

test("an organization's key whose GET /organizations fails five times (a blip) is read once more, as the default key's path would: the plan goes on with it", async () => {
  const b = await bed(1, 1, () => "GET /organizations: status(503) n=5");
  const [adams] = b.world.orgs;
  if (adams === undefined) throw new Error("world");
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout);
  expect((doc.diagnostics as { code: string }[]).filter((d) => d.code.startsWith("api."))).toEqual([]);
  expect(planned.code).toBe(0);
  expect(doc.plan).not.toBeNull();
  const log = (await admin(b.sb, "GET", "/requests")).body.data.requests as LogEntry[];
  const identity = log.filter((r) => r.method === "GET" && r.path === "/organizations");
  // Four attempts of the first read (all 503), then the second read: one 503, then the answer.
  expect(identity.slice(0, 6).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 200]);
  expect(identity.every((r) => r.key_organization_id === adams.id)).toBe(true);
});

test("an organization's key the API refuses (401) is not read again: one GET /organizations, and the warning says to check the key", async () => {
  const b = await bed(2, 1, (w) => `GET /organizations: status(401) org=${w.orgs[0]?.id}`);
  const [adams] = b.world.orgs;
  if (adams === undefined) throw new Error("world");
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout);
  const warning = (doc.diagnostics as { message: string; hint: string }[]).find((d) =>
    d.message.includes(`the key in ${adams.variable} could not be used`),
  );
  expect(warning?.hint).toContain("check the key");
  const log = (await admin(b.sb, "GET", "/requests")).body.data.requests as LogEntry[];
  expect(
    log.filter((r) => r.path === "/organizations" && r.key_organization_id === adams.id && r.status === 401),
  ).toHaveLength(1);
});

test("an organization's key whose GET /organizations fails after routing read it: the listing answers with what routing read, and its organization still reads and pauses (watch lists organizations once)", async () => {
  const b = await bed(2, 1);
  const [adams, baker] = b.world.orgs;
  const project = baker?.projects[0]?.id;
  if (adams === undefined || baker === undefined || project === undefined) throw new Error("world");
  const out = { stdout: "", stderr: "" };
  const opened = await openSession({ baseUrl: b.sb.baseUrl }, io(b, orgKeys(b), out), virtual(b));
  if (!opened.ok) throw new Error("session");
  const { router } = opened.session;
  try {
    const owners = b.world.orgs.flatMap((o) => o.projects.map((p) => ({ ...p, organization: o.name })));
    const routed = await routeOwners(router, projectOwners(owners));
    expect(routed).toMatchObject({ ok: true, diagnostics: [] });
    // From now on Baker's key fails GET /organizations, every attempt.
    await admin(b.sb, "POST", "/faults", { spec: `GET /organizations: status(503) org=${baker.id}` });
    const listed = await router.listOrganizations();
    expect(listed.ok && listed.value.map((o) => o.id).sort()).toEqual([adams.id, baker.id].sort());
    // Baker's organization is not failed: its project is read and paused with its own key.
    expect((await router.getProject(project)).ok).toBe(true);
    // Baker's project is sending (a guard's pause is what a watch would make).
    b.sb.store.mutate((w) => {
      const live = w.projects[project];
      if (live !== undefined) live.status = "active";
    });
    const paused = await router.pauseProject(project, { reason: "guard" }, "k-bulk-read-failure-1");
    expect(paused.ok).toBe(true);
    const log = (await admin(b.sb, "GET", "/requests")).body.data.requests as LogEntry[];
    const failed = log.filter((r) => r.path === "/organizations" && r.status === 503);
    expect(failed.map((r) => r.key_organization_id)).toEqual(Array(4).fill(baker.id));
    const pause = log.filter((r) => r.method === "POST" && r.path === `/projects/${project}/pause`);
    expect(pause.map((r) => [r.key_organization_id, r.status])).toEqual([[baker.id, 200]]);
  } finally {
    await opened.session.close();
  }
});
