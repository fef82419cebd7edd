#!/bin/bash
# Is a program linked to another libpython the python3.11 Debian runs?
# Compares it with /usr/bin/python3.11: the builtin modules, sys.path, the
# extension modules of lib-dynload that load, and how much of the code
# link-time optimisation changed (function sizes in the dynamic symbol
# table, both export the C API).  Prints what differs; exits 1 if a module
# list or sys.path does.
# Usage: bench/python/same-abi.sh PROGRAM   (e.g. a -Dlibpython build's
#        interpreters/python/python-main-control)
set -eu
prog=$(realpath "${1:?usage: $0 PROGRAM}")
ref=/usr/bin/python3.11
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH PYTHONHOME PYTHONSTARTUP
# What each interpreter says about itself, one fact a line.
facts='import sys, os, importlib
print("builtin", *sorted(sys.builtin_module_names))
print("path", *sys.path[1:])
d = os.path.join(sys.prefix, "lib/python3.11/lib-dynload")
ok, bad = [], []
for f in sorted(os.listdir(d)):
    name = f.split(".")[0]
    try:
        importlib.import_module(name)
        ok.append(name)
    except Exception as e:
        bad.append(name + ":" + type(e).__name__)
print("lib-dynload loaded", len(ok), "of", len(ok) + len(bad))
print("lib-dynload failed", *bad)'
status=0
diff <("$ref" -c "$facts") <("$prog" -c "$facts") >/dev/null || status=1
"$ref" -c "$facts" | sed "s,^,python3.11: ," | cut -c1-160
"$prog" -c "$facts" | sed "s,^,$(basename "$prog"): ," | cut -c1-160
[ $status = 0 ] && echo "same builtin modules, sys.path and lib-dynload modules" ||
	echo "DIFFERENT: diff the lines above"
# Function sizes of the dynamic symbol table, in both.
sizes() { readelf -W --dyn-syms "$1" | awk '$4 == "FUNC" && $7 != "UND" {print $8, $3}' | sort -u; }
join <(sizes "$ref") <(sizes "$prog") | awk '
	{ n++; if ($2 != $3) d++ }
	$1 == "_PyEval_EvalFrameDefault" { e = $2 " bytes in python3.11, " $3 " here" }
	END { printf "%d functions exported by both, %d of another size; _PyEval_EvalFrameDefault: %s\n", n, d, e }'
exit $status
