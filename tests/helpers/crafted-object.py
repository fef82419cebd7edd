#!/usr/bin/python3
"""crafted-object.py OUT [--vaddr V] [--clobber TAG,...] [--ro-dynamic] NAME=OFFSET...

Writes a data-only shared object (one PT_LOAD, readable and writable, no
executable segment: it maps from a noexec mount), built byte by byte, that
defines each NAME as a function OFFSET bytes from the object's load bias
(l_addr), or at ADDRESS for NAME=abs:ADDRESS, with a GNU hash table the loader reads.

--vaddr V      the object's addresses start at V (default 0), any 64-bit
               value: the loader's l_addr is then where it mapped the
               object, minus V.
--clobber T,.. the object's own R_X86_64_RELATIVE relocations overwrite the
               tag of each named dynamic entry (SYMTAB, GNU_HASH, STRTAB...)
               in its mapped dynamic section.  The loader read them as it
               mapped the object, before relocating it; the tag then reads
               as l_addr, which is no tag the loader knows.
--ro-dynamic   the dynamic section lies in a read-only segment of its own
               (the loader then leaves its d_ptr values as offsets).
--initfirst    DF_1_INITFIRST in DT_FLAGS_1.
--init-array A a DT_INIT_ARRAY of one entry, l_addr + A (a RELATIVE
               relocation writes it), or A itself for abs:A.
"""
import argparse
import struct

PAGE = 0x1000
DT = dict(NULL=0, NEEDED=1, HASH=4, STRTAB=5, SYMTAB=6, RELA=7, RELASZ=8,
          RELAENT=9, STRSZ=10, SYMENT=11, SONAME=14, INIT_ARRAY=25,
          INIT_ARRAYSZ=27, FLAGS_1=0x6ffffffb, GNU_HASH=0x6ffffef5)
R_X86_64_RELATIVE = 8


def gnu_hash(name):
    h = 5381
    for c in name.encode():
        h = (h * 33 + c) & 0xFFFFFFFF
    return h


def build(names, vaddr, clobber, ro_dynamic, initfirst=False,
          init_array=None, needed=()):
    strtab = b"\0"
    offs = {}
    for n in list(names) + list(needed) + ["crafted.so"]:
        offs[n] = len(strtab)
        strtab += n.encode() + b"\0"
    order = list(names)
    # Header, then two or three program headers.
    nph = 3 if ro_dynamic else 2
    at = 64 + 56 * nph
    symtab_at = at
    syms = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)
    for n in order:
        # Global function, section 1 (any defined section: no section
        # headers are needed by the loader), value relative to l_addr.
        value, shndx = names[n]
        syms += struct.pack("<IBBHQQ", offs[n], (1 << 4) | 2, 0, shndx,
                            value % 2**64, 0)
    at += len(syms)
    strtab_at = at
    at += len(strtab)
    at = (at + 7) & ~7
    gnu_at = at
    hashes = [gnu_hash(n) for n in order]
    chain = [h & ~1 for h in hashes]
    if chain:
        chain[-1] |= 1
    gnu = struct.pack("<IIII", 1, 1, 1, 6) + struct.pack("<Q", 2**64 - 1)
    gnu += struct.pack("<I", 1 if order else 0)
    gnu += b"".join(struct.pack("<I", c) for c in chain)
    at += len(gnu)
    at = (at + 7) & ~7
    rela_at = at
    n_dyn_entries = 9 + len(needed) + (1 if initfirst else 0) + \
        (2 if init_array is not None else 0)
    relocated_init = init_array is not None and not init_array[1]
    rela_count = len(clobber) + (1 if relocated_init else 0)
    at += 24 * rela_count
    init_at = at
    if init_array is not None:
        at += 8
    if ro_dynamic:
        at = (at + PAGE - 1) & ~(PAGE - 1)
    dyn_at = at
    entries = [("GNU_HASH", vaddr + gnu_at), ("SYMTAB", vaddr + symtab_at),
               ("STRTAB", vaddr + strtab_at), ("STRSZ", len(strtab)),
               ("SYMENT", 24), ("RELA", vaddr + rela_at),
               ("RELASZ", 24 * rela_count), ("RELAENT", 24)]
    entries += [("NEEDED", offs[n]) for n in needed]
    if initfirst:
        entries.append(("FLAGS_1", 0x20))
    if init_array is not None:
        entries += [("INIT_ARRAY", vaddr + init_at), ("INIT_ARRAYSZ", 8)]
    entries.append(("NULL", 0))
    assert len(entries) == n_dyn_entries
    dyn = b"".join(struct.pack("<qQ", DT[t], v) for t, v in entries)
    rela = b""
    for tag in clobber:
        i = [t for t, _ in entries].index(tag)
        rela += struct.pack("<QQq", vaddr + dyn_at + 16 * i,
                            R_X86_64_RELATIVE, 0)
    if relocated_init:
        rela += struct.pack("<QQq", vaddr + init_at, R_X86_64_RELATIVE,
                            init_array[0])
    end = dyn_at + len(dyn)
    phdrs = b""
    if ro_dynamic:
        phdrs += struct.pack("<IIQQQQQQ", 1, 4, 0, vaddr, vaddr, dyn_at,
                             dyn_at, PAGE)
        phdrs += struct.pack("<IIQQQQQQ", 1, 4, dyn_at, vaddr + dyn_at,
                             vaddr + dyn_at, len(dyn), len(dyn), PAGE)
    else:
        phdrs += struct.pack("<IIQQQQQQ", 1, 6, 0, vaddr, vaddr, end, end,
                             PAGE)
    phdrs += struct.pack("<IIQQQQQQ", 2, 6 if not ro_dynamic else 4, dyn_at,
                         vaddr + dyn_at, vaddr + dyn_at, len(dyn), len(dyn), 8)
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, 0, 0, 64, 56, nph,
                        64, 0, 0)
    out = bytearray(end)
    out[0:64] = ehdr
    out[64:64 + len(phdrs)] = phdrs
    out[symtab_at:symtab_at + len(syms)] = syms
    out[strtab_at:strtab_at + len(strtab)] = strtab
    out[gnu_at:gnu_at + len(gnu)] = gnu
    out[rela_at:rela_at + len(rela)] = rela
    out[dyn_at:dyn_at + len(dyn)] = dyn
    if init_array is not None and init_array[1]:
        struct.pack_into("<Q", out, init_at, init_array[0] % 2**64)
    return bytes(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--vaddr", type=lambda s: int(s, 0) % 2**64, default=0)
    p.add_argument("--clobber", default="")
    p.add_argument("--ro-dynamic", action="store_true")
    p.add_argument("--initfirst", action="store_true")
    p.add_argument("--init-array", default=None)
    p.add_argument("--needed", action="append", default=[])
    p.add_argument("names", nargs="*")
    a = p.parse_intermixed_args()
    names = {}
    for arg in a.names:
        n, v = arg.split("=")
        # abs:ADDRESS: an absolute symbol (SHN_ABS), whatever l_addr is.
        names[n] = (int(v[4:], 0), 0xFFF1) if v.startswith("abs:") else \
            (int(v, 0), 1)
    clobber = [t for t in a.clobber.split(",") if t]
    init = a.init_array
    if init is not None:
        init = (int(init[4:], 0), True) if init.startswith("abs:") else \
            (int(init, 0), False)
    with open(a.out, "wb") as f:
        f.write(build(names, a.vaddr, clobber, a.ro_dynamic, a.initfirst,
                      init, a.needed))


if __name__ == "__main__":
    main()
