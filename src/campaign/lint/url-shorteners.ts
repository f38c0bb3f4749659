/**
 * Rule: links through public URL shorteners. Carriers filter messages with shared shortener domains
 * (they hide the destination and are used by spam); use the project's branded tracking domain.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { analysisOf, resultSlot } from "../../message/message-analysis.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

/** Public shortener hosts we flag. Matched as a whole host name (or with a `www.` prefix). */
export const URL_SHORTENERS = [
  "bit.ly",
  "bitly.com",
  "tinyurl.com",
  "t.co",
  "goo.gl",
  "ow.ly",
  "is.gd",
  "buff.ly",
  "rebrand.ly",
  "cutt.ly",
  "shorturl.at",
  "tiny.cc",
  "rb.gy",
  "bl.ink",
  "short.io",
  "v.gd",
  "lnkd.in",
  "s.id",
  "t.ly",
  "shorte.st",
  "adf.ly",
] as const;

const escaped = URL_SHORTENERS.map((h) => h.replace(/\./g, "\\."));
// A host starts after a non-host character (or the start) and ends before a path, space or end.
const SHORTENER = new RegExp(
  `(?<![\\w.@/-])(?:https?://)?(?:www\\.)?(${escaped.join("|")})(?![A-Za-z0-9-]|\\.[A-Za-z0-9])(?:/\\S*)?`,
  "gi",
);

/** A link through a shortener, at `[start, end)` of the text. */
export interface ShortenedLink {
  readonly host: string;
  readonly start: number;
  readonly end: number;
}

/** The slot of a message's links in its analysis (message-analysis.ts): projects share messages. */
const LINKS = resultSlot<readonly ShortenedLink[]>();

export function findShortenedLinks(text: string): ShortenedLink[] {
  const found: { host: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(SHORTENER)) {
    const host = (match[1] ?? "").toLowerCase();
    // Sentence punctuation after a link is not part of it.
    const link = match[0].replace(/[.,!?;:)'"]+$/, "");
    found.push({ host, start: match.index, end: match.index + link.length });
  }
  return found;
}

export const urlShortenersRule: LintRule = (project) => {
  const message = project.message;
  if (message === undefined) return NO_FINDINGS;
  const links: readonly ShortenedLink[] = analysisOf(message).remember(LINKS, "", "", "", () =>
    findShortenedLinks(message),
  );
  if (links.length === 0) return NO_FINDINGS;
  return links.map(
    (link): Diagnostic => ({
      severity: "warning",
      code: "lint.url-shortener",
      message: `${project.address}: link through the public shortener ${link.host}, which carriers filter`,
      range: project.locateInMessage(link.start, link.end),
      hint: "link to the destination directly, or use link tracking with your own tracking domain",
    }),
  );
};
