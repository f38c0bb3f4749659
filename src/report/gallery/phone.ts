/**
 * One case as a phone mock-up: the sender, the media tiles (MMS), the message bubble with each merge
 * tag marked by where its value came from and each character that forces UCS-2 highlighted, then the
 * SMS facts and the tag table in words. Pure: model in, HTML out; all user text is escaped.
 */

import { codePointLabel } from "../../message/code-point.js";
import { escapeHtml } from "../html-escape.js";
import { contactDetail, contactTitle, mediaKindLabel, sourceExplanation, sourceLabel } from "./labels.js";
import type { GalleryCase, GalleryPiece, GalleryProject, GallerySpan } from "./model.js";

function spansHtml(spans: readonly GallerySpan[]): string {
  return spans
    .map((s) =>
      s.ucs2
        ? `<mark class="ucs2" title="forces UCS-2: ${codePointLabel(s.text)}">${escapeHtml(s.text)}</mark>`
        : escapeHtml(s.text),
    )
    .join("");
}

function pieceHtml(piece: GalleryPiece): string {
  switch (piece.origin.kind) {
    case "literal":
      return spansHtml(piece.spans);
    case "footer":
      return `<span class="footer-text" title="opt-out footer">${spansHtml(piece.spans)}</span>`;
    case "tag": {
      const { name, source } = piece.origin;
      const title = escapeHtml(`{{${name}}}: ${sourceLabel(source)}`);
      if (piece.text === "")
        return `<span class="tag src-${source} empty" title="${title}"><span class="visually-hidden">(${escapeHtml(name)}: empty)</span></span>`;
      return `<span class="tag src-${source}" data-tag="${escapeHtml(name)}" title="${title}">${spansHtml(piece.spans)}</span>`;
    }
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

function smsFactsHtml(c: GalleryCase): string {
  const characters = plural(c.characters, "character");
  if (c.sms === null) return `<div class="sms-facts"><p>${characters} · MMS: segments do not apply</p></div>`;
  const unit =
    c.sms.encoding === "GSM-7"
      ? "a few characters, like € and [, take two places"
      : "UCS-2: an emoji takes two places";
  const lines = [
    `<p><strong>${c.sms.encoding}</strong> · ${plural(c.sms.segments, "segment")} · ${characters}</p>`,
    `<p>${c.sms.units} character places, ${c.sms.units_per_segment} per segment (${unit})</p>`,
  ];
  if (c.sms.non_gsm_characters.length > 0) {
    const chars = c.sms.non_gsm_characters
      .map((ch) => `<mark class="ucs2">${escapeHtml(ch)}</mark> (${codePointLabel(ch)})`)
      .join(", ");
    lines.push(`<p class="ucs2-why">UCS-2 because of ${chars}</p>`);
  }
  return `<div class="sms-facts">${lines.join("")}</div>`;
}

function tagTableHtml(c: GalleryCase): string {
  if (c.tags.length === 0) return "";
  const rows = c.tags
    .map((t) => {
      const value = t.value === "" ? `<span class="empty-value">(empty)</span>` : escapeHtml(t.value);
      return `<tr><th scope="row"><code>${escapeHtml(t.name)}</code></th><td class="value">${value}</td><td class="source"><span class="swatch src-${t.source}">${escapeHtml(sourceLabel(t.source))}</span><span class="visually-hidden">: ${escapeHtml(sourceExplanation(t.source))}</span></td></tr>`;
    })
    .join("");
  return `<table class="tags"><caption>Merge tags</caption><thead><tr><th scope="col">Tag</th><th scope="col">Value used</th><th scope="col">From</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function mediaHtml(project: GalleryProject): string {
  return project.media
    .map(
      (m) =>
        `<div class="media"><span class="media-kind">${mediaKindLabel(m.kind)} attachment</span><span class="media-name">${escapeHtml(m.name)}</span><span class="visually-hidden">(not loaded: the gallery makes no network requests)</span></div>`,
    )
    .join("");
}

export function phoneHtml(project: GalleryProject, c: GalleryCase): string {
  const titleId = `${c.id}-title`;
  const bubble = c.pieces.map(pieceHtml).join("");
  return [
    `<section class="case" id="${c.id}" aria-labelledby="${titleId}">`,
    `<h3 id="${titleId}">${escapeHtml(contactTitle(c.contact))}</h3>`,
    `<p class="who">${escapeHtml(contactDetail(c.contact))}</p>`,
    `<div class="phone">`,
    `<div class="phone-top"><span class="sender">${escapeHtml(project.sender)}</span><span class="kind">${project.protocol} message</span></div>`,
    `<div class="thread">${mediaHtml(project)}<p class="bubble" data-testid="bubble">${bubble}</p></div>`,
    `</div>`,
    smsFactsHtml(c),
    tagTableHtml(c),
    `</section>`,
  ].join("\n");
}
