import { readCampaignFiles } from "./dist/src/campaign/read-files.js";
import { assembleCampaign } from "./dist/src/campaign/assemble.js";
import { lintCampaign } from "./dist/src/campaign/lint/index.js";
const read = readCampaignFiles([process.argv[2]], "/");
const a = assembleCampaign(read.files);
lintCampaign(a.campaign, { now: new Date("2026-11-22T00:00:00Z") });
