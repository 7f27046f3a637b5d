#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# cmake --install into a temporary prefix, then what a user of the installed tree does: every tool answers --version
# (one version) and --help; a program of 20 lines (demo.c) builds with `pkg-config --cflags --libs cuzk` and proves
# and verifies the demo circuit; the example configuration passes the daemon's --check-config without a warning; the
# systemd unit passes `systemd-analyze verify` (skipped, saying so, where that command is missing).
# usage: test_install.sh BUILD_DIR CC [EXTRA_CFLAGS]
set -uo pipefail
BUILD=${1:?usage: test_install.sh BUILD_DIR CC [EXTRA_CFLAGS]}
CC=${2:?usage: test_install.sh BUILD_DIR CC [EXTRA_CFLAGS]}
EXTRA=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=$(mktemp -d /tmp/cuzk-install-XXXXXX)
trap 'rm -rf "$PREFIX"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$PREFIX.log" 2>&1; then
    cat "$PREFIX.log"; rm -f "$PREFIX.log"; echo "FAIL cmake --install"; exit 1
fi
rm -f "$PREFIX.log"
ok "cmake --install --prefix $PREFIX"

# the tree
for f in bin/cuzk bin/cuzk-bench bin/cuzk-engine-bench include/cuzk/base.h include/cuzk/groth16.h \
         include/cuzk/engine.h lib/libcuzk.a lib/libcuzk_engine.a lib/pkgconfig/cuzk.pc etc/cuzk/cuzk.toml; do
    check "installed $f" test -e "$PREFIX/$f"
done
DAEMON=$PREFIX/bin/cuzk-daemon
[ -x "$DAEMON" ] || { DAEMON=; echo "skip the daemon's checks: this build has no cuzk-daemon (no gRPC libraries)"; }

# one version everywhere, and help for each tool
want=$("$PREFIX/bin/cuzk" --version | awk '{print $2}')
for t in cuzk cuzk-bench cuzk-engine-bench ${DAEMON:+cuzk-daemon}; do
    v=$("$PREFIX/bin/$t" --version 2>&1)
    check "$t --version ($v)" test "$v" = "$t $want"
    check "$t --help" bash -c '"$0" --help >/dev/null' "$PREFIX/bin/$t"
done

# a program of others: pkg-config's flags, the shared library (the static one with --static when there is none)
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
static=
[ -e "$PREFIX/lib/libcuzk.so" ] || static=--static
flags=$(pkg-config $static --cflags --libs cuzk) || bad "pkg-config --cflags --libs cuzk"
check "pkg-config cuzk version $want" test "$(pkg-config --modversion cuzk)" = "$want"
if $CC -std=c11 -Wall -Wextra -Werror $EXTRA "$HERE/demo.c" $flags -o "$PREFIX/demo"; then
    ok "cc demo.c \$(pkg-config $static --cflags --libs cuzk)"
    out=$(LD_LIBRARY_PATH=$PREFIX/lib "$PREFIX/demo")
    check "the demo proof verifies: $out" test $? -eq 0
else
    bad "cc demo.c \$(pkg-config $static --cflags --libs cuzk): $flags"
fi

if [ -n "$DAEMON" ]; then
    # the example configuration: every key known, nothing that does not apply
    err=$("$DAEMON" -c "$PREFIX/etc/cuzk/cuzk.toml" --check-config 2>&1 >/dev/null)
    check "cuzk-daemon --check-config on etc/cuzk/cuzk.toml" test $? -eq 0
    check "no warning for etc/cuzk/cuzk.toml${err:+: $err}" test -z "$err"
    unit=$PREFIX/lib/systemd/system/cuzk-daemon.service
    check "installed lib/systemd/system/cuzk-daemon.service" test -e "$unit"
    for line in "ExecStart=$PREFIX/bin/cuzk-daemon -c $PREFIX/etc/cuzk/cuzk.toml" "Restart=on-failure" \
                "RuntimeDirectory=curio" "LimitNOFILE=" "LimitMEMLOCK=infinity"; do
        check "unit: $line" grep -q "^$line" "$unit"
    done
    check "unit: Type=notify or simple" grep -Eq "^Type=(notify|simple)$" "$unit"
    if command -v systemd-analyze >/dev/null 2>&1; then
        out=$(systemd-analyze verify "$unit" 2>&1)
        check "systemd-analyze verify cuzk-daemon.service${out:+: $out}" test $? -eq 0 -a -z "$out"
    else
        echo "SKIP systemd-analyze verify: systemd-analyze is not installed (apt-get install systemd)"
    fi
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
