#!/bin/bash
# CPython's own regression tests (Debian's libpython3.11-testsuite) for the
# parts trusted-python changes (imports, the command line, compile() and
# the standard library's runners and prompts), run through trusted-python
# with nothing enforced.  Their child interpreters are sys.executable, so trusted-python
# again.  One TAP line per test module, with its counts.  With TF_DIVERTED=1
# (tests/integration/deploy.sh): through the diverted /usr/bin/python3.11,
# the modules in TF_CPYTHON_MODULES if set.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer would report the interpreter's own allocations kept until exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
enter_private_namespace "$@"

PY=$TF_BUILD/interpreters/python/trusted-python
modules=(test_import test_importlib test_runpy test_zipimport
	test_zipimport_support test_site test_cmd_line_script test_cmd_line
	test_pkgutil test_pkg test_compileall test_py_compile test_audit
	test_builtin test_compile test_pdb test_bdb test_doctest test_timeit
	test_code_module test_trace test_profile test_cprofile)
if [ -n "${TF_DIVERTED:-}" ]; then
	PY=/usr/bin/$TF_PYTHON
	# shellcheck disable=SC2206 # a list of module names
	[ -z "${TF_CPYTHON_MODULES:-}" ] || modules=($TF_CPYTHON_MODULES)
fi

if [ ! -f /usr/lib/$TF_PYTHON/test/test_runpy.py ]; then
	not_run "CPython's regression tests" "lib$TF_PYTHON-testsuite is not installed"
	done_testing
fi
set_policy_file "policy = 3
enforce = none
audit = off
log = none" || not_ok "policy file"
# The suite expects a plain environment: these change its outcomes under
# python3.11 as well (test_cmd_line checks buffering and .pyc writing).
unset PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONPATH PYTHONSTARTUP \
	PYTHONHOME PYTHONINSPECT PYTHONSAFEPATH PYTHONWARNINGS PYTHONDEVMODE
export HOME=$TF_TMP/home
mkdir -p "$HOME"
cd "$TF_TMP" || exit 1

total_run=0 total_skipped=0
for m in "${modules[@]}"; do
	"$PY" -m test -v "$m" >"$TF_TMP/$m.log" 2>&1
	status=$?
	ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$TF_TMP/$m.log" | tail -n 1)
	skipped=$(sed -n 's/^OK.*skipped=\([0-9]*\).*/\1/p' "$TF_TMP/$m.log" | tail -n 1)
	ran=${ran:-0} skipped=${skipped:-0}
	if [ "$status" = 0 ] && [ "$ran" -gt 0 ] && grep -q '^OK' "$TF_TMP/$m.log"; then
		ok "$m: $ran tests, $((ran - skipped)) passed, $skipped skipped"
		total_run=$((total_run + ran))
		total_skipped=$((total_skipped + skipped))
	else
		not_ok "$m (status $status, $ran tests)"
		grep -E '^(FAIL|ERROR):|^Ran |^FAILED' "$TF_TMP/$m.log" | sed 's/^/#   /'
	fi
done
echo "# CPython regression tests through trusted-python: $total_run tests in" \
	"${#modules[@]} modules, $((total_run - total_skipped)) passed, $total_skipped skipped"
done_testing
