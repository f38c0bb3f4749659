/**
 * Language variants of one template checked against each other (issue 26 item 2), on a corpus of
 * variant pairs: each finding at the variant, with the other variant and the instance that sends it
 * in `related`; and the instance's own findings (lint) at the variant, with the instance related.
 */
import { describe, expect, it } from "vitest";
import { checkFileInPlace } from "../../src/campaign/file-check.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { acceptedOptOutWording, hasOptOutWording } from "../../src/message/opt-out-wording.js";
import { campaignFile } from "./helpers.js";

function at(text: string, needle: string, nth = 0): string {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`fixture has no ${needle} #${nth}`);
  }
  const before = text.slice(0, offset);
  return `${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

/** A template with an en and an es variant, each sent by one instance. */
function pair(en: string, es: string): string {
  return `version: 1
fields: [polling_place]
merge_defaults: {polling_place: your polling place}
templates:
  gotv:
    message:
      en: ${JSON.stringify(en)}
      es: ${JSON.stringify(es)}
    instances:
      adams-en:
        organization: Adams County Democrats
        id: a1
        language: en
      adams-es:
        organization: Adams County Democrats
        id: a2
        language: es
`;
}

/** The codes this corpus is about (a long fixture also draws lint.segment-growth, beside the point). */
const ABOUT =
  /^(campaign\.variant-|campaign\.template-|lint\.opt-out-missing|lint\.non-gsm-character|message\.)/;

/** Every finding about variants as `code@line:col -> related line:col ...`, sorted. */
function findings(text: string, optOutWording?: Record<string, string[]>): string[] {
  const checked = checkFileInPlace(campaignFile("c.yaml", text), {
    now: null,
    ...(optOutWording === undefined ? {} : { optOutWording }),
  });
  return [...checked.diagnostics]
    .filter((d) => ABOUT.test(d.code))
    .sort(compareDiagnostics)
    .map(show);
}

function show(d: Diagnostic): string {
  const p = (r: { start: { line: number; column: number } }) => `${r.start.line}:${r.start.column}`;
  const related = (d.related ?? []).map((r) => p(r.range)).join(" ");
  return `${d.code}@${d.range ? p(d.range) : "none"}${related ? ` -> ${related}` : ""}`;
}

const EN = "Hi {{first_name|friend}}, vote at {{polling_place}}. Reply STOP to opt out";
const ES = "Hola {{first_name|amigo}}, vote en {{polling_place}}. Responde STOP para no recibir mas";

describe("variant pairs", () => {
  it("a clean pair has no finding", () => {
    expect(findings(pair(EN, ES))).toEqual([]);
  });

  it("a tag missing in one language: at the variant, the tag in the other and the instance related", () => {
    const text = pair(EN, "Hola {{first_name|amigo}}, vote el martes. Responde STOP para no recibir mas");
    expect(findings(text)).toEqual([
      `campaign.variant-tag-mismatch@${at(text, '"Hola')} -> ${at(text, "{{polling_place}}")} ${at(text, "adams-es:")}`,
    ]);
  });

  it("opt-out missing in one language: the variant check and the instance's lint, both at the variant", () => {
    const text = pair(EN, "Hola {{first_name|amigo}}, vote en {{polling_place}}. Gracias");
    expect(findings(text)).toEqual([
      `campaign.variant-opt-out-missing@${at(text, '"Hola')} -> ${at(text, '"Hi')} ${at(text, "adams-es:")}`,
      `lint.opt-out-missing@${at(text, '"Hola')} -> ${at(text, "adams-es:")}`,
    ]);
  });

  it("opt-out wording is not needed where every instance sending the variant has the footer on", () => {
    const es = "Hola {{first_name|amigo}}, vote en {{polling_place}}. Gracias";
    const footer = pair(EN, es).replace(
      "        language: es\n",
      "        language: es\n        opt_out_footer: true\n",
    );
    expect(findings(footer)).toEqual([]);
    // The template's footer on, one instance turns it off: that instance's variant needs wording.
    const off = pair(EN, es)
      .replace("    instances:\n", "    opt_out_footer: true\n    instances:\n")
      .replace("        language: es\n", "        language: es\n        opt_out_footer: false\n");
    expect(findings(off).map((f) => f.split("@")[0])).toEqual([
      "campaign.variant-opt-out-missing",
      "lint.opt-out-missing",
    ]);
  });

  it("a disclaimer in one language only: at the variant without it", () => {
    const text = pair(`${EN}. Paid for by Adams Dems`, ES);
    expect(findings(text)).toEqual([
      `campaign.variant-disclaimer-missing@${at(text, '"Hola')} -> ${at(text, '"Hi')} ${at(text, "adams-es:")}`,
    ]);
    expect(findings(pair(`${EN}. Paid for by Adams Dems`, `${ES}. Pagado por Adams Dems`))).toEqual([]);
  });

  it("an accent that doubles the segments: named at its place, in the variant check and the instance's lint", () => {
    const en = `Hi {{first_name|friend}}, polls are open 7am to 8pm on Tuesday at {{polling_place}}. Reply STOP to opt out`;
    const es = `Hola {{first_name|amigo}}, vota el martes de 7am a 8pm en {{polling_place}}, allí te esperamos. Responde STOP para no recibir mas`;
    const text = pair(en, es);
    const accent = at(text, "í");
    expect(findings(text)).toEqual([
      `campaign.variant-segments-differ@${accent} -> ${at(text, '"Hi')} ${at(text, "adams-es:")}`,
      `lint.non-gsm-character@${accent} -> ${at(text, "adams-es:")}`,
    ]);
    const checked = checkFileInPlace(campaignFile("c.yaml", text), { now: null });
    const variant = checked.diagnostics.find((d) => d.code === "campaign.variant-segments-differ");
    expect(variant?.message).toBe(
      "template `gotv`: the es variant is 2 segments per recipient in UCS-2, because of í (U+00ED), while the en variant is 1 segment: 2 times the cost per recipient (1 segment in GSM-7)",
    );
    expect(variant?.hint).toBe(
      "write i for í if the plain spelling is acceptable (GSM-7 lacks these), or shorten the variant",
    );
    expect(variant?.severity).toBe("warning");
  });

  it("GSM-7's own accented letters (é, ñ, ¿, ¡) cost nothing and are not named", () => {
    const es = "¡Hola {{first_name|amigo}}! Vota mañana en {{polling_place}}. Responde STOP";
    expect(findings(pair(EN, es))).toEqual([]);
    // ó is not GSM-7: short as it is, the variant stays one segment (the instance's lint says so, as info).
    const accented = pair(EN, "¡Hola {{first_name|amigo}}! ¿Ya votó? En {{polling_place}}. Responde STOP");
    expect(findings(accented)).toEqual([
      `lint.non-gsm-character@${at(accented, "ó")} -> ${at(accented, "adams-es:")}`,
    ]);
  });
});

describe("opt-out wording per language", () => {
  it("accepts Spanish wording with or without accents, and BAJA", () => {
    expect(hasOptOutWording("Responde STOP para no recibir más", "es")).toBe(true);
    expect(hasOptOutWording("responde  stop para no recibir mas", "es")).toBe(true);
    expect(hasOptOutWording("Envia BAJA para cancelar", "es-US")).toBe(true);
    expect(hasOptOutWording("Reply STOP to opt out", "es")).toBe(false);
    expect(hasOptOutWording("STOPPED by to say hi", "en")).toBe(false);
    expect(hasOptOutWording("Reply STOP to opt out", "fr")).toBe(true); // no French data: English's
  });

  it("a policy's wording extends the language's list", () => {
    expect(acceptedOptOutWording("es", { es: ["Manda ALTO"] })).toContain("Manda ALTO");
    const text = pair(EN, "Hola {{first_name|amigo}}, vote en {{polling_place}}. Manda ALTO para salir");
    expect(findings(text).map((f) => f.split("@")[0])).toEqual([
      "campaign.variant-opt-out-missing",
      "lint.opt-out-missing",
    ]);
    expect(findings(text, { es: ["Manda ALTO"] })).toEqual([]);
  });

  it("a policy phrase without a letter or digit accepts nothing (it would switch the rule off)", () => {
    const text = pair(EN, "Hola {{first_name|amigo}}, vote en {{polling_place}}. Gracias");
    expect(hasOptOutWording("vote en {{polling_place}}. Gracias", "es", { es: ["."] })).toBe(false);
    expect(hasOptOutWording("Gracias !", "en", { en: ["!"] })).toBe(false);
    expect(findings(text, { es: ["."] }).map((f) => f.split("@")[0])).toEqual([
      "campaign.variant-opt-out-missing",
      "lint.opt-out-missing",
    ]);
  });
});
