/**
 * What a command ended with. Commands return an Outcome; only `exitCodeOf` turns it into a process
 * exit code, so the exit code table (docs/commands.md) lives in exactly one place.
 */
export type Outcome =
  /** Everything asked for was done (or, for `plan`, nothing is blocked). */
  | { readonly kind: "success" }
  /** Invalid input, an API failure, a refused or failed action. */
  | { readonly kind: "failure" }
  /** Wrong flags or arguments; commander has already printed why. */
  | { readonly kind: "usage" }
  /** A plan with `--detailed-exitcode`: what it found. */
  | { readonly kind: "plan-detailed"; readonly pending: boolean; readonly blocked: boolean }
  /**
   * `apply` over several organizations: some organizations done, others blocked or failed (the
   * summary names which); exit code 4.
   */
  | { readonly kind: "partial" }
  /** Stopped by Ctrl-C before finishing. */
  | { readonly kind: "interrupted" }
  /** `watch`: a guard tripped and its project was paused (and no error). */
  | { readonly kind: "guard-paused" };

/** Where a command hands its Outcome (main.ts turns it into the exit code). */
export type ReportOutcome = (outcome: Outcome) => void;

export const success: Outcome = { kind: "success" };
export const failure: Outcome = { kind: "failure" };

export function exitCodeOf(outcome: Outcome): number {
  switch (outcome.kind) {
    case "success":
      return 0;
    case "failure":
    case "usage":
      return 1;
    case "plan-detailed":
      if (outcome.blocked) return 3;
      return outcome.pending ? 2 : 0;
    case "partial":
      return 4;
    case "interrupted":
      return 130;
    case "guard-paused":
      return 2;
  }
}
