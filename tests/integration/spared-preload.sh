#!/bin/bash
# A bad policy file spares root and the administrators' group (docs/
# semantics.md section 3), asked of the process's credentials.  An
# installed shared object that answers getresuid(), getresgid() and
# getgroups() itself (fakeroot's libfakeroot, from the environment's
# FAKEROOT* variables) is preloaded by any user into a launcher: the ids
# must not come through a call such an object can replace, or uid 65534
# passes for root or for a member of group 27 and runs a noexec file.
# Read from the kernel's own words, the ids are uid 65534's, who is held
# to the bad file: the launcher's loader guard refuses the preloaded
# object itself (mode 0644: policy 3 wants the execute bit).
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE
# In a sanitizer build, ASan insists on coming first among the objects
# (loaders.sh): let the preloaded one come first, as in a normal build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0
lua=$TF_BUILD/interpreters/lua/trusted-lua
python=$TF_BUILD/interpreters/python/trusted-python
dash=$TF_BUILD/shells/trusted-dash
bash=$TF_BUILD/shells/trusted-bash
fr=$(ls /usr/lib/*-linux-gnu/libfakeroot/libfakeroot-sysv.so 2>/dev/null | head -n 1)
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }
noex=$TF_TMP/noexec
printf 'print("ran")\n' >"$noex/evil.lua"
printf 'echo ran\n' >"$noex/evil.sh"
printf 'print("ran")\n' >"$noex/evil.py"
chmod 0755 "$noex/evil.lua" "$noex/evil.sh" "$noex/evil.py"
# A blank line after 'end': a bad file.
set_policy_file_raw "$(printf 'trustedfor-policy 1\nenforce = none\nend\n\n_')" ||
	{ not_ok "install a bad policy file"; done_testing; }

# Controls: the group spares a real member, and nobody is held.
expect "control: a real member of group 27 is spared" 0 "ran" "" -- \
	setpriv --reuid=65534 --regid=65534 --groups=27 -- "$lua" "$noex/evil.lua"
expect "control: uid 65534 is held to the bad file" 126 "" \
	"trusted-lua: $noex/evil.lua: not trusted for execution: noexec mount" -- \
	as_nobody "$lua" "$noex/evil.lua"

if [ -z "$fr" ]; then
	not_run "libfakeroot preloaded" "fakeroot is not installed"
	done_testing
fi
as_group_27=(env LD_PRELOAD="$fr" FAKEROOTUID=65534 FAKEROOTEUID=65534 FAKEROOTSUID=65534
	FAKEROOTGID=27 FAKEROOTEGID=27 FAKEROOTSGID=27)
as_root=(env LD_PRELOAD="$fr")
refused="not trusted for execution: no execute permission"
# On an overlay root (the QEMU guests'), the loader guard cannot tie the
# mapped object to the file it opens again, and refuses it for that first.
[ "$(stat -f -c %T "$fr")" = overlayfs ] &&
	refused="not trusted for execution: not the file that was mapped (or /proc is missing)"
# Each launcher, a file of its language on the noexec mount; the shells'
# -c too.
launchers=("$lua $noex/evil.lua" "$python $noex/evil.py")
[ -x "$dash" ] && launchers+=("$dash $noex/evil.sh" "$dash -c echo")
[ -x "$bash" ] && launchers+=("$bash $noex/evil.sh" "$bash -c echo")
for who in group_27 root; do
	declare -n preload="as_$who"
	for launcher in "${launchers[@]}"; do
		read -r -a cmd <<<"$launcher"
		expect "libfakeroot as $who: ${cmd[0]##*/} ${cmd[1]##*/}: the object is refused, nothing runs" \
			126 "" "${cmd[0]##*/}: $fr: $refused" -- as_nobody "${preload[@]}" "${cmd[@]}"
	done
	unset -n preload
done
done_testing
