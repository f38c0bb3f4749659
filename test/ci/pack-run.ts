/**
 * Vitest global setup: names the pass (`packRun`, a number given to the test files by `inject`) so
 * that test/ci/packed.ts packs the package once per pass, and again in watch mode when the files
 * are run again (the sources may have changed since): an older pass's tarball is reused only for
 * the very same tree, npm and Node (test/ci/pack-cache.ts).
 */
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Which pass of this vitest process this is: 1, then one more at each watch-mode rerun. */
    packRun: number;
  }
}

export default function setup(project: TestProject): void {
  let run = 1;
  project.provide("packRun", run);
  project.onTestsRerun(() => {
    run += 1;
    project.provide("packRun", run);
  });
}
