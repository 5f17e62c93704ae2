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
# - full RELRO (-z relro -z now): the GOT is read-only once the agent has started.
flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
  -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)

# SwiftPM does not know that an agent's order file is an input of its link: an executable older
# than its order file (a pull, scripts/code-order.sh) is removed, so that it is linked again.
product="" others=()
while (($#)); do
  if [[ "$1" == --product && $# -ge 2 ]]; then product="$2"; shift 2; else others+=("$1"); shift; fi
done
if [[ -n "$product" && -f "Linking/$product.order" ]]; then
  bin="$(swift build "${flags[@]}" "${others[@]}" --show-bin-path)"
  if [[ -e "$bin/$product" && "Linking/$product.order" -nt "$bin/$product" ]]; then rm -f "$bin/$product"; fi
fi
exec swift build "${flags[@]}" "${others[@]}" ${product:+--product "$product"}
