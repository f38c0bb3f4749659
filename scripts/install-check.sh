#!/usr/bin/env bash
# Installs campaignctl the three ways a user does, each into a temporary place, and runs it from
# there on a copy of the example campaign (against the embedded sandbox):
#
#   a. `npm install --global <tarball>`    the `npm pack` tarball (what `npm publish` uploads)
#   b. `npm install --global <git URL>`    a release tag made from that tarball by
#                                          scripts/git-release.sh, in a clone of this repository
#   c. `npx --yes file:<tarball>`          no install at all (a bare absolute path is taken for a command)
#
# First it checks the tarball holds what the CLI needs at run time and nothing else. Needs only
# git, node and npm, and the npm registry (for the dependencies; the npm cache serves them when it
# can). Run by .ci/run after the tests; about half a minute. Usage: bash scripts/install-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

work=$(mktemp -d "${TMPDIR:-/tmp}/campaignctl-install-check.XXXXXX")
npx_dirs_before=""
cleanup() {
  rm -rf "$work"
  # npx keeps what it installed in the npm cache (_npx/<hash>): remove what this run added.
  local dir
  for dir in "$npm_cache"/_npx/*; do
    [ -d "$dir" ] || continue
    case " $npx_dirs_before " in *" $dir "*) ;; *) rm -rf "$dir" ;; esac
  done
}
npm_cache=$(npm config get cache)
npx_dirs_before=$(echo "$npm_cache"/_npx/*)
trap cleanup EXIT

export NO_COLOR=1 npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
version=$(node -p 'require("./package.json").version')

step() { printf 'install-check: %s\n' "$*"; }
fail() {
  printf 'install-check: FAILED: %s\n' "$*" >&2
  exit 1
}
# Runs a command quietly; on failure shows its output and stops.
quiet() {
  local log="$work/last.log"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "$*"
  fi
}

# --- The tarball: everything the CLI needs at run time, and nothing else. -----------------------
step "npm pack (builds first)"
quiet npm pack --pack-destination "$work"
tarball="$work/campaignctl-$version.tgz"
[ -f "$tarball" ] || fail "npm pack wrote no $tarball"
tar -tzf "$tarball" | sed 's#^package/##' | sort >"$work/files.txt"
for needed in package.json README.md LICENSE CHANGELOG.md dist/cli/main.js \
  dist/schemas/campaign.schema.json schemas/campaign.schema.json examples/sandbox.yaml \
  examples/ci/scripts/sticky-comment.mjs; do
  grep -qxF "$needed" "$work/files.txt" || fail "the tarball lacks $needed"
done
if grep -vE '^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist/(cli|src|schemas)/.+|schemas/.+|examples/.+)$' \
  "$work/files.txt" | grep . >&2; then
  fail "the tarball holds files outside dist/, schemas/, examples/ and the top-level documents (above)"
fi
if grep -E '\.map$|\.ts$|(^|/)test/' "$work/files.txt" >&2; then
  fail "the tarball holds source maps, TypeScript sources or tests (above)"
fi
quiet npm publish --dry-run --ignore-scripts "$tarball"

# --- What every install must run. ------------------------------------------------------------
# Runs `campaignctl` ($1: how the install is called) in a fresh copy of the examples.
check_commands() {
  local name=$1
  shift
  local dir="$work/run-$name"
  mkdir -p "$dir"
  cp -R "$root/examples" "$dir/examples"
  local got
  got=$(cd "$dir" && "$@" --version) || fail "$name: campaignctl --version"
  [ "$got" = "$version" ] || [ "$got" = "campaignctl $version" ] || fail "$name: --version printed '$got', not $version"
  (cd "$dir" && quiet "$@" plan --sandbox examples/)
  local done="--version $got, plan --sandbox examples/"
  # A new campaign repository from `campaignctl init`, planned at once, once `init` exists (its own
  # help, not the root help commander prints, with exit 0, for `<unknown command> --help`).
  if (cd "$dir" && "$@" init --help 2>/dev/null | grep -q '^Usage: campaignctl init'); then
    (cd "$dir" && quiet "$@" init demo && cd demo && quiet "$@" plan --sandbox campaigns/)
    done="$done, init demo && plan --sandbox campaigns/"
  fi
  step "$name: $done: ok"
}

# Puts an install prefix's bin first on PATH and checks `campaignctl` is the one found there.
on_path() {
  local prefix=$1
  export PATH="$prefix/bin:$ORIGINAL_PATH"
  [ "$(command -v campaignctl)" = "$prefix/bin/campaignctl" ] || fail "campaignctl on PATH is not $prefix/bin/campaignctl"
}
ORIGINAL_PATH=$PATH

# --- a. A global install of the tarball. -------------------------------------------------------
step "a. npm install --global <tarball>"
quiet npm install --global --prefix "$work/prefix-tarball" "$tarball"
on_path "$work/prefix-tarball"
check_commands tarball campaignctl

# --- b. A global install from a git URL. --------------------------------------------------------
step "b. npm install --global git+file://<clone>#v$version"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  quiet git clone --quiet --bare "$root" "$work/clone.git"
else # npm resolves a git URL through the repository's HEAD: give the branch one (empty) commit
  quiet git init --quiet --bare "$work/clone.git"
  git --git-dir "$work/clone.git" update-ref HEAD "$(git --git-dir "$work/clone.git" -c user.name=check \
    -c user.email=check@example.invalid commit-tree "$(git hash-object -t tree /dev/null)" -m init)"
fi
quiet bash "$root/scripts/git-release.sh" "$tarball" "$work/clone.git" "v$version"
quiet npm install --global --prefix "$work/prefix-git" "git+file://$work/clone.git#v$version"
on_path "$work/prefix-git"
check_commands git campaignctl

# --- c. npx from the tarball. ------------------------------------------------------------------
step "c. npx --yes file:<tarball>"
export PATH=$ORIGINAL_PATH
check_commands npx npx --yes "file:$tarball"

step "all three installs work"
