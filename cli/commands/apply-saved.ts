/**
 * `apply PLANFILE`: a saved plan is applied only if it is still the plan of the world. The plan
 * document must parse and validate; every campaign file it was made from must still have its
 * sha256; every project with planned actions must still have the live status and `updated_at` the
 * plan recorded. Any difference refuses the whole plan, with what changed, and no mutating request
 * is sent (the only requests are the reads of the affected projects).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  affectedProjects,
  compareBaseUrl,
  compareFiles,
  compareLive,
  type FileNow,
  type ProjectNow,
} from "../../src/apply/index.js";
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { failWith } from "../fail.js";
import { errnoCode } from "../files.js";
import type { Io } from "../io.js";
import type { Outcome } from "../outcome.js";
import type { Session } from "../session.js";
import { type ApplyDeps, type ApplyFlags, execute, type Relay, refuse } from "./apply-run.js";

export async function applySaved(
  planFile: string,
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
  relay: Relay,
): Promise<Outcome> {
  const before = session.client.stats();
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, planFile), "utf8");
  } catch (error) {
    return failWith(
      [
        {
          severity: "error",
          code: "apply.plan-unreadable",
          message: `cannot read ${planFile} (${errnoCode(error)})`,
          hint: "pass the file `campaignctl plan --out FILE` wrote",
        },
      ],
      new Map(),
      io,
    );
  }
  const parsed = parsePlanDocument(text, { file: planFile });
  if (!parsed.ok) return refuse(null, parsed.diagnostics, flags, io, session, before);
  const plan = parsed.plan;
  const files = new Map<string, FileNow>();
  for (const f of plan.files) files.set(f.path, await hashFile(resolve(io.cwd, f.path)));
  const reads = new Map<string, ProjectNow>();
  for (const p of affectedProjects(plan)) {
    const res = await session.client.getProject(p.project_id);
    reads.set(
      p.project_id,
      res.ok
        ? { kind: "found", live: { status: res.value.status, updated_at: res.value.updated_at } }
        : {
            kind: "unreadable",
            code: res.error.kind === "http" ? res.error.code : res.error.cause,
            message: res.error.message,
          },
    );
  }
  const refused = [
    ...(session.sandbox === null ? compareBaseUrl(plan, session.baseUrl) : []),
    ...compareFiles(plan, files, planFile),
    ...compareLive(plan, reads, planFile),
  ];
  if (refused.length > 0) return refuse(plan, refused, flags, io, session, before);
  io.stderr(
    `Applying the saved plan ${planFile} (made ${plan.created_at}); files and live state unchanged since.\n`,
  );
  return execute(plan, flags, io, deps, session, relay, before, {
    organizationId: undefined,
    scheduleBodyFor: undefined,
    sources: new Map(),
  });
}

async function hashFile(path: string): Promise<FileNow> {
  try {
    return {
      kind: "found",
      sha256: createHash("sha256")
        .update(await readFile(path))
        .digest("hex"),
    };
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" ? { kind: "missing" } : { kind: "unreadable", message: code };
  }
}
