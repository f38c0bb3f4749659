/** Finding one organization by id or display name (`--organization ORG`). Pure. */
import type { Organization } from "./resources.js";

/**
 * The one organization of `orgs` whose id or display name is `wanted`; else why not (none, or
 * several of that name) in words, and the organizations to choose from as `name (id)`. `known`
 * says where `orgs` come from, in the message ("the key can see", "the results store has recorded").
 */
export function organizationNamed(
  orgs: readonly Pick<Organization, "id" | "display_name">[],
  wanted: string,
  known = "the key can see",
):
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly message: string; readonly choices: string } {
  const match = orgs.filter((o) => o.id === wanted || o.display_name === wanted);
  const only = match[0];
  if (match.length === 1 && only !== undefined) return { ok: true, id: only.id };
  return {
    ok: false,
    message:
      match.length === 0
        ? `no organization ${known} is named or has the id "${wanted}"`
        : `${match.length} organizations are named "${wanted}"`,
    choices: orgs.map((o) => `${o.display_name} (${o.id})`).join(", "),
  };
}
