/**
 * Validate's checks of a project's `replies:` (issues 28 and 34): each rule has exactly one of
 * `keywords` and `pattern`; a pattern is one RE2 runs (no look-around, no back-references) within
 * the program budget, counted over the project's patterns together; no keyword is empty once folded;
 * names are unique; a rule whose every keyword an earlier rule already has can never answer; no
 * rule could match a revocation word (opt-outs are never answered); the answer is a message: the
 * message text rules (lint/text-rules.ts: invisible and bidi characters, non-GSM characters, URL
 * shorteners, segments) apply to it with their codes, at its characters, plus the answer's own (no
 * merge tags, the API's 1,600 characters, segments billed). Pure; positions point at the rule's
 * values in the file (in `defaults` when inherited).
 */
import { REPLY_TEXT_MAX } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseMergeTags, tagsOf } from "../message/merge-tags.js";
import { type CompiledPattern, compilePattern, PATTERN_PROGRAM_BUDGET } from "../message/reply-pattern.js";
import { foldAccents, foldText, hasPhrase, revocationWords } from "../message/reply-words.js";
import { analyzeSegments } from "../message/segments.js";
import { TEXT_RULES } from "./lint/text-rules.js";
import type { ProjectSpec, ReplyRuleSpec, SpecPath } from "./model.js";
import { ANY_LANGUAGE } from "./replies-spec.js";

/** The revocation words a rule's keywords or pattern are checked against (the policy may add more). */
export type RevocationList = ReturnType<typeof revocationWords>;

export function checkReplyRules(
  project: ProjectSpec,
  words: RevocationList = revocationWords(),
): Diagnostic[] {
  const replies = project.replies;
  if (replies === undefined) return [];
  const out: Diagnostic[] = [];
  const who = `project \`${project.address}\``;
  const firstByName = new Map<string, number>();
  const earlierKeywords = new Set<string>();
  const budget = { used: 0 };
  replies.rules.forEach((rule, i) => {
    const at = (...path: (string | number)[]) => project.locate(["replies", "rules", i, ...path]);
    const earlier = firstByName.get(rule.name);
    if (earlier === undefined) firstByName.set(rule.name, i);
    else
      out.push({
        severity: "error",
        code: "replies.rule-name-repeated",
        message: `${who}: reply rule name \`${rule.name}\` is used twice`,
        range: at("name"),
        hint: "give each rule its own name: the name keys each answer, so two rules with one name would share answers",
        related: [
          {
            message: `\`${rule.name}\` is first used here`,
            range: project.locate(["replies", "rules", earlier, "name"]),
          },
        ],
      });
    const hasKeywords = rule.keywords !== undefined;
    const hasPattern = rule.pattern !== undefined;
    if (hasKeywords === hasPattern)
      out.push({
        severity: "error",
        code: "replies.rule-needs-one-match",
        message: `${who}: reply rule \`${rule.name}\` has ${hasKeywords ? "both `keywords` and `pattern`" : "neither `keywords` nor `pattern`"}`,
        range: hasKeywords ? at("pattern") : at("name"),
        hint: "give a rule either `keywords` (whole words, any case and accents) or one `pattern`; split it in two rules for both",
      });
    out.push(...keywordFindings(project, rule, i, words, earlierKeywords));
    if (rule.pattern !== undefined) out.push(...patternFindings(project, rule, i, words, budget));
    out.push(...answerFindings(project, rule, i));
  });
  return out;
}

function keywordFindings(
  project: ProjectSpec,
  rule: ReplyRuleSpec,
  i: number,
  words: RevocationList,
  earlierKeywords: Set<string>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (rule.keywords === undefined) return out;
  const mine: string[] = [];
  for (const [language, list] of Object.entries(rule.keywords))
    list.forEach((keyword, k) => {
      const path: (string | number)[] = [
        "replies",
        "rules",
        i,
        "keywords",
        ...(language === ANY_LANGUAGE ? [] : [language]),
        k,
      ];
      const folded = foldText(keyword);
      if (folded === "") {
        out.push({
          severity: "error",
          code: "replies.keyword-empty",
          message: `project \`${project.address}\`: reply rule \`${rule.name}\` has keyword ${JSON.stringify(keyword)}, which has no letter or digit and can never match`,
          range: project.locate(path),
          hint: "keywords match whole words; punctuation and emoji are ignored",
        });
        return;
      }
      mine.push(folded);
      const word = words.find((w) => hasPhrase(keyword, w.word) || hasPhrase(w.word, keyword));
      if (word !== undefined)
        out.push({
          severity: "error",
          code: "replies.rule-matches-opt-out",
          message: `project \`${project.address}\`: reply rule \`${rule.name}\` keyword ${JSON.stringify(keyword)} overlaps the revocation word "${word.word}" (${word.language}): a contact who texts it is opting out and must not be answered`,
          range: project.locate(path),
          hint: "remove the keyword: inbounds with a revocation word are opt-outs, which the API handles and no rule ever answers",
        });
    });
  if (mine.length > 0 && mine.every((k) => earlierKeywords.has(k)))
    out.push({
      severity: "warning",
      code: "replies.rule-unreachable",
      message: `project \`${project.address}\`: reply rule \`${rule.name}\` can never answer: earlier rules have every one of its keywords`,
      range: project.locate(["replies", "rules", i, "keywords"]),
      hint: "rules are tried in order and the first match answers: move this rule up, or remove it",
    });
  for (const k of mine) earlierKeywords.add(k);
  return out;
}

function patternFindings(
  project: ProjectSpec,
  rule: ReplyRuleSpec,
  i: number,
  words: RevocationList,
  budget: { used: number },
): Diagnostic[] {
  const path = ["replies", "rules", i, "pattern"];
  const pattern = rule.pattern ?? "";
  const compiled = compilePattern(pattern);
  const who = `project \`${project.address}\`: reply rule \`${rule.name}\` pattern`;
  if (!compiled.ok) return [patternRefused(project, who, path, compiled)];
  budget.used += compiled.programSize;
  if (budget.used > PATTERN_PROGRAM_BUDGET)
    return [
      {
        severity: "error",
        code: "replies.pattern-too-large",
        message: `${who} takes ${compiled.programSize} RE2 instructions, which brings the project's patterns to ${budget.used}, over the ${PATTERN_PROGRAM_BUDGET} they may take together: judging one inbound could take too long`,
        range: locateIn(project, path, 0, pattern.length),
        hint: "shorten the pattern (fewer counted repetitions such as `{50}`, fewer alternatives), or use `keywords`",
      },
    ];
  // The texts a contact who opts out sends: each word alone, in capitals, with punctuation, and in
  // the short sentences opt-outs come in ("unsubscribe me", "please stop", "stop texting").
  const probe = words.find((w) => optOutTexts(w.word).some((t) => compiled.test(foldAccents(t))));
  if (probe === undefined) return [];
  return [
    {
      severity: "error",
      code: "replies.rule-matches-opt-out",
      message: `${who} matches the revocation word "${probe.word}" (${probe.language}): a contact who texts it is opting out and must not be answered`,
      range: project.locate(path),
      hint: "narrow the pattern (anchor it, name the words it is for) so that no opt-out text matches it",
    },
  ];
}

/** A pattern RE2 cannot run, at the characters at fault. */
function patternRefused(
  project: ProjectSpec,
  who: string,
  path: SpecPath,
  refused: Extract<CompiledPattern, { ok: false }>,
): Diagnostic {
  const range = locateIn(project, path, refused.start, refused.end);
  switch (refused.refusal) {
    case "invalid":
      return {
        severity: "error",
        code: "replies.pattern-invalid",
        message: `${who} is not a valid regular expression: ${refused.message}`,
        range,
        hint: "write an RE2 regular expression without slashes or flags, such as `\\bwho (is|'s) this\\b`",
      };
    case "unsupported":
      return {
        severity: "error",
        code: "replies.pattern-unsupported",
        message: `${who} uses ${refused.message}`,
        range,
        hint: "patterns run on RE2, which matches in linear time and so has no look-around and no back-references: rewrite without them (match the words themselves), or use `keywords`",
      };
    case "too-large":
      return {
        severity: "error",
        code: "replies.pattern-too-large",
        message: `${who} is too large: ${refused.message}`,
        range,
        hint: "shorten the pattern (fewer counted repetitions such as `{50}`, fewer alternatives), or use `keywords`",
      };
  }
}

/** Where characters `start` to `end` of the value at `path` are written (the whole value when unknown). */
function locateIn(project: ProjectSpec, path: SpecPath, start: number, end: number) {
  return project.locateInValue?.(path, start, end) ?? project.locate(path);
}

/** Texts a contact who opts out with `word` sends (probes for a pattern; not exhaustive). */
function optOutTexts(word: string): string[] {
  const up = word.toUpperCase();
  const cap = `${up.slice(0, 1)}${word.slice(1)}`;
  return [word, up, cap, `${up}.`, `${cap}.`, `${word}!`, `${word}!!`, `${up}!!!`].flatMap((t) => [
    t,
    `${t} me`,
    `please ${t}`,
    `${t} please`,
    `${t} now`,
    `${t} texting`,
    `${t} texting me`,
  ]);
}

function answerFindings(project: ProjectSpec, rule: ReplyRuleSpec, i: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  const range = project.locate(["replies", "rules", i, "answer"]);
  const who = `project \`${project.address}\`: reply rule \`${rule.name}\` answer`;
  if (tagsOf(parseMergeTags(rule.answer)).length > 0 || rule.answer.includes("{{"))
    out.push({
      severity: "error",
      code: "replies.answer-has-merge-tag",
      message: `${who} has a merge tag: answers go out exactly as written`,
      range,
      hint: "write the answer without `{{...}}`: a reply is sent as is, with no contact fields",
    });
  if (rule.answer.length > REPLY_TEXT_MAX)
    out.push({
      severity: "error",
      code: "replies.answer-too-long",
      message: `${who} is ${rule.answer.length} characters, over the API's ${REPLY_TEXT_MAX}`,
      range,
      hint: "shorten it; the API refuses a longer reply with 400",
    });
  // An answer is a message: the message text rules, at the answer's characters.
  const asMessage = answerAsMessage(project, rule, i);
  for (const textRule of TEXT_RULES) out.push(...textRule(asMessage, { now: null }));
  const info = analyzeSegments(rule.answer);
  if (info.segments > 1)
    out.push({
      severity: "info",
      code: "replies.answer-segments",
      message: `${who} takes ${info.segments} segments (${info.units} ${info.encoding === "GSM-7" ? "GSM-7 characters" : "UCS-2 units"}), each billed`,
      range,
    });
  return out;
}

/**
 * The project as the text rules see an answer: its message is the answer, sent as SMS (no media)
 * without the opt-out footer (the API adds none to a reply), found at the answer's characters;
 * findings name the rule.
 */
function answerAsMessage(project: ProjectSpec, rule: ReplyRuleSpec, i: number): ProjectSpec {
  const path: SpecPath = ["replies", "rules", i, "answer"];
  return {
    ...project,
    address: `${project.address} (reply rule \`${rule.name}\`'s answer)`,
    message: rule.answer,
    media: undefined,
    optOutFooter: false,
    locate: (p) => project.locate(p[0] === "message" ? [...path, ...p.slice(1)] : p),
    locateInMessage: (start, end) => locateIn(project, path, start, end),
  };
}
