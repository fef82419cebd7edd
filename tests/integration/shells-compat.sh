#!/bin/bash
# trusted-dash and trusted-bash behave as Debian's dash and bash when nothing
# is enforced: each script of the table below runs under the stock shell and
# under the trusted one, as a script file, as a -c string and on standard
# input, and the exit status, stdout and stderr must be identical.  Both run
# with argv[0] "sh", so that messages that name the shell read the same.
# trusted-dash is compared with /bin/dash, trusted-bash with /bin/bash;
# with TF_DIVERTED=1 (tests/integration/deploy.sh), the diverted /bin/dash
# and /bin/bash with Debian's, /bin/dash.distrib and /bin/bash.distrib.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
export LC_ALL=C
unset TRUSTEDFOR_ENFORCE ENV BASH_ENV
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }

# One script a block; "### NAME" starts a block.
table='### echo and printf
echo a b; printf "%s-%d\n" x 42; echo -n n; echo
### parameters and arithmetic
set -- one two three; echo $# "$2" $((6 * 7)) ${x:-dflt} ${#1}
### loops and case
i=0; while [ $i -lt 3 ]; do i=$((i + 1)); case $i in 2) continue ;; esac; echo $i; done
for w in a b c; do echo "$w"; done | tr a-z A-Z
### functions and return status
f() { echo "in f $1"; return 3; }; f x; echo "status $?"
### subshells, pipes, command substitution
x=$(echo inner; exit 4); echo "$x $?"; (exit 5); echo $?; false | true; echo $?
### here-documents
cat <<EOF
here $((1 + 1))
EOF
cat <<'"'"'EOF'"'"'
literal $x
EOF
### redirections
echo to-stderr >&2; echo out 2>/dev/null; { echo grouped; } >&2
### set -e ends the script
set -e; echo before; false; echo not reached
### a command that is not found
no-such-command-trustedfor; echo "status $?"
### a syntax error
echo before; if then fi
### traps and exit status
trap "echo trapped" EXIT; exit 7
### dot a file
printf "echo sourced \$1; y=2\n" >"$TMPDIR/dot.sh"; . "$TMPDIR/dot.sh"; echo "y=$y"
### dot a file that does not exist
. "$TMPDIR/no-such-file"; echo after
### dot through PATH
mkdir -p "$TMPDIR/bin"; echo "echo found via PATH" >"$TMPDIR/bin/lib.sh"; PATH=$TMPDIR/bin:$PATH; . lib.sh
### eval and read
eval "a=1; echo \$a"; echo "line" | { read -r v; echo "read $v"; }
### positional parameters and $0
echo "$0 $# $*"
### exec a script without a shebang
printf "echo no-shebang \$0\n" >"$TMPDIR/nosb"; chmod +x "$TMPDIR/nosb"; "$TMPDIR/nosb"
### wait for a background job
(exit 3) & wait $!; echo "status $?"
### shell options
set -u; echo ${unset_variable_trustedfor}; echo not reached
### set -x trace
set -x; echo traced; set +x
### getopts
set -- -a -b val rest; while getopts ab: o; do echo "$o ${OPTARG:-}"; done; shift $((OPTIND - 1)); echo "$@"
### umask, cd and pwd
umask 027; umask; cd /; pwd; cd "$TMPDIR"; [ "$PWD" = "$TMPDIR" ] && echo same
### exit status of a signal
sh -c "kill -TERM \$\$"; echo "status $?"'

# run SHELL HOW SCRIPTFILE: the shell as argv[0] "sh", given the script
# as a file, a -c string or standard input.
run() {
	local sh=$1 how=$2 file=$3
	case $how in
	file) (exec -a sh "$sh" "$file" arg1 arg2) ;;
	-c) (exec -a sh "$sh" -c "$(cat "$file")" sh arg1 arg2) ;;
	stdin) (exec -a sh "$sh" -s arg1 arg2 <"$file") ;;
	esac
}

# compare NAME STOCK TRUSTED HOW FILE
compare() {
	local what="$1: $(head -1 "$5.name") ($4)" st tt
	TMPDIR=$TF_TMP/s1 run "$2" "$4" "$5" >"$TF_TMP/s.out" 2>"$TF_TMP/s.err" </dev/null
	st=$?
	TMPDIR=$TF_TMP/s2 run "$3" "$4" "$5" >"$TF_TMP/t.out" 2>"$TF_TMP/t.err" </dev/null
	tt=$?
	# The scratch directory's name is the one difference allowed.
	sed -i "s#$TF_TMP/s[12]#TMP#g" "$TF_TMP"/[st].out "$TF_TMP"/[st].err
	if [ "$st" = "$tt" ] && cmp -s "$TF_TMP/s.out" "$TF_TMP/t.out" &&
		cmp -s "$TF_TMP/s.err" "$TF_TMP/t.err"; then
		ok "$what: status $st, same output"
	else
		not_ok "$what"
		echo "#   status: stock $st, trusted $tt"
		diff "$TF_TMP/s.out" "$TF_TMP/t.out" | sed 's/^/#   stdout /'
		diff "$TF_TMP/s.err" "$TF_TMP/t.err" | sed 's/^/#   stderr /'
	fi
}

# Split the table into one file per script.
mkdir -p "$TF_TMP/table"
awk -v dir="$TF_TMP/table" '
/^### / { n++; f = sprintf("%s/%02d", dir, n); print substr($0, 5) >(f ".name"); next }
{ print >>f }' <<<"$table"

for sh in dash bash; do
	name=trusted-$sh trusted=$TF_BUILD/shells/trusted-$sh stock=/bin/$sh
	[ -z "${TF_DIVERTED:-}" ] || name=/bin/$sh trusted=/bin/$sh stock=/bin/$sh.distrib
	if [ ! -x "$trusted" ]; then
		not_run "$trusted against $stock" "$trusted is not built"
		continue
	fi
	for f in "$TF_TMP"/table/??; do
		rm -rf "$TF_TMP/s1" "$TF_TMP/s2"
		mkdir -p "$TF_TMP/s1" "$TF_TMP/s2"
		for how in file -c stdin; do
			compare "$name" "$stock" "$trusted" "$how" "$f"
		done
	done
done
done_testing
