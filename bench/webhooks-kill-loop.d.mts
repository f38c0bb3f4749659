/** Types of webhooks-kill-loop.mjs, for test/webhooks/sigkill.test.ts. */
export declare const KILL_LOOP_SECRET: string;

export interface KillLoopResult {
  readonly acked: string[];
  readonly outputs: { stdout: string; stderr: string; code: number | null; signal: string | null }[];
  readonly kills: number;
  readonly seconds: number;
}

export declare function runKillLoop(options: {
  cli: string;
  stateDir: string;
  total: number;
  concurrency: number;
  seed: number;
  maxAcksBeforeKill: number;
  /** The listener's environment (default this process's). */
  env?: NodeJS.ProcessEnv;
}): Promise<KillLoopResult>;

export declare function checkKillLoop(
  result: KillLoopResult,
  recordText: string,
): {
  acked: number;
  recorded: number;
  missing: string[];
  notPrinted: string[];
  printedTwice: string[];
  /** The events printed again other than in the kill window docs/webhooks.md names. */
  repeatsOutsideWindow: string[];
  partialLines: number;
};
