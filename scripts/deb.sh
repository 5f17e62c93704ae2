#!/usr/bin/env bash
# `make deb`: Debian packages of the release build, checked with lintian (Docs/SERVICES.md):
#   deb-output/relay-wearable_VERSION_ARCH.deb   the wearable agent and its system service
#   deb-output/relay-phone_VERSION_ARCH.deb      the phone agent, its user service, D-Bus activation
#   deb-output/relayctl_VERSION_ARCH.deb         relayctl, which both agent packages depend on
# Each carries its man page and bash, zsh and fish completions. The architecture is the build's:
# run on a Raspberry Pi with Swift's aarch64 toolchain, the same command makes arm64 packages.
#   bash scripts/deb.sh [--scratch-path DIR] [--no-lintian]
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build lintian=1
while (($#)); do
  case "$1" in
    --scratch-path) scratch="$2"; shift 2 ;;
    --no-lintian) lintian=0; shift ;;
    *) echo "deb: unknown option $1" >&2; exit 2 ;;
  esac
done

version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/RelayCore/RelayVersion.swift)"
arch="$(dpkg --print-architecture)"
maintainer="$(git log -1 --format='%an <%ae>' 2>/dev/null || echo 'Relay maintainers <relay@localhost>')"
# The date of the last commit, so the same source gives the same man pages and changelog.
date="$(git log -1 --format=%cs 2>/dev/null || date -u +%F)"
out=deb-output stage="$scratch/deb"

echo "deb: release build (relay-wearable, relay-phone, relayctl) in $scratch"
for product in relay-wearable relay-phone relayctl; do
  bash scripts/release-build.sh --product "$product" --scratch-path "$scratch" >/dev/null
done
bin="$(bash scripts/release-build.sh --scratch-path "$scratch" --show-bin-path)"

# swift-argument-parser's man page generator, built from the checkout SwiftPM already has.
swift build --package-path "$scratch/checkouts/swift-argument-parser" --scratch-path "$scratch/argument-parser-tools" \
  --product generate-manual >/dev/null
manual="$scratch/argument-parser-tools/debug/generate-manual"

rm -rf "$stage" && mkdir -p "$stage" "$out"

# install_executable PACKAGE_ROOT NAME: the stripped binary, its man page and completions.
install_executable() {
  local root="$1" name="$2"
  install -D -m 0755 "$bin/$name" "$root/usr/bin/$name"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$name"
  mkdir -p "$root/usr/share/man/man1"
  "$manual" "$bin/$name" --date "$date" --output-directory "$root/usr/share/man/man1"
  # A blank line between paragraphs of --help's discussion is a paragraph break in mdoc.
  sed -i 's/^$/.Pp/' "$root/usr/share/man/man1/$name.1"
  gzip -9n "$root/usr/share/man/man1/$name.1"
  install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
  # bash-completion sources the file; its #! line is noise there.
  "$bin/$name" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/$name"
  "$bin/$name" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_$name"
  "$bin/$name" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/$name.fish"
  chmod 0644 "$root"/usr/share/bash-completion/completions/* "$root"/usr/share/zsh/vendor-completions/* \
    "$root"/usr/share/fish/vendor_completions.d/*
}

# package NAME: DEBIAN/ from packaging/debian/NAME with the version, the architecture, the size and
# the libraries the binaries link (dpkg-shlibdeps), then dpkg-deb.
package() {
  local name="$1" root="$stage/$1"
  install -D -m 0644 packaging/debian/copyright "$root/usr/share/doc/$name/copyright"
  printf '%s (%s) unstable; urgency=medium\n\n  * Built from the Relay source, version %s.\n\n -- %s  %s\n' \
    "$name" "$version" "$version" "$maintainer" "$(date -u -d "$date" -R)" | gzip -9n >"$root/usr/share/doc/$name/changelog.gz"
  chmod 0644 "$root/usr/share/doc/$name/changelog.gz"
  mkdir -p "$root/DEBIAN"
  for script in postinst prerm postrm conffiles; do
    if [ -f "packaging/debian/$name/$script" ]; then install -m "$([ "$script" = conffiles ] && echo 0644 || echo 0755)" \
      "packaging/debian/$name/$script" "$root/DEBIAN/$script"; fi
  done
  # dpkg-shlibdeps reads debian/control for the package's name; a throwaway one in the stage.
  local shlibs binaries=()
  for executable in "$root"/usr/bin/*; do binaries+=("-e${executable#"$stage"/}"); done
  shlibs="$(cd "$stage" && mkdir -p debian && printf 'Source: relay\n\nPackage: %s\nArchitecture: any\n' "$name" >debian/control \
    && dpkg-shlibdeps -O "${binaries[@]}" | sed -n 's/^shlibs:Depends=//p')"
  if [ -z "$shlibs" ]; then echo "deb: dpkg-shlibdeps found no libraries for $name" >&2; exit 1; fi
  local size
  size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
  sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/" -e "s/@MAINTAINER@/$maintainer/" -e "s/@SIZE@/$size/" \
    -e "s/@SHLIBS@/$shlibs/" "packaging/debian/$name/control" >"$root/DEBIAN/control"
  find "$root" -type d -exec chmod 0755 {} +
  (cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
  chmod 0644 "$root/DEBIAN/md5sums"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${name}_${version}_${arch}.deb" >/dev/null
  echo "deb: $out/${name}_${version}_${arch}.deb (Depends: $(sed -n 's/^Depends: //p' "$root/DEBIAN/control"))"
}

install_executable "$stage/relayctl" relayctl
package relayctl

install_executable "$stage/relay-wearable" relay-wearable
install -D -m 0644 packaging/systemd/relay-wearable.service "$stage/relay-wearable/lib/systemd/system/relay-wearable.service"
install -d -m 0755 "$stage/relay-wearable/etc/relay"
"$bin/relay-wearable" --print-default-config >"$stage/relay-wearable/etc/relay/wearable.toml"
package relay-wearable

install_executable "$stage/relay-phone" relay-phone
install -D -m 0644 packaging/systemd/user/relay-phone.service "$stage/relay-phone/usr/lib/systemd/user/relay-phone.service"
install -D -m 0644 packaging/dbus/org.relay.Phone.Notifications.service \
  "$stage/relay-phone/usr/share/dbus-1/services/org.relay.Phone.Notifications.service"
package relay-phone

if [ "$lintian" = 1 ]; then
  # The informational tags that remain are explained in Docs/SERVICES.md ("lintian").
  echo "deb: lintian"
  lintian --fail-on error,warning "$out"/*_"${version}"_"${arch}".deb
fi
