#!/usr/bin/python3
"""A static library's files call one another one way only.

Reads the order of the header's opening comment (bottom to top:
lib/internal.h, session/session.h), and the symbols each object of the
static library defines and uses (nm), and checks that every call between
files goes down the list.  Prints the graph.

  layers.py LIBRARY.a HEADER
"""
import os
import re
import subprocess
import sys


def order(header):
    """The files of the list at the top of internal.h, bottom first."""
    text = open(header, encoding="utf-8").read()
    start = text.index("/*\n")
    comment = text[start:text.index("*/", start)]
    return [m.group(1).split("/")[-1] for m in
            re.finditer(r"^ \*   (\S+\.c)\s", comment, re.M)]


def graph(archive):
    """{file: set of files it calls}, from nm's defined and undefined symbols."""
    out = subprocess.run(["nm", "-A", archive], check=True, text=True,
                         capture_output=True).stdout
    defines, uses = {}, {}
    for line in out.splitlines():
        m = re.match(r"^[^:]*:([^:]+)\.o:\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        obj, kind, sym = m.groups()
        # A thin archive names its members by path.
        obj = obj.rsplit("/", 1)[-1]
        obj = obj.split("_")[-1] if obj.startswith("..") else obj
        uses.setdefault(obj, set())
        if kind == "U":
            uses[obj].add(sym)
        elif kind.isupper():
            defines[sym] = obj
    return {obj: {defines[s] for s in syms if s in defines and defines[s] != obj}
            for obj, syms in uses.items()}


def main():
    archive, header = sys.argv[1:3]
    layers = order(header)
    name = os.path.basename(header)
    calls = graph(archive)
    cases = [(f"{f} is in {name}'s list", f in layers) for f in sorted(calls)]
    cases += [(f"{name} lists {f} once, and it is built",
               layers.count(f) == 1 and f in calls) for f in layers]
    for f in layers:
        if f not in calls:
            continue
        up = sorted(c for c in calls[f] if c not in layers or
                    layers.index(c) >= layers.index(f))
        cases.append((f"{f} calls only files below it" +
                      (f" (calls up: {', '.join(up)})" if up else ""), not up))
    print(f"1..{len(cases)}")
    for f in layers:
        below = sorted(calls.get(f, ()), key=lambda c: layers.index(c) if c in layers else -1)
        print(f"# {f} -> {' '.join(below) if below else '(nothing)'}")
    failed = 0
    for n, (what, ok) in enumerate(cases, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {what}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
