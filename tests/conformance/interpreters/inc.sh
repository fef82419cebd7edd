# The interpreter matrix's adapter for inc (contract: ../interpreter-matrix.sh).
interp=$TF_BUILD/interpreters/inc/inc
prog=inc
code=+
marker=1
eval_flag=-c
stdin_args=(-i)
