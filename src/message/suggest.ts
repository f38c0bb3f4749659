/**
 * "Did you mean" helpers for the message area. One implementation lives in
 * `campaign/did-you-mean.ts`; this module re-exports it for callers that already import it here.
 */
export { didYouMean, editDistance } from "../campaign/did-you-mean.js";
