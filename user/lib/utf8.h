/* SPDX-License-Identifier: GPL-2.0 */
/* Well-formed UTF-8 sequences (Unicode's table 3-7), for writers that must emit valid UTF-8. */
#ifndef TLOB_UTF8_H
#define TLOB_UTF8_H

#include <stddef.h>

/*
 * The length of the well-formed UTF-8 sequence at s[0..n) (n > 0), or 0
 * with *bad = the length of its maximal ill-formed subpart, which gets one
 * U+FFFD (Unicode's recommended practice, as Python's "replace").
 */
size_t tlob_utf8_seq(const unsigned char *s, size_t n, size_t *bad);

#endif /* TLOB_UTF8_H */
