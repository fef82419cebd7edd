# The interpreter matrix's adapter for trusted-dash: see shell.inc.
shell=dash
. "$TF_SRC/tests/conformance/interpreters/shell.inc"
