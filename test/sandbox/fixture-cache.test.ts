/**
 * Fixture files are parsed once per process (src/sandbox/fixture/parse-cache.ts, issue 35 point 9):
 * each start gets its own copy of the kept load, so no sandbox (or test) can change another's
 * fixture, and a changed file is parsed again even when its modification time says otherwise.
 */
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { loadFixtureFile, parseFixtureText } from "../../src/sandbox/fixture/load.js";
import { FixtureCache } from "../../src/sandbox/fixture/parse-cache.js";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE, GOTV_REMINDER } from "./helpers.js";

const example = readFileSync(EXAMPLE_FIXTURE, "utf8");

let open: SandboxHandle[] = [];
afterEach(async () => {
  for (const sb of open) await sb.close();
  open = [];
});

const fixtureOf = (load: ReturnType<typeof loadFixtureFile>): Fixture => {
  if (!load.ok) throw new Error(`not loaded: ${load.problems.map((p) => p.message).join("; ")}`);
  return load.fixture;
};

describe("FixtureCache", () => {
  test("one parse per text; each load a copy of its own, naming the file it was read from", () => {
    const cache = new FixtureCache(parseFixtureText);
    const first = fixtureOf(cache.load(example, "a.yaml"));
    const second = cache.load(example, "b.yaml");
    expect(cache.parses).toBe(1);
    expect(second.ok && second.file).toBe("b.yaml");
    expect(fixtureOf(second)).toEqual(first);
    expect(fixtureOf(second)).not.toBe(first);
    // A change to one copy reaches neither the cache nor the next load.
    first.organizations[0] = { ...first.organizations[0], name: "Changed" } as Fixture["organizations"][0];
    fixtureOf(second).projects?.splice(0);
    const third = fixtureOf(cache.load(example, "a.yaml"));
    expect(third.organizations[0]?.name).not.toBe("Changed");
    expect(third.projects?.length).toBeGreaterThan(0);
    expect(cache.parses).toBe(1);
  });

  test("another text is parsed; a failing text's problems name the file each time", () => {
    const cache = new FixtureCache(parseFixtureText);
    const broken = example.replace("version: 1", "version: [1");
    const a = cache.load(broken, "a.yaml");
    const b = cache.load(broken, "b.yaml");
    expect(cache.parses).toBe(1);
    expect(a.ok || a.problems.map((p) => p.file)).toEqual(["a.yaml"]);
    expect(b.ok || b.problems.map((p) => p.file)).toEqual(["b.yaml"]);
    expect(cache.load(example, "a.yaml").ok).toBe(true);
    expect(cache.parses).toBe(2);
  });

  test("keeps at most its limit, dropping the least recently used", () => {
    const cache = new FixtureCache(parseFixtureText, 2);
    const texts = ["one", "two", "three"].map((n) => example.replace("version: 1", `# ${n}\nversion: 1`));
    const [one = "", two = "", three = ""] = texts;
    cache.load(one, "f.yaml");
    cache.load(two, "f.yaml");
    cache.load(one, "f.yaml"); // one is now the most recent: two goes when three comes
    cache.load(three, "f.yaml");
    expect(cache.parses).toBe(3);
    cache.load(one, "f.yaml");
    expect(cache.parses).toBe(3);
    cache.load(two, "f.yaml");
    expect(cache.parses).toBe(4);
  });
});

describe("loadFixtureFile", () => {
  test("a file changed under the same modification time and size is read again", () => {
    const file = join(mkdtempSync(join(tmpdir(), "cc-fixture-cache-")), "world.yaml");
    writeFileSync(file, example);
    const { atime, mtime } = statSync(file);
    expect(fixtureOf(loadFixtureFile(file)).organizations[0]?.name).toBe("Riverside Democrats");
    // Same length, same mtime: only the text tells.
    writeFileSync(file, example.replace("name: Riverside Democrats", "name: Riverside Democratz"));
    utimesSync(file, atime, mtime);
    expect(statSync(file).size).toBe(Buffer.byteLength(example));
    expect(fixtureOf(loadFixtureFile(file)).organizations[0]?.name).toBe("Riverside Democratz");
  });

  test("two sandboxes started from one cached file share no state", async () => {
    const a = await startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false });
    open.push(a);
    const before = a.store.world.projects[GOTV_REMINDER]?.status;
    expect((await admin(a, "PATCH", `/projects/${GOTV_REMINDER}`, { status: "paused" })).status).toBe(200);
    expect(a.store.world.projects[GOTV_REMINDER]?.status).toBe("paused");
    const b = await startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false });
    open.push(b);
    expect(before).not.toBe("paused");
    expect(b.store.world.projects[GOTV_REMINDER]?.status).toBe(before);
    // And the other way: b's change is not a's.
    expect((await admin(b, "PATCH", `/projects/${GOTV_REMINDER}`, { status: "completed" })).status).toBe(200);
    expect(a.store.world.projects[GOTV_REMINDER]?.status).toBe("paused");
    expect(a.bugs).toEqual([]);
    expect(b.bugs).toEqual([]);
  });
});
