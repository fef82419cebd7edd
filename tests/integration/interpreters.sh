#!/bin/bash
# trusted-for status lists the interpreters on PATH, and klibc's sh off
# PATH, and says which are trustedfor's enlightened builds, from the ELF
# note they carry and never from their names: a PATH built here of the
# stock perl and python3.11 and of the build's launchers, under their own
# names and under swapped ones (as a diversion names them).  Exact lines,
# as root and as uid 65534: --verbose's one line each, and the short
# form's lines by kind.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
TF=$TF_BUILD/tools/trusted-for
T=$TF_TMP
TP=$TF_BUILD/interpreters/python/trusted-python
TL=$TF_BUILD/interpreters/lua/trusted-lua
INC=$TF_BUILD/interpreters/inc/inc

a=$T/a b=$T/b c=$T/c k=$T/k klibc=$T/klibc
mkdir -p "$a" "$b" "$c" "$k" "$klibc" && chmod 0755 "$T" "$a" "$b" "$c" "$k" "$klibc" || {
	not_ok "directories for PATH"
	done_testing
}
# Where status looks off PATH is this test's $klibc, empty until the
# off-PATH cases.
klibc_bin "$klibc" || { not_ok "$klibc at /usr/lib/klibc/bin"; done_testing; }
ln -s /usr/bin/perl "$a/perl"
ln -s "/usr/bin/$TF_PYTHON" "$a/python3.11"
ln -s "$TP" "$a/trusted-python"
ln -s "$TL" "$a/trusted-lua"
ln -s /bin/ls "$a/ls"                       # not an interpreter's name
cp "$TP" "$a/python3" && chmod 0755 "$a/python3"   # a launcher under a stock name
cp "/usr/bin/$TF_PYTHON" "$a/trusted-python3"       # a stock one under a launcher's
ln /usr/bin/perl "$a/perl.distrib" 2>/dev/null || cp /usr/bin/perl "$a/perl.distrib"
ln -s "$TL" "$a/lua5.4.distrib"
printf '#!/bin/sh\n' >"$a/perl.dist" && chmod 0755 "$a/perl.dist"   # not a diverted name
printf '#!/bin/sh\nexec lua5.4 "$@"\n' >"$a/lua" && chmod 0755 "$a/lua"
printf '#!/bin/sh\n' >"$a/python3.11-config" && chmod 0755 "$a/python3.11-config"
ln -s /usr/bin/perl "$a/perl5.36-x86_64-linux-gnu"   # Debian's, with a multiarch triplet
for not in perl5.36-linux-gnu perl-x86_64-linux-gnu perl5.36-x86_64-linux-gnu-x perl5.36-X86-linux-gnu; do
	ln -s /usr/bin/perl "$a/$not"                # none of them a version and a triplet
done
mkfifo "$a/ruby"
printf '\177EL' >"$a/php" && chmod 0755 "$a/php"    # too short for an ELF header
# b: a second python3.11 (enlightened), shadowed by a's; its inc is not.
cp "$INC" "$b/inc" && chmod 0711 "$b/inc"
cp "$TP" "$b/python3.11"
ln -s "$TP" "$c/ls"

# Lines of trusted-for status --verbose about interpreters, with PATH set to $1.
interpreters() {
	local path=$1
	shift
	"$@" env PATH="$path" "$TF" status --verbose | grep '^interpreter:'
}

want_a="interpreter: lua ($a/lua): not enlightened (not an ELF file)
interpreter: lua5.4.distrib ($a/lua5.4.distrib): enlightened
interpreter: perl ($a/perl): not enlightened
interpreter: perl.distrib ($a/perl.distrib): not enlightened
interpreter: perl5.36-x86_64-linux-gnu ($a/perl5.36-x86_64-linux-gnu): not enlightened
interpreter: php ($a/php): not enlightened (not an ELF file)
interpreter: python3 ($a/python3): enlightened
interpreter: python3.11 ($a/python3.11): not enlightened
interpreter: ruby ($a/ruby): not a regular file
interpreter: trusted-lua ($a/trusted-lua): enlightened
interpreter: trusted-python ($a/trusted-python): enlightened
interpreter: trusted-python3 ($a/trusted-python3): not enlightened"

for user in root nobody; do
	run=as_nobody
	[ "$user" = nobody ] || run=
	expect "$user: each interpreter of one directory, by its note, sorted" 0 "$want_a" "" -- \
		interpreters "$a" $run
	if [ "$user" = root ]; then
		inc_line="interpreter: inc ($b/inc): enlightened"
	else
		inc_line="interpreter: inc ($b/inc): unknown (execute-only, mode 0711, as the launchers are installed: root's status tells)"
	fi
	# A name is listed once, from the first directory that has it (the
	# one a command runs); a directory named twice is read once.
	expect "$user: the first of each name on PATH; a directory once" 0 \
		"$want_a
$inc_line" "" -- interpreters "$a:$b:$a/:$b" $run
	expect "$user: the enlightened python3.11 when its directory comes first" 0 \
		"$inc_line
interpreter: python3.11 ($b/python3.11): enlightened" "" -- interpreters "$b" $run
	expect "$user: no interpreter's name on PATH" 0 \
		"interpreter: none found on PATH" "" -- interpreters "$c:relative:$T/absent" $run
done

# -v is --verbose; without it, the short form has no line per interpreter.
expect "-v: the long form" 0 "$want_a" "" -- sh -c 'env PATH="$1" "$2" status -v | grep "^interpreter:"' - "$a" "$TF"
expect "without it, no interpreter: lines" 1 "" "" -- sh -c 'env PATH="$1" "$2" status | grep "^interpreter:"' - "$a" "$TF"

# The short form: one line for the enlightened, one for the others by kind
# (with the names of a kind, without versions, when they are not just the
# kind's), one for those only root or one group may run (Debian's
# FILE.distrib, which the diversion leaves mode 0700), one for those this
# user cannot read.  Scripts stand in for the stock programs: what counts
# is their names and their files.
for name in awk mawk bash busybox dash dash.distrib rbash sh perl perl5.36.0 \
	gdb less m4 make sed vim.tiny tclsh8.6; do
	printf '#!/bin/sh\n' >"$k/$name" && chmod 0755 "$k/$name"
done
printf '#!/bin/sh\n' >"$k/bash.distrib" && chmod 0700 "$k/bash.distrib"
printf '#!/bin/sh\n' >"$k/perl.distrib" && chgrp 65534 "$k/perl.distrib" && chmod 0750 "$k/perl.distrib"
ln -s "$TL" "$k/lua5.4"
ln -s "$TP" "$k/python3.11"
cp "$INC" "$k/inc" && chmod 0711 "$k/inc"
cp "$TL" "$k/lua" && chmod 0711 "$k/lua"
mkfifo "$k/ruby"
group=$(getent group 65534 | cut -d: -f1)
interpreters_short() {
	local path=$1
	shift
	"$@" env PATH="$path" "$TF" status | sed -n '/^enlightened:/,$p'
}
expect "root: the short form" 0 "enlightened: 4 (inc, lua, lua5.4, python3.11)
not enlightened: 6 shells (bash, busybox, dash, rbash, sh), 2 perl, 2 awk (awk, mawk), 1 tcl (tclsh), 6 tools with a command language (gdb, less, m4, make, sed, vim.tiny)
root's only: 1 (bash.distrib)
group $group only: 1 (perl.distrib)" "" -- interpreters_short "$k"
# The launchers' one reason, once for all of them.
expect "nobody: what it cannot read is unknown, unless only root or a group may run it" 0 \
	"enlightened: 2 (lua5.4, python3.11)
not enlightened: 6 shells (bash, busybox, dash, rbash, sh), 2 perl, 2 awk (awk, mawk), 1 tcl (tclsh), 6 tools with a command language (gdb, less, m4, make, sed, vim.tiny)
root's only: 1 (bash.distrib)
group $group only: 1 (perl.distrib)
unknown: 2 (inc, lua: execute-only, mode 0711, as the launchers are installed: root's status tells)" "" -- interpreters_short "$k" as_nobody
expect "--verbose: who may run them, and the mode" 0 \
	"interpreter: bash.distrib ($k/bash.distrib): not enlightened (not an ELF file), root's only (mode 0700)
interpreter: dash.distrib ($k/dash.distrib): not enlightened (not an ELF file)
interpreter: perl.distrib ($k/perl.distrib): not enlightened (not an ELF file), group $group only (mode 0750)" "" \
	-- sh -c 'interpreters() { env PATH="$1" "$2" status --verbose | grep "^interpreter: [a-z]*\.distrib"; }; interpreters "$@"' - "$k" "$TF"
expect "nobody, --verbose: unknown, root's only" 0 \
	"interpreter: bash.distrib ($k/bash.distrib): unknown (cannot read it: Permission denied), root's only (mode 0700)" "" \
	-- as_nobody sh -c 'env PATH="$1" "$2" status --verbose | grep "^interpreter: bash\.distrib"' - "$k" "$TF"
# An ACL may let anyone run it, whatever the mode says.
if setfacl -m u:65534:rx "$k/bash.distrib" 2>/dev/null; then
	expect "an ACL: not root's only" 0 "enlightened: 4 (inc, lua, lua5.4, python3.11)
not enlightened: 7 shells (bash, busybox, dash, rbash, sh), 2 perl, 2 awk (awk, mawk), 1 tcl (tclsh), 6 tools with a command language (gdb, less, m4, make, sed, vim.tiny)
group $group only: 1 (perl.distrib)" "" -- interpreters_short "$k"
	setfacl -b "$k/bash.distrib" && chmod 0700 "$k/bash.distrib"
else
	not_run "an ACL: not root's only" "setfacl (package acl) is not installed"
fi
mkdir "$T/e" && chmod 0755 "$T/e" && ln -s "$TP" "$T/e/trusted-python"
expect "nothing but enlightened ones" 0 "enlightened: 1 (trusted-python)
not enlightened: none" "" -- interpreters_short "$T/e"

# Off PATH: klibc's sh, by its whole path, in the shells' count.
printf '#!/bin/sh\n' >"$klibc/sh" && chmod 0755 "$klibc/sh"
printf '#!/bin/sh\n' >"$klibc/cat" && chmod 0755 "$klibc/cat"
expect "off PATH: klibc's sh among the shells" 0 "enlightened: 4 (inc, lua, lua5.4, python3.11)
not enlightened: 7 shells (bash, busybox, dash, rbash, sh, /usr/lib/klibc/bin/sh), 2 perl, 2 awk (awk, mawk), 1 tcl (tclsh), 6 tools with a command language (gdb, less, m4, make, sed, vim.tiny)
root's only: 1 (bash.distrib)
group $group only: 1 (perl.distrib)" "" -- interpreters_short "$k"
expect "off PATH, --verbose" 0 "interpreter: sh (/usr/lib/klibc/bin/sh, off PATH): not enlightened (not an ELF file)" "" \
	-- sh -c 'env PATH="$1" "$2" status --verbose | grep "off PATH"' - "$k" "$TF"
expect "off PATH with nothing on PATH" 0 "interpreter: sh (/usr/lib/klibc/bin/sh, off PATH): not enlightened (not an ELF file)" "" \
	-- interpreters "$c"
expect "a directory on PATH is not read again off PATH" 0 "enlightened: none
not enlightened: 1 shell (sh)" "" -- interpreters_short /usr/lib/klibc/bin
done_testing
