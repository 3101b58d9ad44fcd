/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formatter's writer, shared by output.c (windows, transitions,
 * diagnoses) and alive.c (alive cycles): JSON and text lines built in a
 * caller's buffer without a printf-family call, since records come in
 * bursts and are formatted while the reader has the least time. Static
 * inline, so each formatter keeps the writer in its own translation unit
 * (no call across units for each member).
 */
#ifndef TLOB_JBUF_H
#define TLOB_JBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utf8.h"

/*
 * The writer: bytes appended to a caller's buffer, by memcpy of whole
 * runs, numbers converted by hand (no printf per field, none per
 * character). On overflow nothing more is written and the object fails
 * (-ENOSPC) rather than come out truncated; the buffer always ends in NUL.
 */
struct jbuf {
	char *buf;
	size_t len;
	size_t used;
	bool overflow;
};

static inline void jmem(struct jbuf *j, const void *p, size_t n)
{
	if (j->overflow)
		return;
	if (n >= j->len - j->used) {
		j->overflow = true;
		return;
	}
	memcpy(j->buf + j->used, p, n);
	j->used += n;
}

/* The NUL after what was written (jmem always leaves room for it). */
static inline int jend(struct jbuf *j)
{
	if (j->len)
		j->buf[j->used] = '\0';
	return j->overflow ? -ENOSPC : (int)j->used;
}

static inline void jstr(struct jbuf *j, const char *s)
{
	jmem(j, s, strlen(s));
}

static inline void jc(struct jbuf *j, char c)
{
	jmem(j, &c, 1);
}

/* Decimal digits of v ending at @end, two at a time; returns where they start. */
static inline char *u64_digits_to(uint64_t v, char *end)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = end;

	while (v >= 100) {
		unsigned int k = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--p = pairs[k + 1];
		*--p = pairs[k];
	}
	if (v >= 10) {
		*--p = pairs[v * 2 + 1];
		*--p = pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

/* Decimal digits of v at the end of d[20]; returns where they start. */
static inline char *u64_digits(uint64_t v, char d[20])
{
	return u64_digits_to(v, d + 20);
}

/*
 * Decimal digits of v, 1..20: from its bit length (log10(2) ~ 1233/4096,
 * one short or exact), then one compare.
 */
static inline size_t u64_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	size_t n = ((size_t)(64 - __builtin_clzll(v | 1)) * 1233) >> 12;	/* 0..19 */

	/* v | 1: 0 has one digit; no power of ten above 1 is odd */
	return n + ((v | 1) >= pow10[n]);
}

/*
 * With room for any number (20 digits and the NUL), the digits go in
 * place, written back from their end: a number is most of a record's
 * members, and a copy of each through a d[20] would be a memcpy() call
 * apiece.
 */
static inline void ju64(struct jbuf *j, uint64_t v)
{
	char d[20], *p;

	if (!j->overflow && j->len - j->used > 20) {
		size_t n = u64_len(v);

		u64_digits_to(v, j->buf + j->used + n);
		j->used += n;
		return;
	}
	p = u64_digits(v, d);
	jmem(j, p, (size_t)(d + 20 - p));
}

/* "0x" and v in lowercase hex. */
static inline void jhex(struct jbuf *j, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char d[18], *p = d + sizeof(d);

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	jmem(j, p, (size_t)(d + sizeof(d) - p));
}

static inline void js64(struct jbuf *j, int64_t v)
{
	if (v < 0) {
		jc(j, '-');
		ju64(j, (uint64_t)0 - (uint64_t)v);
		return;
	}
	ju64(j, (uint64_t)v);
}

/* v, at least width characters, padded on the left with pad ("%0*u", "%*d"). */
static inline void jpad_u64(struct jbuf *j, uint64_t v, unsigned int width, char pad)
{
	char d[20], *p = u64_digits(v, d);
	size_t n = (size_t)(d + 20 - p);

	for (; n < width; width--)
		jc(j, pad);
	jmem(j, p, n);
}

/* Bytes that stand for themselves in a JSON string. */
static inline bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * At most max bytes of s (fixed-size char arrays), escaped, without
 * quotes: runs of plain bytes and of well-formed UTF-8 are copied whole;
 * '"' and '\' get a backslash, control bytes and DEL \u00XX, and each
 * ill-formed sequence one U+FFFD.
 */
static inline void json_chars(struct jbuf *j, const char *str, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strnlen(str, max), i = 0, run, len, bad;

	while (i < n) {
		unsigned char c = s[i];

		for (run = i; run < n; ) {
			if (json_plain(s[run])) {
				run++;
				continue;
			}
			if (s[run] < 0x80)
				break;
			len = tlob_utf8_seq(s + run, n - run, &bad);
			if (!len)
				break;
			run += len;
		}
		if (run > i && run - i >= j->len - j->used && !j->overflow) {
			/* Does not fit: its whole characters that do, then stop. */
			while (i < run) {
				len = s[i] < 0x80 ? 1 : tlob_utf8_seq(s + i, n - i, &bad);
				if (len >= j->len - j->used)
					break;
				jmem(j, s + i, len);
				i += len;
			}
			j->overflow = true;
			return;
		}
		if (run > i) {
			jmem(j, s + i, run - i);
			i = run;
			continue;
		}
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };

			jmem(j, e, 2);
			i++;
		} else if (c < 0x80) {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			jmem(j, e, 6);
			i++;
		} else {
			tlob_utf8_seq(s + i, n - i, &bad);
			jmem(j, "\xef\xbf\xbd", 3);	/* U+FFFD */
			i += bad;
		}
	}
}

/*
 * Every object starts {"type":"NAME" (json_begin), so every other member
 * is ,"key":VALUE, its key a literal written in one piece.
 */
#define JSON_KEY(key)		",\"" key "\":"
#define json_key(j, key)	jmem((j), JSON_KEY(key), sizeof(JSON_KEY(key)) - 1)
#define json_u64(j, key, v)	do { json_key(j, key); ju64(j, v); } while (0)
#define json_s64(j, key, v)	do { json_key(j, key); js64(j, v); } while (0)
/* "key":"0x.." for an ELF file offset: a string, as the text output writes it. */
#define json_offset(j, key, v)	do { jmem(j, JSON_KEY(key) "\"", sizeof(JSON_KEY(key))); \
				     jhex(j, v); jc(j, '"'); } while (0)
#define json_bool(j, key, v)	do { json_key(j, key); \
				     jstr(j, (v) ? "true" : "false"); } while (0)
/* "key":"escaped", at most max bytes of s. */
#define json_str(j, key, s, max) do { jmem(j, JSON_KEY(key) "\"", sizeof(JSON_KEY(key))); \
				     json_chars(j, s, max); jc(j, '"'); } while (0)

/*
 * "key":"name" for a name from the tool's own tables (names.c: the
 * model's and the ABI's identifiers, or "?"), which needs no escaping:
 * a record carries six, and escaping them would be a quarter of its cost.
 */
#define json_name(j, key, s)	do { jmem(j, JSON_KEY(key) "\"", sizeof(JSON_KEY(key))); \
				     jstr(j, s); jc(j, '"'); } while (0)

static inline void json_begin(struct jbuf *j, const char *type)
{
	jmem(j, "{\"type\":\"", 9);
	jstr(j, type);
	jc(j, '"');
}

static inline int json_end(struct jbuf *j)
{
	jc(j, '}');
	return jend(j);
}

/*
 * ns in the largest unit that keeps it under 1000, with 3 decimals
 * rounded half up from the exact value: 12345678 -> "12.346ms".
 */
static inline void text_ns(struct jbuf *j, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} u[] = { { 1000, "us" }, { 1000000, "ms" }, { 1000000000, "s" } };
	uint64_t q, frac;
	unsigned int i;

	if (ns < 1000) {
		ju64(j, ns);
		jmem(j, "ns", 2);
		return;
	}
	i = ns < 1000000 ? 0 : ns < 1000000000 ? 1 : 2;
	q = ns / u[i].div;
	/* The remainder in thousandths of the unit, rounded (may carry). */
	frac = (ns % u[i].div + u[i].div / 2000) / (u[i].div / 1000);
	if (frac == 1000) {
		q++;
		frac = 0;
	}
	ju64(j, q);
	jc(j, '.');
	jpad_u64(j, frac, 3, '0');
	jstr(j, u[i].unit);
}

/* Bytes that stand for themselves in text output. */
static inline bool text_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/* One byte as text escapes it: "\\", "\n", "\t", "\e" or "\xNN". */
static inline void text_escape_byte(struct jbuf *j, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '\\':
		jmem(j, "\\\\", 2);
		return;
	case '\n':
		jmem(j, "\\n", 2);
		return;
	case '\t':
		jmem(j, "\\t", 2);
		return;
	case 0x1b:
		jmem(j, "\\e", 2);
		return;
	}
	jmem(j, e, 4);
}

/*
 * Text output's one escaping rule, for every string from outside the
 * tool (comms, tags, paths, symbol and model names): printable ASCII and
 * well-formed UTF-8 as they are; a backslash as "\\", newline "\n", tab
 * "\t", ESC "\e", every other control byte, DEL and each byte of an
 * ill-formed UTF-8 sequence as "\xNN". So a name cannot make a line of its
 * own (forge a "window ok" line), drive a terminal or make the output
 * invalid UTF-8, and every escape reads back to one byte. At most max
 * bytes of s; alt when s is empty.
 */
static inline void text_str(struct jbuf *j, const char *str, size_t max, const char *alt)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strnlen(str, max), i = 0, run, len, bad;

	if (!n)
		jstr(j, alt);
	while (i < n) {
		for (run = i; run < n; run += len) {
			len = text_plain(s[run]) ? 1 : s[run] < 0x80 ? 0 :
			      tlob_utf8_seq(s + run, n - run, &bad);
			if (!len)
				break;
		}
		jmem(j, s + i, run - i);
		if (run == n)
			break;
		bad = 1;
		if (s[run] >= 0x80)
			tlob_utf8_seq(s + run, n - run, &bad);
		for (i = run; i < run + bad; i++)
			text_escape_byte(j, s[i]);
	}
}

/* s, then spaces to width ("%-14s"). */
static inline void text_left(struct jbuf *j, const char *s, size_t width)
{
	static const char spaces[] = "                ";
	size_t n = strlen(s);

	jmem(j, s, n);
	if (n < width)
		jmem(j, spaces, width - n < sizeof(spaces) - 1 ? width - n : sizeof(spaces) - 1);
}

/* " key=" */
static inline void text_key(struct jbuf *j, const char *key)
{
	jc(j, ' ');
	jstr(j, key);
	jc(j, '=');
}

/* tlob_fmt_budget()'s "10ms" */
static inline void text_budget(struct jbuf *j, uint64_t ns)
{
	uint64_t n;
	const char *unit = tlob_budget_unit(ns, &n);

	ju64(j, n);
	jstr(j, unit);
}

#endif /* TLOB_JBUF_H */
