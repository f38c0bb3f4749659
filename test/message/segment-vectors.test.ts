/**
 * The planner's segment arithmetic over the shared vectors (test/fixtures/segment-vectors.json);
 * test/sandbox/segment-vectors.test.ts runs the sandbox's billing over the same file.
 */
import { describe, expect, it } from "vitest";
import { analyzeSegments, MULTI_SEGMENT_CAPACITY } from "../../src/message/segments.js";
import { encodingName, loadSegmentVectors } from "../helpers/segment-vectors.js";

const vectors = loadSegmentVectors();

describe("analyzeSegments over the shared segment vectors", () => {
  it.each(vectors)("$name: $encoding, $units units, $segments segment(s)", (v) => {
    const info = analyzeSegments(v.text);
    expect({ encoding: info.encoding, units: info.units, segments: info.segments }).toEqual({
      encoding: encodingName(v.encoding),
      units: v.units,
      segments: v.segments,
    });
    expect(info.segmentTexts).toHaveLength(v.segments);
    expect(info.segmentTexts.join("")).toBe(v.text);
  });

  // What a carrier needs of a split: every part fits, and no part starts with the second half of an
  // escape pair or a surrogate pair (an escape pair is one JS character, so it cannot be cut; a
  // surrogate pair can).
  it.each(vectors.filter((v) => v.segments > 1))("$name: every part fits and no pair is cut", (v) => {
    const info = analyzeSegments(v.text);
    const capacity = MULTI_SEGMENT_CAPACITY[info.encoding];
    for (const part of info.segmentTexts) {
      expect(partUnits(part, info.encoding)).toBeLessThanOrEqual(capacity);
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(part)).toBe(false);
    }
  });
});

/** The units of one part in the message's encoding (a part of UCS-2 text may be all GSM-7). */
function partUnits(part: string, encoding: "GSM-7" | "UCS-2"): number {
  switch (encoding) {
    case "UCS-2":
      return part.length;
    case "GSM-7":
      return analyzeSegments(part).units;
  }
}
