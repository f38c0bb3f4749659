/**
 * The policy's `opt_out_wording` (issue 26): parsed, combined as a floor (accepting more wording
 * loosens the opt-out check, so a nearer file may only accept less unless it says `loosens`), and
 * read by `require_opt_out_language` for a template instance in another language.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyRuleText } from "../../src/policy/rule-text.js";
import { policyViolations } from "../../src/policy/rules.js";
import { campaignFile, where } from "../campaign/helpers.js";

function layer(file: string, text: string) {
  const parsed = parsePolicy(file, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

const ROOT =
  'version: 1\nrules:\n  require_opt_out_language: true\n  opt_out_wording:\n    es: ["Manda ALTO", "Escribe ALTO"]\n';
const root = layer("campaignctl.policy.yaml", ROOT);

describe("opt_out_wording", () => {
  it("is parsed and shown per language", () => {
    expect(root.rules.opt_out_wording).toEqual({ es: ["Manda ALTO", "Escribe ALTO"] });
    expect(policyRuleText("opt_out_wording", root.rules)).toBe('es: "Manda ALTO", "Escribe ALTO"');
  });

  it("refuses a malformed value", () => {
    const parsed = parsePolicy("p.yaml", "version: 1\nrules:\n  opt_out_wording:\n    es: []\n");
    expect(parsed.ok).toBe(false);
  });

  it("a nearer file may accept less, not more, unless it loosens the rule", () => {
    const fewer = layer(
      "c/campaignctl.policy.yaml",
      'version: 1\nrules:\n  opt_out_wording:\n    es: ["Manda ALTO"]\n',
    );
    expect(combinePolicies([root, fewer], []).diagnostics).toEqual([]);
    expect(combinePolicies([root, fewer], []).policy?.rules.opt_out_wording).toEqual({ es: ["Manda ALTO"] });
    const more = layer(
      "c/campaignctl.policy.yaml",
      'version: 1\nrules:\n  opt_out_wording:\n    es: ["Manda ALTO", "Di ADIOS"]\n',
    );
    const refused = combinePolicies([root, more], []);
    expect(refused.diagnostics.map(where)).toEqual(["policy.loosens-ancestor@3:3"]);
    expect(refused.policy?.rules.opt_out_wording).toEqual({ es: ["Manda ALTO", "Escribe ALTO"] });
    const marked = layer(
      "c/campaignctl.policy.yaml",
      'version: 1\nloosens: [opt_out_wording]\nrules:\n  opt_out_wording:\n    es: ["Di ADIOS"]\n',
    );
    const loosened = combinePolicies([root, marked], []);
    expect(loosened.diagnostics.map((d) => d.code)).toEqual(["policy.loosened"]);
    expect(loosened.policy?.rules.opt_out_wording).toEqual({ es: ["Di ADIOS"] });
  });

  it("require_opt_out_language judges a Spanish instance by Spanish wording and the policy's", () => {
    const text = (es: string) => `version: 1
templates:
  t:
    message:
      en: "Vote Tuesday. Reply STOP to opt out"
      es: "${es}"
    state: tested
    test: {contacts: [{phone: "+15035550150"}]}
    instances:
      a-es: {organization: A, id: a1, language: es}
`;
    const judge = (es: string, rules = root) => {
      const project = assembleCampaign([campaignFile("c.yaml", text(es))]).campaign.projects[0];
      if (project === undefined) throw new Error("no project");
      return policyViolations(rules, project, { now: null, estimatedCostCents: null }).map((d) => d.code);
    };
    expect(judge("Vota el martes. Responde STOP para cancelar")).toEqual([]);
    expect(judge("Vota el martes. Manda ALTO para salir")).toEqual([]);
    expect(judge("Vota el martes. Reply STOP to opt out")).toEqual(["policy.require-opt-out-language"]);
    const noWording = layer("p.yaml", "version: 1\nrules:\n  require_opt_out_language: true\n");
    expect(judge("Vota el martes. Manda ALTO para salir", noWording)).toEqual([
      "policy.require-opt-out-language",
    ]);
  });
});

describe("a plain project (no declared language)", () => {
  // Import writes a Spanish dashboard project as a plain project: its wording tells its language.
  const plain = (message: string) => `version: 1
organization: A
projects:
  p:
    id: p1
    message: "${message}"
    state: tested
    test: {contacts: [{phone: "+15035550150"}]}
`;
  const judge = (message: string, rules = root) => {
    const project = assembleCampaign([campaignFile("c.yaml", plain(message))]).campaign.projects[0];
    if (project === undefined) throw new Error("no project");
    return policyViolations(rules, project, { now: null, estimatedCostCents: null }).map((d) => d.code);
  };

  it("is judged in the language its opt-out wording is in: Spanish wording, the policy's too", () => {
    expect(judge("Vota el martes. Envía BAJA para no recibir más")).toEqual([]);
    expect(judge("Vota el martes. Responde STOP para cancelar")).toEqual([]);
    expect(judge("Vota el martes. Manda ALTO para salir")).toEqual([]);
  });

  it("is still judged by English's instruction when no language's wording is there", () => {
    expect(judge("Vote Tuesday. Reply STOP to opt out")).toEqual([]);
    expect(judge("Vote Tuesday. Stop by our office")).toEqual(["policy.require-opt-out-language"]);
    expect(judge("Vota el martes. Gracias")).toEqual(["policy.require-opt-out-language"]);
    const noWording = layer("p.yaml", "version: 1\nrules:\n  require_opt_out_language: true\n");
    expect(judge("Vota el martes. Manda ALTO para salir", noWording)).toEqual([
      "policy.require-opt-out-language",
    ]);
  });
});
