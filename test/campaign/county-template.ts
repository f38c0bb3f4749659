/**
 * Issue 33's county campaign: one template whose Spanish variant has accents GSM-7 lacks (ó, í, á),
 * sent by many instances (60 counties), as campaign file text. Shared by the tests of findings at a
 * template's value (validate, the language server, plan).
 */

/** The Spanish variant: ó, í and á are not in GSM-7 (é is), so each is a `lint.non-gsm-character`. */
export const ES_VARIANT =
  "Hola {{first_name|amigo}}, tu votación es aquí, en {{polling_place}}. Responde STOP para no recibir más";
export const EN_VARIANT = "Hi {{first_name|friend}}, vote at {{polling_place}}. Reply STOP to opt out";

/** The characters of ES_VARIANT GSM-7 cannot carry, in the order they come. */
export const NON_GSM = ["ó", "í", "á"] as const;

export interface CountyInstance {
  readonly address: string;
  readonly organization: string;
  readonly id: string;
  /** Further keys of the instance, as YAML lines indented by 8 spaces. */
  readonly extra?: string;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** `n` counties, `county-01` ... , each its own organization and project id. */
export function counties(n: number): CountyInstance[] {
  return Array.from({ length: n }, (_, i) => ({
    address: `county-${pad(i + 1, 2)}`,
    organization: `County ${pad(i + 1, 2)} Democrats`,
    id: `9a000000-0000-4000-8000-${pad(i + 1, 12)}`,
  }));
}

/**
 * The campaign file: template `gotv` (en and es variants, `templateKeys` added: YAML lines indented
 * by 4 spaces) with every instance sending `es`; `before` goes between `fields` and `templates`.
 */
export function countyTemplate(
  instances: readonly CountyInstance[],
  options: { readonly templateKeys?: string; readonly before?: string } = {},
): string {
  const body = instances
    .map(
      (i) =>
        `      ${i.address}:\n        organization: ${i.organization}\n        id: ${i.id}\n        language: es\n${i.extra ?? ""}`,
    )
    .join("");
  return `version: 1
fields: [polling_place]
merge_defaults: {polling_place: the courthouse}
${options.before ?? ""}templates:
  gotv:
    message:
      en: "${EN_VARIANT}"
      es: "${ES_VARIANT}"
${options.templateKeys ?? "    contact_lists: [Likely Voters]\n"}    instances:
${body}`;
}

/** `line:column` (1-based) of the first `needle` in `text` after `from`. */
export function lineColumn(text: string, needle: string, from = 0): string {
  const offset = text.indexOf(needle, from);
  if (offset < 0) throw new Error(`no ${needle} in the text`);
  const before = text.slice(0, offset);
  return `${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}
