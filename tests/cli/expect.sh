# SPDX-License-Identifier: Apache-2.0 OR MIT
# What the CLI test scripts share, sourced after they have made their arguments absolute: a temporary directory to
# work in (removed at exit), the pass/fail counters and expect.

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0
fail=0

# expect RC PATTERN DESCRIPTION -- COMMAND...: the command must exit with RC and, when PATTERN is not empty, print
# PATTERN (a grep -E expression) on stdout or stderr.
expect() {
    local want=$1 pattern=$2 desc=$3
    shift 4
    "$@" >out.txt 2>&1
    local got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $desc: exit $got, expected $want"
        sed 's/^/    /' out.txt | head -5
        fail=$((fail + 1))
    elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" out.txt; then
        echo "FAIL: $desc: output lacks /$pattern/"
        sed 's/^/    /' out.txt | head -5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
