/**
 * The screenshot comparison of test/gallery/browser.test.ts (png.ts) on images small enough to
 * check by hand: every PNG row filter (None, Sub, Up, Average, Paeth) undone to the values worked out
 * below, grey and RGB widened to RGBA, the encoder's output read back, and the count of differing
 * pixels at the threshold, over different sizes, and in the diff image. The browser test decodes
 * only screenshots whose bytes differ from the reference, so this is where the decoder always runs.
 */
import { deflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { comparePng, decodePng, diffPng, encodePng, type Image } from "./png.js";

/** A PNG of raw filtered rows (each: filter type, then the row's bytes); CRCs zero (not checked). */
function png(width: number, height: number, colorType: number, rows: readonly number[][]): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, "latin1");
    return Buffer.concat([head, body, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colorType, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows.flat()))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Grey values as RGBA. */
const grey = (...values: number[]) => values.flatMap((v) => [v, v, v, 255]);

describe("decodePng", () => {
  test("undoes each row filter (3 grey pixels a row, one byte each)", () => {
    const image = decodePng(
      png(3, 5, 0, [
        [0, 10, 20, 30], // None: as is
        [1, 5, 5, 250], // Sub: 5, 5+5, 250+10 (mod 256)
        [2, 1, 2, 3], // Up: the row above plus 1, 2, 3
        [3, 10, 0, 100], // Average: (left+up)/2 plus: 10+3, 0+(13+12)/2, 100+(12+7)/2
        [4, 1, 2, 200], // Paeth: up (13), up-left (13), up (109), plus 1, 2, 200
      ]),
    );
    expect(image.width).toBe(3);
    expect(image.height).toBe(5);
    expect([...image.data]).toEqual([
      ...grey(10, 20, 30),
      ...grey(5, 10, 4),
      ...grey(6, 12, 7),
      ...grey(13, 12, 109),
      ...grey(14, 15, 53),
    ]);
  });

  test("filters RGB by whole pixels (Sub adds the pixel to the left) and widens it to RGBA", () => {
    const image = decodePng(png(2, 1, 2, [[1, 10, 20, 30, 1, 2, 3]]));
    expect([...image.data]).toEqual([10, 20, 30, 255, 11, 22, 33, 255]);
  });

  test("reads back what encodePng wrote", () => {
    const image: Image = {
      width: 2,
      height: 2,
      data: Uint8Array.from([1, 2, 3, 4, 250, 251, 252, 253, 0, 0, 0, 0, 128, 64, 32, 16]),
    };
    expect(decodePng(encodePng(image))).toEqual(image);
  });

  test("refuses what it cannot read", () => {
    expect(() => decodePng(Buffer.from("not a png"))).toThrow("not a PNG file");
    expect(() => decodePng(png(1, 1, 3, [[0, 0]]))).toThrow("unsupported PNG");
    expect(() => decodePng(png(1, 1, 0, [[5, 0]]))).toThrow("bad PNG filter 5");
  });
});

describe("comparePng and diffPng", () => {
  const base: Image = { width: 2, height: 1, data: Uint8Array.from([0, 0, 0, 255, 100, 100, 100, 255]) };
  const moved = (by: number): Image => ({
    ...base,
    data: Uint8Array.from([0, 0, 0, 255, 100, 100 + by, 100, 255]),
  });

  test("a pixel differs when a channel moves by more than the threshold", () => {
    expect(comparePng(base, base, 48)).toEqual({ differing: 0, total: 2 });
    expect(comparePng(base, moved(48), 48)).toEqual({ differing: 0, total: 2 });
    expect(comparePng(base, moved(49), 48)).toEqual({ differing: 1, total: 2 });
  });

  test("every pixel outside the common area differs", () => {
    const taller: Image = { width: 2, height: 2, data: new Uint8Array(16).fill(255) };
    expect(comparePng(base, taller, 48)).toEqual({ differing: 2 + 2, total: 4 });
  });

  test("the diff paints the differing pixels red over a faded copy", () => {
    const diff = diffPng(base, moved(49), 48);
    expect([...diff.data.subarray(4)]).toEqual([255, 0, 0, 255]);
    expect(diff.data[0]).toBeGreaterThan(150); // black, faded towards white
  });
});
