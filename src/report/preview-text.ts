/**
 * The human view of `campaignctl preview`. Pure: a ProjectPreview in, text out. Each rendering is
 * shown as its exact outgoing text, indented behind a bar, followed by its cost. Control characters
 * from the files (`\e`, `\r`, C1) are shown as U+FFFD (`visibleText`), never printed: the terminal
 * would act on them (hide text, move the cursor), while recipients get them (the cost line and
 * `lint.non-gsm-character` name them).
 */

import type { PreviewContact, PreviewRendering, PreviewTag, ProjectPreview } from "../message/preview.js";
import { type Style, styleFor } from "./style.js";
import { visibleText } from "./visible-text.js";

function contactLabel(contact: PreviewContact): string {
  switch (contact.kind) {
    case "test-contact":
      return `test contact ${contact.index + 1} (${contact.phone}, merge_values)`;
    case "sampled-contact":
      return `test contact ${contact.index + 1} (${contact.phone}, sampled from the list at send time; fallbacks shown)`;
    case "command-line":
      return "--contact values";
    case "no-values":
      return "contact with no values (every tag falls back)";
  }
}

function sourceLabel(source: PreviewTag["source"]): string {
  switch (source) {
    case "contact":
      return "contact";
    case "fallback":
      return "inline fallback";
    case "default":
      return "merge_defaults";
    case "platform":
      return "empty";
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function costLine(r: Pick<PreviewRendering, "characters" | "sms">): string {
  const characters = plural(r.characters, "character");
  if (r.sms === null) return `${characters}, MMS: segments do not apply`;
  const unit = r.sms.encoding === "GSM-7" ? "septets" : "UTF-16 units";
  const forced =
    r.sms.non_gsm_characters.length > 0
      ? `; UCS-2 because of ${r.sms.non_gsm_characters.map((c) => JSON.stringify(c)).join(" ")}`
      : "";
  return visibleText(
    `${characters}, ${r.sms.encoding}, ${plural(r.sms.segments, "segment")} (${r.sms.units} ${unit}, ${r.sms.units_per_segment} per segment)${forced}`,
  );
}

/** A text sent (a message, an answer) as lines behind the bar, its control characters shown. */
function barred(text: string, style: Style): string {
  return text
    .split("\n")
    .map((line) => `    ${style.dim("│")} ${visibleText(line)}`)
    .join("\n");
}

function renderingText(r: PreviewRendering, style: Style): string {
  const body = barred(r.text, style);
  const tags = r.tags.length
    ? `    ${style.dim(visibleText(`tags: ${r.tags.map((t) => `${t.name}=${JSON.stringify(t.value)} (${sourceLabel(t.source)})`).join(", ")}`))}\n`
    : "";
  return `  ${style.bold(contactLabel(r.contact))}\n${body}\n${tags}    ${costLine(r)}\n`;
}

export function renderPreviewText(previews: readonly ProjectPreview[], color: boolean): string {
  const style = styleFor(color);
  return previews
    .map((p) => {
      const footer =
        p.opt_out_footer === null ? "opt-out footer off" : `opt-out footer on (${p.opt_out_footer})`;
      const head = `${style.bold(p.address)} (${visibleText(p.file)}): ${p.type}, ${p.protocol}, ${visibleText(footer)}\n`;
      const instance =
        p.instance === undefined
          ? ""
          : `  instance of template ${p.instance.template}, ${visibleText(p.instance.organization ?? "its organization")}, language ${p.instance.language}\n`;
      const notes = p.notes.map((n) => `  ${style.cyan("note:")} ${visibleText(n)}\n`).join("");
      const replies = (p.replies ?? [])
        .map(
          (r) =>
            `  ${style.bold(`reply rule ${r.rule}`)} (${visibleText(r.matches)})\n${barred(r.answer, style)}\n    ${costLine(r)}\n`,
        )
        .join("");
      return head + instance + notes + p.renderings.map((r) => renderingText(r, style)).join("") + replies;
    })
    .join("\n");
}
