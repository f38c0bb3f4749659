#!/usr/bin/env node
/**
 * Runs first in `prepare` (before `npm run build`), with nothing but Node.js: when the build's
 * dependencies are missing, says why and what to install instead, rather than letting the build
 * fail with "Cannot find package 'ajv'".
 *
 * They are missing in one common case: `npm install --global <git URL of a source commit>`. npm
 * prepares a git dependency by running `npm install` in a temporary clone, but passes `--global`
 * on to it (npm/cli#6984, npm/cli#8440; npm 10 and 11), so nothing is installed in the clone. A
 * release tag made by scripts/git-release.sh needs no preparation (docs/ci.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const needed = ["ajv", "ajv-formats", "typescript", "esbuild"];
const missing = needed.filter((name) => !existsSync(join(root, "node_modules", name, "package.json")));

if (missing.length > 0) {
  const global = process.env.npm_config_global === "true" || process.env.npm_config_location === "global";
  console.error(
    [
      `${pkg.name}: cannot build: ${missing.join(", ")} not installed in ${root}.`,
      global
        ? "npm installs no dependency when it prepares a git URL for a global install (npm/cli#6984)."
        : "Run `npm ci` here first.",
      "To install campaignctl from git, install a release tag, which needs no build:",
      `  npm install --global github:your-org/campaignctl#v${pkg.version}   (made by scripts/git-release.sh)`,
      "or the `npm pack` tarball, or the npm registry's campaignctl. See docs/ci.md.",
    ].join("\n"),
  );
  process.exitCode = 1;
}
