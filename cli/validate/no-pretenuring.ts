/**
 * Turns off V8's allocation-site pretenuring for the rest of the process (issue 36: validate at
 * scale). Called by the bin for `validate` (cli/lifecycle/run.ts `runProcess`), before any command
 * code runs; never by the command itself, so an in-process run (the tests' `run`) leaves its VM as
 * it is. A `validate` of several files keeps each file's YAML document while that file is checked
 * and drops it after: the nodes made at the YAML library's object and array literals live through
 * a scavenge or two and then die. V8 samples such a site's survivors (85 % or more survive) and from
 * then on allocates every object of the site in the old generation: each later file's document goes
 * there directly, and while it lies dead there the young objects it points to stay alive through
 * the remembered set and are promoted too. Over 10,000 projects in 100 files (bench/README.md,
 * i39-validate): 97 to 112 MB promoted and 3 mark-compacts in most runs with it, 31 to 34 MB and 1
 * or 2 without; peak RSS 157 to 169 MiB against 187 to 207. One 10 MiB file: no change beyond the
 * noise (its document lives to the end either way).
 *
 * What this relies on: V8 reads `--allocation-site-pretenuring` where it counts allocation mementos
 * and digests them at each collection (`PretenuringHandler::ProcessPretenuringFeedback`,
 * `UpdateAllocationSite`: both return at once when the flag is off), so setting it from JavaScript
 * (`v8.setFlagsFromString`, which Node documents as unsupported after start-up for flags in
 * general) takes effect at the next collection; a site tenured before the call would stay so,
 * hence the call before the command loads. Only a heuristic of the collector changes, never a
 * result (bench/validate-scale-same.mjs: the same bytes as without). Idempotent; process-wide.
 * `node:v8` is loaded at the call only (`process.getBuiltinModule`): importing it loads Node's
 * streams and heap utilities, about 2 ms that no other command should pay at start-up.
 */

let done = false;

/** Collects validate's per-file documents young (see above). */
export function noPretenuring(): void {
  if (done) return;
  done = true;
  process.getBuiltinModule("node:v8").setFlagsFromString("--no-allocation-site-pretenuring");
}
