/**
 * Vitest global setup: the pass's processes start without `NODE_EXTRA_CA_CERTS`. Node reads and
 * parses that certificate bundle at every start, whether or not the process ever opens a TLS
 * connection: with the system's bundle (about 220 KB) that is about 45 ms of CPU per Node start on
 * the 2-core machine of bench/README.md ("Issue 35 suite CPU: spawning tests"), a sixth of a short
 * CLI run's. No test reaches the network (npm runs offline against a closed port: test/ci/packed.ts;
 * the API is the sandbox on loopback over plain HTTP), so the variable is removed here, once, from
 * the process that starts the test workers: every worker, and every process a test starts,
 * inherits the environment without it (test/cli/child-env.test.ts checks a spawned child's).
 */
export default function setup(): void {
  delete process.env.NODE_EXTRA_CA_CERTS;
}
