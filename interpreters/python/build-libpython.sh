#!/bin/sh
# interpreters/python/build-libpython.sh: build libpython3.X.a the way
# Debian builds the libpython inside /usr/bin/python3.X (its "static"
# build: profile-guided and link-time optimised), from Debian's own source
# package, keeping the link-time-optimisation bytecode in its objects (fat
# LTO objects), so that trusted-python linked to it with -flto gets the
# interpreter Debian's python3.X is (bench/python.md).  3.X is the
# system's python3: python3.11 on Debian 12, python3.13 on Debian 13.
#
# Not part of the default build, of CI or of any test: it compiles CPython
# twice (instrumented, then with the profile) and links it with LTO on one
# core several times: 32 minutes on two cores with the "debian" task, 35
# with the "pgo" task on shared ones (bench/python.md).  Meson uses its
# product when configured with
# -Dlibpython=$(interpreters/python/build-libpython.sh --tree).
#
#   interpreters/python/build-libpython.sh          build (or reuse) the tree
#   interpreters/python/build-libpython.sh --tree   print the build directory
#                                                   that holds libpython3.X.a
#
# The source comes from "apt-get source" for the version of python3.X
# installed here (Debian's patches applied by dpkg-source), through an apt
# configuration private to this script (scripts/debian-source.sh): the
# machine's apt configuration and state are left as they are.  When the archive no longer has that exact
# version's source (a security update superseded it), the newest source of
# the same upstream version it has is built instead, and said so.  The tree
# lives outside the repository, keyed by the source version, the training
# task and this script, and is reused until one of them changes.
#
# Environment:
#   TRUSTEDFOR_PYTHON_DIR   work directory (default /var/tmp/trustedfor-python)
#   TRUSTEDFOR_PYTHON_JOBS  parallel make jobs (default: nproc)
#   TRUSTEDFOR_PYTHON_PGO   the profile's training task: "debian" (default:
#                           debian/rules' PROFILE_TASK, the test suite but
#                           for the tests it excludes, one test per process:
#                           399 tests under 3.11, the code of python3.X's
#                           own build)
#                           or "pgo" (CPython's own --pgo subset, what
#                           --enable-optimizations runs: 44 tests, two runs
#                           of 2 minutes)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/scripts/debian-source.sh"
work=${TRUSTEDFOR_PYTHON_DIR:-/var/tmp/trustedfor-python}
jobs=${TRUSTEDFOR_PYTHON_JOBS:-$(nproc)}
pgo=${TRUSTEDFOR_PYTHON_PGO:-debian}
mode=${1:-}

say() { echo "libpython: $*" >&2; }
die() { echo "libpython: error: $*" >&2; exit 1; }

case "$work" in
"$repo" | "$repo"/*) die "TRUSTEDFOR_PYTHON_DIR must be outside the repository" ;;
esac
case "$pgo" in
debian | pgo) ;;
*) die "TRUSTEDFOR_PYTHON_PGO must be debian or pgo, not $pgo" ;;
esac
case "$mode" in
"" | --tree) ;;
*) die "usage: $0 [--tree]" ;;
esac

# The interpreter this system runs (as meson.build takes it: python3),
# and its package's version.
py=$(basename "$(readlink -f /usr/bin/python3)")
case "$py" in
python3.11 | python3.13) ;;
*) die "/usr/bin/python3 is ${py:-missing}, not python3.11 or python3.13" ;;
esac
version=$(dpkg-query -W -f='${source:Version}' "$py" 2>/dev/null) ||
	die "$py is not installed: cannot tell which source version to build"

# --- the source package, through a private apt configuration --------------
# The source version actually built: the installed one when its .dsc is
# here or can be fetched, else the newest of the same upstream version.
source_version() {
	if [ -r "$work/src/${py}_${version#*:}.dsc" ]; then
		echo "$version"
		return
	fi
	find "$work/src" -maxdepth 1 -name "${py}_${version%%-*}-*.dsc" 2>/dev/null |
		sed "s,.*/${py}_,,; s,\.dsc$,," | sort -V | tail -1
}
key_of() {
	{
		echo "$py $1 $pgo"
		cat "$here/build-libpython.sh" "$repo/scripts/debian-source.sh"
	} | sha256sum | cut -c1-12
}
if [ "$mode" = --tree ]; then
	built=$(source_version)
	[ -n "$built" ] || die "libpython has not been built"
	tree=$work/$py-$(key_of "$built")
	[ -f "$tree/built" ] || die "libpython has not been built ($tree)"
	echo "$tree/src/build-static"
	exit 0
fi

mkdir -p "$work"
exec 9>"$work/$py.lock"
flock 9

# --- Debian packages: debian/control's Build-Depends that the static build
# uses (the extension modules' libraries, so that configure finds what
# Debian's found: libbluetooth-dev changes the builtin _socket module;
# systemtap-sdt-dev is --with-dtrace), not the documentation's or the test
# suite's.
packages="dpkg-dev gcc make libc6-dev autoconf lsb-release
libreadline-dev libncurses-dev zlib1g-dev libbz2-dev liblzma-dev
libgdbm-dev libdb-dev tk-dev libssl-dev libexpat1-dev libbluetooth-dev
libsqlite3-dev libffi-dev uuid-dev systemtap-sdt-dev media-types netbase"
# shellcheck disable=SC2086 # one package name per word
"$repo/scripts/install-deps.sh" $packages >"$work/apt-install.log" 2>&1 ||
	die "cannot install the Debian packages it needs, see $work/apt-install.log"

# (A version the archive did not have is asked for again after a day.)
no_source=$work/src/no-source-${version#*:}
fetch=yes
if [ -r "$work/src/${py}_${version#*:}.dsc" ]; then
	fetch=no
elif [ -n "$(find "$no_source" -mtime -1 2>/dev/null)" ] && [ -n "$(source_version)" ]; then
	fetch=no
fi
if [ $fetch = yes ]; then
	say "fetching the $py $version source package"
	debsrc_update "$work" "$work/apt-source.log" ||
		die "apt-get update failed, see $work/apt-source.log"
	if ! debsrc_download "$work" "$py=$version" "$work/apt-source.log"; then
		# The newest source of the same upstream version the archive has.
		other=$(debsrc_versions "$work" "$py" | grep -F "${version%%-*}-" |
			grep -vxF "$version" | sort -V | tail -1)
		[ -n "$other" ] ||
			die "apt-get source $py=$version failed, see $work/apt-source.log"
		say "the archive has no source of $version: building $other instead"
		touch "$no_source"
		debsrc_download "$work" "$py=$other" "$work/apt-source.log" ||
			die "apt-get source $py=$other failed, see $work/apt-source.log"
	fi
fi
built=$(source_version)
[ -n "$built" ] || die "no $py source in $work/src"
[ "$built" = "$version" ] ||
	say "building $py $built, not the installed $version (its source is not in the archive)"
tree=$work/$py-$(key_of "$built")
b=$tree/src/build-static

# --- unpack, configure and build as debian/rules' static build does --------
if [ ! -f "$tree/built" ]; then
	start=$(date +%s)
	say "building lib$py.a from $py $built ($pgo training) in $tree"
	rm -rf "$tree"
	mkdir -p "$tree"
	debsrc_unpack "$work/src/${py}_${built#*:}.dsc" "$tree/src" "$tree/log" ||
		die "dpkg-source -x failed, see $tree/log"
	# debian/rules' stamp-patch: Debian's patches change configure.ac.
	(cd "$tree/src" && rm -rf autom4te.cache configure && autoconf) >>"$tree/log" 2>&1 ||
		die "autoconf failed, see $tree/log"

	# The flags of debian/rules: dpkg-buildflags without PIE, -O dropped
	# (configure's default OPT is -O3), -fstack-protector rather than
	# -strong, and the link-time optimisation flags (LTO_CFLAGS) added to
	# EXTRA_CFLAGS and to the link.  -ffat-lto-objects keeps the machine
	# code beside the bytecode: the archive links with or without -flto.
	export DEB_BUILD_MAINT_OPTIONS=hardening=-pie
	# (dpkg-buildflags maps the current directory out of debug paths.)
	cppflags=$(cd "$tree/src" && dpkg-buildflags --get CPPFLAGS)
	cflags=$(cd "$tree/src" && dpkg-buildflags --get CFLAGS |
		sed 's/-fstack-protector-strong/-fstack-protector/; s/-O[0-9s]*//g')
	ldflags=$(cd "$tree/src" && dpkg-buildflags --get LDFLAGS)
	lto="-g -fwrapv -O3 -flto -fuse-linker-plugin -ffat-lto-objects"
	# As dpkg-buildpackage does: the build date in sys.version is the
	# changelog's, python3.X's own when this is the installed version.
	SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$tree/src/debian/changelog" -STimestamp)
	export SOURCE_DATE_EPOCH
	host=$(dpkg-architecture -qDEB_HOST_GNU_TYPE)
	multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	export CC="$host-gcc" CXX="$host-g++"
	mkdir -p "$b"
	case $py in
	python3.11)
		(cd "$b" && AR="$host-gcc-ar" RANLIB="$host-gcc-ranlib" CFLAGS="$cflags" \
			CPPFLAGS="$cppflags" LDFLAGS="$ldflags $lto" \
			../configure --prefix=/usr --libdir="/usr/lib/$multiarch" \
			--enable-ipv6 --enable-loadable-sqlite-extensions \
			--with-dbmliborder=bdb:gdbm --with-computed-gotos \
			--without-ensurepip --with-system-expat --with-dtrace \
			--with-ssl-default-suites=openssl \
			--with-wheel-pkg-dir=/usr/share/python-wheels/ \
			--with-system-ffi MKDIR_P="/bin/mkdir -p") >>"$tree/log" 2>&1 ||
			die "configure failed, see $tree/log"
		;;
	*)
		# python3.13's debian/rules gives its static build's flags in
		# CFLAGS_NODIST and LDFLAGS_NODIST (the same flags as above,
		# the link's LTO_CFLAGS included), and its configure no
		# --with-system-ffi (gone from CPython) but
		# --with-system-libmpdec=no: read from debian/rules itself, as
		# its make evaluates them, one a line.
		# shellcheck disable=SC2016 # make expands them, not the shell
		(cd "$tree/src" && make -s -f debian/rules --eval 'trustedfor-print: ; @:$(info $(DPKG_PIE_CPPFLAGS) $(OPT_PIE_CFLAGS))$(info $(DPKG_PIE_LDFLAGS) $(LTO_CFLAGS))$(info $(common_configure_args))' \
			trustedfor-print) >"$tree/rules-flags" 2>>"$tree/log" ||
			die "cannot read debian/rules' flags, see $tree/log"
		{ read -r cflags && read -r ldflags && read -r args; } <"$tree/rules-flags" ||
			die "debian/rules gave too few flags, see $tree/rules-flags"
		case "$cflags $ldflags" in
		*-ffat-lto-objects*-ffat-lto-objects*) ;;
		*) die "debian/rules' flags lack -ffat-lto-objects, see $tree/rules-flags" ;;
		esac
		[ -n "$args" ] || die "debian/rules gave no configure options"
		# (eval: debian/rules quotes one of its options)
		(cd "$b" && export AR="$host-gcc-ar" RANLIB="$host-gcc-ranlib" \
			CFLAGS_NODIST="$cflags" LDFLAGS_NODIST="$ldflags" &&
			eval "../configure $args") >>"$tree/log" 2>&1 ||
			die "configure failed, see $tree/log"
		;;
	esac

	# debian/rules' __post_configure: the extension modules that
	# python3.X-minimal lists as "extension" are built into the
	# interpreter (Modules/Setup.local), the builtin table regenerated.
	names=$(awk -v ORS='|' '$2 ~ /^extension$/ {print $1}' \
		"$tree/src/debian/PVER-minimal.README.Debian.in")
	grep -E "^#(${names}XX)" "$tree/src/Modules/Setup" |
		sed -e 's/^#//' -e 's/-Wl,-Bdynamic//;s/-Wl,-Bstatic//' \
			>>"$b/Modules/Setup.local"
	(cd "$b" && ../Modules/makesetup -c ../Modules/config.c.in -s Modules \
		Modules/Setup.local Modules/Setup.bootstrap Modules/Setup.stdlib \
		../Modules/Setup && mv config.c Modules/ &&
		make Makefile Modules/config.c) >>"$tree/log" 2>&1 ||
		die "makesetup failed, see $tree/log"
	sed '/^Modules\/_math.o: .*PY_STDMODULE_CFLAGS/d' "$b/Makefile" >"$b/Makefile.fixed"
	touch -r "$b/Makefile" "$b/Makefile.fixed"
	mv -f "$b/Makefile.fixed" "$b/Makefile"

	# The training task.  debian/rules' runs the test suite one test per
	# process (-s), without the tests it lists as hanging, failing or slow.
	case $pgo in
	debian)
		# (--eval: a here-document's recipe would lose its tab to <<-.)
		# shellcheck disable=SC2016 # make expands it, not the shell
		excludes=$(make -s -C "$tree/src" -f debian/rules --eval \
			'trustedfor-print: ; @echo $(sort $(TEST_EXCLUDES) $(PROFILE_EXCLUDES))' \
			trustedfor-print 2>>"$tree/log") ||
			die "cannot read debian/rules' test exclusions"
		[ -n "$excludes" ] || die "debian/rules lists no test exclusions"
		task="../Lib/test/regrtest.py -s -j 1 -unone,decimal -x $excludes"
		;;
	pgo) task="-m test --pgo --timeout=1200" ;;
	esac
	# make profile-opt's steps, but a test of the training task that fails
	# (test_generators did once here, and passed alone) has still run its
	# code: CPython's own Makefile ignores the task's status, Debian's
	# second run of it does not.
	m() {
		(cd "$b" && make -j"$jobs" EXTRA_CFLAGS="$lto" \
			CONFIGURE_LDFLAGS="$ldflags $lto" PROFILE_TASK="$task" "$@") \
			>>"$tree/log" 2>&1
	}
	if [ "$py" != python3.11 ]; then
		# 3.13's Makefile does as much itself (Debian's patch runs the
		# task on from build/pynexttest, and its status is ignored),
		# with the flags configure was given: debian/rules' target.
		(cd "$b" && make -j"$jobs" PROFILE_TASK="$task" profile-opt) \
			>>"$tree/log" 2>&1 ||
			die "the profile-guided build failed, see $tree/log"
	else
		m profile-gen-stamp || die "the instrumented build failed, see $tree/log"
		# (Debian's task runs one test per process and stops at a failure;
		# build/pynexttest says where to go on.)
		until m run_profile_task; do
			say "a test of the training task failed (see $tree/log); its profile counts"
			if [ "$pgo" != debian ] || [ ! -f "$b/build/pynexttest" ]; then
				break
			fi
		done
		{ m build_all_merge_profile && m clean-retain-profile; } ||
			die "cannot keep the profile, see $tree/log"
		touch "$b/profile-run-stamp"
		m profile-opt || die "the profile-guided build failed, see $tree/log"
	fi
	[ -r "$b/lib$py.a" ] || die "no lib$py.a in $b"
	# The archive must carry the bytecode, or linking with -flto is moot.
	readelf -S "$b/lib$py.a" 2>/dev/null | grep -q '\.gnu\.lto_' ||
		die "$b/lib$py.a has no LTO bytecode"
	echo "$(($(date +%s) - start))" >"$tree/seconds"
	touch "$tree/built"
	say "built in $(cat "$tree/seconds")s: $b/lib$py.a"
fi
# Trees of other keys go after two idle days.
touch "$tree/built"
find "$work" -maxdepth 1 -name "$py-*" ! -name "${tree##*/}" -mtime +2 \
	-exec rm -rf {} + 2>/dev/null || :
echo "$b"
