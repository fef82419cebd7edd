// SPDX-License-Identifier: GPL-2.0
/*
 * The initramfs's /init of kernel/userspace.sh's guests on Debian's prebuilt
 * kernels, which build virtio, 9p and overlayfs as modules: it loads the
 * modules the initramfs holds, mounts the host's root (virtio-9p, read-only),
 * makes it the root and runs the command given after the kernel command
 * line's "--" there (kernel/userspace-init.sh and its arguments).
 *
 * The modules are /modules/NN-name.ko[.xz|.zst], loaded in the order of
 * their names (kernel/userspace.sh numbers them after modules.dep, each
 * module after those it needs).  A compressed one is handed to the kernel
 * as it is, with MODULE_INIT_COMPRESSED_FILE: the harness keeps modules
 * compressed only for kernels built with CONFIG_MODULE_DECOMPRESS.
 *
 * Any failure says what failed on the console and powers the guest off,
 * so the harness reports a guest that did not run to its end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define ROOT_OPTIONS "trans=virtio,version=9p2000.L,cache=loose,msize=262144"

static void fail(const char *what)
{
	dprintf(2, "rdinit: %s: %s\n", what, strerror(errno));
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

/* The kernel opens /dev/console for init only if the initramfs has the
 * node; this one has none, devtmpfs gives it. */
static void console(void)
{
	int fd;

	if (mkdir("/dev", 0755) && errno != EEXIST)
		_exit(1);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY)
		_exit(1);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		_exit(1);
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) < 0 && dup2(fd, i) < 0)
			_exit(1);
	if (fd > 2)
		close(fd);
}

static int compressed(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && !strcmp(name + n - 3, ".xz")) ||
	       (n > 4 && !strcmp(name + n - 4, ".zst"));
}

static int only_modules(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void load_modules(void)
{
	struct dirent **list;
	char path[512];
	int n, fd;

	n = scandir("/modules", &list, only_modules, alphasort);
	if (n < 0)
		fail("/modules");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/modules/%s", list[i]->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fail(path);
		if (syscall(SYS_finit_module, fd, "",
			    compressed(path) ? MODULE_INIT_COMPRESSED_FILE : 0) &&
		    errno != EEXIST)
			fail(path);
		close(fd);
		free(list[i]);
	}
	free(list);
}

int main(int argc, char **argv)
{
	console();
	if (argc < 2) {
		errno = EINVAL;
		fail("no command after the kernel command line's \"--\"");
	}
	load_modules();
	if (mkdir("/root", 0755) && errno != EEXIST)
		fail("mkdir /root");
	if (mount("root", "/root", "9p", MS_RDONLY, ROOT_OPTIONS))
		fail("mount the host's root (9p, tag root)");
	/* What switch_root does: the new root moved over the initramfs. */
	if (umount2("/dev", MNT_DETACH) || chdir("/root") ||
	    mount(".", "/", NULL, MS_MOVE, NULL) || chroot(".") || chdir("/"))
		fail("move to the host's root");
	execv(argv[1], argv + 1);
	fail(argv[1]);
	return 1;
}
