/**
 * A file's `capacity:` as a CapacitySpec, built once per file and shared by its projects (the
 * projects of one file hold the same object). Pure.
 */
import type { Document } from "yaml";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import { nameMapFrom } from "../text/names.js";
import type { CapacitySpec, SpecPath } from "./model.js";
import type { RawCampaignDocument } from "./raw.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { findPath } from "./yaml-path.js";

const built = new WeakMap<RawCampaignDocument, CapacitySpec | null>();

/** The file's declared capacity, or undefined when it declares none. */
export function capacityOf(
  file: RawCampaignDocument,
  doc: Document,
  source: SourceText,
): CapacitySpec | undefined {
  const known = built.get(file);
  if (known !== undefined) return known ?? undefined;
  const raw = file.capacity;
  if (raw === undefined) {
    built.set(file, null);
    return undefined;
  }
  const locate = (path: SpecPath): SourceRange => {
    // findPath stops at the deepest key it finds: a missing leaf points at its closest parent.
    const hit = findPath(doc, doc.contents, ["capacity", ...path]);
    const span = hit.value ?? hit.key ?? [0, 0];
    return rangeAt(source, span[0], span[1]);
  };
  const spec: CapacitySpec = {
    brands: nameMapFrom(
      Object.entries(raw.brands ?? {}).map(([brand, b]) => [
        brand,
        { dailyCap: b.daily_cap === "none" ? null : b.daily_cap },
      ]),
    ),
    throughput: { ...raw.throughput },
    locate,
  };
  built.set(file, spec);
  return spec;
}
