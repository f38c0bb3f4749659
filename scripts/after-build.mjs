// Makes the compiled CLI executable and copies the JSON schemas next to the compiled code,
// so that `dist/src/**` finds them at the same relative path as `src/**` does.
import { chmodSync, cpSync } from "node:fs";

cpSync("schemas", "dist/schemas", { recursive: true });
chmodSync("dist/cli/main.js", 0o755);
