/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the launchers' earliest guards share (initfirst_guard.c,
 * preload_guard.c).  They run before libc is initialised, or before any
 * call through the launcher's PLT can be trusted to reach the library it
 * names: these functions call no function of any library, are not
 * instrumented, and make their own system calls.  The executable defines
 * them, so calls to them are direct.
 */
#ifndef TRUSTEDFOR_EARLY_H
#define TRUSTEDFOR_EARLY_H

#include <link.h>

#define EARLY __attribute__((no_sanitize("address", "undefined"), no_stack_protector, \
			     optimize("no-tree-loop-distribute-patterns")))

#pragma GCC visibility push(hidden)

EARLY long early_syscall(long nr, long a, long b, long c, long d);

/*
 * "PROG: OBJECT: not trusted for execution: WHY" on stderr, made
 * printable, and exit status 126.  Nothing is logged: libc may not run yet.
 */
EARLY _Noreturn void early_refuse(const char *object, const char *why);

EARLY int early_starts_with(const char *s, const char *prefix);
EARLY int early_has_slash(const char *s);

/*
 * Where the loader finds the system's libraries, root's directories (no
 * user can have written a file there): /lib, /lib64, /usr/lib, /usr/lib64
 * and /usr/local, whose lib directories Debian's /etc/ld.so.conf.d/libc.conf
 * puts first in the loader's search (a library root builds and installs
 * there may stand in for a launcher's dependency, and must not lock root
 * out: found by review).  A name with "/." in it (a "..") may lead
 * anywhere and is not in them.
 */
EARLY int early_in_system_directory(const char *path);

/*
 * The loader's list of objects, found through the executable's DT_DEBUG,
 * which the loader fills before it maps the dependencies; NULL when there
 * is none (another loader, or this one changed).
 */
EARLY const struct link_map *early_objects(void);

/*
 * Is NAME, an object's name in the loader's list, the vDSO's?  The loader
 * names the vDSO by the soname in the vDSO's own string table, inside the
 * image the kernel mapped ("[vdso]" in /proc/self/maps, readable to the
 * process itself, non-dumpable or not, unlike its auxv); an object from a
 * file has the loader's copy of its name, with or without a slash.
 */
EARLY int early_in_vdso(const char *name);

#pragma GCC visibility pop

#endif
