#!/usr/bin/env bash
# Regenerates the Swift code for Proto/ with Debian's protoc and protoc-gen-swift built
# from the swift-protobuf version Package.swift names. The output is committed; the
# build never runs protoc (no SwiftPM build plugin).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
swift build -c release --product protoc-gen-swift --scratch-path .build-protoc
plugin="$(swift build -c release --scratch-path .build-protoc --show-bin-path)/protoc-gen-swift"

out=Sources/RelayWire/Generated
rm -f "$out"/*.pb.swift
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public \
  --swift_opt=UseAccessLevelOnImports=true \
  --swift_out="$out" \
  --proto_path=Proto \
  $(find Proto -name '*.proto' | sort)
# protoc-gen-swift mirrors the proto folders; the module keeps one flat folder.
find "$out" -mindepth 2 -name '*.pb.swift' -exec mv {} "$out"/ \;
find "$out" -mindepth 1 -type d -empty -delete
echo "generate-protos: wrote $(ls "$out"/*.pb.swift | tr '\n' ' ')"
