#!/usr/bin/python3
"""interposer-object.py OUT NAME=OFFSET|NAME=abs:ADDRESS...

Writes a data-only shared object (no executable segment: it maps from a
noexec mount) that defines each NAME as a function OFFSET bytes from the
object's own load address, OFFSET negative or not, or at ADDRESS whatever
the object's (a function of an executable that is not position
independent).  Preloaded, such a
definition comes before libc's in the loader's global scope, so every call
the executable makes to NAME through its PLT goes OFFSET bytes from the
object: into libc, whose distance from a preloaded object is the same in
every run (the loader maps them one below the other), ASLR or not.  Built
with as and ld, then each absolute symbol is made relative to the object,
which neither tool writes for an arbitrary offset.
"""
import os
import struct
import subprocess
import sys
import tempfile

SHT_PROGBITS, SHT_DYNSYM = 1, 11
SHF_WRITE = 1


def build(out, names, absolute):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "o.s")
        obj = os.path.join(tmp, "o.o")
        with open(src, "w") as f:
            for name in names:
                f.write(f"\t.globl {name}\n\t.type {name}, @function\n"
                        f"\t.set {name}, {absolute.get(name, 0)}\n")
            f.write("\t.data\n\t.byte 0\n")
        subprocess.run(["as", "-o", obj, src], check=True)
        subprocess.run(["ld", "-shared", "-o", out, obj], check=True)


def relocate(out, offsets):
    b = bytearray(open(out, "rb").read())
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
            for i in range(shnum)]
    dynsym = next(s for s in secs if s[1] == SHT_DYNSYM)
    dynstr_off = secs[dynsym[6]][4]
    # Any section of the object's own: the symbol is then base-relative.
    own = next(i for i, s in enumerate(secs)
               if s[1] == SHT_PROGBITS and s[2] & SHF_WRITE)
    done = set()
    for off in range(dynsym[4], dynsym[4] + dynsym[5], 24):
        name_off, info, other, _, _, size = struct.unpack_from("<IBBHQQ", b, off)
        start = dynstr_off + name_off
        name = b[start:b.index(0, start)].decode()
        if name in offsets:
            struct.pack_into("<IBBHQQ", b, off, name_off, info, other, own,
                             offsets[name] % 2**64, size)
            done.add(name)
    if done != set(offsets):
        sys.exit(f"interposer-object.py: not defined: {set(offsets) - done}")
    with open(out, "wb") as f:
        f.write(b)


def main():
    out = sys.argv[1]
    offsets, absolute = {}, {}
    for arg in sys.argv[2:]:
        name, value = arg.split("=")
        if value.startswith("abs:"):
            absolute[name] = int(value[4:], 0)
        else:
            offsets[name] = int(value, 0)
    build(out, list(offsets) + list(absolute), absolute)
    relocate(out, offsets)


if __name__ == "__main__":
    main()
