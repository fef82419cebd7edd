#!/bin/sh
# shells/sources.sh: print deb-src lines for the archives this machine
# installs from, read from its apt sources (deb822 *.sources files and
# one-line *.list files), for build.sh's private apt configuration.  Fails
# when there is none.  Only "deb" entries count; options such as signed-by
# are kept.
set -eu
etc=${APT_ETC:-/etc/apt}
{
	for f in "$etc"/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# One stanza per paragraph; fields may repeat the keys' case.
		awk '
		function flush() {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				opt = signed == "" ? "" : "[signed-by=" signed "] "
				n = split(uris, u, " ")
				m = split(suites, s, " ")
				for (i = 1; i <= n; i++)
					for (j = 1; j <= m; j++)
						print "deb-src " opt u[i] " " s[j] " " comps
			}
			types = uris = suites = comps = signed = enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			key = tolower($1); sub(/:$/, "", key)
			val = $0; sub(/^[^:]*:[ \t]*/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "components") comps = val
			else if (key == "signed-by") signed = val
			else if (key == "enabled") enabled = tolower(val)
		}
		END { flush() }' "$f"
	done
	for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		sed -n 's/^[ \t]*deb\([ \t]\)/deb-src\1/p' "$f"
	done
} | sort -u | grep . || {
	echo "sources.sh: no deb entries in $etc" >&2
	exit 1
}
