// SPDX-License-Identifier: GPL-2.0
/*
 * The formatter's numbers (user/lib/jbuf.h): ju64() writes its digits in
 * place when the buffer has room for any u64 and through a copy when it
 * has not, and u64_len() counts digits from the bit length. Every power
 * of ten, its neighbours, 0 and UINT64_MAX, and a million others, against
 * snprintf("%llu"); then each number into every buffer size around its
 * length: whole or not at all (-ENOSPC), never a partial number.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/jbuf.h"
#include "tap.h"

/* v through ju64() into a buffer of @len bytes; its jend() result. */
static int put(uint64_t v, char *buf, size_t len, const char *before)
{
	struct jbuf j = { buf, len, 0, false };

	jstr(&j, before);
	ju64(&j, v);
	return jend(&j);
}

/* Every buffer size from 1 to the room the number needs and 21 more. */
static int sizes_ok(uint64_t v)
{
	char want[32], buf[64];
	int n = snprintf(want, sizeof(want), "%llu", (unsigned long long)v);

	for (size_t len = 1; len <= (size_t)n + 22; len++) {
		int ret = put(v, buf, len, "");

		if (len > (size_t)n ? ret != n || strcmp(buf, want) :
				      ret != -ENOSPC || buf[0])
			return 0;
	}
	/* After other bytes: the in-place path's room counts from there. */
	return put(v, buf, sizeof(buf), "{\"k\":") == n + 5 && !strcmp(buf + 5, want);
}

int main(void)
{
	uint64_t edges[64], v, p = 1;
	size_t ne = 0, bad_len = 0, bad_put = 0;
	char want[32], buf[64];

	edges[ne++] = 0;
	edges[ne++] = UINT64_MAX;
	edges[ne++] = UINT64_MAX - 1;
	for (int k = 0; k < 20; k++, p *= 10) {
		edges[ne++] = p;
		edges[ne++] = p - 1;
		edges[ne++] = p + 1;
	}
	for (size_t i = 0; i < ne; i++) {
		v = edges[i];
		bad_len += (size_t)snprintf(want, sizeof(want), "%llu", (unsigned long long)v) !=
			   u64_len(v);
		bad_put += !sizes_ok(v);
	}
	tap_is_u64(bad_len, 0, "u64_len: 0, UINT64_MAX, every power of ten and its neighbours");
	tap_is_u64(bad_put, 0, "ju64: the same, into every buffer size around their length");
	srand(16);
	bad_len = bad_put = 0;
	for (long i = 0; i < 1000000; i++) {
		v = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
		v >>= rand() % 64;
		bad_len += (size_t)snprintf(want, sizeof(want), "%llu", (unsigned long long)v) !=
			   u64_len(v);
		bad_put += put(v, buf, sizeof(buf), "") < 0 || strcmp(buf, want);
	}
	tap_is_u64(bad_len, 0, "u64_len: a million numbers of every length");
	tap_is_u64(bad_put, 0, "ju64: the same million, in place");
	return tap_done();
}
