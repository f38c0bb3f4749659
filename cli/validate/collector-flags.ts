/**
 * The settings of V8's collector for a `validate` run (issue 36). The command says how many files
 * it checks once it has read them, before it parses any YAML (`collectorForFiles`), and only a run
 * with the process to itself (cli/lifecycle/own-process.ts) sets anything: an in-process run (the
 * tests' `run`) leaves its VM as it is. Only heuristics of the collector change, never a result
 * (bench/validate-scale-same.mjs: the same bytes as without).
 *
 * `--no-allocation-site-pretenuring`, for a run of **several files** only: such a run keeps each
 * file's YAML document while that file is checked and drops it after: the nodes made at the YAML
 * library's object and array literals live through a scavenge or two and then die. V8 samples such
 * a site's survivors (85 % or more survive) and from then on allocates every object of the site in
 * the old generation: each later file's document goes there directly, and while it lies dead there
 * the young objects it points to stay alive through the remembered set and are promoted too. Over
 * 10,000 projects in 100 files (bench/README.md, i39-validate): 97 to 112 MB promoted and 3
 * mark-compacts in most runs with it, 31 to 34 MB and 1 or 2 without; peak RSS 157 to 169 MiB
 * against 187 to 207. A run of **one file** has no later file: there V8's default serves, as it
 * serves the floor (the `yaml` package's own parse), and turning it off cost about 6 % of the 10 MiB
 * bench file's CPU: its document's nodes survive every scavenge of the parse, and without
 * pretenuring each scavenge copies them (about 1.15 MB a scavenge against 0.58, `--trace-gc-nvp`;
 * bench/README.md, "eleventh session").
 *
 * Not set (measured and refused, bench/README.md, i40-onefile): `--heap-growing-percent=600`, which
 * skipped the mark-compact due right after one 10 MiB file's parse (about 3 % of its CPU) for about
 * 50 MiB more peak memory, and could let a run over several large files grow its heap to about 7
 * times one file's live data before collecting: a collector heuristic, not less work.
 *
 * What this relies on: V8 reads `--allocation-site-pretenuring` where it counts allocation mementos
 * and digests them at each collection (`PretenuringHandler::ProcessPretenuringFeedback`,
 * `UpdateAllocationSite`: both return at once when the flag is off), so setting it from JavaScript
 * (`v8.setFlagsFromString`, which Node documents as unsupported after start-up for flags in
 * general) takes effect at the next collection; a site tenured before the call would stay so, hence
 * the call before the first campaign file is parsed (a policy file, parsed before, is too small to
 * tenure a site: V8 decides on 100 objects of a site at the least). Idempotent; process-wide.
 * `node:v8` is loaded at the call only (`process.getBuiltinModule`): importing it loads Node's
 * streams and heap utilities, about 2 ms that no other command should pay at start-up.
 */

import { isOwnProcess } from "../lifecycle/own-process.js";

/** The flags set, in order (one `setFlagsFromString` call each), for a run of several files. */
export const VALIDATE_COLLECTOR_FLAGS = ["--no-allocation-site-pretenuring"] as const;

let done = false;

/**
 * Sets VALIDATE_COLLECTOR_FLAGS for the rest of the process when the run has it to itself and
 * checks `files` files, two or more (see above); otherwise sets nothing.
 */
export function collectorForFiles(files: number): void {
  if (!isOwnProcess() || done || files < 2) return;
  done = true;
  const v8 = process.getBuiltinModule("node:v8");
  for (const flag of VALIDATE_COLLECTOR_FLAGS) v8.setFlagsFromString(flag);
}
