// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-asuser: run a command as another user, for the security tests.
 *
 * usage: tlob-asuser UID GID COMMAND [ARGS...]
 *
 * Drops every supplementary group, then the group, then the user (in that
 * order: after setuid() the others are no longer allowed), checks the
 * drop cannot be undone, and execs COMMAND. busybox su needs a shell
 * entry and a password database; this needs neither.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: tlob-asuser UID GID COMMAND [ARGS...]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid = (gid_t)strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("tlob-asuser: dropping privileges");
		return 126;
	}
	if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		fprintf(stderr, "tlob-asuser: could regain root\n");
		return 126;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
