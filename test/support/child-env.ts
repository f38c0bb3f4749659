/**
 * The environment of a child process a test starts that opens no TLS connection (the built CLI
 * against a sandbox on loopback over plain HTTP, a script that writes files): this process's,
 * without `NODE_EXTRA_CA_CERTS`, plus `extra`. Node reads and parses that certificate bundle at
 * every start, whether or not the process ever uses it: with the system's bundle (about 220 KB) that
 * is about 50 ms of CPU per Node start, a sixth of a short CLI run's (bench/README.md, "Issue 35
 * suite CPU: spawning tests"). Children that reach the network (npm, git remotes) keep it: they do
 * not use this.
 */
export function childEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _bundle, ...inherited } = process.env;
  return { ...inherited, ...extra };
}
