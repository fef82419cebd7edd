# Sourced by trusted-python's tests.  trusted_stdlib DIR [ENTRY...]: under
# check policy 2 or 3 Debian's standard library (installed mode 0644) is
# refused, so make an executable copy of it in DIR (on an exec mount) and
# bind-mount it over /usr/lib/python3.11, and hide the system site-packages
# (their .pth files are mode 0644 too) behind a directory that holds an
# executable copy of the ENTRY names of /usr/lib/python3/dist-packages only
# (setuptools, for example).  Only inside the test's private mount
# namespace: this is what an administrator who wants policy 3 would have to
# do to the system.
trusted_stdlib() {
	local dir=$1 entry
	shift
	mkdir -p "$dir/stdlib" "$dir/dist" "$dir/empty" || return 1
	tar -C /usr/lib/$TF_PYTHON --exclude=./test -cf - . | tar -C "$dir/stdlib" -xf - &&
		chmod -R a+x "$dir/stdlib" || return 1
	for entry in "$@"; do
		cp -a "/usr/lib/python3/dist-packages/$entry" "$dir/dist/" || return 1
	done
	chmod -R a+x "$dir/dist" &&
		mount --bind "$dir/stdlib" /usr/lib/$TF_PYTHON &&
		mount --bind "$dir/dist" /usr/lib/python3/dist-packages &&
		{ [ ! -d /usr/local/lib/$TF_PYTHON/dist-packages ] ||
			mount --bind "$dir/empty" /usr/local/lib/$TF_PYTHON/dist-packages; }
}
