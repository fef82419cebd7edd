#!/usr/bin/python3
"""Writes a data-only shared object: an x86-64 ELF whose one PT_LOAD segment
is readable and writable but not executable, so that it maps from a noexec
mount, and whose DT_INIT_ARRAY holds the address of a function exported by
a library it lists in DT_NEEDED.  The dynamic loader relocates that entry
and calls it as an initialiser, (argc, argv, envp) of the process, when the
object is loaded: with libpython's Py_BytesMain, the process's own argv run
as a python command line.

    data-only-object.py OUT LIBRARY SYMBOL [initfirst | initfirst-hidden |
                                            irelative=OFFSET]

With "initfirst" the object is marked DF_1_INITFIRST (ld -z initfirst):
the loader then calls its initialiser before every other one, the
executable's DT_PREINIT_ARRAY included.  "initfirst-hidden" adds a
relocation that overwrites the mark in memory once the loader has read it
(with the object's address, whose low bits are clear), so that only the
file still shows it.  With "irelative=OFFSET" it has
no init array, and its one relocation is an R_X86_64_IRELATIVE: while it
relocates the object, the loader calls the address OFFSET bytes from the
object's start, wherever that is (another object's function), and stores
what it returns.

The object has no section headers: the loader needs only the program
headers and the dynamic section.
"""
import struct
import sys

PAGE = 0x1000
EHDR, PHDR = 64, 56
PT_LOAD, PT_DYNAMIC, PT_GNU_STACK = 1, 2, 0x6474E551
PF_W, PF_R = 2, 4
DT = dict(NULL=0, NEEDED=1, HASH=4, STRTAB=5, SYMTAB=6, RELA=7, RELASZ=8,
          RELAENT=9, STRSZ=10, SYMENT=11, SONAME=14, INIT_ARRAY=25,
          INIT_ARRAYSZ=27, FLAGS_1=0x6FFFFFFB)
DF_1_INITFIRST = 0x20
R_X86_64_64, R_X86_64_RELATIVE, R_X86_64_IRELATIVE = 1, 8, 37
STB_GLOBAL, STT_FUNC = 1, 2


def build(library, symbol, soname, initfirst=False, irelative=None, hidden=False):
    phnum = 3
    off = EHDR + phnum * PHDR

    strtab = b"\0"
    names = {}
    for s in (library, symbol, soname):
        names[s] = len(strtab)
        strtab += s.encode() + b"\0"

    def align(n, a=8):
        return (n + a - 1) & ~(a - 1)

    strtab_off = off
    symtab_off = align(strtab_off + len(strtab))
    symtab = bytes(24) + struct.pack("<IBBHQQ", names[symbol],
                                     STB_GLOBAL << 4 | STT_FUNC, 0, 0, 0, 0)
    # SysV hash: one bucket; the undefined symbol needs no chain.
    hash_off = symtab_off + len(symtab)
    hashtab = struct.pack("<5I", 1, 2, 0, 0, 0)
    rela_off = align(hash_off + len(hashtab))
    relasz = 48 if hidden else 24
    init_off = rela_off + relasz
    if irelative is None:
        rela = struct.pack("<QQq", init_off, 1 << 32 | R_X86_64_64, 0)
        init = [("INIT_ARRAY", init_off), ("INIT_ARRAYSZ", 8)]
    else:
        rela = struct.pack("<QQq", init_off, R_X86_64_IRELATIVE, irelative)
        init = []
    dyn_off = init_off + 8
    entries = [
        ("NEEDED", names[library]), ("SONAME", names[soname]),
        ("HASH", hash_off), ("STRTAB", strtab_off), ("STRSZ", len(strtab)),
        ("SYMTAB", symtab_off), ("SYMENT", 24), ("RELA", rela_off),
        ("RELASZ", relasz), ("RELAENT", 24)] + init + (
        [("FLAGS_1", DF_1_INITFIRST)] if initfirst else []) + [("NULL", 0)]
    if hidden:
        flags_value = dyn_off + 16 * [k for k, v in entries].index("FLAGS_1") + 8
        rela += struct.pack("<QQq", flags_value, R_X86_64_RELATIVE, 0)
    dyn = b"".join(struct.pack("<qQ", DT[k], v) for k, v in entries)
    size = dyn_off + len(dyn)

    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, EHDR, 0, 0,
                               EHDR, PHDR, phnum, 64, 0, 0)
    phdrs = b"".join([
        struct.pack("<IIQQQQQQ", PT_LOAD, PF_R | PF_W, 0, 0, 0, size, size, PAGE),
        struct.pack("<IIQQQQQQ", PT_DYNAMIC, PF_R | PF_W, dyn_off, dyn_off,
                    dyn_off, len(dyn), len(dyn), 8),
        struct.pack("<IIQQQQQQ", PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 16),
    ])
    image = bytearray(size)
    for at, part in [(0, ehdr), (EHDR, phdrs), (strtab_off, strtab),
                     (symtab_off, symtab), (hash_off, hashtab),
                     (rela_off, rela), (dyn_off, dyn)]:
        image[at:at + len(part)] = part
    return bytes(image)


def main(argv):
    usage = ("usage: data-only-object.py OUT LIBRARY SYMBOL "
             "[initfirst | initfirst-hidden | irelative=OFFSET]")
    if len(argv) not in (4, 5):
        sys.exit(usage)
    out, library, symbol = argv[1:4]
    option = argv[4] if len(argv) == 5 else ""
    hidden = option == "initfirst-hidden"
    initfirst, irelative = option == "initfirst" or hidden, None
    if option.startswith("irelative="):
        irelative = int(option[len("irelative="):], 0)
    elif option and not initfirst:
        sys.exit(usage)
    with open(out, "wb") as f:
        f.write(build(library, symbol, out.rsplit("/", 1)[-1], initfirst, irelative,
                      hidden))


if __name__ == "__main__":
    main(sys.argv)
