#!/usr/bin/env bash
# Installs campaignctl the ways a user does, each into a temporary place, and runs it from there on
# a copy of the example campaign (against the embedded sandbox):
#
#   a. `npm install --global <tarball>`    the `npm pack` tarball (what `npm publish` uploads)
#   b. `npm install --global <git URL>`    a release tag made from that tarball by
#                                          scripts/git-release.sh, in a clone of this repository
#   c. `npx --yes file:<tarball>`          no install at all (a bare absolute path is taken for a command)
#   d. the setup action (action.yml) at that release tag, with no input: it installs its own release
#   e. the setup action with the tarball and its pinned integrity (and refuses a wrong one)
#
# First it checks the tarball holds what the CLI needs at run time, the docs, and nothing else; from
# the installed package it follows every relative link of README.md and docs/, and the pages
# `campaignctl init` names. Needs only git, node and npm, and the npm registry (for the
# dependencies; the npm cache serves them when it can): this is where the installs that `npm test`
# does not do (it stays offline) are done. Run by .ci/run after the tests; a few minutes (5 on a
# busy 2-core machine, mostly npm).
# Usage: bash scripts/install-check.sh
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
  examples/ci/scripts/sticky-comment.mjs docs/README.md docs/ci.md docs/policy.md; do
  grep -qxF "$needed" "$work/files.txt" || fail "the tarball lacks $needed"
done
if grep -vE '^(package\.json|README\.md|LICENSE|CHANGELOG\.md|action\.yml|bench/README\.md|dist/(cli|src|schemas)/.+|schemas/.+|examples/.+|docs/.+\.md)$' \
  "$work/files.txt" | grep . >&2; then
  fail "the tarball holds files outside dist/, schemas/, examples/, docs/ and the top-level documents (above)"
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

# Follows, in an installed package ($1), every relative link of README.md and docs/*.md, and every
# docs/ page that `campaignctl init` names (its next steps and the files it writes).
check_links() {
  local pkg=$1
  (cd "$work" && rm -rf links-init && campaignctl init links-init >"$work/init.out" 2>&1) || fail "campaignctl init"
  node - "$pkg" "$work/init.out" "$work/links-init" <<'NODE' || fail "dead links in the installed package (above)"
const fs = require("node:fs");
const path = require("node:path");
const [pkg, initOut, initDir] = process.argv.slice(2);
const prose = (md) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
const dead = [];
const pages = ["README.md", ...fs.readdirSync(path.join(pkg, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
for (const page of pages) {
  const text = prose(fs.readFileSync(path.join(pkg, page), "utf8"));
  for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const file = decodeURIComponent(target.split("#")[0]);
    if (file !== "" && !fs.existsSync(path.resolve(pkg, path.dirname(page), file))) dead.push(`${page}: ${target}`);
  }
}
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
const init = [fs.readFileSync(initOut, "utf8"), ...walk(initDir).map((f) => fs.readFileSync(f, "utf8"))].join("\n");
const named = new Set([...init.matchAll(/\bdocs\/[\w./-]+?\.md\b/g)].map((m) => m[0]));
if (named.size === 0) dead.push("campaignctl init names no docs/ page: the check found nothing to follow");
for (const page of named) if (!fs.existsSync(path.join(pkg, page))) dead.push(`campaignctl init: ${page}`);
if (dead.length > 0) { console.error(dead.join("\n")); process.exit(1); }
console.log(`${pages.length} pages and ${named.size} pages named by init: every link resolves`);
NODE
}

# --- a. A global install of the tarball. -------------------------------------------------------
step "a. npm install --global <tarball>"
quiet npm install --global --prefix "$work/prefix-tarball" "$tarball"
on_path "$work/prefix-tarball"
check_commands tarball campaignctl
step "a. links from the installed package"
check_links "$work/prefix-tarball/lib/node_modules/campaignctl"

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

# --- d. The setup action at the release tag, with no input: its own release. --------------------
# Runs its shell as GitHub Actions does: from the action's directory (a checkout of the tag).
setup_action() {
  local name=$1 action=$2
  shift 2
  : >"$work/$name.path"
  : >"$work/$name.output"
  env GITHUB_PATH="$work/$name.path" GITHUB_OUTPUT="$work/$name.output" RUNNER_TEMP="$work" RUNNER_OS=Linux \
    CAMPAIGNCTL_PREFIX="$work/prefix-$name" "$@" bash "$action/scripts/setup-campaignctl.sh"
}
step "d. the setup action at v$version, no input: installs its own release"
mkdir -p "$work/action"
git --git-dir "$work/clone.git" archive "v$version" | tar -x -C "$work/action"
quiet setup_action action "$work/action" CAMPAIGNCTL_VERSION="$version"
[ "$(cat "$work/action.path")" = "$work/prefix-action/bin" ] || fail "d: GITHUB_PATH is not the prefix's bin"
grep -qxF "version=$version" "$work/action.output" || fail "d: the output version is not $version"
on_path "$work/prefix-action"
check_commands action campaignctl

# --- e. The setup action with the tarball and its pinned integrity. -----------------------------
step "e. the setup action with the tarball and its integrity"
integrity=$(node -e '
  const data = require("node:fs").readFileSync(process.argv[1]);
  console.log(`sha512-${require("node:crypto").createHash("sha512").update(data).digest("base64")}`);
' "$tarball")
if setup_action wrong "$work/action" CAMPAIGNCTL_PACKAGE="$tarball" \
  CAMPAIGNCTL_INTEGRITY="sha512-$(printf 'A%.0s' $(seq 86))==" >"$work/wrong.log" 2>&1; then
  fail "e: a wrong integrity was installed"
fi
grep -q "not the pinned" "$work/wrong.log" || fail "e: a wrong integrity was refused without saying so"
[ ! -e "$work/prefix-wrong" ] || fail "e: a wrong integrity installed something"
quiet setup_action integrity "$work/action" CAMPAIGNCTL_PACKAGE="$tarball" CAMPAIGNCTL_INTEGRITY="$integrity" \
  CAMPAIGNCTL_VERSION="$version"
on_path "$work/prefix-integrity"
check_commands integrity campaignctl
export PATH=$ORIGINAL_PATH

step "all five installs work"
