/** The state file: the whole World plus the virtual clock, written atomically, read back on start. */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { reviveWorld, type World } from "./world.js";

const FORMAT = "campaignctl-sandbox-state";

interface StateFile {
  format: typeof FORMAT;
  version: 1;
  virtual_now: string;
  world: World;
}

export type StateLoad =
  | { readonly kind: "absent" }
  | { readonly kind: "loaded"; readonly world: World; readonly nowMs: number }
  | { readonly kind: "invalid"; readonly message: string };

export function saveState(path: string, world: World, nowMs: number): void {
  const file: StateFile = { format: FORMAT, version: 1, virtual_now: new Date(nowMs).toISOString(), world };
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(file));
  renameSync(temp, path);
}

export function loadState(path: string): StateLoad {
  if (!existsSync(path)) return { kind: "absent" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { kind: "invalid", message: `the state file is not valid JSON (${String(error)})` };
  }
  const file = parsed as Partial<StateFile> | null;
  if (
    file === null ||
    typeof file !== "object" ||
    file.format !== FORMAT ||
    file.version !== 1 ||
    !file.world
  )
    return { kind: "invalid", message: `not a campaignctl sandbox state file (format ${FORMAT} version 1)` };
  const nowMs = Date.parse(file.virtual_now ?? "");
  if (Number.isNaN(nowMs)) return { kind: "invalid", message: "the state file has no valid virtual_now" };
  // Requests in flight when the previous process stopped never finished: forget their keys.
  for (const [key, record] of Object.entries(file.world.idempotency))
    if (record.state === "running") delete file.world.idempotency[key];
  return { kind: "loaded", world: reviveWorld(file.world), nowMs };
}
