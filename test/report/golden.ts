/**
 * Golden files: `expectGolden(name, actual)` compares `actual` with `test/golden/<name>` byte for
 * byte; with `UPDATE_GOLDEN=1` it (re)writes the file instead. A missing golden fails the test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export function goldenPath(name: string): string {
  return fileURLToPath(new URL(`../golden/${name}`, import.meta.url));
}

export function expectGolden(name: string, actual: string): void {
  const path = goldenPath(name);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(`golden file ${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/report`);
  }
  expect(actual).toBe(readFileSync(path, "utf8"));
}
