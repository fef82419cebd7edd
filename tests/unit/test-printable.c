/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one sanitiser (shared/printable.c): what reaches a terminal or a log
 * line.  One row, one input, the exact output in both forms.
 */
#include "../tap.h"

#include "printable.h"

static const struct {
	const char *what, *in;
	size_t size;
	const char *printable, *quoted;
} rows[] = {
	{ "plain text", "evil.py", 64, "evil.py", "evil.py" },
	{ "UTF-8 text", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x8d", 64,
	  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x8d", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x8d" },
	{ "newline and ESC", "a\nb\033[2Jc", 64, "a?b?[2Jc", "a\\x0ab\\x1b[2Jc" },
	{ "DEL", "a\x7f" "b", 64, "a?b", "a\\x7fb" },
	{ "C1 CSI in UTF-8 (U+009B)", "a\xc2\x9b" "31mb", 64, "a??31mb", "a\\xc2\\x9b31mb" },
	{ "C1 NEL in UTF-8 (U+0085)", "a\xc2\x85", 64, "a??", "a\\xc2\\x85" },
	{ "right-to-left override (U+202E)", "x\xe2\x80\xaeyp.exe", 64, "x???yp.exe",
	  "x\\xe2\\x80\\xaeyp.exe" },
	{ "right-to-left isolate (U+2067) and mark (U+200F)", "\xe2\x81\xa7" "a\xe2\x80\x8f", 64,
	  "???a???", "\\xe2\\x81\\xa7a\\xe2\\x80\\x8f" },
	{ "Arabic letter mark (U+061C)", "a\xd8\x9c", 64, "a??", "a\\xd8\\x9c" },
	{ "zero-width space (U+200B) and BOM (U+FEFF)", "evil\xe2\x80\x8b.py\xef\xbb\xbf", 64,
	  "evil???.py???", "evil\\xe2\\x80\\x8b.py\\xef\\xbb\\xbf" },
	{ "line separator (U+2028)", "a\xe2\x80\xa8" "b", 64, "a???b", "a\\xe2\\x80\\xa8b" },
	{ "U+202F, a narrow space, is text", "\xe2\x80\xaf", 64, "\xe2\x80\xaf", "\xe2\x80\xaf" },
	{ "U+00A0 is text", "a\xc2\xa0" "b", 64, "a\xc2\xa0" "b", "a\xc2\xa0" "b" },
	{ "a raw 8-bit CSI byte", "a\x9b" "b", 64, "a?b", "a\\x9bb" },
	{ "Latin-1, not UTF-8", "caf\xe9", 64, "caf?", "caf\\xe9" },
	{ "an overlong slash", "\xc0\xaf", 64, "??", "\\xc0\\xaf" },
	{ "a surrogate", "\xed\xa0\x80", 64, "???", "\\xed\\xa0\\x80" },
	{ "a cut sequence at the end", "a\xe2\x82", 64, "a??", "a\\xe2\\x82" },
	{ "quotes and backslashes", "\"x\\y\"", 64, "\"x\\y\"", "\\x22x\\x5cy\\x22" },
	{ "too long: the tail from a slash", "/very/long/directory/evil.py", 16,
	  "\xe2\x80\xa6/evil.py", "\xe2\x80\xa6/evil.py" },
	{ "too long, no slash: the tail", "abcdefghijklmnopqrstuvwxyz", 10,
	  "\xe2\x80\xa6uvwxyz", "\xe2\x80\xa6uvwxyz" },
	{ "too long: escapes count in the quoted form", "/d/\n\n\n/e", 16,
	  "/d/??" "?/e", "\xe2\x80\xa6/e" },
	{ "too long: never half a character", "/\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 10,
	  "\xe2\x80\xa6\xc3\xa9\xc3\xa9\xc3\xa9", "\xe2\x80\xa6\xc3\xa9\xc3\xa9\xc3\xa9" },
	{ "exactly fits", "123456789", 10, "123456789", "123456789" },
	{ "one too long", "1234567890", 10, "\xe2\x80\xa6" "567890", "\xe2\x80\xa6" "567890" },
	{ "a quote that fits", "a\"b", 10, "a\"b", "a\\x22b" },
};

int main(void)
{
	char out[64];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		tf_printable(out, rows[i].size, rows[i].in);
		tap_is_str(out, rows[i].printable, "printable: %s", rows[i].what);
		tf_quoted(out, rows[i].size, rows[i].in);
		tap_is_str(out, rows[i].quoted, "quoted: %s", rows[i].what);
	}
	return tap_done();
}
