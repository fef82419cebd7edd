#!/bin/bash
# trusted-for status lists the interpreters on PATH and says which are
# trustedfor's enlightened builds, from the ELF note they carry and never
# from their names: a PATH built here of the stock perl and python3.11 and
# of the build's launchers, under their own names and under swapped ones
# (as a diversion names them).  Exact lines, as root and as uid 65534.
. "$TF_SRC/tests/lib.sh"
enter_private_namespace "$@"
TF=$TF_BUILD/tools/trusted-for
T=$TF_TMP
TP=$TF_BUILD/interpreters/python/trusted-python
TL=$TF_BUILD/interpreters/lua/trusted-lua
INC=$TF_BUILD/interpreters/inc/inc

a=$T/a b=$T/b c=$T/c
mkdir -p "$a" "$b" "$c" && chmod 0755 "$T" "$a" "$b" "$c" || {
	not_ok "directories for PATH"
	done_testing
}
ln -s /usr/bin/perl "$a/perl"
ln -s /usr/bin/python3.11 "$a/python3.11"
ln -s "$TP" "$a/trusted-python"
ln -s "$TL" "$a/trusted-lua"
ln -s /bin/ls "$a/ls"                       # not an interpreter's name
cp "$TP" "$a/python3" && chmod 0755 "$a/python3"   # a launcher under a stock name
cp /usr/bin/python3.11 "$a/trusted-python3"       # a stock one under a launcher's
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

# Lines of trusted-for status about interpreters, with PATH set to $1.
interpreters() {
	local path=$1
	shift
	"$@" env PATH="$path" "$TF" status | grep '^interpreter:'
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
		inc_line="interpreter: inc ($b/inc): unknown (cannot read it: Permission denied)"
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
done_testing
