/**
 * `lint.opt-out-missing` on a project with no declared language (a plain project, such as import
 * writes for a Spanish dashboard project): judged in the language its opt-out wording is in, by that
 * language's accepted wording (src/message/opt-out-wording.ts) and the policy's.
 */
import { describe, expect, it } from "vitest";
import { optOutRule } from "../../src/campaign/lint/opt-out.js";
import { projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T12:00:00Z");
const codes = (message: string, optOutWording?: Readonly<Record<string, readonly string[]>>) =>
  optOutRule(projectSpec({ message, optOutFooter: false }), {
    now,
    ...(optOutWording === undefined ? {} : { optOutWording }),
  }).map((d) => d.code);

describe("opt-out rule, plain project", () => {
  it("accepts the Spanish wording the docs list", () => {
    expect(codes("Hola, vota el martes. Envía BAJA para no recibir más")).toEqual([]);
    expect(codes("Hola, vota el martes. Envie baja")).toEqual([]);
    expect(codes("Hola, vota el martes. Responde BAJA")).toEqual([]);
  });

  it("accepts a policy's wording for a language", () => {
    expect(codes("Vota el martes. Manda ALTO", { es: ["Manda ALTO"] })).toEqual([]);
    expect(codes("Vota el martes. Manda ALTO")).toEqual(["lint.opt-out-missing"]);
  });

  it("still flags a message with no language's wording, and wording only in a fallback", () => {
    expect(codes("Hola, vota el martes. Gracias")).toEqual(["lint.opt-out-missing"]);
    expect(codes("Hola, vota el martes. {{baja|Envía BAJA}}")).toEqual(["lint.opt-out-missing"]);
  });
});
