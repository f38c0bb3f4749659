/**
 * Validate's checks of a project's `replies:` (issue 28): each rule has exactly one of `keywords` and
 * `pattern`; a pattern compiles; no keyword is empty once folded; names are unique; a rule whose
 * every keyword an earlier rule already has can never answer; no rule could match a revocation word
 * (opt-outs are never answered); the answer is checked like a message (no merge tags, the API's
 * 1,600 characters, GSM-7, segments). Pure; positions point at the rule's values in the file (in
 * `defaults` when inherited).
 */
import { REPLY_TEXT_MAX } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseMergeTags, tagsOf } from "../message/merge-tags.js";
import { compilePattern, foldAccents, foldText, hasPhrase, revocationWords } from "../message/reply-words.js";
import { analyzeSegments } from "../message/segments.js";
import type { ProjectSpec, ReplyRuleSpec } from "./model.js";
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
    if (rule.pattern !== undefined) out.push(...patternFindings(project, rule, i, words));
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
): Diagnostic[] {
  const range = project.locate(["replies", "rules", i, "pattern"]);
  const compiled = compilePattern(rule.pattern ?? "");
  if (!compiled.ok && compiled.unsafe)
    return [
      {
        severity: "error",
        code: "replies.pattern-unsafe",
        message: `project \`${project.address}\`: reply rule \`${rule.name}\` pattern could hang the worker: ${compiled.message}`,
        range,
        hint: "remove the nested repetition (write `a+$` for `(a+)+$`), or use `keywords`",
      },
    ];
  if (!compiled.ok)
    return [
      {
        severity: "error",
        code: "replies.pattern-invalid",
        message: `project \`${project.address}\`: reply rule \`${rule.name}\` pattern is not a valid regular expression: ${compiled.message}`,
        range,
        hint: "write a JavaScript regular expression without slashes or flags, such as `\\bwho (is|'s) this\\b`",
      },
    ];
  // The texts a contact who opts out sends: each word alone, in capitals, with punctuation, and in
  // the short sentences opt-outs come in ("unsubscribe me", "please stop", "stop texting").
  const probe = words.find((w) => optOutTexts(w.word).some((t) => compiled.regex.test(foldAccents(t))));
  if (probe === undefined) return [];
  return [
    {
      severity: "error",
      code: "replies.rule-matches-opt-out",
      message: `project \`${project.address}\`: reply rule \`${rule.name}\` pattern matches the revocation word "${probe.word}" (${probe.language}): a contact who texts it is opting out and must not be answered`,
      range,
      hint: "narrow the pattern (anchor it, name the words it is for) so that no opt-out text matches it",
    },
  ];
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
  const info = analyzeSegments(rule.answer);
  if (info.encoding !== "GSM-7")
    out.push({
      severity: "warning",
      code: "replies.answer-not-gsm",
      message: `${who} has characters outside GSM-7 (${info.nonGsmCharacters.join(" ")}): ${info.segments} UCS-2 segment${info.segments === 1 ? "" : "s"}, or changed by the API's GSM normalization`,
      range,
      hint: "replace them with GSM-7 characters (straight quotes, plain dashes) to keep 160 characters a segment and the text as reviewed",
    });
  if (info.segments > 1)
    out.push({
      severity: "info",
      code: "replies.answer-segments",
      message: `${who} takes ${info.segments} segments (${info.units} ${info.encoding === "GSM-7" ? "GSM-7 characters" : "UCS-2 units"}), each billed`,
      range,
    });
  return out;
}
