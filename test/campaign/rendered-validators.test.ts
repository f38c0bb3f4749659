/**
 * The kept renderings of the generated validators (./rendered-validators.ts) are used only for the
 * very inputs that made them: the schema, a shared schema, the generator, ajv's or ajv-formats'
 * version, the lockfile, the spec or Node changed is a new rendering; one is kept per validator.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { type RenderSpec, renderedOnce, renderKey } from "./rendered-validators.js";

const root = mkdtempSync(join(tmpdir(), "campaignctl-rendered-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

test("renders once per inputs, again after any input changed, and keeps one rendering a validator", () => {
  for (const file of [
    "scripts/gen-validators.mjs",
    "package-lock.json",
    "node_modules/ajv/package.json",
    "node_modules/ajv-formats/package.json",
    "schemas/a.schema.json",
    "schemas/shared.schema.json",
  ])
    write(file, "1");
  const spec: RenderSpec = {
    schema: "schemas/a.schema.json",
    out: "src/a/generated/validate-a.ts",
    shared: ["schemas/shared.schema.json"],
  };
  let renders = 0;
  const render = (s: RenderSpec) => {
    renders += 1;
    return `rendering ${renders} of ${s.schema}`;
  };
  expect(renderedOnce(root, spec, render)).toBe("rendering 1 of schemas/a.schema.json");
  expect(renderedOnce(root, spec, render)).toBe("rendering 1 of schemas/a.schema.json");
  expect(renders).toBe(1);
  for (const file of [
    "schemas/a.schema.json",
    "schemas/shared.schema.json",
    "scripts/gen-validators.mjs",
    "node_modules/ajv/package.json",
    "node_modules/ajv-formats/package.json",
    "package-lock.json",
  ]) {
    const before = renders;
    write(file, "2");
    renderedOnce(root, spec, render);
    expect(renders, file).toBe(before + 1);
  }
  const key = renderKey(root, spec);
  expect(renderKey(root, { ...spec, shared: [] })).not.toBe(key);
  expect(renderKey(root, spec, "0.0.0")).not.toBe(key);
  expect(renderKey(root, spec)).toBe(key);
  expect(readdirSync(join(root, "node_modules/.cache/campaignctl-test-validators"))).toEqual([
    `validate-a.ts-${key}.txt`,
  ]);
});
