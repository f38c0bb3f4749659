/**
 * What the campaign files already beside a template import declare: every address taken (projects,
 * templates and their instances) and the project id each describes, so `import --template` reuses
 * no address and describes no project twice. Reads the YAML leniently (a file the loader would
 * refuse still takes its names). Pure.
 */
import { parse } from "yaml";

export interface Declared {
  /** Project addresses, template names and instance addresses. */
  readonly addresses: Set<string>;
  /** Project id -> `file: address` that describes it. */
  readonly ids: Map<string, string>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export function declaredBy(files: readonly { readonly path: string; readonly text: string }[]): Declared {
  const addresses = new Set<string>();
  const ids = new Map<string, string>();
  const note = (path: string, address: string, body: unknown) => {
    addresses.add(address);
    if (isRecord(body) && typeof body.id === "string" && !ids.has(body.id))
      ids.set(body.id, `${path}: ${address}`);
  };
  for (const file of files) {
    let doc: unknown;
    try {
      doc = parse(file.text);
    } catch {
      continue;
    }
    if (!isRecord(doc)) continue;
    if (isRecord(doc.projects))
      for (const [address, body] of Object.entries(doc.projects)) note(file.path, address, body);
    if (isRecord(doc.templates))
      for (const [name, template] of Object.entries(doc.templates)) {
        addresses.add(name);
        if (isRecord(template) && isRecord(template.instances))
          for (const [address, body] of Object.entries(template.instances)) note(file.path, address, body);
      }
  }
  return { addresses, ids };
}
