// SPDX-License-Identifier: GPL-2.0
/*
 * Run a program with SIGINT and SIGQUIT at their default action. A
 * non-interactive shell starts background commands with both ignored, and
 * a program that keeps an inherited "ignore" never sees the Ctrl-C a
 * benchmark sends to stop it (trace-cmd stream, bpftrace).
 *
 *   bench-sigdfl PROGRAM [ARGS...]
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench-sigdfl PROGRAM [ARGS...]\n");
		return 2;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
