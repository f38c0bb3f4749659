#!/usr/bin/env bash
# Makes a git ref that `npm install --global <git URL>#<tag>` installs: the built package (the
# contents of an `npm pack` tarball: dist/, schemas/, examples/, README, LICENSE, CHANGELOG) as a
# commit of its own, tagged, with no lifecycle script left in its package.json. The setup action
# (action.yml and scripts/setup-campaignctl.sh) is in it too, so that `uses: <repo>@<tag>` finds it.
#
#   scripts/git-release.sh TARBALL [REPOSITORY] [TAG]
#
#   TARBALL     the output of `npm pack` (which builds the package first)
#   REPOSITORY  the git repository to add the tag to (default: this one); nothing else in it changes:
#               no branch moves, the work tree and the index stay as they are
#   TAG         the tag to create (default: v<version>); push it with `git push origin <tag>`
#
# Why not install the source commit: npm prepares a git dependency that has a `prepare` (or `build`,
# `prepack`, `install`...) script by running `npm install` in a temporary clone, and a *global*
# install passes `--global` on to that inner install (npm/cli#6984, npm/cli#8440; npm 10 and 11):
# it installs none of the clone's dependencies, so the build fails ("Cannot find package 'ajv'"),
# and even a build that needs nothing ends with a global symlink into the deleted temporary clone.
# A tree that is already built and has no such script is not prepared at all: npm packs it as it
# is and installs its dependencies from the registry, like any published version.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 TARBALL [REPOSITORY] [TAG]" >&2
  exit 2
fi
tarball=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
repo=${2:-$here}

work=$(mktemp -d "${TMPDIR:-/tmp}/campaignctl-git-release.XXXXXX")
trap 'rm -rf "$work"' EXIT

tar -xzf "$tarball" -C "$work"
pkg="$work/package"
# The released package.json: no lifecycle script (nothing to prepare) and no devDependencies.
version=$(node -e '
  const fs = require("node:fs");
  const file = process.argv[1];
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
  delete manifest.scripts;
  delete manifest.devDependencies;
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(manifest.version);
' "$pkg/package.json")
tag=${3:-v$version}
mkdir -p "$pkg/scripts"
cp "$here/action.yml" "$pkg/action.yml"
cp "$here/scripts/setup-campaignctl.sh" "$pkg/scripts/setup-campaignctl.sh"
source=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo "unknown")

# A temporary index, so that the repository's own index and work tree are never touched.
export GIT_INDEX_FILE="$work/index"
git -C "$repo" --work-tree="$pkg" add --all --force .
tree=$(git -C "$repo" --work-tree="$pkg" write-tree)
commit=$(
  git -C "$repo" \
    -c user.name="${GIT_AUTHOR_NAME:-campaignctl release}" \
    -c user.email="${GIT_AUTHOR_EMAIL:-release@campaignctl.invalid}" \
    commit-tree "$tree" -m "campaignctl $version, built from $source" \
    -m "The npm package as \`npm pack\` makes it, for \`npm install --global <git URL>#$tag\`."
)
git -C "$repo" tag "$tag" "$commit"
echo "$tag $commit"
