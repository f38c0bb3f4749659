/** Maps the `yaml` library's error codes to our stable diagnostic codes, and hints. */
import type { ErrorCode } from "yaml";
import type { CampaignCode } from "../diagnostics/codes/campaign.js";

const KEY_HINT = "a key may be indented too far, or a `:` is missing after the key above";

/**
 * Every error code of the `yaml` library (the Record makes the table exhaustive): our code, a hint
 * where a person can act on the error without reading YAML's spec, and our own message where the
 * library's would be the runtime's words ("Maximum call stack size exceeded").
 */
const YAML_ERRORS: Readonly<
  Record<ErrorCode, { readonly code: CampaignCode; readonly hint?: string; readonly message?: string }>
> = {
  BAD_INDENT: {
    code: "campaign.yaml-indent",
    hint: "align the line with its siblings: keys of one map start in the same column",
  },
  TAB_AS_INDENT: {
    code: "campaign.yaml-indent",
    hint: "YAML does not allow tabs for indentation: replace the tab with spaces (two per level)",
  },
  BLOCK_AS_IMPLICIT_KEY: { code: "campaign.yaml-key", hint: KEY_HINT },
  MULTILINE_IMPLICIT_KEY: { code: "campaign.yaml-key", hint: KEY_HINT },
  KEY_OVER_1024_CHARS: { code: "campaign.yaml-key" },
  NON_STRING_KEY: { code: "campaign.yaml-key" },
  BAD_DQ_ESCAPE: {
    code: "campaign.yaml-escape",
    hint: 'in double quotes a backslash starts an escape (\\n, \\", \\\\); use single quotes for literal backslashes',
  },
  TAG_RESOLVE_FAILED: { code: "campaign.yaml-tag" },
  MULTIPLE_TAGS: { code: "campaign.yaml-tag" },
  BAD_COLLECTION_TYPE: { code: "campaign.yaml-tag" },
  BAD_ALIAS: { code: "campaign.yaml-alias" },
  ALIAS_PROPS: { code: "campaign.yaml-alias" },
  RESOURCE_EXHAUSTION: {
    code: "campaign.yaml-too-complex",
    message:
      "the file nests lists and maps too deeply (inside each other) to be read; a campaign file needs about six levels",
    hint: "close the brackets or fix the indentation where nesting runs away; campaign files need no deep nesting",
  },
  MULTIPLE_DOCS: { code: "campaign.multiple-documents" },
  DUPLICATE_KEY: { code: "campaign.duplicate-key" },
  BAD_DIRECTIVE: { code: "campaign.yaml-syntax" },
  BAD_PROP_ORDER: { code: "campaign.yaml-syntax" },
  BAD_SCALAR_START: { code: "campaign.yaml-syntax" },
  BLOCK_IN_FLOW: { code: "campaign.yaml-syntax" },
  IMPOSSIBLE: { code: "campaign.yaml-syntax" },
  MISSING_CHAR: {
    code: "campaign.yaml-syntax",
    hint: "look before this point for a missing comma between the items of a `[ ]` or `{ }`, or a missing quote: a quote left open is closed by the next one, and what follows it no longer fits",
  },
  MULTIPLE_ANCHORS: { code: "campaign.yaml-syntax" },
  UNEXPECTED_TOKEN: { code: "campaign.yaml-syntax" },
};

export function campaignCodeOfYamlError(code: ErrorCode): CampaignCode {
  return YAML_ERRORS[code].code;
}

/** A hint for the `yaml` library's error codes a person can act on without reading YAML's spec. */
export function yamlHint(code: ErrorCode): string | undefined {
  return YAML_ERRORS[code].hint;
}

/** Our message for a `yaml` library error code, where we word it ourselves; else undefined. */
export function yamlMessage(code: ErrorCode): string | undefined {
  return YAML_ERRORS[code].message;
}
