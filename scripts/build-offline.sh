#!/bin/sh
# scripts/build-offline.sh BUILD: the default make's build, from what is
# installed and cached, never from the network.  ninja builds all of
# BUILD's targets; trusted-dash and trusted-bash too when that needs no
# download: their binaries in BUILD are up to date, or shells/build.sh
# finds their compiled trees and source packages in its work directory
# (TRUSTEDFOR_SHELLS_DIR, default /var/tmp/trustedfor-shells) and only
# relinks.  Otherwise they are left out, and one line says how to get
# them: "make shells", which may fetch Debian's source packages.  Under
# CPython 3.13, the HACL* SHA-2 object libpython3.13.a lacks is compiled
# from the python3.13 source package only when that is cached
# (interpreters/python/hacl-sha2.sh, TRUSTEDFOR_OFFLINE): else the build
# stops with one line naming it, which "make build" fetches.
set -eu
export TRUSTEDFOR_OFFLINE=1
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: $0 BUILD}
work=${TRUSTEDFOR_SHELLS_DIR:-/var/tmp/trustedfor-shells}
shells="shells/trusted-dash shells/trusted-bash"

# The tree that build.sh would use, compiled, and the source package it
# was unpacked from.
cached() {
	tree=$("$repo/shells/build.sh" "$1" --tree 2>/dev/null) &&
		[ -f "$(dirname "$tree")/built" ] || return
	version=$(dpkg-query -W -f='${source:Version}' "$1" 2>/dev/null) &&
		[ -r "$work/src/$1_${version#*:}.dsc" ]
}

# The default targets, not phony: "all" and the phony groups in it
# (meson-test-prereq) opened, level by level.
default_targets() {
	set -- all
	while [ $# -gt 0 ]; do
		out=$(ninja -C "$build" -t query "$@" | awk '
			/^[^ ].*:$/ { name = substr($0, 1, length($0) - 1); next }
			/^  input: / { rule = $2; deps = 1; if (rule != "phony") print "=" name; next }
			/^  outputs:/ { deps = 0; next }
			deps && rule == "phony" { sub(/^ +(\|\|? )?/, ""); print "+" $0 }')
		printf '%s\n' "$out" | sed -n 's/^=//p'
		# shellcheck disable=SC2046 # target names hold no spaces
		set -- $(printf '%s\n' "$out" | sed -n 's/^+//p' | sort -u)
	done
}

# Meson's own regeneration first, so that what is asked of ninja below is
# today's build.ninja.
ninja -C "$build" build.ninja >/dev/null
# A build without the shells (-Dshells=false, a sanitizer build), shells
# up to date, or shells that build.sh only relinks.
# shellcheck disable=SC2086
if [ ! -e "$build/shells/enabled.h" ] ||
	ninja -C "$build" -n $shells | grep -q '^ninja: no work to do' ||
	{ cached dash && cached bash; }; then
	exec ninja -C "$build"
fi
# shellcheck disable=SC2046
ninja -C "$build" $(default_targets | sort -u | grep -vxF -e shells/trusted-dash -e shells/trusted-bash)
# Binaries of an older series or library would pass for today's: ninja
# builds them again at the next build that includes them.
rm -f "$build/shells/trusted-dash" "$build/shells/trusted-bash"
echo "shells: trusted-dash and trusted-bash left out, not cached in $work: \"make shells\" builds them (it may fetch Debian's source packages)"
