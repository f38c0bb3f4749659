/**
 * The lint errors the written files would get from `validate` and `plan`: live content that breaks a
 * rule (no opt-out language and no footer, an http tracking link) is imported as it is, because the
 * file must describe the live project; import says so up front, as warnings. Pure.
 */
import { assembleCampaign } from "../campaign/assemble.js";
import { sha256Hex } from "../campaign/decode.js";
import { lintCampaign } from "../campaign/lint/index.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** A file as import writes it. */
export interface WrittenText {
  readonly path: string;
  readonly text: string;
}

export function lintImported(
  files: readonly WrittenText[],
  written: ReadonlySet<string>,
  now: Date,
): Diagnostic[] {
  const loaded = assembleCampaign(
    files.map((f) => ({ path: f.path, text: f.text, sha256: sha256Hex(new TextEncoder().encode(f.text)) })),
  );
  return lintCampaign(loaded.campaign, { now, clock: "the API's clock" })
    .filter((d) => d.severity === "error" && d.range !== undefined && written.has(d.range.file))
    .map((d) => ({
      ...d,
      severity: "warning",
      message: `${d.message} (the live project is so; validate and plan will stop on it)`,
      hint: `${d.hint ?? "fix it"}, in the dashboard, then import again`,
    }));
}
