#!/bin/sh
# man/scdoc-tbl.sh SCDOC: scdoc's page from standard input, with the first
# line that asks man(1) to run tbl: scdoc writes tables (.TS/.TE) but not
# that line, and groff 1.23 (Debian 13) warns of every table without it.
printf '%s\n' "'\\\" t"
exec "$1"
