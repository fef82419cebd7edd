# The interpreter matrix's adapter for trusted-bash: see shell.inc.
shell=bash
. "$TF_SRC/tests/conformance/interpreters/shell.inc"
