/**
 * A process of campaignctl's own reads its environment once, at its start (issue 36). Node's
 * `process.env` is not an object but a door into the process's environment: every read of a name
 * on it is a call into C++ that looks the name up under a lock and copies the value out, about
 * 0.15 µs. Our code reads the environment once (`Io.env`), but the `yaml` package reads
 * `process.env.LOG_TOKENS` once for every token it parses (its debug switch): about 2 million reads
 * for one 10 MiB campaign file, 11 to 18 % of that `validate`'s CPU, and about 10 % of a `validate`
 * of 10,000 projects (bench/README.md, "eleventh session").
 *
 * `readEnvironmentOnce` puts a plain copy of the environment in `process.env`'s place: every name
 * and value as the process started, read at the speed of any object. Invariants: made only by a
 * process of its own (own-process.ts `enterOwnProcess`, and the `validate` worker it may start),
 * never by an in-process run (the tests' `run`), which leaves its process as it is; the copy holds
 * the same names and values, so what a library reads, and what a child process or worker thread is
 * given (Node hands them `process.env`'s names and values), is unchanged. What changes: a variable
 * set later by native code (none of ours does) is not seen, and setting `process.env.TZ` no longer
 * tells V8 the zone changed (campaignctl never sets it: times are zoned explicitly, luxon). On
 * Windows nothing is replaced: there Node's `process.env` finds a name whatever its case (`Path`,
 * `PATH`), which a plain object cannot.
 */

let done = false;

/**
 * Replaces `process.env` by a plain copy of it, once per process or thread, but on Windows
 * (`platform`: the platform Node runs on; see above).
 */
export function readEnvironmentOnce(platform: NodeJS.Platform = process.platform): void {
  if (done || platform === "win32") return;
  done = true;
  const copy: Record<string, string | undefined> = { ...process.env };
  Object.defineProperty(process, "env", {
    value: copy,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
