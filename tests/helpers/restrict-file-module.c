/*
 * A shared object whose loading turns SECBIT_EXEC_RESTRICT_FILE on for the
 * process that loads it, as any code a shell loads (bash's enable -f) can:
 * the shells' tests show that enforcement then begins.  It holds no
 * builtin, so enable -f fails once the bit is set.
 */
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_GET_SECUREBITS
#define PR_GET_SECUREBITS 27
#define PR_SET_SECUREBITS 28
#endif
#define SECBIT_EXEC_RESTRICT_FILE 0x100

__attribute__((constructor)) static void restrict_file(void)
{
	static const char failed[] = "restrict-file-module: cannot set the securebit\n";
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

	if (bits >= 0 &&
	    prctl(PR_SET_SECUREBITS, bits | SECBIT_EXEC_RESTRICT_FILE, 0, 0, 0) == 0)
		return;
	/* A kernel without the bit: status 125, and nothing else runs. */
	if (write(2, failed, sizeof(failed) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(125);
}
