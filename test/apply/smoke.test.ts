import { afterEach, expect, test } from "vitest";
import { apply, plan, session, testBed, type TestBed } from "./helpers.js";

let bed: TestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

test("smoke", async () => {
  bed = await testBed({ test: 2, schedule: 2, pause: 2, "test-then-schedule": 1 });
  const s = await session(bed);
  const { plan: p } = await plan(bed, s);
  await s.close();
  console.log(JSON.stringify(p.summary), p.diagnostics.map((d) => d.code));
  const { result } = await apply(bed, p);
  console.log(JSON.stringify(result.summary), JSON.stringify(result.requests));
  for (const a of result.actions) console.log(a.id, a.status, a.reason, a.error?.message);
  expect(result.summary.failed).toBe(0);
});
