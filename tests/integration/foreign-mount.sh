#!/bin/bash
# An exec mount of another mount namespace, handed into a confined session.
#
# The session cannot create a user namespace, but a process of the same
# user outside it can (Debian allows unprivileged ones): it mounts a tmpfs
# without noexec there and copies the attacker's file from the noexec
# mount into it.  The session then reaches that mount through
# /proc/PID/root (ptrace read access to a process of its own user) or
# through a descriptor passed over a Unix socket (/dev/fd/N/...).  The
# kernel's check accepts such a file; the library refuses it: its mount is
# not in the process's mount namespace (lib/mount_namespace.c).
#
# As uid 65534, under check policy 1 and 3, with the policy file enforcing
# "file, interactive" and the session locked and confined; each way in has
# a control (Debian's lua5.4 runs the file through the same path).  And
# what must still be trusted: a chroot's own files.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }
if kernel_lacks exec-securebits; then
	not_applicable "$(basename "$0")" "$na_why"
	done_testing
fi
if kernel_lacks mount-id-unique; then
	# Documented in trusted_for(3), BUGS: before 6.8 nothing tells.
	not_applicable "$(basename "$0")" "$na_why"
	done_testing
fi
if ! as_nobody unshare -Ur true 2>/dev/null; then
	not_applicable "$(basename "$0")" "no unprivileged user namespaces here"
	done_testing
fi
if in_user_namespace; then
	# The test's own user namespace: its helper could not make another
	# mount namespace that the session does not see the same way.
	not_applicable "$(basename "$0")" "needs root: run in a user namespace"
	done_testing
fi
export LC_ALL=C PYTHONDONTWRITEBYTECODE=1
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 PYTHONPATH PYTHONSTARTUP
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

TF=$TF_BUILD/tools/trusted-for
lua=$TF_BUILD/interpreters/lua/trusted-lua
py=$TF_BUILD/interpreters/python/trusted-python
N=$TF_TMP/noexec
chmod 0777 "$N"
not="not trusted for execution"
refused="$not: mount of another mount namespace"
SESSION=("$TF" run --restrict-file --deny-interactive --lock --)

as_nobody sh -c 'printf "print(\"EVIL RAN\")\n" >"$1/evil.lua" &&
	cp "$1/evil.lua" "$1/evil.py" && chmod 0755 "$1"/evil.* && mkdir "$1/mp"' _ "$N" ||
	not_ok "the attacker's files"
mkfifo -m 0666 "$TF_TMP/ready" "$TF_TMP/done"

# The helper, outside any session, in a user and mount namespace of its own:
# an exec tmpfs with the copies, and a socket that hands out a descriptor of
# it.  It says its pid when ready, and lives until the test says done.
helper='
import os, socket, sys
sock, mp, ready, done = sys.argv[1:]
d = os.open(mp, os.O_PATH | os.O_DIRECTORY)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sock)
os.chmod(sock, 0o777)
s.listen(8)
with open(ready, "w") as f:
    f.write(f"{os.getpid()}\n")
s.setblocking(False)
done_fd = os.open(done, os.O_RDONLY | os.O_NONBLOCK)
import selectors
sel = selectors.DefaultSelector()
sel.register(s, selectors.EVENT_READ)
sel.register(done_fd, selectors.EVENT_READ)
while True:
    for key, _ in sel.select():
        if key.fileobj is s:
            c, _ = s.accept()
            socket.send_fds(c, [b"x"], [d])
            c.close()
        elif os.read(done_fd, 1):
            sys.exit(0)
'
# The receiver, inside the session: the descriptor (4, after the socket),
# then the command with FD replaced by its number.
receiver='
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
_, fds, _, _ = socket.recv_fds(s, 1, 1)
os.set_inheritable(fds[0], True)
os.execv(sys.argv[2], [a.replace("FD", str(fds[0])) for a in sys.argv[2:]])
'
as_nobody unshare -Urm sh -c 'mount -t tmpfs -o mode=0755 helper "$1/mp" &&
	cp "$1/evil.lua" "$1/evil.py" "$1/mp/" && exec /usr/bin/$TF_PYTHON -c "$2" "$3" "$1/mp" "$4" "$5"' \
	_ "$N" "$helper" "$N/sock" "$TF_TMP/ready" "$TF_TMP/done" &
# Opened both ways, the FIFO does not wait for a writer: a helper that
# failed before it wrote is a failed case, not a hang.
exec 8<>"$TF_TMP/ready"
if ! read -r -t 120 pid <&8; then
	not_ok "the helper outside the session starts"
	done_testing
fi
exec 9<>"$TF_TMP/done"
root=/proc/$pid/root$N/mp

# e WHAT STATUS STDOUT STDERR COMMAND...
e() { expect "policy $p: $1" "$2" "$3" "$4" -- "${@:5}"; }
for p in 1 3; do
	set_policy_file "policy = $p
enforce = file,interactive" || not_ok "policy file"
	e "control: lua5.4 runs the copy through /proc/PID/root" 0 "EVIL RAN" "" \
		as_nobody lua5.4 "$root/evil.lua"
	e "control: lua5.4 runs it through a passed descriptor" 0 "EVIL RAN" "" \
		as_nobody /usr/bin/$TF_PYTHON -c "$receiver" "$N/sock" /usr/bin/lua5.4 /dev/fd/FD/evil.lua
	e "control: the same file on the noexec mount is refused" 126 "" \
		"trusted-lua: $N/evil.lua: $not: noexec mount" \
		as_nobody "${SESSION[@]}" "$lua" "$N/evil.lua"
	e "trusted-lua, the copy through /proc/PID/root" 126 "" \
		"trusted-lua: $root/evil.lua: $refused" \
		as_nobody "${SESSION[@]}" "$lua" "$root/evil.lua"
	# Under policy 3 Debian's standard library (mode 0644) is refused first.
	[ "$p" = 3 ] || e "trusted-python, the copy through /proc/PID/root" 126 "" \
		"trusted-python: $root/evil.py: $refused" \
		as_nobody "${SESSION[@]}" "$py" "$root/evil.py"
	e "trusted-lua, the copy through a passed descriptor" 126 "" \
		"trusted-lua: /dev/fd/4/evil.lua: $refused" \
		as_nobody "${SESSION[@]}" /usr/bin/$TF_PYTHON -c "$receiver" "$N/sock" \
		"$lua" /dev/fd/FD/evil.lua
	e "trusted-for check says why" 1 "" \
		"trusted-for: $root/evil.lua: $refused" \
		as_nobody "$TF" check --policy "$p" "$root/evil.lua"
done

# A chroot into a directory of a mount: statmount() refuses (EPERM) a
# mount whose root the caller cannot reach, which here is the mount of the
# chroot's own files.  They are on the mount of the process's root, in its
# namespace, and trusted as such.
jail=$TF_TMP/exec/jail
mkdir -p "$jail$TF_BUILD"
for d in usr lib lib64 bin proc etc; do
	[ -e "/$d" ] || continue
	mkdir -p "$jail/$d" && mount --rbind "/$d" "$jail/$d" || not_ok "bind /$d into the chroot"
done
mount --rbind "$TF_BUILD" "$jail$TF_BUILD" || not_ok "bind the build into the chroot"
printf 'echo ran\n' >"$jail/x.sh" && chmod 0755 "$jail/x.sh"
for p in 1 3; do
	e "a chroot's own file, as uid 65534" 0 "" "" \
		chroot --userspec=65534:65534 "$jail" "$TF" check --policy "$p" /x.sh
	e "a chroot's own file, as root" 0 "" "" chroot "$jail" "$TF" check --policy "$p" /x.sh
done
echo x >&9
exec 9>&-
wait
done_testing
