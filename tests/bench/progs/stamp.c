// SPDX-License-Identifier: GPL-2.0
/*
 * Stamp each line of standard input with the moment it arrived: the
 * CLOCK_MONOTONIC ns at which the read() that brought it returned (the
 * clock of tlob's records, so a record's times and its arrival compare),
 * then the line. For the print latency of a reader: a violation's line
 * at the end of a pipe minus the violation's deadline.
 *
 *   tlob mon -j ... | bench-stamp >FILE      FILE: "ARRIVAL_NS LINE" lines
 *
 * Lines longer than the buffer are stamped piece by piece (each piece
 * when it came); a last line without its newline is stamped at EOF.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "marks.h"

int main(void)
{
	static char buf[1 << 16];
	size_t have = 0;
	int start_of_line = 1;

	for (;;) {
		ssize_t n = read(0, buf + have, sizeof(buf) - have);
		uint64_t at;
		size_t i, from = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		at = bench_now_ns();
		have += n;
		for (i = 0; i < have; i++) {
			if (buf[i] != '\n')
				continue;
			if (start_of_line)
				printf("%" PRIu64 " ", at);
			fwrite(buf + from, 1, i + 1 - from, stdout);
			start_of_line = 1;
			from = i + 1;
		}
		memmove(buf, buf + from, have - from);
		have -= from;
		if (have == sizeof(buf)) {	/* no newline in a whole buffer */
			if (start_of_line)
				printf("%" PRIu64 " ", at);
			fwrite(buf, 1, have, stdout);
			start_of_line = 0;
			have = 0;
		}
		fflush(stdout);
	}
	if (have) {
		if (start_of_line)
			printf("%" PRIu64 " ", bench_now_ns());
		fwrite(buf, 1, have, stdout);
		putchar('\n');
	}
	return fflush(stdout) ? 1 : 0;
}
