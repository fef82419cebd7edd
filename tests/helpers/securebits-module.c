/*
 * A shared object whose loading sets exec securebits on the process that
 * loads it, as any code a shell loads (bash's enable -f) can: the shells'
 * tests show that enforcement then begins.  The bits are TF_SECUREBITS
 * (a number, default 0x100: SECBIT_EXEC_RESTRICT_FILE; 0 sets none).  It holds no
 * builtin, so enable -f fails once they are set.
 */
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "missing.h"

__attribute__((constructor)) static void set_securebits(void)
{
	static const char failed[] = "securebits-module: cannot set the securebits\n";
	const char *asked = getenv("TF_SECUREBITS");
	long add = asked ? strtol(asked, NULL, 0) : SECBIT_EXEC_RESTRICT_FILE;
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

	if (add == 0 ||
	    (bits >= 0 && add > 0 && prctl(PR_SET_SECUREBITS, bits | add, 0, 0, 0) == 0))
		return;
	/* A kernel without the bits: status 125, and nothing else runs. */
	if (write(2, failed, sizeof(failed) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(125);
}
