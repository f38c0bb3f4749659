/**
 * SSH signatures through the real `ssh-keygen` (OpenSSH 8.2 or newer; Debian's openssh-client):
 * `-Y sign` to make one, `-Y find-principals` and `-Y verify` against an allowed-signers file to
 * check one. campaignctl never checks a signature itself (issue 37 point 6): it reads a signature's
 * namespace and key only to say who and why (src/approvals/sshsig.ts). ssh-keygen runs with a
 * minimal environment (the path, the home directory, the agent's socket): never the API keys or the
 * GitHub token of this process.
 */
import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { namespaceOf, roleOfNamespace } from "../../src/approvals/payload.js";
import type { SignatureCheck } from "../../src/approvals/signed.js";
import { readSshSignature } from "../../src/approvals/sshsig.js";
import { errnoCode } from "./files.js";

/** Larger than any SSH signature file (an RSA-16384 one is under 5 KB). */
const MAX_SIGNATURE_BYTES = 64 * 1024;

/** What one ssh-keygen run gave; `missing` when ssh-keygen cannot be run at all. */
export type KeygenRun =
  | { readonly kind: "ran"; readonly code: number; readonly stdout: string; readonly stderr: string }
  | { readonly kind: "missing"; readonly message: string };

/** The variables ssh-keygen may need: to be found, to find the user's keys, agent and askpass. */
const PASSED_ENV = [
  "PATH",
  "HOME",
  "SSH_AUTH_SOCK",
  "SSH_ASKPASS",
  "SSH_ASKPASS_REQUIRE",
  "DISPLAY",
  "TMPDIR",
];

/** Runs `ssh-keygen args` with `input` on stdin. Never throws. */
export function runKeygen(args: readonly string[], input: string): Promise<KeygenRun> {
  const env: Record<string, string> = { LC_ALL: "C" };
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    const child = spawn("ssh-keygen", [...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8").on("data", (t: string) => {
      stdout += t;
    });
    child.stderr.setEncoding("utf8").on("data", (t: string) => {
      stderr += t;
    });
    child.on("error", (error) =>
      done({
        kind: "missing",
        message: `ssh-keygen cannot be run (${errnoCode(error)}): install OpenSSH's ssh-keygen (Debian and Ubuntu: openssh-client)`,
      }),
    );
    child.on("close", (code) => done({ kind: "ran", code: code ?? 1, stdout, stderr }));
    // A key's passphrase is asked on the terminal, not on stdin: the message goes here.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** `ssh-keygen`'s last line of complaint, for a message. */
function lastLine(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("Signing data"));
  return lines.at(-1)?.trim() ?? "no reason given";
}

/** Signs `message` with the private key at `key` (or the agent's key of a `.pub` file) for `namespace`. */
export async function signMessage(
  key: string,
  namespace: string,
  message: string,
): Promise<
  { readonly ok: true; readonly signature: string } | { readonly ok: false; readonly message: string }
> {
  const run = await runKeygen(["-Y", "sign", "-f", key, "-n", namespace], message);
  if (run.kind === "missing") return { ok: false, message: run.message };
  if (run.code !== 0 || !run.stdout.includes("BEGIN SSH SIGNATURE"))
    return { ok: false, message: `ssh-keygen -Y sign failed: ${lastLine(run.stderr)}` };
  return { ok: true, signature: run.stdout };
}

/** A file: its absolute path (what ssh-keygen is given) and its path as messages show it. */
export interface FilePlace {
  readonly path: string;
  readonly shown: string;
}

/**
 * Checks the signature file `file` as a signature of `message` against the allowed-signers file
 * `allowed`: its namespace names a role, its key is an allowed signer's, and `ssh-keygen -Y verify`
 * accepts it for each principal it is kept for. `missing` when ssh-keygen cannot be run.
 */
export async function checkSignatureFile(
  file: FilePlace,
  allowed: FilePlace,
  message: string,
): Promise<SignatureCheck | { readonly kind: "missing"; readonly message: string }> {
  const { path, shown } = file;
  let text: string;
  try {
    if ((await stat(path)).size > MAX_SIGNATURE_BYTES)
      return { kind: "rejected", file: shown, who: "unknown", why: "too large to be an SSH signature" };
    text = await readFile(path, "utf8");
  } catch (error) {
    return { kind: "rejected", file: shown, who: "unknown", why: `cannot be read (${errnoCode(error)})` };
  }
  const info = readSshSignature(text);
  if (!info.ok) return { kind: "rejected", file: shown, who: "unknown", why: info.reason };
  const who = `key ${info.fingerprint}`;
  const role = roleOfNamespace(info.namespace);
  if (role === null)
    return {
      kind: "rejected",
      file: shown,
      who,
      why: `signed for namespace ${JSON.stringify(info.namespace)}, not as an approval (${namespaceOf("approver")}) or an author's signature (${namespaceOf("author")})`,
    };
  const found = await runKeygen(["-Y", "find-principals", "-s", path, "-f", allowed.path], "");
  if (found.kind === "missing") return found;
  if (found.code !== 0 && /usage:|illegal option|unknown option|invalid option/i.test(found.stderr))
    return {
      kind: "missing",
      message: `this ssh-keygen cannot check signatures (-Y find-principals): it needs OpenSSH 8.2 or newer (${lastLine(found.stderr)})`,
    };
  const principals = found.stdout.split("\n").filter((l) => l.trim() !== "");
  if (found.code !== 0 || principals.length === 0)
    return {
      kind: "rejected",
      file: shown,
      role,
      who,
      why: `signed with ${who}, which is not in the allowed signers file ${allowed.shown}`,
    };
  const verified: string[] = [];
  for (const principal of principals) {
    const run = await runKeygen(
      ["-Y", "verify", "-f", allowed.path, "-I", principal, "-n", namespaceOf(role), "-s", path],
      message,
    );
    if (run.kind === "missing") return run;
    if (run.code === 0) verified.push(principal);
  }
  if (verified.length === 0)
    return {
      kind: "rejected",
      file: shown,
      role,
      who: principals.join(", "),
      why: "does not verify as a signature of this plan: it signs another plan (another hash), or it was altered",
    };
  return { kind: "verified", file: shown, role, principals: verified, fingerprint: info.fingerprint };
}
