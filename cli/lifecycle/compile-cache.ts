/**
 * Node's on-disk compile cache for the bin (issue 36: a short command's time is mostly start-up):
 * on Node 22.1 and later, `module.enableCompileCache()` keeps V8's compiled code of the modules
 * loaded after it (every command's code is imported lazily, after this) in the directory Node
 * chooses (`NODE_COMPILE_CACHE`, else the system's temporary directory; `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off), so the next run skips compiling them. Node 20 has no such function: nothing
 * happens there. Imported first by cli/main.ts for its side effect; only when the process runs the
 * bin (`process.argv[1]` is a `cli/main.js`), not when a test imports the module.
 */
import module from "node:module";

const enable = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
const runsTheBin = /[\\/]cli[\\/]main\.js$/.test(process.argv[1] ?? "");
if (enable !== undefined && runsTheBin) {
  try {
    enable();
  } catch {
    // A cache that cannot be set up (no writable directory) costs nothing but its speed.
  }
}
