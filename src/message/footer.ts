/**
 * The opt-out footer the platform appends when a project's `opt_out_footer` is on. The vendor
 * documents the footer text (`OPT_OUT_FOOTER`, "STOP=END") but not how it is joined to the message;
 * we assume a single newline, which counts as one GSM-7 septet. Segment counts include the footer.
 */
import { OPT_OUT_FOOTER } from "../contract/limits.js";

/** What goes between the message and the footer (our assumption: one line feed). */
export const OPT_OUT_FOOTER_SEPARATOR = "\n";

/** The text as it goes out: with the footer appended when `enabled`, unchanged otherwise. */
export function withOptOutFooter(text: string, enabled: boolean): string {
  return enabled ? `${text}${OPT_OUT_FOOTER_SEPARATOR}${OPT_OUT_FOOTER}` : text;
}
