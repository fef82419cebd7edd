# The interpreter matrix's adapter for trusted-python (contract:
# ../interpreter-matrix.sh).  The matrix runs under check policy 3, which
# refuses Debian's standard library (mode 0644): so that the interpreter can
# start at all, the standard library is replaced, inside the runner's private
# mount namespace only, by an executable copy (trusted_stdlib).
interp=$TF_BUILD/interpreters/python/trusted-python
prog=trusted-python
code='print("marker")'
marker=marker
eval_flag=-c
stdin_args=(-)
unset PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT PYTHONSAFEPATH
# CPython leaves memory allocated at exit by design, and more so when it is
# refused before it finalizes; in the ASan build, leak reports would only
# be CPython's (libpython is linked in statically, so they cannot be told
# apart by library).  Memory errors are still caught.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export HOME=$TF_TMP/python-home
mkdir -p "$HOME"
. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"
trusted_stdlib "$TF_TMP/python-stdlib" ||
	missing="cannot make an executable copy of the standard library"
