// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-8 as Unicode defines it, for the writers whose output must be valid
 * UTF-8 whatever bytes a path or comm holds (JSON in output.c, metric
 * labels in metrics.c).
 */
#include "lib/utf8.h"

/*
 * The length of the well-formed UTF-8 sequence at s[0..n) (Unicode's
 * table 3-7: no overlong form, no surrogate, nothing above U+10FFFF), or
 * 0 with *bad = the length of its maximal ill-formed subpart (the lead
 * byte and the continuation bytes that were still possible), which is
 * what gets one U+FFFD: Unicode's recommended practice, as Python's
 * "replace" and the WHATWG decoder do it.
 */
size_t tlob_utf8_seq(const unsigned char *s, size_t n, size_t *bad)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, k;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 1;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 2;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 3;
	else
		need = 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (k = 1; need && k <= need; k++) {
		if (k >= n || s[k] < lo || s[k] > hi) {
			*bad = k;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	if (!need) {
		*bad = 1;
		return 0;
	}
	return need + 1;
}

