/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Objects that ask to be initialised first, refused before they are.
 *
 * The loader calls the initialiser of an object marked DF_1_INITFIRST
 * (ld -z initfirst) before anything else it calls once every object is
 * mapped and relocated, the executable's DT_PREINIT_ARRAY included: an
 * LD_PRELOAD object so marked, data-only and from a noexec mount, runs
 * its init array (libpython's Py_BytesMain, say) before loader_guard.c
 * can judge it.  So it is judged earlier, in the resolver of one of the
 * launcher's indirect functions: the loader calls it while it relocates
 * the executable, which it does after every other object and before any
 * initialiser.  No library of Debian's is so marked (glibc's libpthread
 * was, before 2.34), so the refusal does not wait for enforcement: an
 * object that would run before any check never runs in a launcher.
 *
 * That early, libc is not initialised and a sanitizer's runtime has not
 * started: this file calls only early.h's functions and the preload
 * guard, which call no library, are not instrumented, and make their own
 * system calls.  It cannot log: the refusal is the one line on
 * stderr and status 126.
 *
 * The objects come from the loader's list (found through the executable's
 * DT_DEBUG, which the loader fills before it maps the dependencies), and
 * each one's flags from its dynamic section both as mapped and in its
 * file: the loader read the flags as it mapped the object, and the
 * object's own relocations, which come before this, may have rewritten
 * the copy in memory since, and its owner may rewrite its file: so while
 * anything may be enforced, such objects are refused outright first
 * (preload_guard.c), and these flags decide only where nothing is.  What
 * relocations can do to the loader's own memory is beyond any check of the
 * program's (docs/interpreters-security.md).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "early.h"
#include "preload_guard.h"

EARLY static int initialises_first(const ElfW(Dyn) *d, size_t n)
{
	size_t i;

	for (i = 0; i < n && d[i].d_tag != DT_NULL; i++)
		if (d[i].d_tag == DT_FLAGS_1 && (d[i].d_un.d_val & DF_1_INITFIRST))
			return 1;
	return 0;
}

EARLY static int read_at(long fd, void *buf, size_t size, off_t at)
{
	return early_syscall(SYS_pread64, fd, (long)buf, (long)size, (long)at) == (long)size ? 0 : -1;
}

/*
 * DT_FLAGS_1 in the file the loader mapped, as far as its name says:
 * 1 marked, 0 not, -1 not an ELF file that can be read (refused).
 */
EARLY static int file_initialises_first(const char *path)
{
	static ElfW(Dyn) dyn[64];
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;
	long fd;
	int i, found = 0, bad = 0;

	fd = early_syscall(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (read_at(fd, &eh, sizeof(eh), 0) < 0 || eh.e_ident[EI_MAG0] != ELFMAG0 ||
	    eh.e_ident[EI_MAG1] != ELFMAG1 || eh.e_ident[EI_MAG2] != ELFMAG2 ||
	    eh.e_ident[EI_MAG3] != ELFMAG3 || eh.e_phentsize != sizeof(ph))
		bad = 1;
	for (i = 0; !bad && !found && i < eh.e_phnum; i++) {
		off_t at;
		size_t left;

		if (read_at(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) < 0) {
			bad = 1;
			break;
		}
		if (ph.p_type != PT_DYNAMIC)
			continue;
		for (at = (off_t)ph.p_offset, left = ph.p_filesz / sizeof(dyn[0]); left && !found;) {
			size_t n = left < 64 ? left : 64;

			if (read_at(fd, dyn, n * sizeof(dyn[0]), at) < 0) {
				bad = 1;
				break;
			}
			found = initialises_first(dyn, n);
			left -= n;
			at += (off_t)(n * sizeof(dyn[0]));
		}
	}
	early_syscall(SYS_close, fd, 0, 0, 0);
	return bad ? -1 : found;
}

EARLY static void judge_objects(void)
{
	const struct link_map *exe = early_objects(), *l;

	/*
	 * While anything may be enforced, every object from outside root's
	 * directories is refused here, whatever its flags say, in memory or
	 * in its file (preload_guard.c).
	 */
	tf_preload_guard(NULL);
	if (!exe)
		early_refuse("(the loader's list of objects)",
			     "not found, so an object that initialises first cannot be ruled out");
	for (l = exe; l; l = l->l_next) {
		const char *name = l->l_name && l->l_name[0] ? l->l_name : "(an object)";
		int in_file;

		if (initialises_first(l->l_ld, (size_t)-1))
			early_refuse(name, "it asks to be initialised before the program's checks (DF_1_INITFIRST)");
		/* The program and the vDSO: the kernel mapped them. */
		if (l == exe || !l->l_name || early_in_system_directory(l->l_name) ||
		    early_in_vdso(l->l_name))
			continue;
		in_file = file_initialises_first(l->l_name);
		if (in_file < 0)
			early_refuse(name, "cannot be read again to see whether it initialises first");
		if (in_file)
			early_refuse(name, "it asks to be initialised before the program's checks (DF_1_INITFIRST)");
	}
}

EARLY static void nothing(void)
{
}

EARLY static void (*resolve_anchor(void))(void)
{
	judge_objects();
	return nothing;
}

/* Never called: its address, taken below, makes the loader resolve it. */
static void initfirst_anchor(void) __attribute__((ifunc("resolve_anchor")));
__attribute__((used)) static void (*volatile const anchor)(void) = initfirst_anchor;
