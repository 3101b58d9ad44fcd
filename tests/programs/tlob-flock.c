// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-flock: hold an exclusive flock(2) on a file or a directory until
 * killed, for the security tests (busybox has no flock applet).
 *
 * usage: tlob-flock PATH
 *
 * Prints "locked PID" on stdout once it holds the lock, so a test waits
 * on that line instead of sleeping. Exits 1 if it cannot open or lock.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: tlob-flock PATH\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		perror(argv[1]);
		return 1;
	}
	printf("locked %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
