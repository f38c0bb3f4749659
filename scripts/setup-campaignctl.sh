#!/usr/bin/env bash
# The shell of the setup action (action.yml): installs one campaignctl release into a prefix of its
# own, puts the prefix's bin directory on PATH for the job's later steps ($GITHUB_PATH), prints the
# version and sets the step outputs `version` and `path` ($GITHUB_OUTPUT).
#
# It installs only what the campaignctl project owns, pinned, never a bare registry name:
#
# Inputs (environment):
#   CAMPAIGNCTL_VERSION    the exact version expected (0.1.0 or v0.1.0), checked against what
#                          `campaignctl --version` prints; empty: the release's own
#   CAMPAIGNCTL_PACKAGE    where campaignctl comes from; empty (the default): the release this action
#                          is, the directory it runs from (`uses: <owner>/campaignctl@v0.1.0`, a
#                          release tag made by scripts/git-release.sh, which holds the built package;
#                          the ref of `uses:` pins it). Otherwise:
#                          - a tarball path or URL (.tgz): a URL needs CAMPAIGNCTL_INTEGRITY
#                          - a git URL (git+https://..., github:<owner>/campaignctl): #v<version> is
#                            added unless it names a ref (a release tag or a commit)
#                          - a registry name, once campaignctl is published there: with an exact
#                            version (`campaignctl@0.1.0`, or CAMPAIGNCTL_VERSION); never a range
#                            or `latest`
#   CAMPAIGNCTL_INTEGRITY  the tarball's sha512, as npm writes it (`sha512-<base64>`): checked before
#                          anything is installed
#   CAMPAIGNCTL_PREFIX     the install prefix (default: $RUNNER_TEMP/campaignctl)
#   GITHUB_PATH, GITHUB_OUTPUT  the files GitHub Actions reads after the step
set -euo pipefail

error() {
  echo "::error title=setup-campaignctl::$*"
  exit 1
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=${CAMPAIGNCTL_VERSION:-}
package=${CAMPAIGNCTL_PACKAGE:-}
integrity=${CAMPAIGNCTL_INTEGRITY:-}
prefix=${CAMPAIGNCTL_PREFIX:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/campaignctl}
[ -n "${GITHUB_PATH:-}" ] || error "GITHUB_PATH is not set (run this in a GitHub Actions step)"
[ -n "${GITHUB_OUTPUT:-}" ] || error "GITHUB_OUTPUT is not set (run this in a GitHub Actions step)"

command -v node >/dev/null || error "Node.js is not on PATH: add actions/setup-node (Node.js 20.19 or newer) before this step"
# `node --version` (v<major>.<minor>.<patch>), read by bash: it prints without starting JavaScript,
# where `node -e` costs a whole Node.js start (about 50 ms of CPU) before the first input is checked.
node_version=$(node --version) || error "node --version failed: add actions/setup-node (Node.js 20.19 or newer) before this step"
[[ $node_version =~ ^v([0-9]+)\.([0-9]+)\. ]] && {
  node_major=$((10#${BASH_REMATCH[1]})) node_minor=$((10#${BASH_REMATCH[2]}))
  ((node_major > 20 || (node_major == 20 && node_minor >= 19)))
} || error "campaignctl needs Node.js 20.19 or newer; this is $node_version: use actions/setup-node"

if [ -n "$version" ]; then
  [[ $version =~ ^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
    error "version '$version' is not an exact version (0.1.0): a range or latest installs whatever is newest"
  version=${version#v}
fi
[[ -z $integrity || $integrity =~ ^sha512-[A-Za-z0-9+/]{86}==$ ]] ||
  error "integrity must be a sha512 in npm's format (sha512-<base64>), as \`npm pack --json\` prints it"

work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/setup-campaignctl.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Checks a tarball file against CAMPAIGNCTL_INTEGRITY.
check_integrity() {
  local got
  got=$(node -e '
    const data = require("node:fs").readFileSync(process.argv[1]);
    console.log(`sha512-${require("node:crypto").createHash("sha512").update(data).digest("base64")}`);
  ' "$1")
  [ "$got" = "$integrity" ] || error "$2 has integrity $got, not the pinned $integrity: nothing installed"
}

case "$package" in
  "")
    # The release this action is: at a release tag, its directory is the built package.
    [ -f "$here/package.json" ] && [ -f "$here/dist/cli/main.js" ] ||
      error "this action is not at a release (no dist/ in $here): use it at a release tag made by scripts/git-release.sh (uses: <owner>/campaignctl@v<version>), or set package"
    (cd "$work" && npm pack --ignore-scripts --silent "$here" >/dev/null) || error "npm pack $here failed"
    spec=$(echo "$work"/*.tgz)
    source="the release at $here"
    ;;
  *.tgz | *.tar.gz)
    source=$package
    if [[ $package =~ ^[a-z]+:// ]]; then
      [ -n "$integrity" ] || error "a tarball URL needs integrity (sha512-..., from \`npm pack --json\` of the release): without it, whoever controls $package controls what runs"
      spec="$work/campaignctl.tgz"
      node -e '
        const [url, file] = process.argv.slice(1);
        fetch(url, { redirect: "follow" }).then(async (r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
          require("node:fs").writeFileSync(file, Buffer.from(await r.arrayBuffer()));
        }).catch((e) => { console.error(`${url}: ${e.message}`); process.exit(1); });
      ' "$package" "$spec" || error "could not download $package"
    else
      [ -f "$package" ] || error "no tarball $package"
      spec=$package
    fi
    [ -z "$integrity" ] || check_integrity "$spec" "$package"
    ;;
  git+* | git:* | ssh:* | github:* | gitlab:* | bitbucket:* | *.git | *.git#*)
    if [[ $package == *"#"* ]]; then
      spec=$package
    elif [ -n "$version" ]; then
      spec="$package#v$version"
    else
      error "$package names no release: add #v<version> (a tag made by scripts/git-release.sh) or set version"
    fi
    source=$spec
    ;;
  *)
    # A registry name, once campaignctl is published there: an exact version, never a range.
    if [[ ${package#@} == *@* ]]; then
      [[ ${package##*@} =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
        error "$package is not an exact version: name one (campaignctl@0.1.0)"
      spec=$package
    elif [ -n "$version" ]; then
      spec="$package@$version"
    else
      error "$package names no version: set version, or write $package@<version>"
    fi
    source=$spec
    ;;
esac

echo "Installing campaignctl ($source) into $prefix"
npm install --global --prefix "$prefix" --no-audit --no-fund --loglevel=error "$spec"

case "${RUNNER_OS:-}" in
  Windows) bin=$prefix ;;
  *) bin=$prefix/bin ;;
esac
[ -x "$bin/campaignctl" ] || [ -f "$bin/campaignctl.cmd" ] || error "npm installed no campaignctl command in $bin"
installed=$("$bin/campaignctl" --version) || error "$bin/campaignctl --version failed"
installed=${installed#campaignctl }
if [ -n "$version" ] && [ "$installed" != "$version" ]; then
  error "$source installed campaignctl $installed, not the version asked for ($version)"
fi

echo "$bin" >>"$GITHUB_PATH"
{
  echo "version=$installed"
  echo "path=$bin"
} >>"$GITHUB_OUTPUT"
echo "campaignctl $installed is on PATH ($bin)"
