/**
 * Turns a campaign file's bytes into a CampaignFile: hash, UTF-8 decoding and the checks that come
 * before YAML (size, binary content, encoding). Pure.
 */
import { createHash } from "node:crypto";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CampaignFile } from "./model.js";
import { fileStart } from "./source-range.js";

/** Larger files are refused unread: a campaign file of this size is a mistake, and YAML parsing it would be slow. */
export const MAX_CAMPAIGN_FILE_BYTES = 10 * 1024 * 1024;

export interface DecodedFile {
  /** Absent when the bytes cannot be a campaign file at all (binary). */
  readonly file?: CampaignFile;
  readonly diagnostics: readonly Diagnostic[];
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lenientUtf8 = new TextDecoder("utf-8");

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * A campaign file whose `sha256` is computed when first read: `validate`'s text output never reads
 * it, and a small file's hash cost little but loading `crypto` (about 4 ms of a cold start, issue 36).
 * Copies, JSON and worker messages read it as any property.
 */
function campaignFile(path: string, text: string, bytes: Uint8Array): CampaignFile {
  let sha256: string | undefined;
  return {
    path,
    text,
    get sha256() {
      sha256 ??= sha256Hex(bytes);
      return sha256;
    },
  };
}

/** A diagnostic for a file too large to read, from its size alone. */
export function fileTooLarge(path: string, size: number): Diagnostic {
  return {
    severity: "error",
    code: "campaign.file-too-large",
    message: `file is ${formatMiB(size)}, more than the ${formatMiB(MAX_CAMPAIGN_FILE_BYTES)} a campaign file may have`,
    range: fileStart(path),
    hint: "split the projects over several files, or exclude this path",
  };
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function decodeCampaignFile(path: string, bytes: Uint8Array): DecodedFile {
  if (bytes.length > MAX_CAMPAIGN_FILE_BYTES) return { diagnostics: [fileTooLarge(path, bytes.length)] };
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      diagnostics: [
        {
          severity: "error",
          code: "campaign.binary-file",
          message: `file contains a NUL byte at byte ${nul}: it is not a text file`,
          range: fileStart(path),
          hint: "campaign files are UTF-8 YAML; exclude this path or pass the campaign directory only",
        },
      ],
    };
  }
  try {
    return { file: campaignFile(path, strictUtf8.decode(bytes), bytes), diagnostics: [] };
  } catch {
    // Invalid UTF-8: keep going on the lenient decoding so every other problem is reported too.
    const text = lenientUtf8.decode(bytes);
    const at = Math.max(0, text.indexOf("\uFFFD"));
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    const position = { line, column, offset: at };
    return {
      file: campaignFile(path, text, bytes),
      diagnostics: [
        {
          severity: "error",
          code: "campaign.encoding",
          message: "file is not valid UTF-8",
          range: { file: path, start: position, end: { ...position, column: column + 1, offset: at + 1 } },
          hint: "save the file as UTF-8",
        },
      ],
    };
  }
}

/** A UTF-16 surrogate without its pair (UTF-8 has no such character: it is written as U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * An editor's text of a campaign file, decoded as `decodeCampaignFile` decodes its UTF-8 bytes,
 * without hashing it: `sha256` is empty (the language server keys nothing by the edited document's
 * hash, and hashing megabytes at every keystroke is most of an edit's decoding). A text the bytes
 * would change (a lone surrogate, a NUL, too large) goes through the bytes, hashed.
 */
export function decodeEditorText(path: string, text: string): DecodedFile {
  if (
    text.includes("\0") ||
    LONE_SURROGATE.test(text) ||
    // A UTF-16 code unit is at most 3 bytes of UTF-8: a text of up to a third of the limit is under it.
    (text.length * 3 > MAX_CAMPAIGN_FILE_BYTES && Buffer.byteLength(text, "utf8") > MAX_CAMPAIGN_FILE_BYTES)
  )
    return decodeCampaignFile(path, Buffer.from(text, "utf8"));
  // The decoder drops a byte order mark; so does this.
  return {
    file: { path, text: text.startsWith("\uFEFF") ? text.slice(1) : text, sha256: "" },
    diagnostics: [],
  };
}
