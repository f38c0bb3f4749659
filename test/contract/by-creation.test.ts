/**
 * The order of listings that show projects oldest first (`status --all`, `import --all`): by the
 * moment `created_at` names, however the API writes it, not by its text.
 */
import { expect, test } from "vitest";
import { byCreation } from "../../src/contract/instant.js";

test("projects are ordered by the instant of created_at, whatever its offset or fraction, then by id", () => {
  const rows = [
    { id: "c", created_at: "2026-12-01T11:30:00-05:00" }, // 16:30Z
    { id: "b", created_at: "2026-12-01T16:10:00.500Z" },
    { id: "a", created_at: "2026-12-01T16:10:00Z" },
    { id: "z", created_at: "not a time" },
    { id: "d", created_at: "2026-12-01T16:10:00.000Z" },
  ];
  // By text, "…11:30:00-05:00" would come first and ".500Z" before "Z".
  expect([...rows].sort(byCreation).map((r) => r.id)).toEqual(["z", "a", "d", "b", "c"]);
});
