#!/bin/bash
# debian/ keeps up with the build, checked in seconds so that a change that
# would break "make deb" fails here first: every file the build installs
# goes into a package (a debian/*.install pattern; dh_missing would fail),
# and debian/libtrustedfor1.symbols lists exactly the library's exports
# (lib/libtrustedfor.sym; dpkg-gensymbols would fail on a lost one).
. "${TF_SRC:?}/tests/lib.sh" || exit 2
TF_TMP=$(mktemp -d)
trap 'rm -rf "$TF_TMP"' EXIT

# The installed paths as a package has them: /usr/local/x -> usr/x.
meson introspect "$TF_BUILD" --installed >"$TF_TMP/installed.json" 2>"$TF_TMP/err" ||
	{ not_ok "meson introspect --installed"; sed 's/^/#   /' "$TF_TMP/err"; done_testing; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
# One line a file: "in PATH" or "out PATH".
# debian/rules' TRUSTEDFOR_PAM_DIR: pam.pc's libdir, as meson installs there.
pam_dir=$(pkg-config --variable=libdir pam)/security
python3 - "$TF_TMP/installed.json" "$TF_SRC/debian" "$multiarch" "${pam_dir#/}" >"$TF_TMP/files" <<'PY'
import fnmatch, glob, json, os, sys
installed, debian, multiarch, pam_dir = sys.argv[1:]
patterns = []
for f in sorted(glob.glob(os.path.join(debian, "*.install"))):
    for line in open(f):
        line = line.split("#")[0].split()
        if line and not line[0].startswith("debian/"):
            patterns.append(line[0].replace("${DEB_HOST_MULTIARCH}", multiarch)
                            .replace("${env:TRUSTEDFOR_PAM_DIR}", pam_dir))
for dest in sorted(json.load(open(installed)).values()):
    path = dest
    for prefix in ("/usr/local/", "/usr/", "/"):
        if path.startswith(prefix):
            path = "usr/" + path[len(prefix):] if prefix != "/" else path[1:]
            break
    print("in" if any(fnmatch.fnmatchcase(path, p) for p in patterns) else "out", path)
PY
[ -s "$TF_TMP/files" ] || not_ok "the build installs files"
while read -r where path; do
	[ "$where" = in ] && ok "$path is in a package" ||
		not_ok "$path is in no debian/*.install (dh_missing fails make deb)"
done <"$TF_TMP/files"

sed -n '/global:/,/local:/p' "$TF_SRC/lib/libtrustedfor.sym" | grep -v ':' |
	tr -d '\t; ' | grep . | sort >"$TF_TMP/exports"
sed -n 's/^ \([a-z_]*\)@TRUSTEDFOR_[0-9.]* .*/\1/p' "$TF_SRC/debian/libtrustedfor1.symbols" |
	sort >"$TF_TMP/symbols"
if [ -s "$TF_TMP/exports" ] && cmp -s "$TF_TMP/exports" "$TF_TMP/symbols"; then
	ok "debian/libtrustedfor1.symbols lists exactly lib/libtrustedfor.sym's $(wc -l <"$TF_TMP/exports") exports"
else
	not_ok "debian/libtrustedfor1.symbols lists exactly lib/libtrustedfor.sym's exports"
	diff "$TF_TMP/exports" "$TF_TMP/symbols" | sed 's/^/#   /'
fi
done_testing
