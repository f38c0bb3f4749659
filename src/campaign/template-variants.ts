/**
 * The language variants of one template checked against each other: the same merge tags in every
 * variant, opt-out wording in every variant (in its own language: src/message/opt-out-wording.ts,
 * which a policy may extend), the paid-for-by disclaimer in every variant when any has one, and a
 * variant that costs more segments per recipient than another because of characters GSM-7 cannot
 * carry (named, with the GSM-7 spelling where one exists). Each finding is at the variant; `related`
 * names the variant that has what it lacks and every instance that sends it (marked as instances,
 * so that reports list them in one note). Pure.
 */
import type { Diagnostic, RelatedInformation } from "../diagnostics/diagnostic.js";
import { codePointLabel } from "../message/code-point.js";
import { DISCLAIMER_PHRASES, disclaimerIn } from "../message/disclaimer.js";
import { withOptOutFooter } from "../message/footer.js";
import { gsmSpelling } from "../message/gsm-spelling.js";
import { gsm7Septets } from "../message/gsm7.js";
import { parseMergeTags, tagsOf } from "../message/merge-tags.js";
import {
  acceptedOptOutWording,
  baseLanguage,
  hasOptOutWording,
  type OptOutWording,
} from "../message/opt-out-wording.js";
import { render } from "../message/render.js";
import { analyzeSegments, type SegmentInfo } from "../message/segments.js";
import { own } from "../text/names.js";
import { inGsm7 } from "./lint/non-gsm.js";
import type { MessageVariant, TemplateSpec } from "./model.js";

/** At most this many further non-GSM characters of a variant are named in `related`. */
const MAX_CHARACTERS = 10;

export function checkTemplateVariants(
  templates: readonly TemplateSpec[],
  optOutWording: OptOutWording = {},
): Diagnostic[] {
  return templates.flatMap((template) => [
    ...tagMismatches(template),
    ...optOutMissing(template, optOutWording),
    ...disclaimerMissing(template),
    ...segmentsDiffer(template),
  ]);
}

/** The instances that send `variant`, as related places. */
function sentBy(template: TemplateSpec, variant: MessageVariant): RelatedInformation[] {
  return template.instances
    .filter((i) => i.language === variant.language)
    .map((i) => ({
      message: `sent by instance \`${i.address}\` (${i.organization})`,
      range: i.range,
      instance: { address: i.address, template: template.name },
    }));
}

function tagMismatches(template: TemplateSpec): Diagnostic[] {
  const tags = template.variants.map((v) => ({ variant: v, tags: tagsOf(parseMergeTags(v.text)) }));
  const out: Diagnostic[] = [];
  for (const { variant, tags: own } of tags) {
    const names = new Set(own.map((t) => t.name));
    const reported = new Set<string>();
    for (const other of tags) {
      for (const tag of other.tags) {
        if (names.has(tag.name) || reported.has(tag.name)) continue;
        reported.add(tag.name);
        out.push({
          severity: "error",
          code: "campaign.variant-tag-mismatch",
          message: `template \`${template.name}\`: the ${variant.language} variant lacks the merge tag {{${tag.name}}} that the ${other.variant.language} variant uses, so its contacts are not told what the others are`,
          range: variant.range,
          hint: `add {{${tag.name}}} to the ${variant.language} variant (or remove it from the ${other.variant.language} variant): every language says the same thing`,
          related: [
            {
              message: `{{${tag.name}}} in the ${other.variant.language} variant`,
              range: other.variant.locateInMessage(tag.start, tag.end),
            },
            ...sentBy(template, variant),
          ],
        });
      }
    }
  }
  return out;
}

/**
 * Does `variant` need opt-out wording of its own? Yes when some instance sends it with the footer
 * off, or (sent by none) when the template's footer is off.
 */
function needsWording(template: TemplateSpec, variant: MessageVariant): boolean {
  const senders = template.instances.filter((i) => i.language === variant.language);
  return senders.length === 0 ? !template.optOutFooter : senders.some((i) => !i.optOutFooter);
}

function optOutMissing(template: TemplateSpec, extra: OptOutWording): Diagnostic[] {
  const has = template.variants.filter((v) => hasOptOutWording(v.text, v.language, extra));
  return template.variants
    .filter((v) => !has.includes(v) && needsWording(template, v))
    .map((variant) => {
      const accepted = acceptedOptOutWording(variant.language, extra);
      const other = has[0];
      return {
        severity: "error" as const,
        code: "campaign.variant-opt-out-missing" as const,
        message:
          `template \`${template.name}\`: the ${variant.language} variant has no opt-out wording accepted for ${variant.language}` +
          (other === undefined ? "" : ` (the ${other.language} variant has)`),
        range: variant.range,
        hint: `add opt-out wording in the variant's language, one of: ${accepted.map((p) => `"${p}"`).join(", ")}; or set \`opt_out_footer: true\` on the template; a policy may accept more wording (\`opt_out_wording: {${baseLanguage(variant.language)}: [...]}\`)`,
        related: [
          ...(other === undefined
            ? []
            : [{ message: `the ${other.language} variant's opt-out wording`, range: other.range }]),
          ...sentBy(template, variant),
        ],
      };
    });
}

function disclaimerMissing(template: TemplateSpec): Diagnostic[] {
  const withOne = template.variants.find((v) => disclaimerIn(v.text) !== undefined);
  if (withOne === undefined) return [];
  const phrase = disclaimerIn(withOne.text);
  return template.variants
    .filter((v) => disclaimerIn(v.text) === undefined)
    .map((variant) => {
      const suggestions =
        own(DISCLAIMER_PHRASES, baseLanguage(variant.language)) ?? DISCLAIMER_PHRASES.en ?? [];
      return {
        severity: "error" as const,
        code: "campaign.variant-disclaimer-missing" as const,
        message: `template \`${template.name}\`: the ${withOne.language} variant carries a disclaimer ("${phrase}") but the ${variant.language} variant has none`,
        range: variant.range,
        hint: `add the disclaimer to the ${variant.language} variant, such as ${suggestions.map((p) => `"${p} ..."`).join(" or ")}: every contact must get it, whatever their language`,
        related: [
          { message: `the ${withOne.language} variant's disclaimer`, range: withOne.range },
          ...sentBy(template, variant),
        ],
      };
    });
}

interface Cost {
  readonly variant: MessageVariant;
  readonly sent: SegmentInfo;
  readonly gsm: SegmentInfo;
}

/** What the variant costs as written (every tag at its fallback), as sent and in GSM-7. */
function costOf(template: TemplateSpec, variant: MessageVariant): Cost {
  const text = withOptOutFooter(render(parseMergeTags(variant.text), {}, {}).text, template.optOutFooter);
  return { variant, sent: analyzeSegments(text), gsm: analyzeSegments(inGsm7(text)) };
}

const plural = (n: number) => `${n} segment${n === 1 ? "" : "s"}`;

function segmentsDiffer(template: TemplateSpec): Diagnostic[] {
  if (template.variants.length < 2) return [];
  const costs = template.variants.map((v) => costOf(template, v));
  const cheapest = costs.reduce((a, b) => (b.sent.segments < a.sent.segments ? b : a));
  const out: Diagnostic[] = [];
  for (const cost of costs) {
    if (cost.sent.segments <= cheapest.sent.segments || cost.sent.segments <= cost.gsm.segments) continue;
    const places = nonGsmPlaces(cost.variant.text);
    const first = places[0];
    if (first === undefined) continue;
    const named = places.map(({ char }) => `${char} (${codePointLabel(char)})`).join(", ");
    const spellings = places
      .map(({ char }) => ({ char, spelling: gsmSpelling(char) }))
      .filter((s) => s.spelling !== undefined)
      .map((s) => `${s.spelling?.text} for ${s.char}`);
    const times = cost.sent.segments / cheapest.sent.segments;
    out.push({
      severity: "warning",
      code: "campaign.variant-segments-differ",
      message:
        `template \`${template.name}\`: the ${cost.variant.language} variant is ${plural(cost.sent.segments)} per recipient in UCS-2, because of ${named}, ` +
        `while the ${cheapest.variant.language} variant is ${plural(cheapest.sent.segments)}: ${Number.isInteger(times) ? times : times.toFixed(1)} times the cost per recipient ` +
        `(${plural(cost.gsm.segments)} in GSM-7)`,
      range: cost.variant.locateInMessage(first.start, first.start + first.char.length),
      hint:
        spellings.length === 0
          ? "shorten the variant, or keep it and budget for UCS-2 (70 characters a segment, 67 once split)"
          : `write ${spellings.join(", ")} if the plain spelling is acceptable (GSM-7 lacks these), or shorten the variant`,
      related: [
        { message: `the ${cheapest.variant.language} variant`, range: cheapest.variant.range },
        ...places.slice(1, MAX_CHARACTERS).map(({ char, start }) => ({
          message: `${char} (${codePointLabel(char)})`,
          range: cost.variant.locateInMessage(start, start + char.length),
        })),
        ...sentBy(template, cost.variant),
      ],
    });
  }
  return out;
}

/** Each distinct character of `text` GSM-7 cannot carry, at its first place. */
function nonGsmPlaces(text: string): { readonly char: string; readonly start: number }[] {
  const out: { char: string; start: number }[] = [];
  const seen = new Set<string>();
  let offset = 0;
  for (const char of text) {
    if (gsm7Septets(char) === undefined && !seen.has(char)) {
      seen.add(char);
      out.push({ char, start: offset });
    }
    offset += char.length;
  }
  return out;
}
