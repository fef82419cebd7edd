/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mark of an enlightened interpreter, one of this project's launchers:
 * an ELF note of name "trustedfor" and type 1 in a loaded note segment
 * (PT_NOTE, which strip keeps).  The launchers carry it
 * (interpreters/common/enlightened.c); `trusted-for status` looks for it in
 * the interpreters on PATH, whatever their names (a diversion gives the
 * launchers the stock ones).
 */
#ifndef TRUSTEDFOR_ENLIGHTENED_H
#define TRUSTEDFOR_ENLIGHTENED_H

#define TF_NOTE_NAME "trustedfor"
#define TF_NOTE_ENLIGHTENED 1

#endif
