/** The CI systems `campaignctl init --ci` writes pipelines for (a light module: the registration reads it). */
export const CI_SYSTEMS = ["github", "gitlab", "none"] as const;

export type CiSystem = (typeof CI_SYSTEMS)[number];
