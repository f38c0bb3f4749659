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
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (pixels[out + x - channels] ?? 0) : 0;
      const b = y > 0 ? (pixels[out - stride + x] ?? 0) : 0;
      const c = x >= channels && y > 0 ? (pixels[out - stride + x - channels] ?? 0) : 0;
      const value = row[x] ?? 0;
      pixels[out + x] = (value + predict(filter ?? 0, a, b, c)) & 0xff;
    }
  }
  return { width, height, data: toRgba(pixels, width * height, channels) };
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

function toRgba(pixels: Uint8Array, count: number, channels: number): Uint8Array {
  if (channels === 4) return pixels;
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const p = pixels.subarray(i * channels, (i + 1) * channels);
    const [r, g, b] = channels >= 3 ? [p[0], p[1], p[2]] : [p[0], p[0], p[0]];
    out.set([r ?? 0, g ?? 0, b ?? 0, channels === 2 ? (p[1] ?? 255) : 255], i * 4);
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

/**
 * How two images differ: `differing` counts pixels where some channel differs by more than
 * `threshold` (0-255); `diff` paints those red over a faded copy of `actual`. Images of different
 * sizes are compared over their common area and every pixel outside it counts as differing.
 */
export function comparePng(
  expected: Image,
  actual: Image,
  threshold: number,
): { differing: number; total: number; diff: Image } {
  const width = Math.max(expected.width, actual.width);
  const height = Math.max(expected.height, actual.height);
  const diff = new Uint8Array(width * height * 4);
  let differing = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inBoth = x < expected.width && y < expected.height && x < actual.width && y < actual.height;
      let differs = !inBoth;
      if (inBoth) {
        const e = (y * expected.width + x) * 4;
        const a = (y * actual.width + x) * 4;
        for (let ch = 0; ch < 4; ch++)
          if (Math.abs((expected.data[e + ch] ?? 0) - (actual.data[a + ch] ?? 0)) > threshold) differs = true;
        const grey =
          (actual.data[a] ?? 0) * 0.3 + (actual.data[a + 1] ?? 0) * 0.59 + (actual.data[a + 2] ?? 0) * 0.11;
        const faded = 255 - (255 - grey) * 0.3;
        diff.set([faded, faded, faded, 255], o);
      }
      if (differs) {
        differing++;
        diff.set([255, 0, 0, 255], o);
      }
    }
  return { differing, total: width * height, diff: { width, height, data: diff } };
}
