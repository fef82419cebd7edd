#!/bin/bash
# make demo: the checks and their enforcement on real mounts, in a private
# mount namespace (a user namespace too when not root), so nothing here
# touches the host's mounts.  Usage: scripts/demo.sh BUILD_DIR
set -u
build=$(cd "${1:-build}" && pwd) || exit 1
if [ -z "${TF_DEMO_INSIDE:-}" ]; then
	export TF_DEMO_INSIDE=1
	if [ "$(id -u)" = 0 ]; then
		exec unshare --mount --propagation private "$0" "$build"
	fi
	exec unshare --user --map-root-user --mount --propagation private "$0" "$build" ||
		{ echo "demo: needs root, or user namespaces (sysctl kernel.unprivileged_userns_clone=1)" >&2; exit 1; }
fi

# Commands show as a user would type them once installed.
PATH=$build/tools:$build/interpreters/inc:$build/interpreters/lua:$build/interpreters/python:$PATH
tf=trusted-for
dir=$(mktemp -d /tmp/trustedfor-demo.XXXXXX)
mount -t tmpfs -o mode=0755 demo "$dir"
trap 'umount -l "$dir"; rmdir "$dir"' EXIT
# Show no host policy file: the demo runs with the defaults, in this namespace only.
mkdir "$dir/etc-upper" "$dir/etc-work"
mount -t overlay demo-etc -o "lowerdir=/etc,upperdir=$dir/etc-upper,workdir=$dir/etc-work" /etc
rm -f /etc/trustedfor.conf
cd "$dir"
mkdir exec noexec
mount -t tmpfs -o mode=0755 demo-exec exec
mount -t tmpfs -o mode=0755,noexec demo-noexec noexec

say() { printf '\n\033[1m# %s\033[0m\n' "$*"; }
# run [--as "what to show"] COMMAND...
run() {
	local shown
	if [ "$1" = --as ]; then
		shown=$2
		shift 2
	else
		shown="$*"
	fi
	printf '$ %s\n' "$shown"
	"$@"
	printf '[exit status %d]\n' "$?"
}

say "Two fresh tmpfs mounts: exec/ and noexec/ (mounted noexec)"
printf '#!%s\n+\n+\n' inc >exec/hello.inc
cp exec/hello.inc exec/notexec.inc
cp exec/hello.inc noexec/evil.inc
chmod 0755 exec/hello.inc noexec/evil.inc
chmod 0644 exec/notexec.inc
ls -l exec noexec | grep -v '^total'

say "Would these files be trusted for execution, and why?"
run "$tf" check --explain exec/hello.inc exec/notexec.inc noexec/evil.inc /dev/null

say "The policy in force"
run "$tf" status

# A normal user's demo runs in a user namespace of its own, where a mount
# could hide the policy file: the library trusts none there.
if [ "$(awk '{ print $1, $2, $3 }' /proc/self/uid_map)" != "0 0 4294967295" ]; then
	say "Not root, so in a user namespace: a mount could hide the policy file there, so it fails closed and everything is enforced (run the demo as root to see the defaults)"
	run inc noexec/evil.inc
	run inc exec/hello.inc
	run inc -c +
	printf 'print("hello from lua")\n' >noexec/evil.lua
	printf 'print("hello from python")\n' >noexec/evil.py
	[ ! -x "$build/interpreters/lua/trusted-lua" ] || run trusted-lua noexec/evil.lua
	if [ -x "$build/interpreters/python/trusted-python" ]; then
		say "Under policy 3, Debian's standard library (mode 0644) is refused before any script"
		run trusted-python noexec/evil.py
	fi
	exit 0
fi

say "The check on its own blocks nothing: Linux runs code through an interpreter"
run inc noexec/evil.inc
say "... although the kernel refuses to execute the same file"
run ./noexec/evil.inc

# Enforcement comes from the exec securebits (Linux 6.14), set by
# trusted-for run; without them (Debian 12's 6.1) from the policy file or
# the environment, shown here with TRUSTEDFOR_ENFORCE.
if "$tf" status | grep -q '^securebits: .*no exec securebits'; then
	securebits=
	restrict=(env TRUSTEDFOR_ENFORCE=file)
	deny=(env TRUSTEDFOR_ENFORCE=interactive)
	file_what="TRUSTEDFOR_ENFORCE=file (this kernel has no exec securebits)"
	interactive_what="TRUSTEDFOR_ENFORCE=interactive"
else
	securebits=1
	restrict=("$tf" run --restrict-file --)
	deny=("$tf" run --deny-interactive --)
	file_what=RESTRICT_FILE
	interactive_what=DENY_INTERACTIVE
fi

say "Enforcement: $file_what turns the failed check into a refusal"
run "${restrict[@]}" inc noexec/evil.inc
run "${restrict[@]}" inc exec/hello.inc

say "$interactive_what refuses code that is not a checked file"
run "${deny[@]}" inc -c +
printf '+\n' | run --as "printf '+\\n' | ${deny[*]} inc -i" \
	"${deny[@]}" inc -i
run --as "${deny[*]} inc -i <exec/hello.inc" \
	"${deny[@]}" inc -i <exec/hello.inc

for lang in lua python; do
	launcher=trusted-$lang
	[ -x "$build/interpreters/$lang/$launcher" ] || continue
	say "The same for trusted-$lang"
	if [ $lang = lua ]; then
		printf 'print("hello from lua")\n' >noexec/evil.lua
		run "${restrict[@]}" "$launcher" noexec/evil.lua
		run "${deny[@]}" "$launcher" -e 'print(1)'
	else
		# Debian's standard library is mode 0644: policy 1 (mount) is what
		# a Debian system can enforce today.  The patched kernel's sysctl
		# rules over the policy file, and is the administrator's to set.
		policy=$("$tf" status | sed -n 's/^check policy: \([0-3]\) .*, from fs.trusted_for_policy$/\1/p')
		if [ -n "$policy" ] && [ "$policy" != 1 ]; then
			say "Not shown here: this kernel's fs.trusted_for_policy is $policy, not 1, and Debian's standard library (mode 0644) is refused under it"
			continue
		fi
		printf 'trustedfor-policy 1\npolicy = 1\nend\n' >/etc/trustedfor.conf
		printf 'print("hello from python")\n' >noexec/evil.py
		printf 'import json\nprint(json.dumps({"ok": True}))\n' >exec/good.py
		run "${restrict[@]}" "$launcher" noexec/evil.py
		run "${restrict[@]}" "$launcher" exec/good.py
		rm /etc/trustedfor.conf
	fi
done

if [ -n "$securebits" ]; then
	say "Locked: the command cannot switch enforcement off again"
	run "$tf" run --restrict-file --deny-interactive --lock -- "$tf" status
else
	say "For every process: the policy file (root's, here in this namespace only)"
	printf 'trustedfor-policy 1\nenforce = file,interactive\nend\n' >/etc/trustedfor.conf
	run "$tf" status
	run inc noexec/evil.inc
	rm /etc/trustedfor.conf
fi
