/** Diagnostic codes of loading and validating campaign files. */
export const CAMPAIGN_CODES = {
  "campaign.placeholder": "reserved while the campaign area is built",
} as const;

export type CampaignCode = keyof typeof CAMPAIGN_CODES;
