#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Installs what the build and the tests need on Debian 12 (as root; only Debian's and npm's registries are used):
# the compiler, CMake and libraries from Debian, clang and libFuzzer for the fuzz targets, Python's gRPC and nginx
# for the service tests, Debian's nodejs and npm where no node exists, then a Node.js >= 20.19 from the npm registry
# where the system's is older (Debian 12's is 18; scripts/node-env.sh). Run it once before ./scripts/main.sh and
# ./scripts/test.sh on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
echo "setup: apt-get update"
apt-get update -qq
echo "setup: build and test packages from Debian"
apt-get install -y -qq --no-install-recommends build-essential cmake pkg-config libcmocka-dev libssl-dev \
  libjansson-dev protobuf-c-compiler libprotobuf-c-dev libgrpc-dev libtomlplusplus-dev libmicrohttpd-dev \
  protobuf-compiler python3-grpcio python3-protobuf nginx-light clang libclang-rt-14-dev ca-certificates >/dev/null
# libsystemd-dev: cuzk-daemon's sd_notify (a Type=notify unit); systemd-analyze checks the installed unit
# (tests/install), from the systemd package where the image lacks it
apt-get install -y -qq --no-install-recommends libsystemd-dev >/dev/null
if ! command -v systemd-analyze >/dev/null; then
  apt-get install -y -qq --no-install-recommends systemd >/dev/null
fi
# A node that is already there is kept (some images ship Node.js with its own npm, which Debian's npm package
# conflicts with); Debian's is installed only where there is none.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: nodejs and npm from Debian"
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
# shellcheck source=node-env.sh
. scripts/node-env.sh
cuzk_node_env
echo "setup: done (node $(node --version), npm $(npm --version))"
