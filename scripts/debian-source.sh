# scripts/debian-source.sh: what building from a Debian source package
# shares, sourced by shells/build.sh and
# interpreters/python/build-libpython.sh.  The source comes through an apt
# configuration private to the caller's work directory (its own sources
# list, lists and cache, beside the host's dpkg status): the machine's apt
# configuration and state are left as they are.  Work directories must not
# hold spaces (the options are one word each).

# debsrc_options WORK: apt's options for the private configuration.
debsrc_options() {
	echo "-q -o Dir::Etc::sourcelist=$1/apt/sources.list" \
		"-o Dir::Etc::sourceparts=/nonexistent" \
		"-o Dir::State::Lists=$1/apt/lists -o Dir::Cache=$1/apt/cache" \
		"-o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root"
}

# debsrc_update WORK LOG: deb-src lines for each archive the host installs
# from, as apt itself reads its sources (one-line and deb822 files alike),
# and their source lists fetched.
debsrc_update() {
	mkdir -p "$1/apt/lists/partial" "$1/apt/cache/archives/partial" "$1/src" || return
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	apt-get indextargets --format 'deb-src $(REPO_URI) $(RELEASE) $(COMPONENT)' \
		'Created-By: Packages' | sort -u >"$1/apt/sources.list" || return
	if [ ! -s "$1/apt/sources.list" ]; then
		echo "no archive in the host's apt sources" >"$2"
		return 1
	fi
	# shellcheck disable=SC2046 # one option per word
	apt-get $(debsrc_options "$1") update >"$2" 2>&1
}

# debsrc_download WORK PACKAGE=VERSION LOG: the source package's files in
# WORK/src (after debsrc_update).
debsrc_download() {
	# shellcheck disable=SC2046
	(cd "$1/src" && apt-get $(debsrc_options "$1") source --download-only "$2") >>"$3" 2>&1
}

# debsrc_versions WORK PACKAGE: the versions of PACKAGE's source that the
# archive has (after debsrc_update), one a line.
debsrc_versions() {
	# shellcheck disable=SC2046
	apt-cache $(debsrc_options "$1") showsrc "$2" 2>/dev/null | sed -n 's/^Version: //p'
}

# debsrc_unpack DSC DIR LOG [PATCH...]: the source unpacked into DIR with
# Debian's patches (dpkg-source applies them) and then ours, in order.
debsrc_unpack() {
	dpkg-source -x "$1" "$2" >>"$3" 2>&1 || {
		echo "dpkg-source -x $1 failed" >>"$3"
		return 1
	}
	debsrc_dir=$2 debsrc_log=$3
	shift 3
	for debsrc_patch in "$@"; do
		patch -d "$debsrc_dir" -p1 -s --no-backup-if-mismatch <"$debsrc_patch" >>"$debsrc_log" 2>&1 || {
			echo "$(basename "$debsrc_patch") does not apply" >>"$debsrc_log"
			return 1
		}
	done
}
