/** The words the gallery uses for sources, contacts and media kinds. Pure. */
import type { PreviewContact } from "../../message/preview.js";
import type { ValueSource } from "../../message/render.js";
import type { MediaKind } from "./media.js";

/** Where a tag's value came from, as the reader is told. */
export function sourceLabel(source: ValueSource): string {
  switch (source) {
    case "contact":
      return "contact";
    case "fallback":
      return "inline fallback";
    case "default":
      return "organization default";
    case "platform":
      return "empty";
  }
}

/** Why this source was used, for the tag tables. */
export function sourceExplanation(source: ValueSource): string {
  switch (source) {
    case "contact":
      return "the contact's own value";
    case "fallback":
      return "the tag's inline fallback ({{field|fallback}})";
    case "default":
      return "the file's merge_defaults";
    case "platform":
      return "no value anywhere: the tag sends nothing";
  }
}

/** The heading of a case. */
export function contactTitle(contact: PreviewContact): string {
  switch (contact.kind) {
    case "test-contact":
    case "sampled-contact":
      return `Test contact ${contact.index + 1}`;
    case "command-line":
      return "--contact values";
    case "no-values":
      return "Contact with no values";
  }
}

/** The line under a case's heading. */
export function contactDetail(contact: PreviewContact): string {
  switch (contact.kind) {
    case "test-contact":
      return `${contact.phone} · merge_values from the file`;
    case "sampled-contact":
      return `${contact.phone} · values sampled from the list at send time; fallbacks shown`;
    case "command-line":
      return "values given on the command line";
    case "no-values":
      return "every tag falls back";
  }
}

export function mediaKindLabel(kind: MediaKind): string {
  switch (kind) {
    case "image":
      return "Image";
    case "video":
      return "Video";
    case "audio":
      return "Audio";
    case "document":
      return "Document";
    case "unknown":
      return "Media";
  }
}
