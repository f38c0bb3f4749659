/**
 * The names an allowed-signers file lists (the format of `ssh-keygen -Y verify` and git's
 * `gpg.ssh.allowedSignersFile`: principals, options, key type, key), for "could approve" in
 * messages. The file is read here only for names; ssh-keygen alone decides what verifies. Pure.
 */

/**
 * The principals of every line (the first field, comma-separated, possibly in double quotes), in
 * order, once each; patterns (`*@example.org`) name nobody in particular and are left out.
 */
export function allowedPrincipals(text: string): readonly string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const first = trimmed.startsWith('"')
      ? trimmed.slice(1, Math.max(1, trimmed.indexOf('"', 1)))
      : (trimmed.split(/\s+/)[0] ?? "");
    for (const p of first.split(",")) if (p !== "" && !/[*?!]/.test(p)) out.push(p);
  }
  return [...new Set(out)];
}
