# The two commands of README.md, and the pieces they are made of.
# Each target installs what it needs first (scripts/bootstrap.sh), so a fresh
# Debian 12 machine with a Swift toolchain needs nothing else.

SWIFT ?= swift

.PHONY: demo test fuzz bench chaos bluetooth systemd deb build bootstrap clean

## The main job: the loopback demo (both agents, a private bus, the seed scenario, screenshots).
demo: bootstrap
	bash scripts/demo.sh

## Every test, after a build that must show no warnings from Relay's own code; then the quick
## forms of the soaks: the reliability run is among the tests, and each fuzzer runs 3 s; then
## the Bluetooth rig, Relay on the kernel's Bluetooth stack in a VM (about 8 minutes under TCG,
## its benchmark timing 8 notifications each way instead of 20).
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	bash scripts/fuzz.sh 3
	RELAY_BT_PRESENT_COUNT=8 bash scripts/bluetooth.sh

## Every benchmark, in a release build; prints numbers, asserts nothing, writes Docs/BENCHMARKS.md.
## RELAY_BENCH_QUICK=1 for a shorter run that leaves Docs/ alone (scripts/bench.sh lists the options).
bench: bootstrap
	bash scripts/bench.sh

## The chaos soak: CHAOS_SECONDS (default 180) of seeded runs with drops and kill -9, checked.
chaos: bootstrap
	bash scripts/chaos.sh $(CHAOS_SECONDS) $(CHAOS_SEED)

## Relay on the kernel's Bluetooth stack in a VM (qemu, btvirt, bluetoothd): pairing and a session
## over RFCOMM, asserted; logs, a btmon capture and screenshots in bluetooth-output/ (Docs/BLUETOOTH.md).
bluetooth: bootstrap
	bash scripts/bluetooth.sh

## The packaged relay-wearable service under a real systemd in the same VM: READY=1, relayctl through
## the relay group, a clean stop, exit 78 without a restart loop, a crash restarted; results in
## systemd-output/ (Docs/SERVICES.md).
systemd: bootstrap
	bash scripts/systemd-vm.sh

## Debian packages of the release build (relay-wearable, relay-phone, relayctl) in deb-output/,
## checked with lintian (Docs/SERVICES.md).
deb:
	bash scripts/bootstrap.sh --deb
	bash scripts/deb.sh

## libFuzzer on every parser of outside input, FUZZ_SECONDS (default 30) per target.
fuzz: bootstrap
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

build: bootstrap
	$(SWIFT) build

bootstrap:
	bash scripts/bootstrap.sh

clean:
	rm -rf .build .build-fuzz .build-vm .build-clients demo-output bluetooth-output systemd-output deb-output Fuzz/Crashes
