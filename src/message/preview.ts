/**
 * What `campaignctl preview` shows for one project: the message rendered for each test contact, for
 * the contact given on the command line, and for a contact with no values, each with its encoding
 * and segments. Pure: a PreviewSubject (what a campaign file says of a project) in, a serialisable
 * view out (also the `--format json` shape).
 */

import { OPT_OUT_FOOTER } from "../contract/limits.js";
import { withOptOutFooter } from "./footer.js";
import { parseMergeTags, tagsOf } from "./merge-tags.js";
import { render, type ValueSource } from "./render.js";
import { analyzeSegments, type Encoding } from "./segments.js";

/** Version of the JSON document `preview --format json` prints; bumped on any breaking change. */
export const PREVIEW_FORMAT_VERSION = 1;

/**
 * Whose values a rendering uses.
 * - `test-contact`: a `test.contacts` entry with `merge_values` (`index` is its 0-based position).
 * - `sampled-contact`: a `test.contacts` entry without `merge_values`; the API renders it from a
 *   contact sampled from the project's list at send time, so we render with no values (fallbacks).
 * - `command-line`: the values given with `--contact field=value`.
 * - `no-values`: a contact with no values at all, so every tag falls back.
 */
export type PreviewContact =
  | { readonly kind: "test-contact"; readonly index: number; readonly phone: string }
  | { readonly kind: "sampled-contact"; readonly index: number; readonly phone: string }
  | { readonly kind: "command-line" }
  | { readonly kind: "no-values" };

/** One tag as rendered. */
export interface PreviewTag {
  readonly name: string;
  readonly value: string;
  readonly source: ValueSource;
}

/**
 * Segment facts of one rendering. `null` for MMS (a project with media), where segments do not
 * apply. Invariant: `non_gsm_characters` is empty exactly when `encoding` is `GSM-7`.
 */
export interface PreviewSms {
  readonly encoding: Encoding;
  readonly units: number;
  readonly segments: number;
  readonly units_per_segment: number;
  readonly non_gsm_characters: readonly string[];
}

/** Invariant: `text` is what goes out, footer included when the project has it on. */
export interface PreviewRendering {
  readonly contact: PreviewContact;
  readonly values: Readonly<Record<string, string>>;
  readonly text: string;
  readonly characters: number;
  readonly tags: readonly PreviewTag[];
  readonly sms: PreviewSms | null;
}

/**
 * What a preview reads of a project, as the campaign file says it (campaign's ProjectSpec fits as
 * is; `message` stays below `campaign`, so it names only the fields it uses). A survey's `message`
 * is its intro question; `media` makes it MMS.
 */
export interface PreviewSubject {
  readonly address: string;
  readonly file: string;
  readonly type: "broadcast" | "survey";
  readonly message?: string;
  readonly media?: readonly string[];
  readonly contactLists?: readonly string[];
  readonly optOutFooter?: boolean;
  readonly test?: {
    readonly contacts: readonly {
      readonly phone: string;
      readonly mergeValues?: Readonly<Record<string, string>>;
    }[];
  };
  /** The organization defaults of merge tags (`merge_defaults`). */
  readonly mergeDefaults: Readonly<Record<string, string>>;
  readonly organization?: string;
  /** Set for a template instance (campaign's ProjectSpec `origin`). */
  readonly origin?: { readonly template: string; readonly language: string };
}

/** Which template, organization and language variant an instance's contacts get. */
export interface PreviewInstance {
  readonly template: string;
  readonly organization: string | null;
  readonly language: string;
}

export interface ProjectPreview {
  readonly address: string;
  readonly file: string;
  readonly type: PreviewSubject["type"];
  /** `MMS` when the project has media (segments do not apply), else `SMS`. */
  readonly protocol: "SMS" | "MMS";
  /** The footer appended to every rendering, or `null` when the project's footer is off. */
  readonly opt_out_footer: string | null;
  /** Present only for a template instance: its template, organization and language. */
  readonly instance?: PreviewInstance;
  /** Things the reader should know (survey intro only, sampled contacts, no list). */
  readonly notes: readonly string[];
  readonly renderings: readonly PreviewRendering[];
}

export interface PreviewOptions {
  /** Values from `--contact field=value`; `undefined` when none were given. */
  readonly commandLineValues?: Readonly<Record<string, string>>;
}

export function previewProject(project: PreviewSubject, options: PreviewOptions = {}): ProjectPreview {
  const mms = (project.media?.length ?? 0) > 0;
  const footer = project.optOutFooter === true;
  const parsed = parseMergeTags(project.message ?? "");
  const notes: string[] = [];
  if (project.type === "survey")
    notes.push("survey: only the intro question (message) is previewed; follow-up questions are not shown");
  if (project.message === undefined) notes.push("the project has no message");

  const renderOne = (contact: PreviewContact, values: Readonly<Record<string, string>>): PreviewRendering => {
    const rendered = render(parsed, values, project.mergeDefaults);
    const text = withOptOutFooter(rendered.text, footer);
    const info = analyzeSegments(text);
    const tags: PreviewTag[] = [];
    for (const part of rendered.parts)
      if (part.segment.kind === "tag" && part.source !== undefined)
        tags.push({ name: part.segment.name, value: part.text, source: part.source });
    return {
      contact,
      values,
      text,
      characters: info.characters,
      tags,
      sms: mms
        ? null
        : {
            encoding: info.encoding,
            units: info.units,
            segments: info.segments,
            units_per_segment: info.unitsPerSegment,
            non_gsm_characters: info.nonGsmCharacters,
          },
    };
  };

  const renderings: PreviewRendering[] = [];
  const contacts = project.test?.contacts ?? [];
  contacts.forEach((c, index) => {
    if (c.mergeValues !== undefined) {
      renderings.push(renderOne({ kind: "test-contact", index, phone: c.phone }, c.mergeValues));
    } else {
      renderings.push(renderOne({ kind: "sampled-contact", index, phone: c.phone }, {}));
    }
  });
  if (contacts.some((c) => c.mergeValues === undefined) && tagsOf(parsed).length > 0) {
    notes.push(
      (project.contactLists?.length ?? 0) > 0
        ? "test contacts without merge_values get the values of a contact sampled from the project's list at send time; shown here with fallbacks"
        : "test contacts without merge_values and no contact list: every tag resolves as an empty field",
    );
  }
  if (options.commandLineValues !== undefined)
    renderings.push(renderOne({ kind: "command-line" }, options.commandLineValues));
  renderings.push(renderOne({ kind: "no-values" }, {}));

  return {
    address: project.address,
    file: project.file,
    type: project.type,
    protocol: mms ? "MMS" : "SMS",
    opt_out_footer: footer ? OPT_OUT_FOOTER : null,
    ...(project.origin === undefined
      ? {}
      : {
          instance: {
            template: project.origin.template,
            organization: project.organization ?? null,
            language: project.origin.language,
          },
        }),
    notes,
    renderings,
  };
}

/** The `preview --format json` document. */
export interface PreviewDocument {
  readonly format_version: typeof PREVIEW_FORMAT_VERSION;
  readonly projects: readonly ProjectPreview[];
}
