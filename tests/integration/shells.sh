#!/bin/bash
# trusted-dash and trusted-bash: every way code enters the shell, under
# check policy 1 and 3, as root and as uid 65534, with the exact refusal.
# Enforcement comes from the policy file (it works on kernels without the
# exec securebits); the securebits route is the interpreter matrix's.
#
#   file code         the script, ".", "source", their PATH search, a
#                     symlink, a hardlink, a bind mount, /dev/fd/N,
#                     /proc/self/fd/N: a file on a noexec mount is refused
#                     under both policies, a file without the execute bit
#                     under 3.
#   startup files     ENV, BASH_ENV, the profile, rc and logout files, the
#                     rc files bash reads for sshd: one that fails the
#                     check is skipped with one line, and the shell goes on.
#   interactive code  -c, -i, -s, a pipe, a FIFO, a non-executable file on
#                     stdin, process substitution, a terminal (a login
#                     shell on a pseudo-terminal).
#   environment code  exported functions, PS4, ENV and BASH_ENV values that
#                     expand, SHELLOPTS, BASHOPTS, PROMPT_COMMAND, and a
#                     $"..." translation from a catalog the environment
#                     chooses: each with a control run that shows the
#                     payload running when nothing is enforced.
#   history           bash's fc -s, fc -e, fc with an editor, history -s
#                     and history expansion run a noexec file's line that
#                     history -r loaded: interactive code.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
export LC_ALL=C
unset TRUSTEDFOR_ENFORCE ENV BASH_ENV SHELLOPTS BASHOPTS PROMPT_COMMAND PS4
make_mounts || { not_ok "mount the exec and noexec tmpfs"; done_testing; }
set_policy_file - || { not_ok "overlay /etc"; done_testing; }
exec_dir=$TF_TMP/exec
noexec_dir=$TF_TMP/noexec


# policy N ENFORCE: the policy file for the next cases.
policy() {
	set_policy_file "$(printf 'policy = %s\nenforce = %s\naudit = off\n' "$1" "$2")"
}

# with_fd N FILE COMMAND...: COMMAND with FILE open on descriptor N.
with_fd() {
	local n=$1 file=$2
	shift 2
	eval "\"\$@\" $n<\"\$file\""
}

# with_fifo COMMAND...: COMMAND reading "echo ran" from a FIFO.
with_fifo() {
	local fifo=$TF_TMP/fifo st
	rm -f "$fifo"
	mkfifo -m 0666 "$fifo"
	printf 'echo ran\n' >"$fifo" 2>/dev/null &
	"$@" <"$fifo"
	st=$?
	wait
	return $st
}

# procsub USER SHELL: SHELL given "echo ran" as <(...) (/dev/fd/63) by a
# bash of the same user, who must be able to open the pipe again.
procsub() { as_user "$1" bash -c '"$1" <(printf "echo ran\n")' _ "$2"; }

# on_tty USER COMMAND...: COMMAND on a pseudo-terminal of its own, standard
# input included; what the terminal showed, carriage returns dropped.
on_tty() {
	local user=$1 cmd
	shift
	[ "$user" = root ] || set -- setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	printf -v cmd '%q ' "$@"
	script -qec "$cmd" /dev/null </dev/null | tr -d '\r'
	return "${PIPESTATUS[0]}"
}

# A payload for each variant: "nox" on the exec mount without the execute
# bit (policy 1 runs it, 3 refuses it), "bad" on the noexec mount with it
# (refused by both).  Each prints "ran".
payload() {
	local variant=$1 path=$2
	mkdir -p "$(dirname "$path")"
	printf 'echo ran\n' >"$path"
	case $variant in
	nox) chmod 0644 "$path" ;;
	bad) chmod 0755 "$path" ;;
	esac
}
dir_of() { [ "$1" = nox ] && echo "$exec_dir" || echo "$noexec_dir"; }
reason_of() {
	if [ "$1" = bad ]; then
		echo "noexec mount"
	elif [ "$2" = 3 ]; then
		echo "no execute permission"
	fi
}

# A trusted script on the exec mount: TEXT, executable.
trusted_script() {
	printf '%s\n' "$2" >"$exec_dir/$1"
	chmod 0755 "$exec_dir/$1"
	echo "$exec_dir/$1"
}

# --- file code ---------------------------------------------------------------
# Each entry sets: cmd (the command), name (what a refusal names), ok_out,
# ok_err and ok_status (what it prints and ends with when the file runs),
# ref_out, ref_status and pre_err/post_err (what surrounds the refusal line
# on stderr when it is refused), skip ("; skipped" for a startup file, which
# is skipped rather than refused), from the payload variant $v and the
# shell $sh.  Setup that mounts undoes itself in "cleanup".
entry_script() {
	payload "$v" "$d/script-$v.sh"
	name=$d/script-$v.sh
	cmd=("$shell" "$name")
}
entry_dot() {
	payload "$v" "$d/dot-$v.sh"
	name=$d/dot-$v.sh
	cmd=("$shell" "$(trusted_script main-dot-$v.sh ". $name
echo after")")
	ok_out=$'ran\nafter'
}
entry_dot_path() {
	payload "$v" "$d/path-$v/lib.sh"
	name=$d/path-$v/lib.sh
	cmd=("$shell" "$(trusted_script main-path-$v.sh "PATH=$d/path-$v:\$PATH
. lib.sh
echo after")")
	ok_out=$'ran\nafter'
}
entry_source() {
	payload "$v" "$d/source-$v.sh"
	name=$d/source-$v.sh
	cmd=("$shell" "$(trusted_script main-source-$v.sh "source $name
echo after")")
	ok_out=$'ran\nafter'
}
entry_symlink() {
	payload "$v" "$d/target-$v.sh"
	name=$exec_dir/symlink-$v.sh
	ln -sf "$d/target-$v.sh" "$name"
	cmd=("$shell" "$name")
}
entry_hardlink() {
	payload "$v" "$d/original-$v.sh"
	name=$d/hardlink-$v.sh
	ln -f "$d/original-$v.sh" "$name"
	cmd=("$shell" "$name")
}
entry_bind_mount() {
	payload "$v" "$d/bound-$v.sh"
	name=$exec_dir/bind-target-$v.sh
	: >"$name"
	chmod 0755 "$name"
	mount --bind "$d/bound-$v.sh" "$name"
	cleanup="umount $name"
	cmd=("$shell" "$name")
}
entry_dev_fd() {
	payload "$v" "$d/devfd-$v.sh"
	name=/dev/fd/7
	pre=(with_fd 7 "$d/devfd-$v.sh")
	cmd=("$shell" "$name")
}
entry_proc_fd() {
	payload "$v" "$d/procfd-$v.sh"
	name=/proc/self/fd/7
	pre=(with_fd 7 "$d/procfd-$v.sh")
	cmd=("$shell" "$name")
}
# A startup file that fails the check is skipped: the shell goes on.
skipped_startup() {
	ref_out=$1 ref_status=$2 skip="; skipped"
}
# BASH_ENV: read before a non-interactive bash runs its script.
entry_bash_env() {
	payload "$v" "$d/bash-env-$v.sh"
	name=$d/bash-env-$v.sh
	cmd=(env "BASH_ENV=$name" "$shell" "$(trusted_script main-env.sh 'echo after')")
	ok_out=$'ran\nafter'
	skipped_startup after 0
}
# place_startup FILE PAYLOAD: put PAYLOAD where a startup file is looked
# for: /etc/... (the overlay; the noexec payload is bind-mounted, so that
# the file keeps its mount) or ~/... (a HOME on the payload's own mount,
# readable by uid 65534); any other FILE is the payload itself.  Sets name
# and cleanup.
place_startup() {
	local file=$1 src=$2
	case $file in
	/etc/*)
		name=$file
		if [ "$v" = nox ]; then
			cp -p "$src" "$file"
			cleanup="rm -f $file"
		else
			: >"$file"
			mount --bind "$src" "$file"
			cleanup="umount $file; rm -f $file"
		fi
		;;
	'~/'*)
		mkdir -p "$d/home-$v"
		name=$d/home-$v/${file#\~/}
		cp -p "$src" "$name"
		cleanup="rm -f $name"
		;;
	*) name=$src ;;
	esac
}
# A login shell (not interactive: a -c string under RESTRICT_FILE only, as
# su -l USER -c CMD starts) reads the profile files; a refused one is
# skipped and the command runs.
login_entry() {
	payload "$v" "$d/login-$v"
	place_startup "$1" "$d/login-$v"
	cmd=(env "HOME=$d/home-$v" "$shell" -l -c 'echo after')
	ok_out=$'ran\nafter'
	skipped_startup after 0
}
entry_etc_profile() { login_entry /etc/profile; }
entry_profile() { login_entry '~/.profile'; }
entry_bash_profile() { login_entry '~/.bash_profile'; }
entry_bash_login() { login_entry '~/.bash_login'; }
# A login shell that exits reads its logout files; a refused one is
# skipped and the exit status is the command's.
logout_entry() {
	payload "$v" "$d/logout-$v"
	place_startup "$1" "$d/logout-$v"
	cmd=(env "HOME=$d/home-$v" "$shell" -l -c 'echo after; exit 3')
	ok_out=$'after\nran' ok_status=3
	skipped_startup after 3
}
entry_bash_logout() { logout_entry '~/.bash_logout'; }
entry_bash_bash_logout() { logout_entry /etc/bash.bash_logout; }
# sshd runs a command as "bash -c CMD" with SSH_CLIENT (or SSH2_CLIENT)
# set, and rshd with a socket on standard input: bash at the top level
# (no SHLVL) reads /etc/bash.bashrc and ~/.bashrc first.  A refused one is
# skipped and the command runs: so do scp and sftp's servers.
ssh_entry() {
	local file=$1
	shift
	payload "$v" "$d/sshrc-$v"
	place_startup "$file" "$d/sshrc-$v"
	cmd=(env -u SHLVL "HOME=$d/home-$v" "$@" "$shell" -c 'echo after')
	ok_out=$'ran\nafter'
	skipped_startup after 0
}
# stdin_socket COMMAND...: COMMAND with one end of a socket pair as its
# standard input, the other end held open.
stdin_socket=(/usr/bin/$TF_PYTHON -c '
import os, socket, sys
a, b = socket.socketpair()
os.set_inheritable(b.fileno(), True)
os.dup2(a.fileno(), 0)
os.execvp(sys.argv[1], sys.argv[1:])')
entry_ssh_bashrc() { ssh_entry '~/.bashrc' SSH_CLIENT='192.0.2.1 50000 22'; }
entry_ssh2_bashrc() { ssh_entry '~/.bashrc' SSH2_CLIENT='192.0.2.1 50000 22'; }
entry_ssh_bash_bashrc() { ssh_entry /etc/bash.bashrc SSH_CLIENT='192.0.2.1 50000 22'; }
entry_socket_bashrc() { ssh_entry '~/.bashrc' "${stdin_socket[@]}"; }
# An interactive shell reads its rc files; a refused one is skipped and
# the session goes on.  Without a controlling terminal (setsid), bash says
# so on two lines first.
interactive_entry() {
	local file=$1
	shift
	payload "$v" "$d/rc-$v"
	place_startup "$file" "$d/rc-$v"
	cmd=(env "HOME=$d/home-$v" "$@")
	ok_out=$'ran\nafter'
	skipped_startup after 0
	if [ "$sh" = bash ]; then
		pre_err="trusted-bash: cannot set terminal process group (-1): Inappropriate ioctl for device
trusted-bash: no job control in this shell"
	fi
	ok_err=$pre_err
}
entry_bashrc() { interactive_entry '~/.bashrc' setsid -w "$shell" -i -c 'echo after'; }
entry_bash_bashrc() { interactive_entry /etc/bash.bashrc setsid -w "$shell" -i -c 'echo after'; }
entry_rcfile() { interactive_entry rc setsid -w "$shell" --rcfile "$d/rc-$v" -i -c 'echo after'; }
entry_init_file() { interactive_entry rc setsid -w "$shell" --init-file "$d/rc-$v" -i -c 'echo after'; }
entry_env_bash() { interactive_entry rc setsid -w env "ENV=$d/rc-$v" "$shell" --posix -i -c 'echo after'; }
entry_env_dash() { interactive_entry rc env "ENV=$d/rc-$v" "$shell" -i +m -c 'echo after'; }
# ENV at login: read after the profiles by an interactive login shell, in
# dash and in bash started as sh.
entry_env_login_dash() { interactive_entry rc env "ENV=$d/rc-$v" "$shell" -l -i +m -c 'echo after'; }
entry_env_login_sh() {
	mkdir -p "$exec_dir/as-sh"
	ln -sf "$shell" "$exec_dir/as-sh/sh"
	interactive_entry rc setsid -w env "ENV=$d/rc-$v" "$exec_dir/as-sh/sh" -l -i -c 'echo after'
	pre_err="sh: cannot set terminal process group (-1): Inappropriate ioctl for device
sh: no job control in this shell"
	ok_err=$pre_err
}

file_entries_dash='script dot dot_path symlink hardlink bind_mount dev_fd proc_fd etc_profile profile env_dash env_login_dash'
file_entries_bash='script dot dot_path source symlink hardlink bind_mount dev_fd proc_fd bash_env etc_profile bash_profile bash_login profile bash_logout bash_bash_logout ssh_bashrc ssh2_bashrc ssh_bash_bashrc socket_bashrc bashrc bash_bashrc rcfile init_file env_bash env_login_sh'

# run_file_entry ENTRY USER POLICY VARIANT CONTROL
run_file_entry() {
	local entry=$1 user=$2 pol=$3 v=$4 control=$5 d reason
	local pre=() cmd=() name ok_out=ran ok_err="" ok_status=0 ref_out="" ref_status=126
	local pre_err="" post_err="" skip="" cleanup="" want_status want_out want_err
	d=$(dir_of "$v")
	"entry_$entry"
	reason=$(reason_of "$v" "$pol")
	if [ -n "$control" ]; then
		policy "$pol" none
		reason=
	else
		policy "$pol" file
	fi
	if [ -z "$reason" ]; then
		want_status=$ok_status want_out=$ok_out want_err=$ok_err
	else
		want_status=$ref_status want_out=$ref_out
		want_err="${pre_err:+$pre_err
}trusted-$sh: $name: not trusted for execution: $reason$skip${post_err:+
$post_err}"
	fi
	expect "trusted-$sh: $entry ($v) as $user, policy $pol, ${control:-enforce file}" \
		"$want_status" "$want_out" "$want_err" -- "${pre[@]}" as_user "$user" "${cmd[@]}"
	[ -z "$cleanup" ] || eval "$cleanup"
}

# --- interactive code ----------------------------------------------------------
# run_interactive USER POLICY: each entry point under enforce = interactive,
# and under none as the control.
run_interactive() {
	local user=$1 pol=$2 uid script nox
	uid=$([ "$user" = root ] && echo 0 || echo 65534)
	script=$(trusted_script interactive.sh 'echo ran')
	nox=$exec_dir/stdin-nox.sh
	payload nox "$nox"
	local p="trusted-$sh" pipe="not a regular file: FIFO or pipe"
	local stdin_nox=ran stdin_nox_err="" stdin_nox_status=0
	if [ "$pol" = 3 ]; then
		stdin_nox="" stdin_nox_status=126
		stdin_nox_err="$p: <stdin>: interactive code refused: no execute permission: uid $uid"
	fi
	local w="trusted-$sh as $user, policy $pol"

	policy "$pol" none
	expect "$w: -c runs when nothing is enforced" 0 ran "" -- as_user "$user" "$shell" -c 'echo ran'
	expect "$w: a pipe runs when nothing is enforced" 0 ran "" -- with_pipe 'echo ran' as_user "$user" "$shell"
	expect "$w: process substitution runs when nothing is enforced" 0 ran "" -- procsub "$user" "$shell"

	policy "$pol" interactive
	expect "$w: -c" 126 "" "$p: -c: interactive code refused" -- as_user "$user" "$shell" -c 'echo ran'
	expect "$w: -i with a script" 126 "" "$p: -i: interactive code refused" -- as_user "$user" "$shell" -i "$script"
	expect "$w: -i with a trusted file on stdin" 126 "" "$p: -i: interactive code refused" -- with_stdin "$script" as_user "$user" "$shell" -i
	expect "$w: -s with a pipe" 126 "" "$p: <stdin>: interactive code refused: $pipe" -- with_pipe 'echo ran' as_user "$user" "$shell" -s a b
	expect "$w: cat script | sh" 126 "" "$p: <stdin>: interactive code refused: $pipe" -- with_pipe "$(cat "$script")" as_user "$user" "$shell"
	expect "$w: sh < fifo" 126 "" "$p: <stdin>: interactive code refused: $pipe" -- with_fifo as_user "$user" "$shell"
	expect "$w: a trusted script on stdin runs" 0 ran "" -- with_stdin "$script" as_user "$user" "$shell"
	expect "$w: -s with a trusted script on stdin runs" 0 ran "" -- with_stdin "$script" as_user "$user" "$shell" -s a b
	expect "$w: a file without the execute bit on stdin" "$stdin_nox_status" "$stdin_nox" "$stdin_nox_err" -- with_stdin "$nox" as_user "$user" "$shell"
	expect "$w: a script still runs" 0 ran "" -- as_user "$user" "$shell" "$script"
	# A pipe named as the script is interactive code (the library's rule);
	# with files enforced too, the file check refuses it first.
	expect "$w: process substitution" 126 "" "$p: /dev/fd/63: interactive code refused: $pipe" -- \
		procsub "$user" "$shell"
	policy "$pol" file,interactive
	expect "$w: process substitution, everything enforced" 126 "" \
		"$p: /dev/fd/63: not trusted for execution: not a regular file" -- procsub "$user" "$shell"
	policy "$pol" interactive
	expect "$w: a login shell on a terminal is refused" 126 \
		"$p: <stdin>: interactive code refused: not a regular file: character device" "" \
		-- on_tty "$user" "$shell" -l
}

# --- environment code ------------------------------------------------------------
# env_case WHAT VAR=VALUE... -- SCRIPT_TEXT: the payload writes to a marker
# file; the control run (nothing enforced) must create it, the enforced
# run (enforce = interactive) must not, and must say so in one line a
# variable.
marker=$TF_TMP/payload-ran
env_case() {
	local what=$1 want_ctl_out=$2 want_out=$3 want_err=$4
	shift 4
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	local script
	script=$(trusted_script env-case.sh "$2")
	local w="trusted-$sh as $user, policy $pol: $what"

	rm -f "$marker"
	policy "$pol" none
	expect "$w: control: runs with nothing enforced" 0 "$want_ctl_out" "*" -- as_user "$user" env "${envs[@]}" "$shell" "$script"
	if [ -e "$marker" ]; then ok "$w: control: the payload ran"; else not_ok "$w: control: the payload ran"; fi
	rm -f "$marker"
	policy "$pol" interactive
	expect "$w: not imported under DENY_INTERACTIVE" 0 "$want_out" "$want_err" -- as_user "$user" env "${envs[@]}" "$shell" "$script"
	if [ -e "$marker" ]; then not_ok "$w: the payload did not run"; else ok "$w: the payload did not run"; fi
}
run_environment() {
	local user=$1 pol=$2 p="trusted-$sh"
	local pay="\$(touch $marker)"
	# The marker directory must be writable by the payload's user.
	chmod 1777 "$TF_TMP"
	# bash itself never imports PS4 when it runs as root: no control there.
	if [ "$sh" = dash ] || [ "$user" != root ]; then
		env_case "PS4 with a command substitution, set -x" ran "ran" "$p: PS4: interactive code refused
+ echo ran" "PS4=$pay+ " -- 'set -x; echo ran'
	fi
	if [ "$sh" = bash ]; then
		env_case "an exported function" $'payload\nran' ran "$p: BASH_FUNC_greet%%: interactive code refused" \
			"BASH_FUNC_greet%%=() { touch $marker; echo payload; }" -- 'greet 2>/dev/null; echo ran'
		env_case "BASH_ENV that expands" ran ran "$p: BASH_ENV: interactive code refused" "BASH_ENV=$pay" -- 'echo ran'
		# bash decodes a prompt's escapes before it expands it: \044 is "$".
		[ "$user" = root ] ||
			env_case "PS4 with the expansion as an octal escape, set -x" ran "ran" "$p: PS4: interactive code refused
+ echo ran" "PS4=\\044(touch $marker)+ " -- 'set -x; echo ran'
		[ "$user" = root ] ||
			env_case "SHELLOPTS=xtrace with PS4" ran ran "$p: SHELLOPTS: interactive code refused
$p: PS4: interactive code refused" "SHELLOPTS=xtrace" "PS4=$pay+ " -- 'echo ran'
		run_translations
		# BASHOPTS sets no code, but any option it sets goes: xpg_echo shows it.
		local script w="trusted-bash as $user, policy $pol: BASHOPTS"
		script=$(trusted_script bashopts.sh "echo 'a\\tb'")
		policy "$pol" none
		expect "$w: control: imported with nothing enforced" 0 $'a\tb' "" -- as_user "$user" env BASHOPTS=xpg_echo "$shell" "$script"
		policy "$pol" interactive
		expect "$w: not imported under DENY_INTERACTIVE" 0 'a\tb' "$p: BASHOPTS: interactive code refused" \
			-- as_user "$user" env BASHOPTS=xpg_echo "$shell" "$script"
	fi
}

# write_catalog FILE MSGID MSGSTR: a gettext catalog (.mo) of one message,
# written by hand (its format is gettext's manual's): no msgfmt needed.
write_catalog() {
	mkdir -p "$(dirname "$1")"
	/usr/bin/$TF_PYTHON -c '
import struct, sys
path, msgid, msgstr = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
head = struct.pack("<7I", 0x950412de, 0, 1, 28, 36, 0, 44)
tables = struct.pack("<4I", len(msgid), 44, len(msgstr), 45 + len(msgid))
open(path, "wb").write(head + tables + msgid + b"\0" + msgstr + b"\0")
' "$@"
}

# bash expands a $"..." string's translation as a double-quoted string,
# and the catalog is read by glibc from where the environment says: while
# anything is enforced the script's own text is used.  The catalog lies
# on the noexec mount, named by TEXTDOMAINDIR (for a script that does not
# set it) or by a LANGUAGE that climbs out of the script's own directory
# (ldd's case); each $"..." form goes through another part of bash.
run_translations() {
	local w="trusted-bash as $user, policy $pol: a \$\"...\" translation from a catalog on the noexec mount"
	local dir=$noexec_dir/locale text form script
	write_catalog "$dir/xx/LC_MESSAGES/tfdomain.mo" hello "\$(touch $marker)hola"
	local own=(env TEXTDOMAINDIR="$dir" TEXTDOMAIN=tfdomain LANGUAGE=xx LC_ALL=C.UTF-8)
	local climb=(env TEXTDOMAIN=tfdomain LANGUAGE="../../../..$dir/xx" LC_ALL=C.UTF-8)
	for form in 'echo $"hello"' 'x=$"hello"; echo "$x"' 'echo "${u:-$"hello"}"' \
		'echo "$(echo $"hello")"'; do
		script=$(trusted_script translated.sh "$form")
		rm -f "$marker"
		policy "$pol" none
		expect "$w: control: $form translates with nothing enforced" 0 hola "" -- \
			as_user "$user" "${own[@]}" "$shell" "$script"
		if [ -e "$marker" ]; then ok "$w: control: $form: the payload ran"; else not_ok "$w: control: $form: the payload ran"; fi
		for text in file interactive; do
			rm -f "$marker"
			policy "$pol" "$text"
			expect "$w: $form untranslated, enforce = $text" 0 hello "" -- \
				as_user "$user" "${own[@]}" "$shell" "$script"
			if [ -e "$marker" ]; then not_ok "$w: $form, enforce = $text: the payload did not run"; else ok "$w: $form, enforce = $text: the payload did not run"; fi
		done
	done
	script=$(trusted_script translated-own-dir.sh 'TEXTDOMAINDIR=/usr/share/locale; echo $"hello"')
	rm -f "$marker"
	policy "$pol" none
	expect "$w: control: LANGUAGE climbs out of the script's TEXTDOMAINDIR" 0 hola "" -- \
		as_user "$user" "${climb[@]}" "$shell" "$script"
	policy "$pol" file
	rm -f "$marker"
	expect "$w: LANGUAGE climbs out of the script's TEXTDOMAINDIR, enforce = file" 0 hello "" -- \
		as_user "$user" "${climb[@]}" "$shell" "$script"
	if [ -e "$marker" ]; then not_ok "$w: LANGUAGE climbing: the payload did not run"; else ok "$w: LANGUAGE climbing: the payload did not run"; fi
}

# --- input replaced, loadable builtins, typed code ----------------------------------
# A trusted script read from standard input that reattaches it (exec <FILE,
# the installers' exec </dev/tty): the next commands come from FILE, judged
# as standard input is.  bash's enable -f of a data-only object (its
# initialiser is _exit(argc): status 3 when it runs), from a noexec mount.
# read -e's readline commands that run what was typed, on a terminal.
run_review_cases() {
	local user=$1 pol=$2 p="trusted-$sh" w="trusted-$sh as $user, policy $pol"
	local installer other
	installer=$(trusted_script installer.sh "echo start
exec <$noexec_dir/next-commands")
	other=$(trusted_script installer-other.sh "echo start
exec <$exec_dir/next-trusted")
	printf 'echo ran\n' >"$noexec_dir/next-commands"
	printf 'echo ran trusted\n' >"$exec_dir/next-trusted"
	chmod 0755 "$noexec_dir/next-commands" "$exec_dir/next-trusted"
	policy "$pol" none
	expect "$w: control: exec <N/file in a script on stdin runs the file" 0 $'start\nran' "" -- \
		with_stdin "$installer" as_user "$user" "$shell" -s
	policy "$pol" interactive
	expect "$w: exec <N/file in a script on stdin" 126 start \
		"$p: <stdin>: interactive code refused: noexec mount: $noexec_dir" -- \
		with_stdin "$installer" as_user "$user" "$shell" -s
	expect "$w: exec <trusted file in a script on stdin runs it" 0 $'start\nran trusted' "" -- \
		with_stdin "$other" as_user "$user" "$shell" -s
	expect "$w: exec </dev/null in a script on stdin ends it" 0 start "" -- \
		with_stdin "$(trusted_script installer-null.sh $'echo start\nexec </dev/null')" \
		as_user "$user" "$shell" -s
	# A startup file that runs before the first read replaces it.
	mkdir -p "$exec_dir/reattach-home"
	cp "$installer" "$exec_dir/reattach-home/.profile"
	local startup=(env HOME="$exec_dir/reattach-home" "$shell" -l)
	[ "$sh" = bash ] && startup=(env BASH_ENV="$installer" "$shell")
	expect "$w: a startup file's exec <N/file before the first read of stdin" 126 start \
		"$p: <stdin>: interactive code refused: noexec mount: $noexec_dir" -- \
		with_stdin "$(trusted_script plain.sh 'echo plain')" as_user "$user" "${startup[@]}"
	[ "$sh" = bash ] || return 0
	local loader
	loader=$(trusted_script loader.sh 'enable -f "$1" realpath; echo "enable: $?"')
	policy "$pol" none
	expect "$w: control: enable -f N/realpath runs the object" 3 "" "" -- \
		as_user "$user" "$shell" "$loader" "$noexec_dir/realpath"
	policy "$pol" file
	expect "$w: enable -f N/realpath" 0 "enable: 1" \
		"$p: $noexec_dir/realpath: not trusted for execution: noexec mount" -- \
		as_user "$user" "$shell" "$loader" "$noexec_dir/realpath"
	expect "$w: enable -f realpath, found in the working directory" 0 "enable: 1" \
		"$p: ./realpath: not trusted for execution: noexec mount" -- \
		in_dir "$noexec_dir" as_user "$user" "$shell" "$loader" realpath
	local asker typed
	asker=$(trusted_script ask.sh 'read -e -p "name: " f; echo "got: $f"')
	typed="\$(touch $marker)"
	for key in 'shell-expand-line:\x1b\x05' 'edit-and-execute-command:\x18\x05'; do
		rm -f "$marker"
		policy "$pol" none
		on_pty "$user" "name: " "$typed${key#*:}\r" env VISUAL=true "$shell" "$asker" >/dev/null
		if [ -e "$marker" ]; then ok "$w: control: read -e, ${key%%:*} runs what was typed"
		else not_ok "$w: control: read -e, ${key%%:*} runs what was typed"; fi
		rm -f "$marker"
		policy "$pol" interactive
		on_pty "$user" "name: " "$typed${key#*:}\r" env VISUAL=true "$shell" "$asker" >"$TF_TMP/pty.out"
		if [ ! -e "$marker" ] &&
			grep -qF "$p: ${key%%:*}: interactive code refused" "$TF_TMP/pty.out"; then
			ok "$w: read -e, ${key%%:*} is refused"
		else
			not_ok "$w: read -e, ${key%%:*} is refused"
			sed 's/^/#   /' "$TF_TMP/pty.out"
		fi
	done
}

# --- history run again (bash) -------------------------------------------------------
# A trusted script loads a line of a file on the noexec mount into its
# history (history -r, or history -s of the file's text) and runs it again:
# fc -s, fc -e CMD, fc with an editor, or history expansion once it turned
# history on.  That is interactive code: it runs with nothing enforced (the
# control) and with files enforced (RESTRICT_FILE alone allows interactive
# code; fc's edited file lies in a TMPDIR on the noexec mount), and is
# refused under DENY_INTERACTIVE, from the policy file and from the
# securebits (trusted-for run --deny-interactive).
run_history_cases() {
	local user=$1 pol=$2 p="trusted-bash" w="trusted-bash as $user, policy $pol"
	local hist=$noexec_dir/history-line tmp=$noexec_dir/tmp entry text script echoed
	local deny=("$TF_BUILD/tools/trusted-for" run --deny-interactive --)
	# An editor from the environment that runs the noexec file's text.
	local editor="eval eval \"\$(cat $hist)\";:"
	printf 'echo noexec-marker\n' >"$hist"
	chmod 0755 "$hist"
	mkdir -p "$tmp"
	chmod 1777 "$tmp"
	for entry in 'fc -s:history -r "$1"; fc -s' \
		'fc -e true:history -r "$1"; fc -e true' \
		'fc with an editor:history -r "$1"; FCEDIT=true fc' \
		'history -s, fc -s:history -s "$(cat "$1")"; fc -s' \
		'fc with EDITOR from the environment:set -o history; history -s "echo harmless"; fc' \
		'history expansion:set -o history -H
history -r "$1"
!!
echo after'; do
		text=${entry#*:}
		script=$(trusted_script history.sh "$text")
		local out=noexec-marker refused=fc err="echo noexec-marker"
		case $entry in
		'history expansion:'*) out=$'noexec-marker\nafter' refused="history expansion" ;;
		'fc with EDITOR'*) err= ;;
		esac
		policy "$pol" none
		expect "$w: control: ${entry%%:*} runs the noexec file's line" 0 "$out" "$err" -- \
			as_user "$user" env TMPDIR="$tmp" EDITOR="$editor" "$shell" "$script" "$hist"
		policy "$pol" file
		expect "$w: ${entry%%:*}, enforce = file: interactive code is allowed" 0 "$out" "$err" -- \
			as_user "$user" env TMPDIR="$tmp" EDITOR="$editor" "$shell" "$script" "$hist"
		policy "$pol" interactive
		expect "$w: ${entry%%:*}, enforce = interactive" 126 "" "$p: $refused: interactive code refused" -- \
			as_user "$user" env TMPDIR="$tmp" EDITOR="$editor" "$shell" "$script" "$hist"
		policy "$pol" none
		expect "$w: ${entry%%:*}, trusted-for run --deny-interactive" 126 "" "$p: $refused: interactive code refused" -- \
			as_user "$user" "${deny[@]}" env TMPDIR="$tmp" EDITOR="$editor" "$shell" "$script" "$hist"
	done
}

# --- nothing enforced, nothing audited ------------------------------------------
# Then the shells ask the library nothing (dash's patch 0005, bash's 0007,
# "Ask nothing of libtrustedfor..."), and a file on a noexec mount runs.
# What must still hold: auditing on logs the file that failed the check,
# TRUSTEDFOR_ENFORCE enforces, and in bash an object loaded by enable -f
# that sets exec securebits on the shell starts enforcement for the files
# read after it, and has its input judged again (standard input judged
# before BASH_ENV loaded it; a switch back to the first file read).
run_idle_cases() {
	local user=$1 pol=$2 p="trusted-$sh" w="trusted-$sh as $user, policy $pol"
	local sourcer loader module=$exec_dir/securebits-module.so audit_line
	printf 'echo evil ran\n' >"$noexec_dir/idle.sh"
	chmod 0755 "$noexec_dir/idle.sh"
	sourcer=$(trusted_script idle-sourcer.sh ". $noexec_dir/idle.sh; echo after")
	policy "$pol" none
	expect "$w: control: nothing enforced, . N/file runs it" 0 $'evil ran\nafter' "" -- \
		as_user "$user" "$shell" "$sourcer"
	set_policy_file "$(printf 'policy = %s\nenforce = none\naudit = on\nlog = stderr\n' "$pol")"
	expect "$w: auditing on, nothing enforced, . N/file runs it" 0 $'evil ran\nafter' "*" -- \
		as_user "$user" "$shell" "$sourcer"
	audit_line="trustedfor: audit file=\"$noexec_dir/idle.sh\" reason=\"noexec mount\" detail=\"$noexec_dir\" policy=$pol enforced-by=\"none\" pid=PID exe=\"$shell\" path=\"$noexec_dir/idle.sh\" dev=DEV ino=INO"
	expect_logged "$w: ... and logs it" "$audit_line"
	policy "$pol" none
	expect "$w: TRUSTEDFOR_ENFORCE=file, . N/file" 126 "" \
		"$p: $noexec_dir/idle.sh: not trusted for execution: noexec mount" -- \
		as_user "$user" env TRUSTEDFOR_ENFORCE=file "$shell" "$sourcer"
	[ "$sh" = bash ] || return 0
	if kernel_lacks exec-securebits; then
		not_applicable "$w: enable -f of an object that sets RESTRICT_FILE, then . N/file" "$na_why"
		return 0
	fi
	cp "$TF_BUILD/tests/securebits-module.so" "$module"
	chmod 0755 "$module"
	loader=$(trusted_script idle-loader.sh "enable -f $module setbits; . $noexec_dir/idle.sh; echo after")
	expect "$w: enable -f of an object that sets RESTRICT_FILE, then . N/file" 126 "" \
		"$loader: line 1: enable: cannot find setbits_struct in shared object $module: /proc/self/fd/3: undefined symbol: setbits_struct
$p: $noexec_dir/idle.sh: not trusted for execution: noexec mount" -- \
		as_user "$user" "$shell" "$loader"
	# Both bits (0x500), from a BASH_ENV, standard input on the noexec mount.
	loader=$(trusted_script idle-bash-env.sh "enable -f $module setbits 2>/dev/null; echo bits set")
	expect "$w: BASH_ENV's enable -f sets DENY_INTERACTIVE, then N/file on stdin" 126 "bits set" \
		"$p: <stdin>: interactive code refused: noexec mount: $noexec_dir" -- \
		with_stdin "$noexec_dir/idle.sh" as_user "$user" env TF_SECUREBITS=0x500 BASH_ENV="$loader" "$shell"
	# Standard input N/first.sh switches to a trusted file that loads the
	# object and switches back: N/first.sh is judged again.
	loader=$(trusted_script idle-switch.sh "enable -f $module setbits 2>/dev/null; echo bits set
exec 0<$noexec_dir/first.sh")
	printf 'if [ -z "${stage-}" ]; then stage=1; exec 0<%s; fi\necho evil ran\n' "$loader" \
		>"$noexec_dir/first.sh"
	expect "$w: control: nothing set, N/file on stdin switches away and back" 0 "bits set
evil ran" "" -- with_stdin "$noexec_dir/first.sh" as_user "$user" env TF_SECUREBITS=0x0 "$shell"
	expect "$w: enable -f sets DENY_INTERACTIVE, then stdin switches back to N/file" 126 "bits set" \
		"$p: <stdin>: interactive code refused: noexec mount: $noexec_dir" -- \
		with_stdin "$noexec_dir/first.sh" as_user "$user" env TF_SECUREBITS=0x500 "$shell"
}

# on_pty USER PROMPT KEYS COMMAND...: tests/pty-type.py as USER.
on_pty() {
	local user=$1 prompt=$2 keys=$3
	shift 3
	as_user "$user" /usr/bin/$TF_PYTHON "$TF_SRC/tests/pty-type.py" "$prompt" "$keys" "$@"
}
/usr/bin/$TF_PYTHON "$TF_SRC/tests/data-only-object.py" "$noexec_dir/realpath" libc.so.6 _exit &&
	chmod 0755 "$noexec_dir/realpath" || not_ok "the data-only object"

# --- Debian's own startup files, end to end ---------------------------------------
# Policy 1 with files enforced: a login shell, and an interactive login
# shell, run Debian's /etc/profile (and what it sources: /etc/bash.bashrc,
# /etc/profile.d) and the session goes on.  Policy 3 refuses /etc/profile
# (mode 0644): it is skipped, and the command runs.
login_e2e() {
	local sh=$1 shell=$TF_BUILD/shells/trusted-$1 home=$TF_TMP/e2e-home
	[ -x "$shell" ] || return 0
	[ -f /etc/profile ] || { not_ok "trusted-$sh: Debian's /etc/profile is there"; return; }
	mkdir -p "$home"
	policy 1 file
	expect "trusted-$sh: login shell, policy 1, files enforced: Debian's profile runs" 0 after "" \
		-- env -i HOME="$home" PATH=/usr/bin:/bin TERM=dumb "$shell" -l -c 'echo after'
	with_pipe 'echo "in session: $0"' setsid -w env -i HOME="$home" PATH=/usr/bin:/bin TERM=dumb \
		"$shell" -l -i >"$TF_TMP/e2e.out" 2>"$TF_TMP/e2e.err"
	if [ $? = 0 ] && [ "$(cat "$TF_TMP/e2e.out")" = "in session: $shell" ] &&
		! grep -q 'not trusted\|refused' "$TF_TMP/e2e.err"; then
		ok "trusted-$sh: interactive login session, policy 1, files enforced: runs Debian's startup files"
	else
		not_ok "trusted-$sh: interactive login session, policy 1, files enforced: runs Debian's startup files"
		sed 's/^/#   /' "$TF_TMP/e2e.out" "$TF_TMP/e2e.err"
	fi
	policy 3 file
	expect "trusted-$sh: login shell, policy 3, files enforced: Debian's /etc/profile is skipped" 0 after \
		"trusted-$sh: /etc/profile: not trusted for execution: no execute permission; skipped" \
		-- env -i HOME="$home" PATH=/usr/bin:/bin TERM=dumb "$shell" -l -c 'echo after'
}
login_e2e dash
login_e2e bash

# Debian's own startup files would run (or be refused) in every other login
# or interactive case: each case puts exactly the files it tests in place.
rm -f /etc/profile /etc/bash.bashrc /etc/bash.bash_logout

for sh in dash bash; do
	shell=$TF_BUILD/shells/trusted-$sh
	if [ ! -x "$shell" ]; then
		not_run "trusted-$sh: entry points" "$shell is not built"
		continue
	fi
	entries=file_entries_$sh
	for user in root nobody; do
		for pol in 1 3; do
			for entry in ${!entries}; do
				for v in nox bad; do
					run_file_entry "$entry" "$user" "$pol" "$v" ""
				done
			done
			run_interactive "$user" "$pol"
			run_environment "$user" "$pol"
			run_review_cases "$user" "$pol"
			if [ "$sh" = bash ]; then
				run_history_cases "$user" "$pol"
			else
				# Debian builds dash without libedit: no history to run again.
				policy "$pol" none
				expect "trusted-dash as $user, policy $pol: no fc" 127 "" "$shell: 1: fc: not found" \
					-- as_user "$user" env PATH=/usr/bin:/bin "$shell" -c 'fc -s'
			fi
			run_idle_cases "$user" "$pol"
		done
	done
	# The control: with nothing enforced, every file entry point runs its
	# file, even the one on the noexec mount.
	for entry in ${!entries}; do
		run_file_entry "$entry" root 3 bad "enforce none"
	done
done
done_testing
