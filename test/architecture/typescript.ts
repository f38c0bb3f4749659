/**
 * The TypeScript compiler API for the architecture tests, loaded with `require`: imported as an ES
 * module, Node first scans all of typescript.js (9 MB of CommonJS) for its named exports, about a
 * second of CPU in each worker that loads it, for names these tests read off the default export.
 */
import { createRequire } from "node:module";

const ts: typeof import("typescript") = createRequire(import.meta.url)("typescript");
export default ts;
