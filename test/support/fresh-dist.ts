/**
 * Vitest global setup: the tests that run the built CLI (`node dist/cli/main.js`) never run a
 * missing or stale build. Before any test file runs, dist/'s build stamp is compared with the
 * sources, lockfile and Node it was built from (scripts/build-stamp.mjs); when it does not serve,
 * dist/ is built here by the same script as `npm run build`, with `tsc --noCheck` (type errors are
 * `npm run typecheck`'s job, and a tree with one still gets its dist/), and the run fails with the
 * build's output if that does not make dist/ current. `npm test` builds first, so there this finds
 * nothing to do.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { staleReason } from "../../scripts/build-stamp.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export default function setup(): void {
  const reason = staleReason(ROOT, false);
  if (reason === undefined) return;
  console.warn(`dist/ does not match its sources (${reason}): building it before the tests run.`);
  try {
    execFileSync(process.execPath, ["scripts/build.mjs", "--no-check"], {
      cwd: ROOT,
      stdio: "pipe",
      encoding: "utf8",
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `dist/ is stale and building it failed:\n${err.stdout ?? ""}${err.stderr ?? err.message}`,
    );
  }
  const still = staleReason(ROOT, false);
  if (still !== undefined)
    throw new Error(
      `dist/ is still stale after building (${still}): run \`npm run build\` and look at its errors.`,
    );
}
