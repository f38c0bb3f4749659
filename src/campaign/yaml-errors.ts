/** Maps the `yaml` library's error codes to our stable diagnostic codes. */
import type { ErrorCode } from "yaml";
import type { CampaignCode } from "../diagnostics/codes/campaign.js";

export function campaignCodeOfYamlError(code: ErrorCode): CampaignCode {
  switch (code) {
    case "BAD_INDENT":
    case "TAB_AS_INDENT":
      return "campaign.yaml-indent";
    case "BLOCK_AS_IMPLICIT_KEY":
    case "MULTILINE_IMPLICIT_KEY":
    case "KEY_OVER_1024_CHARS":
    case "NON_STRING_KEY":
      return "campaign.yaml-key";
    case "BAD_DQ_ESCAPE":
      return "campaign.yaml-escape";
    case "TAG_RESOLVE_FAILED":
    case "MULTIPLE_TAGS":
    case "BAD_COLLECTION_TYPE":
      return "campaign.yaml-tag";
    case "BAD_ALIAS":
    case "ALIAS_PROPS":
      return "campaign.yaml-alias";
    case "RESOURCE_EXHAUSTION":
      return "campaign.yaml-too-complex";
    case "MULTIPLE_DOCS":
      return "campaign.multiple-documents";
    case "DUPLICATE_KEY":
      return "campaign.duplicate-key";
    case "BAD_DIRECTIVE":
    case "BAD_PROP_ORDER":
    case "BAD_SCALAR_START":
    case "BLOCK_IN_FLOW":
    case "IMPOSSIBLE":
    case "MISSING_CHAR":
    case "MULTIPLE_ANCHORS":
    case "UNEXPECTED_TOKEN":
      return "campaign.yaml-syntax";
  }
}

/** A hint for the `yaml` library's error codes a person can act on without reading YAML's spec. */
export function yamlHint(code: ErrorCode): string | undefined {
  switch (code) {
    case "TAB_AS_INDENT":
      return "YAML does not allow tabs for indentation: replace the tab with spaces (two per level)";
    case "BAD_INDENT":
      return "align the line with its siblings: keys of one map start in the same column";
    case "BLOCK_AS_IMPLICIT_KEY":
    case "MULTILINE_IMPLICIT_KEY":
      return "a key may be indented too far, or a `:` is missing after the key above";
    case "BAD_DQ_ESCAPE":
      return 'in double quotes a backslash starts an escape (\\n, \\", \\\\); use single quotes for literal backslashes';
    case "KEY_OVER_1024_CHARS":
    case "NON_STRING_KEY":
    case "TAG_RESOLVE_FAILED":
    case "MULTIPLE_TAGS":
    case "BAD_COLLECTION_TYPE":
    case "BAD_ALIAS":
    case "ALIAS_PROPS":
    case "RESOURCE_EXHAUSTION":
    case "MULTIPLE_DOCS":
    case "DUPLICATE_KEY":
    case "BAD_DIRECTIVE":
    case "BAD_PROP_ORDER":
    case "BAD_SCALAR_START":
    case "BLOCK_IN_FLOW":
    case "IMPOSSIBLE":
    case "MISSING_CHAR":
    case "MULTIPLE_ANCHORS":
    case "UNEXPECTED_TOKEN":
      return undefined;
  }
}
