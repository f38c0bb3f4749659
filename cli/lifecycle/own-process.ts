/**
 * Whether this run has the process to itself: the bin's run (cli/lifecycle/run.ts `runProcess`)
 * does, an in-process run (the tests' `run`) does not. Only a process of its own may change what is
 * process-wide: its environment is read once (environment.ts), and a command may set V8's
 * settings for its run (`validate`: cli/validate/collector-flags.ts asks `isOwnProcess`). Invariant:
 * once entered, a process stays its own; nothing in an in-process run enters it.
 */
import { readEnvironmentOnce } from "./environment.js";

let own = false;

/** Marks this process as the run's own and reads its environment once (idempotent). */
export function enterOwnProcess(): void {
  own = true;
  readEnvironmentOnce();
}

/** Whether {@link enterOwnProcess} was called in this process. */
export function isOwnProcess(): boolean {
  return own;
}
