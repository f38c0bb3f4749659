/**
 * The message rules share one analysis per distinct text (src/message/message-analysis.ts): parsed
 * tags, GSM-7, value keys, and each rule's results per text and values. Sharing must never change
 * a finding: every rule's findings for each project, in an interleaved run over many messages
 * (Spanish, UCS-2, emoji, invisible characters, shorteners, merge tags, long GSM-7 texts) and
 * variants (defaults, fields, footer, media, sample values, declared language, a policy's wording;
 * maps of equal values as one object and as separate ones), equal what the rules computed per
 * project before the analysis, from the message functions directly.
 */
import { describe, expect, it } from "vitest";
import { LINT_RULES } from "../../src/campaign/lint/index.js";
import { invisibleCharactersRule, isInvisibleOrBidi } from "../../src/campaign/lint/invisible.js";
import { mergeTagsRule } from "../../src/campaign/lint/merge-tags.js";
import { inGsm7, nonGsmCharacterRule } from "../../src/campaign/lint/non-gsm.js";
import { optOutRule } from "../../src/campaign/lint/opt-out.js";
import { type LintContext, NO_FINDINGS } from "../../src/campaign/lint/rule.js";
import { segmentGrowthRule } from "../../src/campaign/lint/segments.js";
import { findShortenedLinks, urlShortenersRule } from "../../src/campaign/lint/url-shorteners.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { checkMergeTags } from "../../src/message/check-tags.js";
import { withOptOutFooter } from "../../src/message/footer.js";
import { gsm7Length, nonGsm7Characters } from "../../src/message/gsm7.js";
import { parseMergeTags } from "../../src/message/merge-tags.js";
import { analysisOf, resultSlot } from "../../src/message/message-analysis.js";
import { tagNames, tagValuesKey } from "../../src/message/message-key.js";
import { hasOptOutWording, type OptOutWording, optOutLanguage } from "../../src/message/opt-out-wording.js";
import { type MergeValues, render } from "../../src/message/render.js";
import { describeContact, possibleRenderings } from "../../src/message/renderings.js";
import { segmentRisk } from "../../src/message/segment-risk.js";
import { analyzeSegments } from "../../src/message/segments.js";
import { MESSAGE_OFFSET, messageRange, projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T12:00:00Z");

const pad = (n: number) => "x".repeat(n);

const MESSAGES = [
  "Hi {{first_name|friend}}, vote Tuesday! Reply STOP to opt out",
  "Hi {{first_name}}, vote Tuesday in Ward 3.",
  "Hola {{first_name|amigo}}, vota el martes. Responde STOP para no recibir más",
  "Hola {{first_name|amigo}}, vota el martes. Responde STOP para no recibir mas",
  "Vota el martes. Envía BAJA",
  "Vota el martes. Manda ALTO",
  "Vota el martes, {{first_name}}.",
  "Vote “Tuesday” — polls open 7am–8pm. Reply STOP to opt out",
  "Đặng {{last_name|neighbor}}: vote Tuesday! Reply STOP",
  "Vote 🗳️ Tuesday, {{first_name|friend}}! 👍🏽 Reply STOP to opt out",
  "👍🏽",
  `Vote Tuesday! ${pad(90)} Reply STOP 🗳`,
  // UCS-2 in one segment without the footer, two with it (GSM-7: one either way).
  `Vote Tuesday! ${pad(36)} Reply STOP 👍`,
  // UCS-2 in one segment with the tag empty, two with a default for it.
  `{{first_name}} 👍 ${pad(60)}`,
  // Past 70 characters only with a long sample value.
  `Hi {{first_name}}, ${pad(62)}`,
  "Vote Tuesday! {{optout|Reply STOP to opt out}}",
  "Vote Tuesday! Reply {{word}} to opt out",
  "Vote Tuesday! Reply {{word|STOP}} to opt out, {{first_name}} {{first_name|x}}",
  "{{ first_name | friend }} {{unknown_field}} {{first_nme}} }} {{ {{1bad}} {{}} STOP",
  "Vote\u200B Tuesday \u202Eevil\u202C Reply STOP",
  "See bit.ly/abc now, or https://TinyURL.com/x. Reply STOP",
  "Vote\tTuesday\r\nReply STOP to opt out",
  `Hi {{first_name|friend}}, ${pad(60)} Reply STOP to opt out`,
  `Hi {{first_name|friend}}, ${pad(120)} Reply STOP to opt out`,
  `{{last_name}}${pad(70)} STOP`,
  `Hi {{first_name}} {{polling_place|your usual place}} ${pad(140)} STOP`,
  "",
];

const SPANISH_WORDING: OptOutWording = { es: ["Manda ALTO"], fr: ["Répondez STOP"] };

interface Variant {
  readonly mergeDefaults: MergeValues;
  readonly fields: readonly string[];
  readonly optOutFooter?: boolean;
  readonly media?: readonly string[];
  readonly sample?: MergeValues;
  readonly language?: string;
  readonly wording?: OptOutWording;
}

const SHARED_DEFAULTS: MergeValues = { first_name: "neighbor" };
const SHARED_FIELDS = ["polling_place", "optout", "word"];

const VARIANTS: readonly Variant[] = [
  { mergeDefaults: {}, fields: [] },
  { mergeDefaults: SHARED_DEFAULTS, fields: SHARED_FIELDS },
  // Equal values, another object: results shared by content.
  { mergeDefaults: { first_name: "neighbor" }, fields: [...SHARED_FIELDS] },
  { mergeDefaults: { first_name: "" }, fields: ["last_name"], optOutFooter: true },
  {
    mergeDefaults: { optout: "Reply STOP to opt out", word: "STOP" },
    fields: SHARED_FIELDS,
    optOutFooter: false,
  },
  { mergeDefaults: SHARED_DEFAULTS, fields: [], media: ["https://example.org/a.jpg"] },
  { mergeDefaults: {}, fields: [], sample: { first_name: "Maria", last_name: "Ng" } },
  { mergeDefaults: {}, fields: [], sample: { first_name: "Maximiliana Alexandrina" } },
  {
    mergeDefaults: SHARED_DEFAULTS,
    fields: SHARED_FIELDS,
    sample: { first_name: "Đặng" },
    optOutFooter: true,
  },
  { mergeDefaults: {}, fields: [], language: "es" },
  { mergeDefaults: {}, fields: [], language: "es", wording: SPANISH_WORDING },
  { mergeDefaults: {}, fields: [], language: "es-US", wording: SPANISH_WORDING },
  { mergeDefaults: SHARED_DEFAULTS, fields: [], wording: SPANISH_WORDING },
  { mergeDefaults: { first_name: "neighbor" }, fields: [], language: "en", wording: {} },
];

function projectOf(message: string, variant: Variant, n: number): ProjectSpec {
  return projectSpec({
    address: `p-${n}`,
    message,
    mergeDefaults: variant.mergeDefaults as Readonly<Record<string, string>>,
    fields: variant.fields,
    ...(variant.optOutFooter === undefined ? {} : { optOutFooter: variant.optOutFooter }),
    ...(variant.media === undefined ? {} : { media: variant.media }),
    ...(variant.sample === undefined
      ? {}
      : {
          test: {
            contacts: [
              { phone: "+15035550150" },
              { phone: "+15035550151", mergeValues: variant.sample as Readonly<Record<string, string>> },
            ],
          },
        }),
    ...(variant.language === undefined
      ? {}
      : {
          origin: {
            template: "t",
            instance: `p-${n}`,
            language: variant.language,
            templateRange: messageRange(0, 1),
            instanceRange: messageRange(0, 1),
          },
        }),
  });
}

/** What each rule found, as the rules computed it per project before the shared analysis. */
function expected(project: ProjectSpec, context: LintContext) {
  const message = project.message ?? "";
  const defaults = project.mergeDefaults;
  const footer = project.optOutFooter === true;
  const sms = (project.media?.length ?? 0) === 0;
  const language = optOutLanguage(message, project.origin?.language, context.optOutWording);
  const missing = footer
    ? undefined
    : possibleRenderings(message, defaults).find(
        (r) => !hasOptOutWording(r.text, language, context.optOutWording),
      );
  const sample = project.test?.contacts.find((c) => c.mergeValues !== undefined)?.mergeValues ?? {};
  const risk = sms
    ? segmentRisk(render(parseMergeTags(message), sample, defaults), (t) => withOptOutFooter(t, footer))
    : undefined;
  const asSent = withOptOutFooter(render(parseMergeTags(message), {}, defaults).text, footer);
  const nonGsm =
    sms && gsm7Length(message) === undefined
      ? nonGsm7Characters(message).filter((c) => !isInvisibleOrBidi(c))
      : [];
  const costly = analyzeSegments(asSent).segments > analyzeSegments(inGsm7(asSent)).segments;
  return {
    mergeTags: checkMergeTags(message, { fields: project.fields, mergeDefaults: defaults }).map((f) => [
      f.code,
      `${project.address}: ${f.message}`,
      messageRange(f.start, f.end),
    ]),
    optOut:
      missing === undefined
        ? []
        : [
            `${project.address}: the message${missing.valued.length === 0 ? "" : ` that ${describeContact(missing)} receives`} has no opt-out language and the opt-out footer is off`,
          ],
    segments:
      risk === undefined
        ? []
        : [[risk.before.segments, risk.after.segments, messageRange(risk.tagStart, risk.tagEnd)]],
    nonGsm: nonGsm.map((c) => [c, costly ? "warning" : "info"]),
    invisible: invisibleRuns(message),
    links: findShortenedLinks(message).map((l) => messageRange(l.start, l.end)),
  };
}

/** The runs of invisible or bidi characters, as ranges (the rule's pattern, written as a scan). */
function invisibleRuns(message: string) {
  const out = [];
  let start = -1;
  for (let i = 0; i <= message.length; i++) {
    const inRun = i < message.length && isInvisibleOrBidi(message[i] ?? "");
    if (inRun && start < 0) start = i;
    if (!inRun && start >= 0) {
      out.push(messageRange(start, i));
      start = -1;
    }
  }
  return out;
}

/** What each rule found through the shared analysis, in the same shape. */
function found(project: ProjectSpec, context: LintContext) {
  const growth = segmentGrowthRule(project, context);
  return {
    mergeTags: mergeTagsRule(project, context).map((d) => [d.code, d.message, d.range]),
    optOut: optOutRule(project, context).map((d) => d.message),
    segments: growth.map((d) => {
      const [before, after] = (d.message.match(/\d+(?= segments?)/g) ?? []).map(Number);
      return [before, after, d.range];
    }),
    nonGsm: nonGsmCharacterRule(project, context).map((d) => [
      (project.message ?? "").slice(
        (d.range?.start.offset ?? 0) - MESSAGE_OFFSET,
        (d.range?.end.offset ?? 0) - MESSAGE_OFFSET,
      ),
      d.severity,
    ]),
    invisible: invisibleCharactersRule(project, context).map((d) => d.range),
    links: urlShortenersRule(project, context).map((d) => d.range),
  };
}

describe("the shared message analysis", () => {
  it("every message rule finds what it found per project, across interleaved texts and variants", () => {
    const cases = MESSAGES.flatMap((message, m) =>
      VARIANTS.map((variant, v) => ({ project: projectOf(message, variant, m * 100 + v), variant })),
    );
    // Interleaved: each variant of every message before the next variant, twice (the second pass
    // answered from what the first remembered).
    const order = [...cases].sort((a, b) =>
      a.project.address.slice(-2) < b.project.address.slice(-2) ? -1 : 1,
    );
    let findings = 0;
    for (const pass of [1, 2])
      for (const { project, variant } of order) {
        const context: LintContext = {
          now,
          ...(variant.wording === undefined ? {} : { optOutWording: variant.wording }),
        };
        const want = expected(project, context);
        const got = found(project, context);
        expect({ pass, address: project.address, ...got }).toEqual({
          pass,
          address: project.address,
          ...want,
        });
        findings += Object.values(got).reduce((n, list) => n + list.length, 0);
      }
    // The corpus reaches every rule's findings (no test that cannot fail).
    const codes = new Set(
      order.flatMap(({ project }) =>
        [
          mergeTagsRule,
          optOutRule,
          segmentGrowthRule,
          nonGsmCharacterRule,
          invisibleCharactersRule,
          urlShortenersRule,
        ]
          .flatMap((rule) => rule(project, { now }))
          .map((d) => `${d.code}:${d.severity}`),
      ),
    );
    expect([...codes].sort()).toEqual([
      "lint.bidi-control:error",
      "lint.invisible-character:warning",
      "lint.non-gsm-character:info",
      "lint.non-gsm-character:warning",
      "lint.opt-out-missing:error",
      "lint.segment-growth:info",
      "lint.url-shortener:warning",
      "message.empty-tag-name:error",
      "message.invalid-tag-name:error",
      "message.stray-close:error",
      "message.tag-may-render-empty:warning",
      "message.unclosed-tag:error",
      "message.unknown-tag:error",
    ]);
    expect(findings).toBeGreaterThan(500);
  });

  it("holds a text's parse, tag names and GSM-7 check as the message functions give them", () => {
    for (const message of MESSAGES) {
      const analysis = analysisOf(message);
      expect(analysisOf(`${message}`)).toBe(analysis);
      expect(analysis.parsed).toEqual(parseMergeTags(message));
      expect(analysis.names).toEqual(tagNames(parseMergeTags(message)));
      expect(analysis.isGsm7).toBe(gsm7Length(message) !== undefined);
      for (const { mergeDefaults, sample } of VARIANTS)
        for (const map of [mergeDefaults, sample ?? {}]) {
          expect(analysis.valuesKey(map)).toBe(tagValuesKey(message, map));
          // The same string for the same map, and for an equal map made apart.
          expect(analysis.valuesKey(map)).toBe(analysis.valuesKey({ ...map }));
        }
    }
  });

  it("computes a result once per slot and keys, and again for other keys or another slot", () => {
    const analysis = analysisOf("Hi {{first_name|friend}}, a text only this test reads");
    const slot = resultSlot<string>();
    const other = resultSlot<string>();
    let made = 0;
    const make = (value: string) => () => {
      made += 1;
      return value;
    };
    const extra: OptOutWording = {};
    expect(analysis.remember(slot, extra, "a", "", make("one"))).toBe("one");
    expect(analysis.remember(slot, extra, "a", "", make("again"))).toBe("one");
    expect(analysis.remember(slot, {}, "a", "", make("two"))).toBe("two");
    expect(analysis.remember(slot, extra, "b", "", make("three"))).toBe("three");
    expect(analysis.remember(slot, extra, "a", "x", make("four"))).toBe("four");
    expect(analysis.remember(other, extra, "a", "", make("five"))).toBe("five");
    // Back to the first keys, after others: still remembered.
    expect(analysis.remember(slot, extra, "a", "", make("again"))).toBe("one");
    expect(analysis.remember(slot, extra, "b", "", make("again"))).toBe("three");
    expect(made).toBe(5);
    // An undefined result is remembered too.
    const none = resultSlot<undefined>();
    let asked = 0;
    for (let i = 0; i < 3; i++)
      analysis.remember(none, "", "", "", () => {
        asked += 1;
        return undefined;
      });
    expect(asked).toBe(1);
  });
});

describe("a rule that finds nothing", () => {
  it("returns the one frozen empty list, not a new one per project", () => {
    const clean = projectSpec();
    for (const rule of LINT_RULES) expect(rule(clean, { now })).toBe(NO_FINDINGS);
    expect(Object.isFrozen(NO_FINDINGS)).toBe(true);
  });
});
