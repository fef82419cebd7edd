/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The benchmark's control: CPython's own main, Py_BytesMain(), linked the
 * way trusted-python is, with no hook and no check.  The difference between
 * it and python3.11 is the build (Debian links its python3.11 with
 * link-time optimisation, which libpython3.11.a does not carry); the
 * difference between it and trusted-python is trusted-python's own cost.
 */
#include <Python.h>

int main(int argc, char **argv)
{
	return Py_BytesMain(argc, argv);
}
