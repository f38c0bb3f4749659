/** `preview` shows each reply rule's answer, checked like a message (the JSON checked against its schema). */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { ANSWERS, campaignDir } from "./world.js";

describe("preview of reply rules", () => {
  it("lists each rule with what it matches, its answer and its segments", async () => {
    const cwd = campaignDir();
    const json = await runCli(["preview", "--json", "."], { cwd });
    expect(json.code, json.stderr).toBe(0);
    const gotv = JSON.parse(json.stdout).projects.find(
      (p: { address: string }) => p.address === "gotv-reminder",
    );
    expect(gotv.replies.map((r: { rule: string }) => r.rule)).toEqual(["where", "donde", "who"]);
    expect(gotv.replies[1]).toMatchObject({
      matches: "es: dónde voto, donde votar",
      answer: ANSWERS.donde,
      sms: { encoding: "GSM-7", segments: 1 },
    });
    const text = await runCli(["preview", "--no-color", "."], { cwd });
    expect(text.stdout).toContain("reply rule where (en: where do i vote, polling place)");
    expect(text.stdout).toContain(`│ ${ANSWERS.where}`);
  });
});
