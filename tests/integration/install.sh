#!/bin/bash
# meson install with DESTDIR, then build a program against the installed
# header and pkg-config file, and check what the library exports.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
TF_TMP=$D

install_build "$D/root"
for f in include/trustedfor.h bin/trusted-for share/man/man3/trusted_for.3 \
	share/man/man1/trusted-for.1 share/man/man5/trustedfor.conf.5 share/man/man8/pam_trustedfor.8; do
	[ -e "$D/root/usr/local/$f" ] && ok "installs $f" || not_ok "installs $f"
done
# The shells, where this build has them (not in a sanitizer build): linked
# with the static library, they run from wherever they are installed.
if [ -e "$TF_BUILD/shells/enabled.h" ]; then
	for sh in dash bash; do
		[ -e "$D/root/usr/local/share/man/man1/trusted-$sh.1" ] || ! command -v scdoc >/dev/null &&
			ok "installs share/man/man1/trusted-$sh.1" || not_ok "installs share/man/man1/trusted-$sh.1"
		expect "installs bin/trusted-$sh, which runs" 0 "ran" "" \
			-- "$D/root/usr/local/bin/trusted-$sh" -c 'echo ran'
	done
fi
# The PAM module (not in a sanitizer build), where libpam finds it by name.
if [ -e "$TF_BUILD/pam/pam_trustedfor.so" ]; then
	module=$(pkg-config --variable=libdir pam)/security/pam_trustedfor.so
	[ -e "$D/root$module" ] && ok "installs $module" || not_ok "installs $module"
fi
pc=$(find "$D/root" -name trustedfor.pc)
libdir=$(dirname "$(dirname "$pc")")
[ -n "$pc" ] && ok "installs trustedfor.pc" || not_ok "installs trustedfor.pc"

cat >"$D/consumer.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <trustedfor.h>
int main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	trusted_for_check(fd, 1, argv[1], &v);
	printf("%d %s\n", trusted_for(fd, TRUSTED_FOR_EXECUTION, 0), v.message);
	return argc != 2;
}
C
# A sanitized library needs a sanitized program.
san=$(meson introspect --buildoptions "$TF_BUILD" | python3 -c \
	'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "b_sanitize"))')
[ "$san" = none ] && san_flags= || san_flags=-fsanitize=$san
# shellcheck disable=SC2046
if cc -Wall -Werror $san_flags -o "$D/consumer" "$D/consumer.c" \
	$(PKG_CONFIG_SYSROOT_DIR="$D/root" PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs trustedfor) \
	2>"$D/cc.log"; then
	ok "a program builds with pkg-config --cflags --libs trustedfor"
else
	not_ok "a program builds with pkg-config --cflags --libs trustedfor"
	sed 's/^/#   /' "$D/cc.log"
fi
expect "... and runs against the installed library" 0 "0 /bin/sh: trusted for execution" "" \
	-- env LD_LIBRARY_PATH="$libdir" "$D/consumer" /bin/sh

exports=$(nm -D --defined-only "$libdir/libtrustedfor.so" | awk '$2 == "T" { print $3 }' | sort | tr '\n' ' ')
expect "only the API is exported, every symbol at TRUSTEDFOR_1.0" 0 \
	"trusted_for@@TRUSTEDFOR_1.0 trusted_for_allow_failed_file@@TRUSTEDFOR_1.0 trusted_for_allow_file@@TRUSTEDFOR_1.0 trusted_for_allow_interactive@@TRUSTEDFOR_1.0 trusted_for_backend_string@@TRUSTEDFOR_1.0 trusted_for_check@@TRUSTEDFOR_1.0 trusted_for_explain@@TRUSTEDFOR_1.0 trusted_for_get_config@@TRUSTEDFOR_1.0 trusted_for_get_enforcement@@TRUSTEDFOR_1.0 trusted_for_read_policy_file@@TRUSTEDFOR_1.0 trusted_for_reason_string@@TRUSTEDFOR_1.0 trusted_for_reload_policy_file@@TRUSTEDFOR_1.0 trusted_for_set_log_fn@@TRUSTEDFOR_1.0 trusted_for_strengthen@@TRUSTEDFOR_1.0 " "" \
	-- echo -n "$exports"
# Every exported function has a manual page: an alias that sources
# trusted_for(3), so that "man trusted_for_check" finds it.
for fn in $(nm -D --defined-only "$libdir/libtrustedfor.so" |
	awk '$2 == "T" && $3 !~ /^trusted_for@/ { sub(/@.*/, "", $3); print $3 }'); do
	expect "man3/$fn.3 sources trusted_for(3)" 0 ".so man3/trusted_for.3" "" \
		-- cat "$D/root/usr/local/share/man/man3/$fn.3"
done
# trusted_for(3) promises thread safety: none of libc's calls that share a
# static buffer between threads (strerror() among them).
unsafe=$(nm -D --undefined-only "$libdir/libtrustedfor.so" | awk '{ sub(/@.*/, "", $2); print $2 }' |
	grep -xE 'strerror|strsignal|strtok|localtime|gmtime|ctime|asctime|getpw(nam|uid)|getgr(nam|gid)|rand|readdir|setlocale' |
	tr '\n' ' ')
expect "the library calls no thread-unsafe libc function" 0 "" "" -- echo -n "$unsafe"
expect "the static library holds the seed call" 0 "T trusted_for" "" \
	-- sh -c "nm '$libdir/libtrustedfor.a' 2>/dev/null | grep -x '[0-9a-f]* T trusted_for' | cut -d' ' -f2-"
done_testing
