# Sourced by trusted-python's tests.  trusted_stdlib DIR: under check policy
# 2 or 3 Debian's standard library (installed mode 0644) is refused, so make
# an executable copy of it in DIR (on an exec mount) and bind-mount it over
# /usr/lib/python3.11, and hide the system site-packages (their .pth files
# are mode 0644 too).  Only inside the test's private mount namespace: this
# is what an administrator who wants policy 3 would have to do to the system.
trusted_stdlib() {
	local dir=$1
	mkdir -p "$dir/stdlib" "$dir/empty" || return 1
	tar -C /usr/lib/python3.11 --exclude=./test -cf - . | tar -C "$dir/stdlib" -xf - &&
		chmod -R a+x "$dir/stdlib" &&
		mount --bind "$dir/stdlib" /usr/lib/python3.11 &&
		mount --bind "$dir/empty" /usr/lib/python3/dist-packages &&
		{ [ ! -d /usr/local/lib/python3.11/dist-packages ] ||
			mount --bind "$dir/empty" /usr/local/lib/python3.11/dist-packages; }
}
