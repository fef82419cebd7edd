/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The environment's shared objects, judged before any of them runs.
 *
 * LD_PRELOAD, LD_LIBRARY_PATH and LD_AUDIT make the dynamic loader map
 * files the user names, and it runs their initialisers before main().  A
 * data-only object (no executable segment, so a noexec mount does not stop
 * it) runs code that way: its init array may point at any function of a
 * library it depends on, libpython's Py_BytesMain for one.
 *
 * The first code of the launcher that runs is its DT_PREINIT_ARRAY: the
 * loader calls it after mapping and relocating every object, before the
 * initialiser of any of them (the executable's own preinit array comes
 * first).  So, under file enforcement:
 *  - LD_PRELOAD: every shared object mapped is checked on a descriptor
 *    that is verified to be the very file mapped (device and inode in
 *    /proc/self/maps): the loader opened it by name, and the name may
 *    have been pointed elsewhere since.  A refusal ends the process with
 *    the one-line message and 126 before any initialiser has run.
 *  - LD_LIBRARY_PATH, GCONV_PATH and OpenSSL's OPENSSL_CONF,
 *    OPENSSL_CONF_INCLUDE, OPENSSL_MODULES and OPENSSL_ENGINES also act
 *    later (the dependencies of a C module, iconv's modules, libcrypto's
 *    providers and engines), where no check can come between the open and
 *    the object's initialisers: a launcher refuses to start with them set.
 *  - LD_AUDIT likewise; but the loader runs an audit object's
 *    initialisers while it starts, before any preinit array, so this
 *    refusal comes after them (see docs/interpreters-security.md: what still
 *    gets through).
 * The same holds for the loader run as a program with its own --preload,
 * --library-path or --audit.  Nothing is enforced: objects are still
 * checked when LD_PRELOAD is set, so that auditing sees them.
 */
#define _GNU_SOURCE
#include <link.h>
#include <sys/auxv.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <trustedfor.h>

#include "preload_guard.h"

/* Loader variables whose effect outlives the start: refused outright. */
static const char *const refused_vars[] = {
	"LD_AUDIT", "LD_LIBRARY_PATH", "GCONV_PATH",
	/* OpenSSL's configuration names provider and engine modules, which
	 * libcrypto dlopen()s itself (Python's hashlib, hmac, ssl). */
	"OPENSSL_CONF", "OPENSSL_CONF_INCLUDE", "OPENSSL_MODULES", "OPENSSL_ENGINES",
	NULL
};

static const char *prog = "trusted-launcher";

static _Noreturn void refuse(const char *message)
{
	fprintf(stderr, "%s: %s\n", prog, message);
	fflush(stderr);
	_exit(126);
}

/* The device and inode of the mapping that holds addr, from /proc/self/maps. */
static int mapped_file(uintptr_t addr, dev_t *dev, ino_t *ino)
{
	char line[4096];
	FILE *maps = fopen("/proc/self/maps", "re");
	int found = -1;

	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps)) {
		uintmax_t start, end, inode;
		unsigned int major, minor;

		if (sscanf(line, "%jx-%jx %*s %*x %x:%x %ju", &start, &end, &major,
			   &minor, &inode) == 5 &&
		    addr >= start && addr < end) {
			*dev = makedev(major, minor);
			*ino = (ino_t)inode;
			found = 0;
			break;
		}
	}
	fclose(maps);
	return found;
}

static int check_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	uintptr_t first = 0;
	struct stat st;
	dev_t dev;
	ino_t ino;
	int fd, i;

	(void)size;
	(void)data;
	/* The executable ("") and the vDSO (no file) are not the user's. */
	if (!info->dlpi_name || !strchr(info->dlpi_name, '/'))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			first = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			break;
		}
	fd = open(info->dlpi_name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || mapped_file(first, &dev, &ino) < 0 ||
	    st.st_dev != dev || st.st_ino != ino) {
		const char *why = "not the file that was mapped (or /proc is missing)";

		if (fd >= 0)
			close(fd);
		else
			why = "cannot be opened again";
		if (trusted_for_allow_failed_file(-1, info->dlpi_name, why, &v) < 0)
			refuse(v.message);
		return 0;
	}
	if (trusted_for_allow_file(fd, info->dlpi_name, &v) < 0)
		refuse(v.message);
	close(fd);
	return 0;
}

static void loader_guard(int argc, char **argv, char **envp)
{
	const char *preload = NULL, *var = NULL;
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char **e;
	int i;

	/* Before any call through the PLT: one of them may be an object's. */
	tf_preload_guard(envp);
	/*
	 * libc sets environ in its own initialiser, which runs after this:
	 * the library's getenv("TRUSTEDFOR_ENFORCE"), read once, must not
	 * find it empty.
	 */
	if (!environ)
		environ = envp;
	if (argc > 0 && argv[0] && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		prog = slash ? slash + 1 : argv[0];
	}
	for (e = envp; e && *e; e++) {
		if (!strncmp(*e, "LD_PRELOAD=", 11) && (*e)[11])
			preload = *e;
		for (i = 0; refused_vars[i]; i++) {
			size_t n = strlen(refused_vars[i]);

			if (!strncmp(*e, refused_vars[i], n) && (*e)[n] == '=' &&
			    (*e)[n + 1])
				var = refused_vars[i];
		}
	}
	/*
	 * No AT_BASE: the kernel started no dynamic loader for this program,
	 * so the loader was run as a program (ld.so --preload X LAUNCHER),
	 * and its options may have loaded objects as LD_PRELOAD does.
	 */
	if (getauxval(AT_BASE) == 0)
		preload = "ld.so";
	if (!preload && !var)
		return;
	if (var && trusted_for_allow_failed_file(-1, var, "a loader variable, refused under file enforcement", &v) < 0)
		refuse(v.message);
	if (preload)
		dl_iterate_phdr(check_object, NULL);
}

/* Called by the dynamic loader before any object's initialiser. */
__attribute__((section(".preinit_array"), used)) static void (*const preinit)(
	int, char **, char **) = loader_guard;
