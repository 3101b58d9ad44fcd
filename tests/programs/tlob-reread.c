// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-reread: read a listing over and over while it changes, and check
 * that every read is whole, for the listing tests.
 *
 * usage: tlob-reread FILE SECONDS PREFIX
 *
 * Reads FILE from offset 0 in one read(2) (a listing that fits one page,
 * so one generation of it) as fast as it can for SECONDS, and checks each
 * read: not empty, no NUL byte (a stale tail of the kernel's buffer), the
 * last byte a newline (not cut short), every line starting with PREFIX.
 * Prints "reads=N bad=M" and, for the first bad read, its bytes escaped;
 * exits 1 when a read was bad, 2 on a usage or I/O error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define READ_MAX	65536

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 1 when the n bytes at buf are a whole listing of PREFIX lines. */
static int whole(const char *buf, size_t n, const char *prefix)
{
	size_t at = 0, plen = strlen(prefix);
	const char *nl;

	if (!n || memchr(buf, '\0', n) || buf[n - 1] != '\n')
		return 0;
	while (at < n) {
		if (n - at < plen || memcmp(buf + at, prefix, plen))
			return 0;
		nl = memchr(buf + at, '\n', n - at);
		at = (size_t)(nl - buf) + 1;
	}
	return 1;
}

static void dump(const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n' || (c >= 0x20 && c < 0x7f))
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	static char buf[READ_MAX];
	unsigned long reads = 0, bad = 0;
	double end;
	ssize_t n;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: tlob-reread FILE SECONDS PREFIX\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	end = now() + strtod(argv[2], NULL);
	while (now() < end) {
		n = pread(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			perror("pread");
			return 2;
		}
		reads++;
		if (whole(buf, (size_t)n, argv[3]))
			continue;
		if (!bad++) {
			printf("bad read %lu (%zd bytes):\n", reads, n);
			dump(buf, (size_t)n);
		}
	}
	printf("reads=%lu bad=%lu\n", reads, bad);
	return bad ? 1 : 0;
}
