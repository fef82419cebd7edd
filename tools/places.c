/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for status, the places users write on a mount that allows
 * execution: a user's own file passes policy 1 there, and policy 3 once
 * its owner makes it executable; only noexec keeps users' code out.  The
 * places Debian gives users, and every other mount point of
 * /proc/self/mountinfo that a user can write.  The mounts are read through
 * the library's own reader (lib/mount_point.c, compiled in, as is
 * lib/filesystems.c: the library exports neither).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "escapes.h"
#include "internal.h"
#include "places.h"
#include "printable.h"

#define MAX_PLACES 64

struct place {
	char path[PATH_MAX];
	char who[128];
};

struct places {
	struct place v[MAX_PLACES];
	size_t n;
};

/*
 * A directory on a mount that is writable and allows execution, judged
 * through one descriptor.  The kernel's own filesystems (mqueue, say) are
 * not places for code even without noexec: the kernel refuses to execute
 * from them.
 */
static int exec_mount(const char *path, struct stat *st)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), r = 0;
	struct statvfs sv;
	struct statfs sf;

	if (fd < 0)
		return 0;
	if (fstat(fd, st) == 0 && fstatvfs(fd, &sv) == 0 &&
	    !(sv.f_flag & (ST_NOEXEC | ST_RDONLY)) && fstatfs(fd, &sf) == 0 &&
	    !tf_kernel_internal_fs((long)sf.f_type))
		r = 1;
	close(fd);
	return r;
}

static int listed(const struct places *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].path, path))
			return 1;
	return 0;
}

static void add(struct places *l, const char *path, const char *who)
{
	if (l->n == MAX_PLACES || listed(l, path))
		return;
	snprintf(l->v[l->n].path, sizeof(l->v[l->n].path), "%s", path);
	snprintf(l->v[l->n].who, sizeof(l->v[l->n].who), "%s", who);
	l->n++;
}

enum rule {
	WORLD_WRITABLE, /* named when every user can write it */
	OWN,		/* named when it is the caller's */
	ALWAYS,		/* users write below it */
};

/*
 * The places Debian gives users, named whatever the mount table says; the
 * one without a path is the caller's /run/user/UID.
 */
static const struct {
	const char *path, *who;
	enum rule rule;
} fixed[] = {
	{ "/tmp", "every user can write here", WORLD_WRITABLE },
	{ "/var/tmp", "every user can write here", WORLD_WRITABLE },
	{ "/dev/shm", "every user can write here", WORLD_WRITABLE },
	{ "/run/lock", "every user can write here", WORLD_WRITABLE },
	{ NULL, "your runtime directory, logind's per-user tmpfs", OWN },
	{ "/home", "users write their home directories here", ALWAYS },
	{ "/var/mail", "users own their mailboxes here, which anyone can mail text into", ALWAYS },
};

#define N_FIXED (sizeof(fixed) / sizeof(fixed[0]))

static const char *fixed_path(size_t i, const char *run_user)
{
	return fixed[i].path ? fixed[i].path : run_user;
}

static void fixed_places(struct places *l, const char *run_user)
{
	for (size_t i = 0; i < N_FIXED; i++) {
		const char *path = fixed_path(i, run_user);
		struct stat st;

		if (!exec_mount(path, &st) ||
		    (fixed[i].rule == WORLD_WRITABLE && !(st.st_mode & S_IWOTH)) ||
		    (fixed[i].rule == OWN && st.st_uid != getuid()))
			continue;
		add(l, path, fixed[i].who);
	}
}

/* Removable media: mounted below /media, /mnt or /run/media. */
static int removable(const char *path)
{
	static const char *const dirs[] = { "/media", "/mnt", "/run/media" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);

		if (!strncmp(path, dirs[i], n) && (path[n] == '/' || !path[n]))
			return 1;
	}
	return 0;
}

/*
 * Any other mount point a user writes: one every user can write; for a
 * user, one the caller can write; for root, who can write them all, one
 * that a user owns (a medium mounted for that user, another user's
 * runtime directory).
 */
static void mount_points(struct places *l, const char *run_user)
{
	struct tf_mountinfo m;

	if (tf_mountinfo_open(&m) < 0)
		return;
	while (tf_mountinfo_next(&m)) {
		char who[128];
		const char *media = removable(m.point) ? "removable media, " : "";
		struct stat st;
		size_t i;

		for (i = 0; i < N_FIXED && strcmp(m.point, fixed_path(i, run_user)); i++)
			;
		if (i < N_FIXED || listed(l, m.point) || !exec_mount(m.point, &st))
			continue; /* a fixed place is judged by its own rule */
		if (st.st_mode & S_IWOTH)
			snprintf(who, sizeof(who), "%severy user can write here", media);
		else if (geteuid() != 0 && faccessat(AT_FDCWD, m.point, W_OK, AT_EACCESS) == 0)
			snprintf(who, sizeof(who), "%syou can write here", media);
		else if (geteuid() == 0 && st.st_uid != 0)
			snprintf(who, sizeof(who), "%suid %u owns it", media,
				 (unsigned int)st.st_uid);
		else
			continue;
		add(l, m.point, who);
	}
	tf_mountinfo_close(&m);
}

int print_places(FILE *out, const struct trusted_for_config *p, int verbose)
{
	static const char passes[] = "a user's own script there passes policy 1, "
				     "and policy 3 once it is made executable";
	static struct places l;
	char run_user[64], shown[PATH_MAX];

	l.n = 0;
	snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned int)getuid());
	fixed_places(&l, run_user);
	mount_points(&l, run_user);
	if (l.n > 1 && !verbose) {
		fprintf(out, "warning: %zu places users write are on mounts without noexec (", l.n);
		for (size_t i = 0; i < l.n; i++) {
			tf_printable(shown, sizeof(shown), l.v[i].path);
			fprintf(out, "%s%s", i ? ", " : "", shown);
		}
		fprintf(out, "): %s; %s\n", passes, escape_depends(p, 0));
		return (int)l.n;
	}
	for (size_t i = 0; i < l.n; i++) {
		tf_printable(shown, sizeof(shown), l.v[i].path);
		fprintf(out, "warning: %s: %s, on a mount without noexec: %s; %s\n", shown,
			l.v[i].who, passes, escape_depends(p, 0));
	}
	return (int)l.n;
}
