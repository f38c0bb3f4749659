/**
 * A media file or toll-free verification whose read fails (a 5xx after the client's retries) is not
 * a record "the key cannot see": import stops (`import.record-unreadable`, exit 1) and writes
 * nothing, instead of writing the project without its media or verification (which `--check` would
 * call a change and the next plain import would undo). A 404 still leaves the reference out.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MEDIA, TFV } from "../plan-command/fixture-builder.js";
import { admin } from "../sandbox/helpers.js";
import { withSandbox } from "./helpers.js";
import { richWorld } from "./rich-world.js";

const FILE = "campaigns/test-democrats.yaml";

describe("import: an attached record's read fails", () => {
  for (const [route, id] of [
    ["/media/{id}", MEDIA],
    ["/toll-free-verifications/{id}", TFV],
  ] as const)
    test(`GET ${route} answering 500: exit 1, nothing written, --check does not call it a change`, async () => {
      await withSandbox(richWorld, async (c) => {
        expect((await c.importing(["--all", "--out", "campaigns"])).code).toBe(0);
        const before = readFileSync(join(c.dir, FILE), "utf8");
        expect(before).toContain(id === MEDIA ? "    media:\n      - " : "toll_free_verification: ");

        await admin(c.sandbox, "POST", "/faults", { spec: `GET ${route}: status(500)` });
        const again = await c.importing(["--all", "--out", "campaigns", "--json"]);
        const doc = JSON.parse(again.stdout);
        expect(doc.ok).toBe(false);
        expect(doc.diagnostics.map((d: { code: string }) => d.code)).toContain("import.record-unreadable");
        expect(again.code).toBe(1);
        expect(readFileSync(join(c.dir, FILE), "utf8")).toBe(before);

        const checked = await c.importing(["--all", "--out", "campaigns", "--check"]);
        expect(checked.stdout).not.toContain("would update");
        expect(checked.stderr).toContain("import.record-unreadable");
        expect(checked.code).toBe(1);

        // Once the API answers again, the files match.
        await admin(c.sandbox, "DELETE", "/faults");
        const healed = await c.importing(["--all", "--out", "campaigns", "--check"]);
        expect(healed.code).toBe(0);
      });
    });

  test("a 404 is a record the key cannot see: left out with a comment, exit 0", async () => {
    await withSandbox(richWorld, async (c) => {
      await admin(c.sandbox, "POST", "/faults", { spec: "GET /media/{id}: status(404)" });
      const imported = await c.importing(["--all", "--out", "campaigns"]);
      expect(imported.code).toBe(0);
      expect(readFileSync(join(c.dir, FILE), "utf8")).toContain(
        `media: left out, the key cannot see ${MEDIA}`,
      );
    });
  });
});
