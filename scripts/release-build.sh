#!/usr/bin/env bash
# The release build of the agents that is measured (scripts/bench.sh) and meant to ship:
#   bash scripts/release-build.sh --product relay-wearable [--scratch-path D] [--show-bin-path]
# - a static Swift runtime and Foundation: only what is used gets linked;
# - every function in a section of its own (Swift and C, the dependencies too), so that lld can
#   place the code an agent runs once it is up together, in the order of Linking/<agent>.order
#   (Package.swift; scripts/code-order.sh writes the files). Most of an agent's resident memory
#   is pages of code; packed, the same code takes a fraction of the pages (Docs/ARCHITECTURE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections "$@"
