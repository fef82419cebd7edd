#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel/bench.sh: the in-guest benchmark of the trusted_for series (see
# kernel/guest/bench.c); builds and boots exactly as kernel/check.sh does.
exec "$(dirname "$0")/check.sh" --bench
