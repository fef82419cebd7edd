/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for status, the interpreters a user can run: those on PATH, and
 * the few that Debian installs off PATH, each said to be enlightened (one
 * of trustedfor's launchers, which check what they run) or not, and
 * grouped by kind unless --verbose asks for one line each.  A launcher is
 * recognised by the ELF note it carries (shared/enlightened.h), read from
 * the file through the descriptor opened here, never by its name: a
 * diversion gives trustedfor's builds the stock names, and a stock
 * interpreter may be named anything.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "enlightened.h"
#include "interpreters.h"
#include "printable.h"

/*
 * The commands that run code from a file or an argument, by name and kind
 * (what an administrator restricts together): a name here, or one of them
 * followed by a version made of digits and dots (python3.11, perl5.36.0,
 * lua5.4), that version followed by a multiarch triplet (Debian's
 * perl5.36-x86_64-linux-gnu), and either with dpkg-divert's ".distrib"
 * (where a diversion keeps the stock interpreter, still on PATH).  The
 * tools with a command language run a shell command (sed's e, m4's
 * syscmd, make's recipes, vim's :!, less's !), or Python (gdb).
 * docs/inventory.md says what each is.
 */
static const struct {
	const char *one, *many;
	const char *const names[16];
} kinds[] = {
	{ "shell", "shells",
	  { "sh", "dash", "bash", "rbash", "zsh", "ksh", "mksh", "csh", "tcsh",
	    "fish", "busybox", "trusted-dash", "trusted-bash" } },
	{ "python", "python", { "python", "trusted-python" } },
	{ "perl", "perl", { "perl" } },
	{ "lua", "lua", { "lua", "luajit", "trusted-lua" } },
	{ "awk", "awk", { "awk", "gawk", "mawk", "nawk" } },
	{ "tcl", "tcl", { "tclsh", "wish" } },
	{ "ruby", "ruby", { "ruby" } },
	{ "node", "node", { "node", "nodejs" } },
	{ "php", "php", { "php" } },
	{ "guile", "guile", { "guile" } },
	{ "R", "R", { "Rscript" } },
	{ "inc", "inc", { "inc" } },
	{ "tool with a command language", "tools with a command language",
	  { "sed", "m4", "make", "gdb", "vi", "vim", "vim.tiny", "vim.basic",
	    "view", "ex", "less", "more", "nano" } },
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

/* Which entry of kinds[] a name is of, and which of its names. */
struct name {
	size_t kind;
	const char *base;
};

/*
 * Where Debian installs an interpreter off PATH, which a user runs by its
 * whole path: klibc-utils' sh (initramfs-tools depends on it).
 */
static const char *const off_path[] = { "/usr/lib/klibc/bin" };

/* "-ARCH-linux-gnu" and its ABI variants (-linux-gnux32, -linux-gnueabihf). */
static int is_triplet(const char *s, size_t len)
{
	static const char os[] = "-linux-gnu";
	const char *end = s + len, *p;

	if (len < 2 || s[0] != '-')
		return 0;
	p = memmem(s + 1, len - 1, os, strlen(os));
	if (!p || p == s + 1)
		return 0;
	for (const char *c = p + strlen(os); c < end; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9'))
			return 0;
	for (const char *c = s + 1; c < p; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '_')
			return 0;
	return 1;
}

/* 1 when entry is an interpreter's name, with which in *name. */
static int interpreter_name(const char *entry, struct name *name)
{
	static const char diverted[] = ".distrib";
	size_t len = strlen(entry);

	if (len > strlen(diverted) && !strcmp(entry + len - strlen(diverted), diverted))
		len -= strlen(diverted);
	for (size_t k = 0; k < N_KINDS; k++) {
		for (const char *const *base = kinds[k].names; *base; base++) {
			size_t n = strlen(*base), version;

			if (n > len || strncmp(entry, *base, n))
				continue;
			version = strspn(entry + n, "0123456789.");
			if (version >= len - n ||
			    (version && is_triplet(entry + n + version, len - n - version))) {
				name->kind = k;
				name->base = *base;
				return 1;
			}
		}
	}
	return 0;
}

/* The notes of one PT_NOTE segment: does one say "enlightened"? */
static int has_mark(const unsigned char *p, size_t len)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_end, next;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_end = off + 12 + (((size_t)namesz + 3) & ~(size_t)3);
		next = name_end + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len)
			return 0;
		if (namesz == sizeof(TF_NOTE_NAME) && type == TF_NOTE_ENLIGHTENED &&
		    !memcmp(p + off + 12, TF_NOTE_NAME, sizeof(TF_NOTE_NAME)))
			return 1;
		off = next;
	}
	return 0;
}

/* A field of the ELF header or of a program header, 32- or 64-bit. */
#define FIELD(is64, p, T64, T32, f) \
	((is64) ? (uint64_t)((const T64 *)(p))->f : (uint64_t)((const T32 *)(p))->f)

/*
 * 1 when the ELF file behind fd carries the mark, 0 when it does not, -1
 * when it is no ELF file of this machine's byte order ("why" says so).
 */
static int read_mark(int fd, const char **why)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], ph[sizeof(Elf64_Phdr)];
	static unsigned char notes[64 * 1024];
	uint64_t phoff, phnum, phentsize;
	int is64;

	*why = "not an ELF file";
	if (pread(fd, eh, sizeof(eh), 0) < (ssize_t)sizeof(Elf32_Ehdr) ||
	    memcmp(eh, ELFMAG, SELFMAG))
		return -1;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	*why = "an ELF file of another byte order";
	if ((eh[EI_CLASS] != ELFCLASS32 && !is64) ||
	    eh[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
									ELFDATA2MSB))
		return -1;
	phoff = FIELD(is64, eh, Elf64_Ehdr, Elf32_Ehdr, e_phoff);
	phnum = FIELD(is64, eh, Elf64_Ehdr, Elf32_Ehdr, e_phnum);
	phentsize = FIELD(is64, eh, Elf64_Ehdr, Elf32_Ehdr, e_phentsize);
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		return 0;
	for (uint64_t i = 0; i < phnum && i < 256; i++) {
		uint64_t off, size;

		if (pread(fd, ph, phentsize > sizeof(ph) ? sizeof(ph) : phentsize,
			  (off_t)(phoff + i * phentsize)) <= 0)
			return 0;
		if (FIELD(is64, ph, Elf64_Phdr, Elf32_Phdr, p_type) != PT_NOTE)
			continue;
		off = FIELD(is64, ph, Elf64_Phdr, Elf32_Phdr, p_offset);
		size = FIELD(is64, ph, Elf64_Phdr, Elf32_Phdr, p_filesz);
		if (size > sizeof(notes) || pread(fd, notes, size, (off_t)off) != (ssize_t)size)
			continue;
		if (has_mark(notes, size))
			return 1;
	}
	return 0;
}

enum state {
	ENLIGHTENED,
	NOT_ENLIGHTENED,
	UNKNOWN,
	NOT_REGULAR,
};

/* One interpreter found, as printed. */
struct found {
	char entry[NAME_MAX + 1]; /* its name in its directory */
	char path[PATH_MAX];
	struct name name;
	int off_path;
	enum state state;
	char only[96];	/* "root's only", "group NAME only", or "" */
	char why[96];	/* why it is unknown */
	char text[192]; /* the verdict, for the long form */
};

/* Its name in a list: off PATH, where a user runs it, its whole path. */
static const char *shown_name(const struct found *f)
{
	return f->off_path ? f->path : f->entry;
}

struct found_list {
	struct found *v;
	size_t n;
};

/*
 * Who may run a file that is not enlightened: "root's only" when root owns
 * it and neither its group nor others may execute it (as the diversion
 * leaves Debian's FILE.distrib, mode 0700), "group NAME only" when only
 * its group may besides, else everyone ("").  An ACL may grant more than
 * the mode shows, so a file with one, or one whose ACL cannot be read, is
 * everyone's.  fd may be an O_PATH descriptor: the ACL is read through
 * /proc/self/fd, which takes one.
 */
static void who_runs(int fd, const struct stat *st, char *out, size_t size)
{
	char proc[64];
	struct group *g;

	out[0] = '\0';
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!S_ISREG(st->st_mode) || st->st_uid != 0 || (st->st_mode & S_IXOTH) ||
	    getxattr(proc, "system.posix_acl_access", NULL, 0) >= 0 ||
	    (errno != ENODATA && errno != ENOTSUP))
		return;
	if (!(st->st_mode & S_IXGRP)) {
		snprintf(out, size, "root's only");
		return;
	}
	g = getgrgid(st->st_gid);
	if (g) {
		char shown[64];

		tf_printable(shown, sizeof(shown), g->gr_name);
		snprintf(out, size, "group %s only", shown);
	} else {
		snprintf(out, size, "group %u only", (unsigned int)st->st_gid);
	}
}

/* ", root's only (mode 0700)" after the verdict, for the long form. */
static void add_who(struct found *f, const struct stat *st)
{
	size_t len = strlen(f->text);

	if (f->only[0])
		snprintf(f->text + len, sizeof(f->text) - len, ", %s (mode %04o)", f->only,
			 (unsigned int)(st->st_mode & 07777));
}

/*
 * Reads the file at path and says what it is.  One this user cannot read
 * is looked at through an O_PATH descriptor, which needs no permission:
 * whether it is enlightened is unknown, but not who may run it.
 */
static void describe(struct found *f, const char *path)
{
	const char *why = NULL;
	struct stat st;
	int fd, mark;

	f->only[0] = '\0';
	/* O_NONBLOCK: a FIFO under an interpreter's name must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int error = errno;

		f->state = UNKNOWN;
		snprintf(f->why, sizeof(f->why), "cannot read it: %s", strerror(error));
		fd = open(path, O_PATH | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &st) < 0) {
			close(fd);
			fd = -1;
		}
		/* The launchers are installed execute-only (mode 0711): a user
		 * cannot read one, root can. */
		if (fd >= 0 && error == EACCES && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111) == 0111 && !(st.st_mode & 0004))
			snprintf(f->why, sizeof(f->why),
				 "execute-only, mode %04o, as the launchers are "
				 "installed: root's status tells",
				 (unsigned int)(st.st_mode & 07777));
		snprintf(f->text, sizeof(f->text), "unknown (%s)", f->why);
		if (fd >= 0) {
			who_runs(fd, &st, f->only, sizeof(f->only));
			add_who(f, &st);
		}
		if (fd >= 0)
			close(fd);
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		f->state = NOT_REGULAR;
		snprintf(f->text, sizeof(f->text), "not a regular file");
		close(fd);
		return;
	}
	mark = read_mark(fd, &why);
	f->state = mark > 0 ? ENLIGHTENED : NOT_ENLIGHTENED;
	if (mark <= 0)
		who_runs(fd, &st, f->only, sizeof(f->only));
	close(fd);
	snprintf(f->text, sizeof(f->text), "%s%s%s%s", mark > 0 ? "enlightened" : "not enlightened",
		 mark < 0 ? " (" : "", mark < 0 ? why : "", mark < 0 ? ")" : "");
	add_who(f, &st);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int wanted(const struct dirent *d)
{
	struct name name;

	return interpreter_name(d->d_name, &name);
}

/* Adds the interpreter at dir/entry; -1 when out of memory. */
static int add(struct found_list *l, const char *dir, const char *entry, int off)
{
	struct found *more = realloc(l->v, (l->n + 1) * sizeof(*more)), *f;
	char file[PATH_MAX];

	if (!more)
		return -1;
	l->v = more;
	f = &l->v[l->n++];
	snprintf(file, sizeof(file), "%s/%s", dir, entry);
	tf_printable(f->entry, sizeof(f->entry), entry);
	tf_printable(f->path, sizeof(f->path), file);
	interpreter_name(entry, &f->name);
	f->off_path = off;
	describe(f, file);
	return 0;
}

/* Was this name found before, in an earlier directory of PATH? */
static int seen_before(const struct found_list *l, const char *entry)
{
	char shown[NAME_MAX + 1];

	tf_printable(shown, sizeof(shown), entry);
	for (size_t i = 0; i < l->n; i++)
		if (!l->v[i].off_path && !strcmp(l->v[i].entry, shown))
			return 1;
	return 0;
}

struct dirs {
	struct {
		dev_t dev;
		ino_t ino;
	} v[64];
	size_t n;
};

/* 1 the first time a directory is seen (on a merged /usr, /bin is /usr/bin). */
static int first_visit(struct dirs *d, const char *dir)
{
	struct stat st;

	if (dir[0] != '/' || stat(dir, &st) < 0 || d->n == sizeof(d->v) / sizeof(d->v[0]))
		return 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].dev == st.st_dev && d->v[i].ino == st.st_ino)
			return 0;
	d->v[d->n].dev = st.st_dev;
	d->v[d->n++].ino = st.st_ino;
	return 1;
}

/*
 * The interpreters of one directory, sorted by name: on PATH each name
 * once, the first one found, which is the one a command by that name
 * runs; off PATH every one, by its whole path.
 */
static int read_dir(struct found_list *l, const char *dir, int off)
{
	struct dirent **list;
	int n = scandir(dir, &list, wanted, by_name), r = 0;

	for (int j = 0; j < n; j++) {
		if (r == 0 && (off || !seen_before(l, list[j]->d_name)))
			r = add(l, dir, list[j]->d_name, off);
		free(list[j]);
	}
	if (n >= 0)
		free(list);
	return r;
}

static int collect(struct found_list *l)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	struct dirs dirs = { .n = 0 };
	int r = 0;

	copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!copy)
		return -1;
	for (dir = strtok_r(copy, ":", &save); dir && r == 0; dir = strtok_r(NULL, ":", &save))
		if (first_visit(&dirs, dir))
			r = read_dir(l, dir, 0);
	for (size_t i = 0; i < sizeof(off_path) / sizeof(off_path[0]) && r == 0; i++)
		if (first_visit(&dirs, off_path[i]))
			r = read_dir(l, off_path[i], 1);
	free(copy);
	return r;
}

/*
 * The line of the short form an interpreter is on: "enlightened"; "not
 * enlightened" (the kinds' line) when anyone may run it; "root's only" or
 * "group NAME only", not enlightened or unknown; "unknown"; or none for
 * what is no regular file.
 */
static const char *line_of(const struct found *f)
{
	if (f->state == ENLIGHTENED)
		return "enlightened";
	if (f->state == NOT_REGULAR)
		return "";
	if (f->only[0])
		return f->only;
	return f->state == UNKNOWN ? "unknown" : "not enlightened";
}

/* Whether v[i] is on line key and unknown for the same reason as v[first]. */
static int same_group(const struct found_list *l, size_t i, const char *key, size_t first)
{
	return !strcmp(line_of(&l->v[i]), key) && !strcmp(l->v[i].why, l->v[first].why);
}

/*
 * "KEY: N (name, name)" for the interpreters on line key; if why, each
 * reason once, after the names it holds for ("KEY: N (a, b: WHY; c:
 * WHY2)"): every launcher a user cannot read has the same one.  "KEY:
 * none" if always.
 */
static void print_list(FILE *out, const struct found_list *l, const char *key, int always,
		       int why)
{
	size_t n = 0, groups = 0;

	for (size_t i = 0; i < l->n; i++)
		n += !strcmp(line_of(&l->v[i]), key);
	if (!n) {
		if (always)
			fprintf(out, "%s: none\n", key);
		return;
	}
	fprintf(out, "%s: %zu (", key, n);
	for (size_t first = 0; first < l->n; first++) {
		size_t j = 0, k = 0;

		if (strcmp(line_of(&l->v[first]), key))
			continue;
		if (!why) {
			fprintf(out, "%s%s", groups++ ? ", " : "", shown_name(&l->v[first]));
			continue;
		}
		while (j < first && !same_group(l, j, key, first))
			j++;
		if (j < first) /* its reason was said with an earlier name */
			continue;
		fprintf(out, "%s", groups++ ? "; " : "");
		for (size_t i = first; i < l->n; i++)
			if (same_group(l, i, key, first))
				fprintf(out, "%s%s", k++ ? ", " : "", shown_name(&l->v[i]));
		fprintf(out, ": %s", l->v[first].why);
	}
	fprintf(out, ")\n");
}

/*
 * The interpreters that anyone may run and that check nothing, by kind:
 * "4 shells (bash, dash, rbash, sh), 3 perl, ...", with the names of each
 * kind without their versions, and the whole path of one off PATH.
 */
static void print_kinds(FILE *out, const struct found_list *l)
{
	int any = 0;

	fprintf(out, "not enlightened: ");
	for (size_t kind = 0; kind < N_KINDS; kind++) {
		const char *shown[64];
		size_t count = 0, ns = 0, plain;

		for (size_t i = 0; i < l->n; i++) {
			const struct found *f = &l->v[i];
			const char *name;
			size_t j;

			if (strcmp(line_of(f), "not enlightened") || f->name.kind != kind)
				continue;
			count++;
			name = f->off_path ? f->path : f->name.base;
			for (j = 0; j < ns && strcmp(shown[j], name); j++)
				;
			if (j == ns && ns < sizeof(shown) / sizeof(shown[0]))
				shown[ns++] = name;
		}
		if (!count)
			continue;
		plain = ns == 1 && !strcmp(shown[0], kinds[kind].one);
		fprintf(out, "%s%zu %s", any++ ? ", " : "", count,
			count == 1 ? kinds[kind].one : kinds[kind].many);
		for (size_t j = 0; !plain && j < ns; j++)
			fprintf(out, "%s%s", j ? ", " : " (", shown[j]);
		fprintf(out, "%s", plain ? "" : ")");
	}
	fprintf(out, "%s\n", any ? "" : "none");
}

/* One line a kind of restriction: "root's only: 1 (bash.distrib)". */
static void print_restricted(FILE *out, const struct found_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct found *f = &l->v[i];
		size_t j;

		if (f->state == ENLIGHTENED || f->state == NOT_REGULAR || !f->only[0])
			continue;
		for (j = 0; j < i && strcmp(line_of(&l->v[j]), f->only); j++)
			;
		if (j == i) /* the first on its line */
			print_list(out, l, f->only, 0, 0);
	}
}

int print_interpreters(FILE *out, int verbose)
{
	struct found_list l = { NULL, 0 };
	int r = collect(&l);

	if (r == 0 && !l.n) {
		fprintf(out, "interpreter: none found on PATH\n");
	} else if (r == 0 && verbose) {
		for (size_t i = 0; i < l.n; i++)
			fprintf(out, "interpreter: %s (%s%s): %s\n", l.v[i].entry, l.v[i].path,
				l.v[i].off_path ? ", off PATH" : "", l.v[i].text);
	} else if (r == 0) {
		print_list(out, &l, "enlightened", 1, 0);
		print_kinds(out, &l);
		print_restricted(out, &l);
		print_list(out, &l, "unknown", 0, 1);
	}
	free(l.v);
	return r;
}
