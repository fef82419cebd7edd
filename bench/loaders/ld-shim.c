/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A prototype of the enlightened PT_INTERP (docs/interpreters-security.md,
 * "Shared objects and the dynamic loader"), built for bench/loaders/startup.sh and one case of
 * tests/integration/loaders.sh, never installed.
 *
 * The kernel maps a program and the interpreter its PT_INTERP names, and
 * starts the interpreter.  This one runs before any loader: it renames
 * LD_AUDIT in the initial environment, so that the loader never loads an
 * audit object (whose initialisers would run before any code of the
 * program), then maps the system's own ld.so exactly as the kernel would
 * have (the same segments, the rest of the last page zeroed), points
 * AT_BASE at it and enters it with the untouched stack.  The system's
 * loader is not replaced: it is started by a different hand.
 *
 * Freestanding: no libc, no relocations (position-independent code whose
 * only data is on the stack), system calls by hand.
 */
#include <elf.h>
#include <stddef.h>
#include <sys/syscall.h>

/* The system's loader: x86-64 only, like the rest of this prototype. */
#define LDSO "/lib64/ld-linux-x86-64.so.2"

static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static _Noreturn void die(const char *m, unsigned long n)
{
	sys6(SYS_write, 2, (long)m, (long)n, 0, 0, 0);
	sys6(SYS_exit_group, 127, 0, 0, 0, 0, 0);
	__builtin_unreachable();
}

#define PROT(f) ((((f) & PF_R) ? 1 : 0) | (((f) & PF_W) ? 2 : 0) | (((f) & PF_X) ? 4 : 0))

unsigned long shim_main(long *sp);

/* Returns the loader's entry point; _start then enters it with sp. */
unsigned long shim_main(long *sp)
{
	long argc = sp[0];
	char **envp = (char **)(sp + 1 + argc + 1);
	Elf64_auxv_t *aux;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[16];
	unsigned long lo = ~0UL, hi = 0, base;
	long fd, i;

	for (i = 0; envp[i]; i++) {
		char *e = envp[i];
		/* LD_AUDIT=... becomes TF_AUDIT=...: the loader never sees it,
		 * the program can still tell that it was asked for. */
		if (e[0] == 'L' && e[1] == 'D' && e[2] == '_' && e[3] == 'A' && e[4] == 'U' &&
		    e[5] == 'D' && e[6] == 'I' && e[7] == 'T' && e[8] == '=') {
			e[0] = 'T';
			e[1] = 'F';
		}
	}
	aux = (Elf64_auxv_t *)(envp + i + 1);
	fd = sys6(SYS_open, (long)LDSO, 0 /* O_RDONLY */ | 02000000, 0, 0, 0, 0);
	if (fd < 0)
		die("ld-shim: cannot open " LDSO "\n", sizeof("ld-shim: cannot open " LDSO "\n") - 1);
	if (sys6(SYS_pread64, fd, (long)&eh, sizeof(eh), 0, 0, 0) != sizeof(eh) ||
	    eh.e_phnum > 16 ||
	    sys6(SYS_pread64, fd, (long)ph, eh.e_phnum * sizeof(Elf64_Phdr), (long)eh.e_phoff, 0, 0) !=
		    (long)(eh.e_phnum * sizeof(Elf64_Phdr)))
		die("ld-shim: bad loader\n", 20);
	for (i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD) {
			if ((ph[i].p_vaddr & ~0xfffUL) < lo)
				lo = ph[i].p_vaddr & ~0xfffUL;
			if (ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = ph[i].p_vaddr + ph[i].p_memsz;
		}
	base = (unsigned long)sys6(SYS_mmap, 0, (long)(hi - lo), 0, 0x22 /* PRIVATE|ANON */, -1, 0);
	if (base > -4096UL)
		die("ld-shim: no memory\n", 19);
	base -= lo;
	for (i = 0; i < eh.e_phnum; i++) {
		unsigned long start, fend, mend, off;

		if (ph[i].p_type != PT_LOAD)
			continue;
		start = base + (ph[i].p_vaddr & ~0xfffUL);
		off = ph[i].p_offset & ~0xfffUL;
		fend = base + ph[i].p_vaddr + ph[i].p_filesz;
		mend = base + ph[i].p_vaddr + ph[i].p_memsz;
		if ((unsigned long)sys6(SYS_mmap, (long)start, (long)(fend - start),
					PROT(ph[i].p_flags) | (mend > fend ? 2 : 0),
					0x12 /* PRIVATE|FIXED */, fd, (long)off) != start)
			die("ld-shim: cannot map\n", 20);
		if (mend > fend) {
			unsigned long page = (fend + 0xfff) & ~0xfffUL;
			/* To the page's end: the loader's first allocations
			 * come from there and are expected to be zero. */
			for (unsigned long p = fend; p < page; p++)
				*(volatile char *)p = 0;
			if (mend > page)
				sys6(SYS_mmap, (long)page, (long)(mend - page), PROT(ph[i].p_flags),
				     0x32 /* PRIVATE|FIXED|ANON */, -1, 0);
			if (!(ph[i].p_flags & PF_W))
				sys6(SYS_mprotect, (long)start, (long)(fend - start), PROT(ph[i].p_flags), 0, 0, 0);
		}
	}
	sys6(SYS_close, fd, 0, 0, 0, 0, 0);
	for (; aux->a_type != AT_NULL; aux++)
		if (aux->a_type == AT_BASE)
			aux->a_un.a_val = base;
	return base + eh.e_entry;
}

__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	mov %rsp, %rbx\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call shim_main\n"
	"	mov %rbx, %rsp\n"
	"	xor %edx, %edx\n"
	"	jmp *%rax\n");
