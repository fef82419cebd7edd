/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Objects that could stand in for the launcher's own functions, refused
 * before the launcher calls any function through its PLT.
 *
 * A preloaded object comes before libc in the loader's global scope, so
 * its definitions of libc's names take every call the launcher makes to
 * them, the loader guard's and the library's included.  It needs no code
 * of its own: each name may be an offset from the object into libc, which
 * lands at the same distance in every run.  A data-only object on a
 * noexec mount thus made dl_iterate_phdr() and prctl() answer 0 and do
 * nothing (libc's sched_yield()): the loader guard judged no object, the
 * locked securebits read as none, and a noexec script ran (found by
 * review).  LD_LIBRARY_PATH does the same with an object named as one of
 * the launcher's dependencies.
 *
 * So, while enforcement may be in force, an object that defines any
 * symbol is refused unless it lies in root's library directories (as
 * glibc's secure-execution mode admits preloads only from there), is the
 * dynamic loader the kernel mapped (AT_BASE), or lies in a directory of
 * the executable's own RUNPATH (a build tree's).  What may be
 * in force is known from facts no interposed function gives: the exec
 * securebits (prctl), TRUSTEDFOR_ENFORCE in the environment, and the
 * policy file's existence; a policy file that enforces nothing still
 * counts, since reading it would take libc.  An object that defines no
 * symbol replaces no function: loader_guard.c judges it as any object.
 * The symbols are those the loader itself can find: every index its hash
 * table reaches.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "early.h"
#include "missing.h"
#include "preload_guard.h"

extern ElfW(Dyn) _DYNAMIC[];

/* More steps through a hash table than any library has symbols. */
#define MAX_STEPS (1L << 22)

EARLY static int enforcement_possible(char **envp)
{
	long bits = early_syscall(SYS_prctl, PR_GET_SECUREBITS, 0, 0, 0);
	char **e;

	if (bits < 0 || (bits & (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)))
		return 1;
	for (e = envp; e && *e; e++)
		if (early_starts_with(*e, "TRUSTEDFOR_ENFORCE=") && (*e)[19])
			return 1;
	/* Only "no such file" says there is none. */
	return early_syscall(SYS_faccessat, AT_FDCWD, (long)TRUSTEDFOR_POLICY_FILE, F_OK, 0) !=
	       -ENOENT;
}

/*
 * A dynamic entry's address: the loader adds the object's base to those
 * of a writable dynamic section, once, in place, and leaves a read-only
 * one's as offsets.
 */
EARLY static const void *dyn_address(const struct link_map *l, ElfW(Addr) value)
{
	return (const void *)(value < l->l_addr ? value + l->l_addr : value);
}

EARLY static const void *dyn_entry(const struct link_map *l, ElfW(Sxword) tag)
{
	const ElfW(Dyn) *d;

	for (d = l->l_ld; d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return dyn_address(l, d->d_un.d_ptr);
	return NULL;
}

/*
 * Whether the loader may bind a name to SYM.  An undefined symbol with a
 * value counts too: the loader takes it for references that are not calls
 * through the PLT (a function's address, a call compiled -fno-plt).
 */
EARLY static int defined(const ElfW(Sym) *sym)
{
	return (sym->st_shndx != SHN_UNDEF || sym->st_value != 0) &&
	       ELF64_ST_BIND(sym->st_info) != STB_LOCAL;
}

/*
 * 1 when a symbol the loader's lookup reaches through the object's hash
 * tables is defined, 0 when none is, -1 when a table is past reason.
 * Both tables are walked where both exist: the loader uses one.
 */
EARLY static int defines_symbols(const struct link_map *l)
{
	const ElfW(Sym) *syms = dyn_entry(l, DT_SYMTAB);
	const uint32_t *gnu = dyn_entry(l, DT_GNU_HASH);
	const ElfW(Word) *sysv = dyn_entry(l, DT_HASH);
	long steps = 0;
	uint32_t b;

	if (!syms)
		return 0;
	if (gnu) {
		uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_words = gnu[2];
		const uint32_t *buckets =
			(const uint32_t *)((const ElfW(Addr) *)(gnu + 4) + bloom_words);
		const uint32_t *chain = buckets + nbuckets;

		for (b = 0; b < nbuckets; b++) {
			uint32_t i = buckets[b];

			if (i == 0)
				continue;
			if (i < symoffset)
				return -1;
			for (;; i++) {
				if (++steps > MAX_STEPS)
					return -1;
				if (defined(&syms[i]))
					return 1;
				if (chain[i - symoffset] & 1)
					break;
			}
		}
	}
	if (sysv) {
		ElfW(Word) nbucket = sysv[0];
		const ElfW(Word) *bucket = sysv + 2, *chain = bucket + nbucket;

		for (b = 0; b < nbucket; b++)
			for (ElfW(Word) i = bucket[b]; i != STN_UNDEF; i = chain[i]) {
				if (++steps > MAX_STEPS)
					return -1;
				if (defined(&syms[i]))
					return 1;
			}
	}
	return 0;
}

/* The executable's directory, as the loader expands $ORIGIN: "" if unknown. */
EARLY static const char *origin(void)
{
	static char dir[4096];
	long n = early_syscall(SYS_readlink, (long)"/proc/self/exe", (long)dir, sizeof(dir) - 1, 0);

	if (n <= 0)
		return "";
	dir[n] = '\0';
	while (n > 0 && dir[n] != '/')
		n--;
	dir[n] = '\0';
	return dir;
}

/* Is PATH a file right in the directory DIR (LEN bytes), $ORIGIN expanded? */
EARLY static int in_directory(const char *path, const char *dir, long len)
{
	const char *rest = path;
	long i;

	if (len >= 7 && early_starts_with(dir, "$ORIGIN") && (len == 7 || dir[7] == '/')) {
		const char *o = origin();

		if (!*o)
			return 0;
		for (; *o; o++, rest++)
			if (*rest != *o)
				return 0;
		dir += 7;
		len -= 7;
	}
	for (i = 0; i < len; i++, rest++)
		if (*rest != dir[i])
			return 0;
	if (*rest++ != '/' || !*rest)
		return 0;
	return !early_has_slash(rest);
}

/* Is PATH in a directory of the executable's DT_RUNPATH or DT_RPATH? */
EARLY static int in_runpath(const struct link_map *exe, const char *path)
{
	const char *strtab = NULL;
	const ElfW(Dyn) *d;

	for (d = _DYNAMIC; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			strtab = dyn_address(exe, d->d_un.d_ptr);
	if (!strtab)
		return 0;
	for (d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
		const char *dirs, *end;

		if (d->d_tag != DT_RUNPATH && d->d_tag != DT_RPATH)
			continue;
		for (dirs = strtab + d->d_un.d_val; *dirs; dirs = *end ? end + 1 : end) {
			for (end = dirs; *end && *end != ':'; end++)
				;
			if (end > dirs && in_directory(path, dirs, end - dirs))
				return 1;
		}
	}
	return 0;
}

/* AT_BASE from the auxiliary vector, which follows the environment. */
EARLY static ElfW(Addr) loader_base(char **envp)
{
	const ElfW(auxv_t) *av;

	while (*envp)
		envp++;
	for (av = (const ElfW(auxv_t) *)(envp + 1); av->a_type != AT_NULL; av++)
		if (av->a_type == AT_BASE)
			return av->a_un.a_val;
	return 0;
}

EARLY void tf_preload_guard(char **envp)
{
	const struct link_map *exe = early_objects(), *l;
	ElfW(Addr) base;

	if (!envp || !enforcement_possible(envp))
		return;
	base = loader_base(envp);
	if (!exe)
		early_refuse("(the loader's list of objects)",
			     "not found, so an object that replaces the launcher's functions "
			     "cannot be ruled out");
	for (l = exe->l_next; l; l = l->l_next) {
		int r;

		/* The vDSO has no path: the kernel mapped it. */
		if (!early_has_slash(l->l_name) || early_in_system_directory(l->l_name) ||
		    (base && l->l_addr == base) || in_runpath(exe, l->l_name))
			continue;
		r = defines_symbols(l);
		if (r < 0)
			early_refuse(l->l_name, "its symbol table cannot be read through");
		if (r)
			early_refuse(l->l_name,
				     "a shared object outside root's library directories that defines "
				     "symbols, which could stand in for the launcher's own functions");
	}
}
