#!/bin/bash
# trusted-for status in an environment prepared here, as root and as uid
# 65534: the sysctls it reads, every place users write (the host's made
# noexec in this namespace, then tmpfs mounts exec and noexec at known
# places), PATH and klibc's directory of small files and links.  Exact
# output from the first warning on (the lines above it are cli.sh's and
# escapes.sh's), short and --verbose, and the short form fits a screen.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
TF=$TF_BUILD/tools/trusted-for
T=$TF_TMP
TP=$TF_BUILD/interpreters/python/trusted-python
if [ "$(id -u)" != 0 ] || in_user_namespace; then
	not_run "$(basename "$0")" "mounts over /run and /media need root"
	done_testing
fi
set_policy_file - || { not_ok "overlay on /etc"; done_testing; }

# Nothing to say about user namespaces, the overflow uid or the launchers'
# memory (fs.suid_dumpable); ptrace and memfds are restricted where the
# kernel has Yama and vm.memfd_noexec.
fake_sysctl user.max_user_namespaces 0 || not_ok "user.max_user_namespaces exists"
fake_sysctl kernel.overflowuid 65534 || not_ok "kernel.overflowuid exists"
fake_sysctl fs.suid_dumpable 0 || not_ok "fs.suid_dumpable exists"
if fake_sysctl kernel.yama.ptrace_scope 2; then
	ptrace=
else
	ptrace="warning: ptrace is not restricted (no Yama): a tracer started by a user rewrites an interpreter's answers; nothing is enforced here
"
fi
if fake_sysctl vm.memfd_noexec 2; then
	memfd=
else
	memfd="warning: a user can make an executable memfd (no vm.memfd_noexec), which passes the execute-permission check; nothing is enforced here
"
fi
ptrace=$ptrace$memfd

# PATH and klibc's directory: a shell, its diverted original (root's only),
# perl, sed, an enlightened python3.11, and klibc's sh.
mkdir -p "$T/bin" "$T/klibc" && chmod 0755 "$T" "$T/bin" "$T/klibc" ||
	{ not_ok "directories for PATH"; done_testing; }
for name in bash perl sed; do
	printf '#!/bin/sh\n' >"$T/bin/$name" && chmod 0755 "$T/bin/$name"
done
printf '#!/bin/sh\n' >"$T/bin/bash.distrib" && chmod 0700 "$T/bin/bash.distrib"
ln -s bash "$T/bin/sh"
ln -s "$TP" "$T/bin/python3.11"
printf '#!/bin/sh\n' >"$T/klibc/sh" && chmod 0755 "$T/klibc/sh"
klibc_bin "$T/klibc" || { not_ok "$T/klibc at /usr/lib/klibc/bin"; done_testing; }

# The places status names on this host, as root and as nobody.
named_places() {
	"$@" env PATH="$T/bin" "$TF" status --verbose |
		sed -n 's/^warning: \(\/[^:]*\): .*, on a mount without noexec: .*/\1/p'
}
# The host's places, each made noexec in this namespace (a bind of it on
# itself, remounted); the build and the sources below one stay exec, a
# bind of their own.  The binds go at the end, with this test's /run and
# /media over them, so that the exit trap finds $TF_TMP where it was
# mounted, below /tmp.
bound=()
unbind_places() {
	local i
	umount -l /media && umount -l /run || not_ok "unmount this test's /run and /media"
	for ((i = ${#bound[@]} - 1; i >= 0; i--)); do
		umount -l "${bound[i]}" || not_ok "unbind ${bound[i]}"
	done
}
for user in root nobody; do
	run=as_nobody
	[ "$user" = nobody ] || run=
	while IFS= read -r place; do
		mount --rbind "$place" "$place" && bound+=("$place") &&
			mount -o remount,bind,noexec "$place" || not_ok "make $place noexec"
		for used in "$TF_SRC" "$TF_BUILD"; do
			used=$(realpath "$used")
			case "$used/" in "$place"/*)
				mount --bind "$used" "$used" && mount -o remount,bind,exec "$used" ||
					not_ok "keep $used exec below $place" ;;
			esac
		done
	done < <(named_places $run)
	expect "$user: the host's places, made noexec, are not named" 0 "" "" -- named_places $run
done

# The places of this test: /run/lock (a tmpfs on /run) and /media/usb (one
# on /media), unless the build or the sources are below them; nobody's
# runtime directory; a world-writable tmpfs, and another mounted noexec.
for dir in /run /media; do
	for used in "$TF_BUILD" "$TF_SRC" "$TF_TMP"; do
		case "$(realpath "$used")/" in "$dir"/*)
			not_run "$(basename "$0")" "a tmpfs on $dir would hide $used"
			done_testing ;;
		esac
	done
done
mount -t tmpfs -o mode=0755 trustedfor-run /run &&
	mkdir -m 1777 /run/lock && mkdir -m 0755 /run/user && mkdir /run/user/65534 &&
	mount -t tmpfs -o mode=0700,uid=65534,gid=65534 trustedfor-run-user /run/user/65534 &&
	mount -t tmpfs -o mode=0755 trustedfor-media /media && mkdir /media/usb &&
	mount -t tmpfs -o mode=0700,uid=65534,gid=65534 trustedfor-usb /media/usb &&
	mkdir "$T/world" "$T/world-noexec" &&
	mount -t tmpfs -o mode=1777 trustedfor-world "$T/world" &&
	mount -t tmpfs -o mode=1777,noexec trustedfor-world-noexec "$T/world-noexec" ||
	{ not_ok "this test's places"; done_testing; }

# The lines after "session:".
status_tail() {
	local opt=$1
	shift
	"$@" env PATH="$T/bin" "$TF" status $opt | sed '1,/^session:/d'
}
passes="a user's own script there passes policy 1, and policy 3 once it is made executable; nothing is enforced here"
each="on a mount without noexec: $passes"
expect "root: status" 0 "${ptrace}warning: 4 places users write are on mounts without noexec (/run/lock, /run/user/65534, /media/usb, $T/world): $passes
enlightened: 1 (python3.11)
not enlightened: 3 shells (bash, sh, /usr/lib/klibc/bin/sh), 1 perl, 1 tool with a command language (sed)
root's only: 1 (bash.distrib)" "" -- status_tail ""
expect "nobody: status" 0 "${ptrace}warning: 4 places users write are on mounts without noexec (/run/lock, /run/user/65534, /media/usb, $T/world): $passes
enlightened: 1 (python3.11)
not enlightened: 3 shells (bash, sh, /usr/lib/klibc/bin/sh), 1 perl, 1 tool with a command language (sed)
root's only: 1 (bash.distrib)" "" -- status_tail "" as_nobody
expect "root: status --verbose" 0 "${ptrace}warning: /run/lock: every user can write here, $each
warning: /run/user/65534: uid 65534 owns it, $each
warning: /media/usb: removable media, uid 65534 owns it, $each
warning: $T/world: every user can write here, $each
interpreter: bash ($T/bin/bash): not enlightened (not an ELF file)
interpreter: bash.distrib ($T/bin/bash.distrib): not enlightened (not an ELF file), root's only (mode 0700)
interpreter: perl ($T/bin/perl): not enlightened (not an ELF file)
interpreter: python3.11 ($T/bin/python3.11): enlightened
interpreter: sed ($T/bin/sed): not enlightened (not an ELF file)
interpreter: sh ($T/bin/sh): not enlightened (not an ELF file)
interpreter: sh (/usr/lib/klibc/bin/sh, off PATH): not enlightened (not an ELF file)" "" -- status_tail --verbose
expect "nobody: status -v" 0 "${ptrace}warning: /run/lock: every user can write here, $each
warning: /run/user/65534: your runtime directory, logind's per-user tmpfs, $each
warning: /media/usb: removable media, you can write here, $each
warning: $T/world: every user can write here, $each
interpreter: bash ($T/bin/bash): not enlightened (not an ELF file)
interpreter: bash.distrib ($T/bin/bash.distrib): unknown (cannot read it: Permission denied), root's only (mode 0700)
interpreter: perl ($T/bin/perl): not enlightened (not an ELF file)
interpreter: python3.11 ($T/bin/python3.11): enlightened
interpreter: sed ($T/bin/sed): not enlightened (not an ELF file)
interpreter: sh ($T/bin/sh): not enlightened (not an ELF file)
interpreter: sh (/usr/lib/klibc/bin/sh, off PATH): not enlightened (not an ELF file)" "" -- status_tail -v as_nobody
lines=$(env PATH="$T/bin" "$TF" status | wc -l)
[ "$lines" -le 24 ] && ok "status fits a screen: $lines lines" || not_ok "status fits a screen: $lines lines"

# The same places noexec are not named; one place left is named on a line
# of its own.
mount -o remount,noexec "$T/world" && mount -o remount,noexec /media/usb &&
	mount -o remount,noexec /run/user/65534 || not_ok "remount them noexec"
expect "one place: its own line" 0 "warning: /run/lock: every user can write here, $each" "" -- \
	sh -c 'status_tail() { "$1" status | grep "^warning: /"; }; status_tail "$@"' - "$TF"
mount -o remount,noexec /run || not_ok "remount /run noexec"
expect "no place: no line" 1 "" "" -- sh -c '"$1" status --verbose | grep "^warning: /"' - "$TF"
unbind_places
done_testing
