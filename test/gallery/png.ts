/**
 * Just enough PNG for screenshot comparison: decodes 8-bit, non-interlaced RGB/RGBA/grey images (what
 * Chromium writes) with node:zlib, compares two images pixel by pixel, and encodes a diff image.
 */
import { deflateSync, inflateSync } from "node:zlib";

/** Decoded pixels. Invariant: `data.length === width * height * 4` (RGBA, row after row). */
export interface Image {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Channels per pixel by PNG colour type (grey, RGB, grey+alpha, RGBA); palettes are not supported. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function decodePng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG file");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colorType = body[9] ?? -1;
      const interlace = body[12];
      channels = CHANNELS[colorType] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colorType}, interlace ${interlace})`);
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) unfilterRow(raw, y * (stride + 1), pixels, y * stride, stride, channels);
  return { width, height, data: toRgba(pixels, width * height, channels) };
}

/**
 * Undoes the filter of one scanline: `raw[from]` is the filter type, the `stride` bytes after it the
 * filtered row; writes the row to `pixels` at `out` (the row above, already done, at `out - stride`).
 * One loop per filter type: this runs for every byte of every screenshot.
 */
function unfilterRow(
  raw: Uint8Array,
  from: number,
  pixels: Uint8Array,
  out: number,
  stride: number,
  bpp: number,
): void {
  const src = from + 1;
  const up = out - stride;
  const first = out === 0;
  const filter = raw[from] ?? -1;
  switch (filter) {
    case 0:
      pixels.set(raw.subarray(src, src + stride), out);
      return;
    case 1:
      for (let x = 0; x < stride; x++)
        pixels[out + x] = ((raw[src + x] ?? 0) + (x >= bpp ? (pixels[out + x - bpp] ?? 0) : 0)) & 0xff;
      return;
    case 2:
      for (let x = 0; x < stride; x++)
        pixels[out + x] = ((raw[src + x] ?? 0) + (first ? 0 : (pixels[up + x] ?? 0))) & 0xff;
      return;
    case 3:
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? (pixels[out + x - bpp] ?? 0) : 0;
        const b = first ? 0 : (pixels[up + x] ?? 0);
        pixels[out + x] = ((raw[src + x] ?? 0) + ((a + b) >> 1)) & 0xff;
      }
      return;
    case 4:
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? (pixels[out + x - bpp] ?? 0) : 0;
        const b = first ? 0 : (pixels[up + x] ?? 0);
        const c = x >= bpp && !first ? (pixels[up + x - bpp] ?? 0) : 0;
        pixels[out + x] = ((raw[src + x] ?? 0) + paeth(a, b, c)) & 0xff;
      }
      return;
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function toRgba(pixels: Uint8Array, count: number, channels: number): Uint8Array {
  if (channels === 4) return pixels;
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const p = i * channels;
    const o = i * 4;
    const grey = channels < 3;
    out[o] = pixels[p] ?? 0;
    out[o + 1] = pixels[grey ? p : p + 1] ?? 0;
    out[o + 2] = pixels[grey ? p : p + 2] ?? 0;
    out[o + 3] = channels === 2 ? (pixels[p + 1] ?? 255) : 255;
  }
  return out;
}

/** Encodes RGBA pixels as a PNG (filter 0 on every row). */
export function encodePng(image: Image): Buffer {
  const stride = image.width * 4;
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++)
    Buffer.from(image.data.buffer, image.data.byteOffset + y * stride, stride).copy(
      raw,
      y * (stride + 1) + 1,
    );
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Whether pixel `e` of `expected` and pixel `a` of `actual` (byte offsets) differ by more than `threshold` in a channel. */
function differs(expected: Uint8Array, e: number, actual: Uint8Array, a: number, threshold: number): boolean {
  for (let ch = 0; ch < 4; ch++)
    if (Math.abs((expected[e + ch] ?? 0) - (actual[a + ch] ?? 0)) > threshold) return true;
  return false;
}

/**
 * How two images differ: `differing` counts pixels where some channel differs by more than
 * `threshold` (0-255), out of `total`. Images of different sizes are compared over their common
 * area and every pixel outside it counts as differing. `diffPng` draws where.
 */
export function comparePng(
  expected: Image,
  actual: Image,
  threshold: number,
): { differing: number; total: number } {
  const width = Math.max(expected.width, actual.width);
  const height = Math.max(expected.height, actual.height);
  const commonWidth = Math.min(expected.width, actual.width);
  const commonHeight = Math.min(expected.height, actual.height);
  let differing = width * height - commonWidth * commonHeight;
  for (let y = 0; y < commonHeight; y++)
    for (let x = 0; x < commonWidth; x++)
      if (
        differs(
          expected.data,
          (y * expected.width + x) * 4,
          actual.data,
          (y * actual.width + x) * 4,
          threshold,
        )
      )
        differing++;
  return { differing, total: width * height };
}

/**
 * The differing pixels of `comparePng` painted red over a faded grey copy of `actual`, over the
 * larger of the two sizes (red outside the common area).
 */
export function diffPng(expected: Image, actual: Image, threshold: number): Image {
  const width = Math.max(expected.width, actual.width);
  const height = Math.max(expected.height, actual.height);
  const diff = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inBoth = x < expected.width && y < expected.height && x < actual.width && y < actual.height;
      const a = (y * actual.width + x) * 4;
      if (inBoth && !differs(expected.data, (y * expected.width + x) * 4, actual.data, a, threshold)) {
        const grey =
          (actual.data[a] ?? 0) * 0.3 + (actual.data[a + 1] ?? 0) * 0.59 + (actual.data[a + 2] ?? 0) * 0.11;
        const faded = 255 - (255 - grey) * 0.3;
        diff.set([faded, faded, faded, 255], o);
      } else diff.set([255, 0, 0, 255], o);
    }
  return { width, height, data: diff };
}
