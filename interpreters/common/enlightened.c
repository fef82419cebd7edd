/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The note that marks an executable as one of trustedfor's enlightened
 * interpreters (see shared/enlightened.h).  Linked into every launcher; an
 * allocated ".note" section lands in the executable's PT_NOTE segment.
 * It claims nothing a check relies on: it only lets `trusted-for status`
 * tell an administrator which interpreters on PATH check what they run.
 */
#include "enlightened.h"

struct note {
	unsigned int namesz, descsz, type;
	char name[12]; /* "trustedfor" and its NUL, padded to 4 bytes */
	char desc[12]; /* "enlightened" and its NUL */
};

#define NOTE_SECTION __attribute__((section(".note.trustedfor"), aligned(4), used))

static const struct note enlightened NOTE_SECTION = {
	sizeof(TF_NOTE_NAME), sizeof("enlightened"), TF_NOTE_ENLIGHTENED,
	TF_NOTE_NAME, "enlightened"
};
