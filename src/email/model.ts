/**
 * The email core's names for the email part of the campaign model: defined once, in
 * src/campaign/email-model.ts (decoded by the one loader), and re-exported here for src/email.
 */
export {
  type ColumnMapping,
  DEFAULT_COLUMNS,
  type EmailCampaignSpec,
  type EmailGuardSpec,
  type EmailListSpec,
  type EmailSpecs,
  emailCampaignRange,
  NO_EMAIL,
} from "../campaign/email-model.js";
