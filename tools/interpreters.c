/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for status, "interpreter:" lines: the interpreters that a user
 * finds on PATH, each said to be enlightened (one of trustedfor's launchers,
 * which check what they run) or not.  A launcher is recognised by the ELF
 * note it carries (shared/enlightened.h), read from the file through the
 * descriptor opened here, never by its name: a diversion gives trustedfor's
 * builds the stock names, and a stock interpreter may be named anything.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enlightened.h"
#include "interpreters.h"
#include "printable.h"

/*
 * The commands that run code from a file or an argument, by name: a name
 * here, or one of them followed by a version made of digits and dots
 * (python3.11, perl5.36.0, lua5.4), that version followed by a multiarch
 * triplet (Debian's perl5.36-x86_64-linux-gnu), and either with
 * dpkg-divert's ".distrib" (where a diversion keeps the stock interpreter,
 * still on PATH).  docs/inventory.md says what each is.
 */
static const char *const names[] = {
	"python", "perl", "lua", "luajit", "sh", "dash", "bash", "rbash", "zsh",
	"ksh", "mksh", "csh", "tcsh", "fish", "busybox", "awk", "gawk", "mawk",
	"nawk", "ruby", "node", "nodejs", "php", "tclsh", "wish", "guile",
	"Rscript", "trusted-python", "trusted-lua", "trusted-dash",
	"trusted-bash", "inc", NULL
};

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

static int is_interpreter(const char *entry)
{
	static const char diverted[] = ".distrib";
	size_t len = strlen(entry);

	if (len > strlen(diverted) && !strcmp(entry + len - strlen(diverted), diverted))
		len -= strlen(diverted);
	for (size_t i = 0; names[i]; i++) {
		size_t n = strlen(names[i]), version;

		if (n > len || strncmp(entry, names[i], n))
			continue;
		version = strspn(entry + n, "0123456789.");
		if (version >= len - n ||
		    (version && is_triplet(entry + n + version, len - n - version)))
			return 1;
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

/* One "interpreter:" line for the file at path. */
static void describe(FILE *out, const char *entry, const char *path)
{
	char shown_name[NAME_MAX + 1], shown_path[PATH_MAX], text[128];
	const char *why = NULL;
	struct stat st;
	int fd, mark;

	tf_printable(shown_name, sizeof(shown_name), entry);
	tf_printable(shown_path, sizeof(shown_path), path);
	/* O_NONBLOCK: a FIFO under an interpreter's name must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(text, sizeof(text), "unknown (cannot read it: %s)", strerror(errno));
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(text, sizeof(text), "not a regular file");
	} else {
		mark = read_mark(fd, &why);
		snprintf(text, sizeof(text), "%s%s%s%s", mark > 0 ? "enlightened" : "not enlightened",
			 mark < 0 ? " (" : "", mark < 0 ? why : "", mark < 0 ? ")" : "");
	}
	if (fd >= 0)
		close(fd);
	fprintf(out, "interpreter: %s (%s): %s\n", shown_name, shown_path, text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int wanted(const struct dirent *d)
{
	return is_interpreter(d->d_name);
}

/*
 * The names listed so far: a name found in an earlier directory of PATH is
 * the one a command by that name runs, and the later ones are not listed.
 * 0 the first time a name is seen, 1 after, -1 when out of memory.
 */
struct names {
	char **v;
	size_t n;
};

static int seen_before(struct names *seen, const char *name)
{
	char **more;

	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->v[i], name))
			return 1;
	more = realloc(seen->v, (seen->n + 1) * sizeof(*more));
	if (!more)
		return -1;
	seen->v = more;
	seen->v[seen->n] = strdup(name);
	if (!seen->v[seen->n])
		return -1;
	seen->n++;
	return 0;
}

/*
 * Each absolute directory of PATH once (on a merged /usr, /bin is
 * /usr/bin), each name once: the first one found, which is the one a
 * command by that name runs; sorted by name within a directory.
 */
int print_interpreters(FILE *out)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, file[PATH_MAX];
	struct {
		dev_t dev;
		ino_t ino;
	} dirs[64];
	struct names seen = { NULL, 0 };
	size_t ndirs = 0;
	int r = 0;

	copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!copy)
		return -1;
	for (dir = strtok_r(copy, ":", &save); dir && r == 0;
	     dir = strtok_r(NULL, ":", &save)) {
		struct dirent **list;
		struct stat st;
		size_t i;
		int n;

		if (dir[0] != '/' || stat(dir, &st) < 0)
			continue;
		for (i = 0; i < ndirs; i++)
			if (dirs[i].dev == st.st_dev && dirs[i].ino == st.st_ino)
				break;
		if (i < ndirs || ndirs == sizeof(dirs) / sizeof(dirs[0]))
			continue;
		dirs[ndirs].dev = st.st_dev;
		dirs[ndirs++].ino = st.st_ino;
		n = scandir(dir, &list, wanted, by_name);
		for (int j = 0; j < n; j++) {
			int before = r ? 1 : seen_before(&seen, list[j]->d_name);

			if (before < 0)
				r = -1;
			if (before == 0) {
				snprintf(file, sizeof(file), "%s/%s", dir, list[j]->d_name);
				describe(out, list[j]->d_name, file);
			}
			free(list[j]);
		}
		if (n >= 0)
			free(list);
	}
	if (r == 0 && !seen.n)
		fprintf(out, "interpreter: none found on PATH\n");
	for (size_t i = 0; i < seen.n; i++)
		free(seen.v[i]);
	free(seen.v);
	free(copy);
	return r;
}
