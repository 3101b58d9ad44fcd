// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-asuser: run a command as another user, or as root without
 * capabilities, for the security tests.
 *
 * usage: tlob-asuser UID GID COMMAND [ARGS...]
 *        tlob-asuser -n COMMAND [ARGS...]
 *
 * Drops every supplementary group, then the group, then the user (in that
 * order: after setuid() the others are no longer allowed), checks the
 * drop cannot be undone, and execs COMMAND. busybox su needs a shell
 * entry and a password database; this needs neither.
 *
 * -n stays uid 0 and drops every capability: the bounding set first (so
 * that exec, which gives root the bounding set, gives nothing back), the
 * ambient set, then the permitted, effective and inheritable sets. capsh
 * is not in the guest's initramfs.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Every capability gone, for good; 0 or -1 with errno set. */
static int drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int c;

	/* PR_CAPBSET_READ fails past the last capability the kernel knows */
	for (c = 0; prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0))
			return -1;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0))
		return -1;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	/* the check: nothing left anywhere, and nothing to get back */
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (c = 0; c < _LINUX_CAPABILITY_U32S_3; c++)
		if (data[c].effective || data[c].permitted || data[c].inheritable)
			return -1;
	return prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc >= 3 && !strcmp(argv[1], "-n")) {
		if (drop_capabilities()) {
			perror("tlob-asuser: dropping capabilities");
			return 126;
		}
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		return 127;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: tlob-asuser UID GID COMMAND [ARGS...]\n"
			"       tlob-asuser -n COMMAND [ARGS...]\n");
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
