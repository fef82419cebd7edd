# shellcheck shell=bash
# scripts/debian-root.sh: sourced by scripts/check-fresh.sh (a throw-away
# root per run) and scripts/release-root.sh (a persistent one), which both
# make a Debian root of release SUITE with debootstrap from the archive the
# host's apt reaches.  Each function says what failed on stderr and
# returns 1; the caller stops.

# release_sources SUITE: each "URI release component" of the host's own
# release's sources, as apt itself reads them (one-line .list files and
# deb822 .sources alike), renamed for SUITE: on Debian 12,
# bookworm-updates becomes trixie-updates.  Debian's archive holds every
# release at the same address.  Backports stay out: a fresh machine has
# none.
release_sources() {
	local suite=$1 host sources
	host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$host" ] || { echo "/etc/os-release names no release" >&2; return 1; }
	# shellcheck disable=SC2016 # apt-get's own $(...) fields
	sources=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' \
		'Created-By: Packages' |
		awk -v h="$host" -v s="$suite" '$2 == h || $2 == h "-updates" || $2 == h "-security" {
			$2 = s substr($2, length(h) + 1); print }' | sort -u)
	echo "$sources" | awk -v s="$suite" '$2 == s { found = 1 } END { exit !found }' || {
		echo "apt has no $host source here to take $suite's archive from (see apt-get indextargets)" >&2
		return 1
	}
	echo "$sources"
}

# release_mirror SOURCES SUITE: the URI of SUITE itself in release_sources'
# lines.
release_mirror() {
	echo "$1" | awk -v s="$2" '$2 == s { print $1; exit }'
}

# debootstrap_verified SUITE DIR MIRROR LOG: a minbase root of SUITE in DIR,
# its output in LOG.  Without gpgv or the keyring debootstrap only warns
# that it cannot check the archive's signature: insisted on here.
debootstrap_verified() {
	local suite=$1 dir=$2 mirror=$3 log=$4
	if ! debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$log" 2>&1; then
		tail -20 "$log" >&2
		echo "debootstrap failed, see $log" >&2
		return 1
	fi
	grep -q '^I: Valid Release signature' "$log" || {
		echo "debootstrap did not verify the archive's signature, see $log" >&2
		return 1
	}
}

# write_sources ROOT SOURCES BY: ROOT's apt sources, SOURCES' lines, written
# by BY.
write_sources() {
	local root=$1 sources=$2 by=$3 uri release component
	{
		echo "# Written by $by from the host's apt sources."
		echo "$sources" | while read -r uri release component; do
			echo "deb $uri $release $component"
		done
	} >"$root/etc/apt/sources.list"
}
