/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TRUSTEDFOR_UNFORGED_H
#define TRUSTEDFOR_UNFORGED_H

#include <errno.h>
#include <unistd.h>

/*
 * A filter can make an open "succeed" with 0 without opening anything, and
 * 0 is then whatever the process holds there: an inherited standard input,
 * or a file the process opened itself because standard input was closed at
 * its start (the attacker's script, say).  A seccomp filter keeps no state:
 * the same system call, from the same instruction with the same arguments,
 * gets the same answer.  So a 0 counts only if the same open, made again
 * while the first is held, gives another descriptor: the kernel never
 * hands out one in use, and a filter can answer only 0 or an error.  (Asking
 * fcntl() beforehand whether 0 was open would not do: its answer is a
 * return value too, which a filter can make EBADF.)
 */
static inline int tf_unforged(int fd, int again)
{
	if (fd != 0)
		return fd;
	if (again > 0) {
		close(again);
		return 0;
	}
	errno = EBADF;
	return -1;
}

/*
 * TF_UNFORGED(open(...)): the call's descriptor, or -1 (EBADF) when its 0
 * was forged by a filter.  A 0 is checked by the same call made again,
 * from the same instruction in libc: CALL must be one libc call whose
 * arguments do not change between the two.
 */
#define TF_UNFORGED(call) ({ int tf_fd_ = (call); tf_fd_ == 0 ? tf_unforged(0, (call)) : tf_fd_; })

#endif
