/**
 * The local path a document's URI names, or undefined when it names none: an `untitled:` buffer, a
 * `file:` URI of another host (`file://fileserver/share/a.yaml`, a network share), one with an
 * encoded `/` (`%2F`) or a NUL. Node's `fileURLToPath` throws on those; such a document is not
 * checked (it has no path to find policies and neighbours from), as an untitled buffer is not, and
 * never stops the server or the checks of the other documents. Pure.
 */
import { fileURLToPath } from "node:url";

export function documentPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    const path = fileURLToPath(uri);
    return path.includes("\0") ? undefined : path;
  } catch {
    return undefined;
  }
}
