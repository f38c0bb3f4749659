/**
 * `campaignctl version [--json]`: the version of campaignctl, of the Node.js running it, the
 * platform, and the API contract version the client and the sandbox implement. Registered in
 * `../register/version.ts`.
 */
import { API_VERSION } from "../../src/contract/limits.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";
import { VERSION } from "../version.js";

/** The flags of `version`, as commander parses them. */
export interface VersionFlags {
  readonly json?: boolean;
}

/** The `version --json` document (schemas/version-result.schema.json). */
export interface VersionDocument {
  readonly format_version: 1;
  readonly version: string;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
  readonly api_contract: string;
}

export function versionDocument(): VersionDocument {
  return {
    format_version: 1,
    version: VERSION,
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    api_contract: API_VERSION,
  };
}

/** The text `version` prints: one fact a line, the version first. */
export function renderVersionText(d: VersionDocument): string {
  return [
    `campaignctl ${d.version}`,
    `Node.js ${d.node} (${d.platform} ${d.arch})`,
    `messaging API contract ${d.api_contract}`,
    "",
  ].join("\n");
}

export function versionCommand(flags: VersionFlags, io: Io): Outcome {
  const document = versionDocument();
  io.stdout(flags.json === true ? `${JSON.stringify(document, null, 2)}\n` : renderVersionText(document));
  return success;
}
