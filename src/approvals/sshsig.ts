/**
 * What an armored SSH signature (`ssh-keygen -Y sign`'s output, PROTOCOL.sshsig) says about itself:
 * the namespace it was made for and the public key that made it, as `ssh-keygen -l` prints its
 * fingerprint (`SHA256:` and unpadded base64). Read only to tell people apart and to say why a file
 * does not count: whether the signature is good is for `ssh-keygen -Y verify` alone, which checks
 * the same key and namespace (cli/adapters/ssh-signatures.ts). Pure.
 */
import { createHash } from "node:crypto";

/** What a signature file holds, or why it is not an SSH signature. */
export type SshSignatureInfo =
  | {
      readonly ok: true;
      readonly namespace: string;
      /** The signing key's type (`ssh-ed25519`, `ecdsa-sha2-nistp256`, ...). */
      readonly keyType: string;
      /** `SHA256:<base64 without padding>` of the public key blob. */
      readonly fingerprint: string;
    }
  | { readonly ok: false; readonly reason: string };

const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
const MAGIC = "SSHSIG";
/** Larger than any signature (an RSA-16384 one is under 5 KB). */
const MAX_TEXT = 64 * 1024;

export function readSshSignature(text: string): SshSignatureInfo {
  if (text.length > MAX_TEXT) return { ok: false, reason: "too large to be an SSH signature" };
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) return { ok: false, reason: "not an SSH signature (no BEGIN SSH SIGNATURE)" };
  const body = text.slice(begin + BEGIN.length, end).replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body))
    return { ok: false, reason: "an SSH signature that is not base64" };
  const blob = Buffer.from(body, "base64");
  const reader = new BlobReader(blob);
  if (reader.bytes(MAGIC.length)?.toString("latin1") !== MAGIC)
    return { ok: false, reason: "not an SSH signature (no SSHSIG header)" };
  const version = reader.uint32();
  if (version !== 1) return { ok: false, reason: `an SSH signature of version ${String(version)}` };
  const key = reader.string();
  const namespace = reader.string();
  if (key === undefined || namespace === undefined) return { ok: false, reason: "a truncated SSH signature" };
  const keyType = new BlobReader(key).string()?.toString("latin1");
  if (keyType === undefined) return { ok: false, reason: "an SSH signature without a readable key" };
  const digest = createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
  return { ok: true, namespace: namespace.toString("utf8"), keyType, fingerprint: `SHA256:${digest}` };
}

/** SSH wire format (RFC 4251): uint32 and length-prefixed strings; undefined past the end. */
class BlobReader {
  private at = 0;
  constructor(private readonly blob: Buffer) {}

  bytes(n: number): Buffer | undefined {
    if (n < 0 || this.at + n > this.blob.length) return undefined;
    const out = this.blob.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  uint32(): number | undefined {
    const b = this.bytes(4);
    return b?.readUInt32BE(0);
  }

  string(): Buffer | undefined {
    const n = this.uint32();
    return n === undefined ? undefined : this.bytes(n);
  }
}
