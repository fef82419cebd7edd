# The front door.  The build itself is Meson's; this file only installs
# what is missing (as root), configures the build directories and runs.
#
#   make          build from what is installed and cached, never the
#                 network: a missing build dependency is named (make deps
#                 installs it), and trusted-dash and trusted-bash are left
#                 out, with one line saying so, unless their compiled trees
#                 are cached (scripts/build-offline.sh)
#   make build    all of it, the shells included: installs what is missing,
#                 and fetches Debian's dash and bash source packages when
#                 they are not cached (as every target below that builds)
#   make demo     show the checks and enforcement on real mounts
#   make check-fast  the inner loop: the tests but the slow ones (below)
#   make check    the whole suite: normal build, ASan+UBSan build, fuzzing,
#                 the packages' deployment test, the kernel series booted
#                 in QEMU, the userspace suite in QEMU guests on the
#                 release's own kernel (Debian 12's 6.1, Debian 13's 6.12)
#                 and the patched 6.12; one summary line per
#                 kernel, then
#                 "N passed, N failed"
#   make guest-check  the guests alone, with every test they can run;
#                 GUESTS="stock-6.12 stock-7.3" boots Debian 13's own 6.12
#                 and trixie-backports' 7.3 instead
#   make check-release  what depends on the Debian release: the normal
#                 build's tests, the packages, the release's own kernel
#   make check-fresh  make check from a clean clone in a fresh Debian 12
#                 root (debootstrap); SUITE=trixie: make check-release in
#                 a fresh Debian 13 root; CI runs both (.ci/run)
#   make bench    the benchmarks: library, Lua, Python, shells, and in the guest
#   make deb      the Debian packages (debian/) of this machine's release, left
#                 in build/deb/SUITE/ (bookworm or trixie), lintian clean;
#                 SUITE=bookworm|trixie: that release's, built (and checked
#                 by its lintian) natively, or in a root of that release
#                 (scripts/release-root.sh) when it is not this machine's;
#                 LIBPYTHON=DIR: trusted-python linked to the libpython of
#                 interpreters/python/build-libpython.sh (its --tree; Debian 12)
#   make deploy-check  install this release's packages in an overlay of this
#                 root, come in by su, ssh, scp, sftp and cron, check
#                 enforcement in each, purge; for the other release:
#                 scripts/release-root.sh SUITE make deploy-check
#   make shells   trusted-dash and trusted-bash (part of make build; the
#                 compiled trees are cached in /var/tmp/trustedfor-shells,
#                 TRUSTEDFOR_SHELLS_DIR; a missing source package is fetched)
#   make deps     what is missing of debian/control's Build-Depends and
#                 tests/packages, the project's one list (scripts/install-deps.sh)

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 20

.PHONY: all deps build shells asan deb deploy-check demo check check-fast check-release check-fresh kernel-check guest-check bench install clean

all:
	@scripts/install-deps.sh --check build
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) --werror
	@scripts/build-offline.sh $(BUILD)

deps:
	@scripts/install-deps.sh

build: deps
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) --werror
	ninja -C $(BUILD)

shells: build
	ninja -C $(BUILD) shells/trusted-dash shells/trusted-bash

asan: deps
	@test -f $(ASAN_BUILD)/build.ninja || meson setup $(ASAN_BUILD) --werror \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all
	ninja -C $(ASAN_BUILD)

# scripts/deb.sh builds on a copy of the tree outside it, then runs lintian;
# SUITE unset is the running release.
deb: deps
	TRUSTEDFOR_LIBPYTHON=$(LIBPYTHON) scripts/deb.sh $(if $(SUITE),--suite $(SUITE)) $(BUILD)/deb

deploy-check: build deb
	tests/run.py --cmd deploy "tests/integration/deploy.sh $(BUILD)"

demo: build
	scripts/demo.sh $(BUILD)

# The inner loop while working on userspace: meson test of every test of
# the normal build but those in the suite "slow" (tests/meson.build): 33 of
# the 47 tests, 1,875 cases (unit/, abi/, conformance/'s C tests, the CLI,
# packaging, forged answers, foreign mounts, the loader window and the
# interposed guard, inc, trusted-lua, python-matrix); the slow 14 are make
# check's.  Measured (time make check-fast, built, as root, 2026-12-07) on
# the 2 cores: 40 s at a load of 0, 59 s at a load of 4.
check-fast: build
	meson test -C $(BUILD) --no-suite slow --print-errorlogs

# The running release's own kernel (Debian's prebuilt image: 6.1 on
# Debian 12, 6.12 on Debian 13) and the patched 6.12 booted under QEMU with
# the host's userspace (kernel/userspace.sh), each with a summary line of
# its own before the total.  make check starts both guests beside the
# host's tests (which leave a core idle most of the time) and runs there the
# set that fits CI's time (TRUSTEDFOR_GUEST_SET=ci, see kernel/README.md);
# the 6.12+series guest shares its kernel build with kernel/check.sh.
release := $(shell . /etc/os-release 2>/dev/null && echo "$$VERSION_CODENAME")
release_guest_bookworm = stock-6.1
release_guest_trixie = stock-6.12
RELEASE_GUEST ?= $(or $(release_guest_$(release)),stock-6.1)
guest_label_stock-6.1 = 6.1 guest
guest_label_stock-6.12 = 6.12 guest
guest_label_stock-7.3 = 7.3 guest
guest_label_6.12 = 6.12+series guest

check: build asan deb
	TRUSTEDFOR_GUEST_SET=ci tests/run.py \
		--start guest-$(RELEASE_GUEST) "kernel/userspace.sh $(RELEASE_GUEST) $(BUILD)" \
		--start guest-6.12 "kernel/userspace.sh 6.12 $(BUILD)" \
		--build $(BUILD) --build $(ASAN_BUILD) \
		--cmd fuzz "tests/fuzz/run.sh $(FUZZ_SECONDS)" \
		--cmd deploy "tests/integration/deploy.sh $(BUILD)" \
		--section "6.12+series guest" --cmd kernel kernel/check.sh --wait guest-6.12 \
		--section "$(guest_label_$(RELEASE_GUEST))" --wait guest-$(RELEASE_GUEST)

# What depends on the release, for CI's second release (.ci/run): the
# normal build's tests, the packages and their deployment test, the
# release's own kernel in a guest.  What it leaves out (the ASan+UBSan
# build, fuzzing, the patched kernel) CI runs on the first.
check-release: build deb
	TRUSTEDFOR_GUEST_SET=ci tests/run.py \
		--start guest-$(RELEASE_GUEST) "kernel/userspace.sh $(RELEASE_GUEST) $(BUILD)" \
		--build $(BUILD) \
		--cmd deploy "tests/integration/deploy.sh $(BUILD)" \
		--section "$(guest_label_$(RELEASE_GUEST))" --wait guest-$(RELEASE_GUEST)

# The guests alone, one after the other, every test they run, while working
# on them: GUESTS names them (default: make check's two), from Debian's
# prebuilt kernels stock-6.1 (bookworm), stock-6.12 (trixie), stock-7.3
# (trixie-backports) and the patched 6.12; TRUSTEDFOR_GUEST_SET=ci runs
# make check's set instead.  For example:
#   make guest-check GUESTS="stock-6.12 stock-7.3"
GUESTS ?= $(RELEASE_GUEST) 6.12
guest-check: build
	tests/run.py $(foreach g,$(GUESTS),--section "$(or $(guest_label_$(g)),$(g) guest)" \
		--cmd guest-$(g) "kernel/userspace.sh $(g) $(BUILD)")

# .ci/run inside a minimal root of SUITE (bookworm, the default, or
# trixie), from a clean clone of HEAD: what the project forgets to install
# fails there.
check-fresh:
	SUITE=$(SUITE) scripts/check-fresh.sh

kernel-check:
	kernel/check.sh

# Each benchmark measures the library or a launcher against its raw
# counterpart side by side in one run; results go in bench/*.md by hand.
bench: build
	bench/run.sh $(BUILD)
	bench/lua/require.sh $(BUILD)
	bench/python/imports.sh $(BUILD)
	bench/shells/run.sh $(BUILD)
	bench/loaders/startup.sh $(BUILD)
	bench/session/confine.sh $(BUILD)
	kernel/check.sh --bench

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
