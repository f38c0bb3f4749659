/**
 * Turns off V8's allocation-site pretenuring for the rest of the process (issue 36: validate at
 * scale). `validate` keeps each file's YAML document while that file is checked and drops it after:
 * the nodes made at the YAML library's object and array literals live through one scavenge or two
 * and then die. V8 samples such a site's survivors (85 % or more) and from then on allocates every
 * object of that site in the old generation: each later file's document goes there directly, and
 * while it is dead there its young objects stay alive through the remembered set and are promoted
 * too. Measured over 10,000 projects in 100 files (bench/README.md, i39-validate): 97 to 112 MB
 * promoted and 3 mark-compacts in most runs with it, 30 to 34 MB and 1 or 2 without; peak RSS 160
 * against 160 to 210 MiB. Nothing else changes: a flag of the collector's heuristics, read at each
 * collection, so it holds from the call on. Idempotent; process-wide (worker threads included).
 */
import { setFlagsFromString } from "node:v8";

let done = false;

/** Collects validate's per-file documents young (see above). */
export function noPretenuring(): void {
  if (done) return;
  done = true;
  setFlagsFromString("--no-allocation-site-pretenuring");
}
