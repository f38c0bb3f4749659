/**
 * MMS media as the gallery shows it: by the name or id the campaign file gives, with a kind guessed
 * from the file extension. Never fetched: the gallery makes no network request, so a tile stands in
 * for the picture. Pure.
 */

/** What a media reference looks like it is; `unknown` for an id or a name without a known extension. */
export type MediaKind = "image" | "video" | "audio" | "document" | "unknown";

/** Invariant: `name` is the reference exactly as written in the campaign file. */
export interface GalleryMedia {
  readonly name: string;
  readonly kind: MediaKind;
}

const BY_EXTENSION: Readonly<Record<string, MediaKind>> = {
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  bmp: "image",
  mp4: "video",
  mov: "video",
  "3gp": "video",
  mp3: "audio",
  wav: "audio",
  m4a: "audio",
  amr: "audio",
  ogg: "audio",
  pdf: "document",
  vcf: "document",
  txt: "document",
};

export function describeMedia(name: string): GalleryMedia {
  const dot = name.lastIndexOf(".");
  const extension = dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
  return {
    name,
    kind: Object.hasOwn(BY_EXTENSION, extension) ? (BY_EXTENSION[extension] ?? "unknown") : "unknown",
  };
}
