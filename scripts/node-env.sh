# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the scripts that run the test oracles: makes sure `node` on PATH is Node.js >= 20.19 (what
# @noble/curves 2.4.0, pinned in tests/oracle, needs). The system's node is used when it is new enough; otherwise
# (Debian 12's nodejs is 18.19) the node@20.20.2 package pinned in scripts/node/package-lock.json is installed from
# the npm registry with the system's npm, once, into ${XDG_CACHE_HOME:-~/.cache}/cuzk/node, and put first on PATH.
# Returns non-zero with a message when neither works.
cuzk_node_new_enough() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number);
             process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null
}

cuzk_node_env() {
  local here dir
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  cuzk_node_new_enough && return 0
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/cuzk/node"
  if [ -x "$dir/node_modules/.bin/node" ] && cmp -s "$here/node/package-lock.json" "$dir/package-lock.json"; then
    export PATH="$dir/node_modules/.bin:$PATH"
    cuzk_node_new_enough && return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "the test oracles need Node.js >= 20.19 (found $(node --version 2>/dev/null || echo none)), and there is no" \
         "npm to fetch one with: run scripts/setup-debian.sh as root, or install Node.js >= 20.19" >&2
    return 1
  fi
  echo "Node.js $(node --version 2>/dev/null || echo none) is older than 20.19: installing node@20.20.2 from the npm" \
       "registry into $dir (once)" >&2
  mkdir -p "$dir" && cp "$here/node/package.json" "$here/node/package-lock.json" "$dir/" &&
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || {
      echo "installing node@20.20.2 with npm failed" >&2
      return 1
    }
  export PATH="$dir/node_modules/.bin:$PATH"
  cuzk_node_new_enough || { echo "$dir/node_modules/.bin/node is not a working Node.js >= 20.19" >&2; return 1; }
}
