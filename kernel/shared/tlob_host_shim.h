/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API for kernel/shared/tlob_parse.c to build and run
 * on the host, where it is the tool's monitor-line parser (user/backend/monline.c)
 * and is unit-tested (tests/unit/kmod/): types, static_assert(),
 * __printf() and vsnprintf() (libc's mean the kernel's), and
 * kstrtoull() / kstrtou32() with the kernel's rules (no leading space,
 * one trailing newline allowed, -EINVAL when malformed, -ERANGE on
 * overflow).
 */
#ifndef TLOB_HOST_SHIM_H
#define TLOB_HOST_SHIM_H

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

static inline int kstrtoull(const char *s, unsigned int base, u64 *res)
{
	char *end;
	unsigned long long v;

	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || (*end && !(end[0] == '\n' && !end[1])))
		return -EINVAL;
	*res = v;
	return 0;
}

static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	u64 v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = (u32)v;
	return 0;
}

#endif /* TLOB_HOST_SHIM_H */
