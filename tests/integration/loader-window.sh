#!/bin/bash
# The launchers' first instructions: a FIFO named in LD_PRELOAD holds the
# dynamic loader before any of the launcher's code runs, and the parent
# (the same user) writes "return 0" over trusted_for_allow_file() through
# /proc/PID/mem meanwhile (tests/helpers/stall-and-patch.py).  Each
# launcher as `meson install` leaves it, mode 0711, must refuse that
# write (the kernel makes a process non-dumpable at execve() of a file its
# caller cannot read) and then refuse a script on a noexec mount; the
# control, the same binary mode 0755, is written and runs the script.
# That non-dumpable start is the value of fs.suid_dumpable, which the
# tests never change (no namespace has its own): where the host has 1, the
# installed launchers' rows fail, as the attack then works (trusted-for
# status warns: escapes.sh).
# As nobody, files enforced by TRUSTEDFOR_ENFORCE, so on every kernel
# (the securebits, locked or not, and a confined session make no
# difference to a window before the launcher's first instruction; and a
# sanitizer build's launcher, non-dumpable and confined, cannot read its
# own /proc/self/environ for ASAN_OPTIONS).
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE LD_PRELOAD
# LeakSanitizer (the ASan build) stops the world with ptrace.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
if [ "$(id -u)" != 0 ]; then
	not_run "the launchers' first instructions" "needs root (a user other than the launchers' owner)"
	done_testing
fi
# Policy 1, as on Debian, whose libraries are mode 0644.
if ! set_policy_file "policy = 1" || ! make_mounts; then
	not_ok "mount the test tmpfs and hide the host's policy file"
	done_testing
fi
root=$TF_TMP/exec/root
install_build "$root"
bin=$root/usr/local/bin
chmod 0755 "$TF_TMP" "$TF_TMP/exec"
find "$root" -type d -exec chmod 0755 {} +

noex=$TF_TMP/noexec
printf 'print("evil ran")\n' >"$noex/evil.lua"
printf 'print("evil ran")\n' >"$noex/evil.py"
printf 'echo "evil ran"\n' >"$noex/evil.sh"
mkfifo -m 0666 "$TF_TMP/exec/preload.so"
fifo=$TF_TMP/exec/preload.so
patch=$TF_SRC/tests/helpers/stall-and-patch.py

# attack NAME BINARY SCRIPT OBJECT OFFSET ABSOLUTE STATUS OUTPUT ERROR
attack() {
	local name=$1 binary=$2 script=$3 obj=$4 offset=$5 absolute=$6
	shift 6
	expect "$name" "$@" -- as_nobody timeout 60 /usr/bin/$TF_PYTHON "$patch" \
		"$fifo" "$obj" "$offset" "$absolute" -- \
		env TRUSTEDFOR_ENFORCE=file "${variable:-LD_PRELOAD}=$fifo" "$binary" "$script"
}
# The offset of SYMBOL in OBJECT.
symbol() { nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }'; }

refused() { echo "$1: $noex/$2: not trusted for execution: noexec mount"; }
ignored="ERROR: ld.so: object '$fifo' from LD_PRELOAD cannot be preloaded (file too short): ignored."

# NAME SCRIPT SYMBOL OUTPUT: the launcher as installed, and a copy mode
# 0755 as the control.  The statically linked launchers get "return 0"
# over their own trusted_for_allow_file(), and the control runs the
# script; inc's libtrustedfor.so is not mapped yet while the loader
# waits, so the control's "return 0" goes over inc's main(), which then
# ends at once with status 0: the process is the attacker's either way.
# inc runs from a copy of its build tree, where its RUNPATH finds the
# library (the loader guard refuses LD_LIBRARY_PATH).
mkdir -p "$TF_TMP/exec/inc/interpreters/inc" "$TF_TMP/exec/inc/lib"
cp -a "$TF_BUILD"/lib/libtrustedfor.so* "$TF_TMP/exec/inc/lib/"
install -m 0711 "$TF_BUILD/interpreters/inc/inc" "$TF_TMP/exec/inc/interpreters/inc/inc"
printf '+\n' >"$noex/evil.inc"
while read -r name script sym out; do
	installed=$bin/$name
	[ "$name" = inc ] && installed=$TF_TMP/exec/inc/interpreters/inc/inc
	[ -e "$bin/$name" ] || continue
	expect "$name is installed mode 0711" 0 "711" "" -- stat -c %a "$bin/$name"
	absolute=0
	[ "$(readelf -h "$installed" | awk '/Type:/ { print $2 }')" = EXEC ] && absolute=1
	offset=$(symbol "$installed" "$sym")
	control=$(dirname "$installed")/$name-0755
	cp "$installed" "$control"
	chmod 0755 "$control"
	attack "$name as installed: its memory is closed from the loader's first instruction" \
		"$installed" "$noex/$script" "$name" "$offset" "$absolute" \
		126 "mem: Permission denied" "$ignored
$(refused "$name" "$script")"
	attack "$name, control (mode 0755): written before its check, $sym answers 0" \
		"$control" "$noex/$script" "$name-0755" "$offset" "$absolute" \
		0 "mem: written${out:+
$out}" "$ignored"
done <<EOF
trusted-lua evil.lua trusted_for_allow_file evil ran
trusted-python evil.py trusted_for_allow_file evil ran
trusted-dash evil.sh trusted_for_allow_file evil ran
trusted-bash evil.sh trusted_for_allow_file evil ran
inc evil.inc main
EOF
# trusted-for itself: run --lock's and status's proofs read its own procfs
# files, and its memory is closed the same way.
expect "trusted-for is installed mode 0711" 0 "711" "" -- stat -c %a "$bin/trusted-for"
attack "trusted-for as installed: its memory is closed from the loader's first instruction" \
	"$bin/trusted-for" --version trusted-for 0 0 \
	0 "mem: Permission denied
$("$TF_BUILD/tools/trusted-for" --version)" "$ignored"

# LD_AUDIT's objects are opened before LD_PRELOAD's, as early.  The loader
# guard then refuses the variable itself under file enforcement, so the
# control shows the open window (the write succeeds) and not a script run.
variable=LD_AUDIT
ignored="ERROR: ld.so: object '$fifo' cannot be loaded as audit interface: file too short; ignored."
audit_refused="not trusted for execution: a loader variable, refused under file enforcement"
offset=$(symbol "$bin/trusted-lua" trusted_for_allow_file)
attack "trusted-lua as installed, LD_AUDIT: its memory is closed" \
	"$bin/trusted-lua" "$noex/evil.lua" trusted-lua "$offset" 0 \
	126 "mem: Permission denied" "$ignored
trusted-lua: LD_AUDIT: $audit_refused"
attack "trusted-lua, control (mode 0755), LD_AUDIT: its memory is written" \
	"$bin/trusted-lua-0755" "$noex/evil.lua" trusted-lua-0755 "$offset" 0 \
	126 "mem: written" "$ignored
trusted-lua-0755: LD_AUDIT: $audit_refused"
done_testing
