/**
 * The one table of SMS segment vectors (`test/fixtures/segment-vectors.json`), read by the planner's
 * test and by the sandbox's, so the two segment counters cannot drift apart. The file is checked
 * against a schema when read: a malformed vector fails both tests instead of being skipped.
 */
import { readFileSync } from "node:fs";
import { shapeValidator } from "./cached-validator.js";

/** `gsm7` or `ucs2`, as the file spells the encodings. */
export type VectorEncoding = "gsm7" | "ucs2";

/**
 * One vector. Invariants: `text` is the file's pieces concatenated (each piece repeated its count
 * times); `units` is septets for `gsm7` and UTF-16 code units for `ucs2`; `segments >= 1`.
 */
export interface SegmentVector {
  readonly name: string;
  readonly text: string;
  readonly encoding: VectorEncoding;
  readonly units: number;
  readonly segments: number;
}

const VECTORS_FILE = new URL("../fixtures/segment-vectors.json", import.meta.url);

const schema = {
  type: "object",
  required: ["vectors"],
  properties: {
    $comment: { type: "string" },
    vectors: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "pieces", "encoding", "units", "segments"],
        properties: {
          name: { type: "string", minLength: 1 },
          pieces: {
            type: "array",
            items: {
              type: "array",
              prefixItems: [
                { type: "string", minLength: 1 },
                { type: "integer", minimum: 1 },
              ],
              minItems: 2,
              maxItems: 2,
            },
          },
          encoding: { enum: ["gsm7", "ucs2"] },
          units: { type: "integer", minimum: 0 },
          segments: { type: "integer", minimum: 1 },
        },
      },
    },
  },
  additionalProperties: false,
};

interface VectorsFile {
  readonly vectors: readonly {
    readonly name: string;
    readonly pieces: readonly (readonly [string, number])[];
    readonly encoding: VectorEncoding;
    readonly units: number;
    readonly segments: number;
  }[];
}

/** The vectors of the file, texts built; throws when the file does not match its schema. */
export function loadSegmentVectors(): SegmentVector[] {
  const raw: unknown = JSON.parse(readFileSync(VECTORS_FILE, "utf8"));
  // Compiled once (any worker, any pass), then loaded from the tests' validator cache.
  const validate = shapeValidator("segment-vectors", schema, {
    ajv: { allErrors: true, strict: true },
    formats: false,
  });
  if (!validate(raw)) throw new Error(`segment-vectors.json: ${JSON.stringify(validate.errors)}`);
  const names = new Set<string>();
  return (raw as VectorsFile).vectors.map(({ name, pieces, encoding, units, segments }) => {
    if (names.has(name)) throw new Error(`segment-vectors.json: duplicate name ${JSON.stringify(name)}`);
    names.add(name);
    return {
      name,
      text: pieces.map(([piece, count]) => piece.repeat(count)).join(""),
      encoding,
      units,
      segments,
    };
  });
}

/** The encoding names the planner and the sandbox use. */
export function encodingName(encoding: VectorEncoding): "GSM-7" | "UCS-2" {
  switch (encoding) {
    case "gsm7":
      return "GSM-7";
    case "ucs2":
      return "UCS-2";
  }
}
