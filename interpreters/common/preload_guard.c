/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * While enforcement may be in force, no object the environment brought in
 * (LD_PRELOAD, LD_LIBRARY_PATH, ld.so --preload or --library-path) stays
 * in a launcher: every object outside root's library directories is
 * refused before the launcher calls anything through its PLT, and before
 * an object that asks to be initialised first runs.
 *
 * The loader guard's check of such an object comes too late to be trusted:
 * - its definitions come before libc's in the loader's global scope, so
 *   they take the launcher's own calls, the guard's and the library's
 *   included, with no code of their own (each name an offset into libc:
 *   dl_iterate_phdr() and prctl() answered by sched_yield() judged nothing
 *   and read locked bits as none; found by review);
 * - its relocations, which run before any code of the launcher's, may
 *   rewrite what it shows in memory (its dynamic tags, its flags), and its
 *   file, its owner's, may be rewritten or replaced by the time it is
 *   read again (a FIFO later in LD_PRELOAD holds the loader while it is).
 * So nothing of the object is read: where it lies decides, as glibc's
 * secure-execution mode admits preloads only from root's directories.
 * Besides those, what the kernel mapped is kept (the program, the vDSO,
 * the loader the program names in PT_INTERP), the executable's own
 * RUNPATH (a build tree's), and a file that is root's all the way down its
 * path, which no other user can have placed.
 *
 * What may be in force is told from facts no interposed function gives:
 * the exec securebits (prctl), the policy file's existence, and in the
 * preinit array TRUSTEDFOR_ENFORCE in the environment it is handed (the
 * resolver that runs earlier is handed none).  A policy file that enforces
 * nothing counts: reading it would take libc.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dirent64.h"
#include "early.h"
#include "missing.h"
#include "preload_guard.h"

extern ElfW(Dyn) _DYNAMIC[];
/* The executable's own ELF header, placed by the linker. */
extern const ElfW(Ehdr) __ehdr_start;

/* A directory listing, zeroed before each read. */
static char buf[16384];

EARLY static int same_name(const char *a, const char *b, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return a[n] == '\0';
}

/*
 * Whether the policy file is absent, in words a seccomp filter of the
 * user's own cannot give: "no such file" (one return value, which a
 * filter gives as easily) and a listing of its directory, which the kernel
 * writes, holding "." and not the file, as lib/policy_file.c confirms its
 * own open's ENOENT.  Any doubt means the file may be there.
 */
EARLY static int policy_file_absent(void)
{
	static const char path[] = TRUSTEDFOR_POLICY_FILE;
	static char dir[sizeof(path)];
	long fd, n, at, slash = -1, i;
	int dot = 0, found = 0;

	if (early_syscall(SYS_faccessat, AT_FDCWD, (long)path, F_OK, 0) != -ENOENT)
		return 0;
	for (i = 0; path[i]; i++)
		if (path[i] == '/')
			slash = i;
	if (slash <= 0)
		return 0;
	for (i = 0; i < slash; i++)
		dir[i] = path[i];
	dir[slash] = '\0';
	fd = early_syscall(SYS_openat, AT_FDCWD, (long)dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	for (;;) {
		/* Zeroed: a forged success that wrote nothing lists nothing. */
		for (i = 0; i < (long)sizeof(buf); i++)
			buf[i] = 0;
		n = early_syscall(SYS_getdents64, fd, (long)buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		for (at = 0; at < n;) {
			const struct linux_dirent64 *d = (const struct linux_dirent64 *)(buf + at);

			if (d->d_reclen < offsetof(struct linux_dirent64, d_name) + 2 ||
			    d->d_reclen > n - at) {
				n = -1;
				break;
			}
			if (same_name(d->d_name, ".", 1))
				dot = 1;
			else if (same_name(d->d_name, path + slash + 1, (long)sizeof(path) - 2 - slash))
				found = 1;
			at += d->d_reclen;
		}
		if (n < 0)
			break;
	}
	early_syscall(SYS_close, fd, 0, 0, 0);
	return n == 0 && dot && !found;
}

/* The exec securebits set, or the policy file maybe there. */
EARLY static int bits_or_policy_file(void)
{
	long bits = early_syscall(SYS_prctl, PR_GET_SECUREBITS, 0, 0, 0);

	if (bits < 0 || (bits & (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)))
		return 1;
	return !policy_file_absent();
}

EARLY static int enforce_variable(char **envp)
{
	char **e;

	for (e = envp; e && *e; e++)
		if (early_starts_with(*e, "TRUSTEDFOR_ENFORCE=") && (*e)[19])
			return 1;
	return 0;
}

/* Is L the loader, named by the program's PT_INTERP string where it lies? */
EARLY static int is_loader(const struct link_map *exe, const struct link_map *l)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)((const char *)&__ehdr_start +
						     __ehdr_start.e_phoff);
	int i;

	for (i = 0; i < __ehdr_start.e_phnum; i++)
		if (ph[i].p_type == PT_INTERP)
			return l->l_name == (const char *)(exe->l_addr + ph[i].p_vaddr);
	return 0;
}

/*
 * A dynamic entry's address: the loader adds the object's base to those
 * of a writable dynamic section, once, in place.
 */
EARLY static const char *dyn_address(const struct link_map *l, ElfW(Addr) value)
{
	return (const char *)(value < l->l_addr ? value + l->l_addr : value);
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

	if (path[0] != '/')
		return 0;
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

/*
 * Is PATH root's all the way: an absolute name with no "/." whose every
 * directory, and the file, is no symbolic link, is owned by root and is
 * writable by no one else?  Then no other user put the object there or
 * can change it: a directory root registers in /etc/ld.so.conf.d
 * (/opt/vendor/lib) is root's as /usr/lib is, and a library there that
 * stands in for a launcher's dependency must not lock root out (found by
 * review).
 */
EARLY static int root_owned_path(const char *path)
{
	static char prefix[4096];
	struct stat st;
	long i;

	if (path[0] != '/')
		return 0;
	for (i = 0; path[i]; i++) {
		if (i >= (long)sizeof(prefix) - 1 || (path[i] == '/' && path[i + 1] == '.'))
			return 0;
		prefix[i] = path[i];
		if (path[i] == '/' || (path[i + 1] != '/' && path[i + 1] != '\0'))
			continue;
		prefix[i + 1] = '\0';
		if (early_syscall(SYS_newfstatat, AT_FDCWD, (long)prefix, (long)&st,
				  AT_SYMLINK_NOFOLLOW) != 0 ||
		    S_ISLNK(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
			return 0;
	}
	return 1;
}

EARLY void tf_preload_guard(char **envp)
{
	/*
	 * The securebits and the policy file are asked once: the resolver
	 * asks first and judges the objects, and the preinit array, with the
	 * same objects mapped, has only the environment to add.
	 */
	static int asked, in_force;
	const struct link_map *exe = early_objects(), *l;

	if (asked && in_force)
		return;
	if (!asked) {
		in_force = bits_or_policy_file();
		asked = 1;
	}
	if (!in_force && !enforce_variable(envp))
		return;
	if (!exe)
		early_refuse("(the loader's list of objects)",
			     "not found, so an object the environment brought in cannot be ruled out");
	for (l = exe->l_next; l; l = l->l_next) {
		const char *name = l->l_name ? l->l_name : "";

		if (early_in_system_directory(name) || is_loader(exe, l) || early_in_vdso(name) ||
		    in_runpath(exe, name) || root_owned_path(name))
			continue;
		early_refuse(name[0] ? name : "(an object)",
			     "a shared object outside root's library directories, refused "
			     "while anything may be enforced: it could stand in for the "
			     "launcher's own functions before any check");
	}
}
