/** The early-access answer of the email endpoints: defined once in src/api (routing merges keys by it). */
export { isEarlyAccess } from "../api/early-access.js";
