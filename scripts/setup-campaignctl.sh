#!/usr/bin/env bash
# The shell of the setup action (action.yml): installs one campaignctl version into a prefix of its
# own, puts the prefix's bin directory on PATH for the job's later steps ($GITHUB_PATH), prints the
# version and sets the step outputs `version` and `path` ($GITHUB_OUTPUT).
#
# Inputs (environment):
#   CAMPAIGNCTL_VERSION  the version: 0.1.0, a semver range, or latest (default)
#   CAMPAIGNCTL_PACKAGE  where npm gets campaignctl (default: campaignctl, the npm registry):
#                        - a registry name (`campaignctl`, `@your-org/campaignctl`): @<version> is added
#                        - a tarball path or URL (ending .tgz): installed as it is; a version other
#                          than latest must be the tarball's
#                        - a git URL (git+https://..., github:your-org/campaignctl): #v<version> is
#                          added unless it names a ref (a release tag made by scripts/git-release.sh)
#   CAMPAIGNCTL_PREFIX   the install prefix (default: $RUNNER_TEMP/campaignctl)
#   GITHUB_PATH, GITHUB_OUTPUT  the files GitHub Actions reads after the step
set -euo pipefail

error() {
  echo "::error title=setup-campaignctl::$*"
  exit 1
}

version=${CAMPAIGNCTL_VERSION:-latest}
package=${CAMPAIGNCTL_PACKAGE:-campaignctl}
prefix=${CAMPAIGNCTL_PREFIX:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/campaignctl}
[ -n "${GITHUB_PATH:-}" ] || error "GITHUB_PATH is not set (run this in a GitHub Actions step)"
[ -n "${GITHUB_OUTPUT:-}" ] || error "GITHUB_OUTPUT is not set (run this in a GitHub Actions step)"

command -v node >/dev/null || error "Node.js is not on PATH: add actions/setup-node (Node.js 20.19 or newer) before this step"
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit(major > 20 || (major === 20 && minor >= 19) ? 0 : 1);
' || error "campaignctl needs Node.js 20.19 or newer; this is $(node --version): use actions/setup-node"

exact=false
[[ $version =~ ^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] && exact=true
version=${version#v}
case "$package" in
  *.tgz | *.tar.gz)
    spec=$package
    ;;
  git+* | git:* | ssh:* | github:* | gitlab:* | bitbucket:* | *.git | *.git#*)
    if [[ $package == *"#"* ]] || [ "$version" = latest ]; then spec=$package; else spec="$package#v$version"; fi
    ;;
  *)
    # A registry name, which may carry its own version (`campaignctl@0.1.0`, `@org/campaignctl@0.1`).
    if [[ ${package#@} == *@* ]] || [ "$version" = latest ]; then spec=$package; else spec="$package@$version"; fi
    ;;
esac

echo "Installing campaignctl ($spec) into $prefix"
npm install --global --prefix "$prefix" --no-audit --no-fund --loglevel=error "$spec"

case "${RUNNER_OS:-}" in
  Windows) bin=$prefix ;;
  *) bin=$prefix/bin ;;
esac
[ -x "$bin/campaignctl" ] || [ -f "$bin/campaignctl.cmd" ] || error "npm installed no campaignctl command in $bin"
installed=$("$bin/campaignctl" --version) || error "$bin/campaignctl --version failed"
installed=${installed#campaignctl }
if [ "$exact" = true ] && [ "$installed" != "$version" ]; then
  error "$spec installed campaignctl $installed, not the version asked for ($version)"
fi

echo "$bin" >>"$GITHUB_PATH"
{
  echo "version=$installed"
  echo "path=$bin"
} >>"$GITHUB_OUTPUT"
echo "campaignctl $installed is on PATH ($bin)"
