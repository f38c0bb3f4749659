/**
 * A live project's name becomes its address, a key in the written file: a name that YAML's core
 * schema reads as another value (`null`, `~`, `1e3`, `0x1f`, `true`) must still give a key that reads
 * back as the same address. Import never fails a whole organization on one name (issue 16): over
 * HTTP, every such name imports, and the plan of the written files has nothing to do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { liveProject, world } from "../plan-command/fixture-builder.js";
import { withSandbox } from "./helpers.js";

/** Every YAML 1.2 core-schema scalar form (and the YAML 1.1 booleans), as project names. */
const NAMES = [
  "null",
  "Null",
  "NULL",
  "~",
  "true",
  "True",
  "FALSE",
  "yes",
  "no",
  "on",
  "off",
  "1e3",
  "0x1f",
  "0o17",
  "123",
  "-1",
  "+12",
  "1.5",
  ".inf",
  "-.Inf",
  ".nan",
  "2026-12-07",
];

describe("import: names YAML would read as other values", () => {
  test("every project imports, every address reads back, and the plan has nothing to do", async () => {
    await withSandbox(
      (now) =>
        world(
          NAMES.map((name, i) => liveProject(i + 1, now, { name })),
          { now },
        ),
      async (c) => {
        const imported = await c.importing(["--all", "--out", "campaigns", "--json"]);
        expect(imported.stderr).not.toContain("import.verify-failed");
        expect(imported.code).toBe(0);
        const written = JSON.parse(imported.stdout) as { files: { path: string }[] };
        const addresses = written.files.flatMap((f) => {
          const doc = parseDocument(readFileSync(join(c.dir, f.path), "utf8"));
          const projects = doc.get("projects") as { items: { key: { value: unknown } }[] };
          return projects.items.map((p) => p.key.value);
        });
        expect(addresses).toHaveLength(NAMES.length);
        for (const address of addresses) expect(typeof address).toBe("string");
        // Names that share a slug (null, Null, NULL) get suffixes from their ids; the rest stay bare.
        expect(addresses).toEqual(
          expect.arrayContaining(["1e3", "0x1f", "0o17", "123", "2026-12-07", "yes"]),
        );
        expect(addresses.filter((a) => String(a).startsWith("null-"))).toHaveLength(3);
        const plan = await c.planning(["campaigns", "--json", "--detailed-exitcode"]);
        const projects = JSON.parse(plan.stdout).projects as {
          address: string;
          actions: unknown[];
          drift: unknown[];
        }[];
        expect(projects.map((p) => [p.actions, p.drift])).toEqual(projects.map(() => [[], []]));
        expect(plan.code).toBe(0);
      },
    );
  });
});
