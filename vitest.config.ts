import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The tests that run `node dist/cli/main.js` never see a missing or stale build; the package is
    // packed once a pass (test/ci/packed.ts), again at each watch-mode rerun (test/ci/pack-run.ts).
    globalSetup: [
      "test/support/child-env.ts",
      "test/support/fresh-dist.ts",
      "test/support/temp-root.ts",
      "test/ci/pack-run.ts",
    ],
    // Each file's temporary directories in one directory of the pass's own, removed after the file.
    setupFiles: ["test/support/temp-per-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Measured for issue 35 (bench/README.md, "in-process tests and fixed costs"), 100 small files,
    // interleaved, load 20: forks 10.7 and 9.3 s of CPU, threads 9.9 and 9.2 s, `--reporter=dot`
    // 10.9 and 10.3 s: no difference above the noise, so neither is changed.
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: on 2 cores, one file at a time, idle
    // while it waits for the CLI processes and loopback servers it starts. Two files at a time
    // overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The files a worker runs share its process and module cache: src/, yaml, ajv and the compiled
    // schemas load once per worker, not once per file, about half the CPU time of a pass
    // (bench/README.md, "Test suite"). A file that changes process-wide state (the global fetch
    // dispatcher, fake timers) puts it back when it ends.
    isolate: false,
    experimental: {
      // The TypeScript of src/, cli/ and test/ transformed once and kept on disk
      // (node_modules/.experimental-vitest-cache, keyed by each file's content and the config), so a
      // pass after the first transforms only what changed (test/report, plan, lint and message: 15.6 s
      // of CPU cold, 11.7 s warm, on 2 cores at load 17). `npx vitest --clearCache` empties it.
      fsModuleCache: true,
    },
  },
});
