// SPDX-License-Identifier: GPL-2.0
/*
 * tlob_open_output() (user/lib/utils.c), how root's tlob mon -o opens the
 * file it streams into, on a tree made here: a new file 0644 less the
 * umask, an existing one truncated in place, and each refusal (a link, a
 * dangling link, a FIFO with and without a reader, a directory, a device,
 * another user's file in a sticky world-writable directory) with its
 * sentence and the refused file left as it was. Needs root (chown);
 * skipped otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/utils.h"
#include "tap.h"

static char base[64], path[256], err[512];

/* base/rel in path. */
static const char *at(const char *rel)
{
	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return path;
}

/* A file base/rel holding "old\n", mode 0644, owner uid. */
static void mkfile(const char *rel, uid_t uid)
{
	int fd = open(at(rel), O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0 || write(fd, "old\n", 4) != 4 || fchown(fd, uid, uid))
		printf("# cannot make %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void mkdir_as(const char *rel, mode_t mode, uid_t uid)
{
	if (mkdir(at(rel), 0700) || chmod(path, mode) || chown(path, uid, uid))
		printf("# cannot make %s: %s\n", path, strerror(errno));
}

/* tlob_open_output() on base/rel: the fd closed, 0 or -errno; err kept. */
static int try_open(const char *rel)
{
	int fd;

	err[0] = '\0';
	fd = tlob_open_output(at(rel), err, sizeof(err));
	if (fd >= 0)
		close(fd);
	else
		printf("# %s: %s\n", rel, err);
	return fd < 0 ? fd : 0;
}

/* base/rel's size, -1 when it is not there. */
static long size_of(const char *rel)
{
	struct stat st;

	return stat(at(rel), &st) ? -1 : (long)st.st_size;
}

static void refusals(void)
{
	int rd;

	mkfile("target", 0);
	if (symlink("target", at("link")) || symlink("missing", at("dangling")) ||
	    mkfifo(at("fifo"), 0644) || mkfifo(at("fifo-read"), 0644))
		printf("# cannot make the links and FIFOs: %s\n", strerror(errno));
	tap_ok(try_open("link") == -ELOOP, "a symbolic link to a regular file: refused");
	tap_like(err, "it is a symbolic link", "... saying it is a link");
	tap_ok(size_of("target") == 4, "... the file it points to untouched");
	tap_ok(try_open("dangling") == -ELOOP, "a dangling symbolic link: refused");
	tap_ok(size_of("missing") == -1, "... nothing made where it points");
	/* The open must not wait for a reader: the alarm ends a hung test. */
	alarm(10);
	tap_ok(try_open("fifo") == -ENXIO, "a FIFO nobody reads: refused, without waiting");
	tap_like(err, "it is not a regular file", "... saying it is no regular file");
	rd = open(at("fifo-read"), O_RDONLY | O_NONBLOCK);
	tap_ok(try_open("fifo-read") == -ENXIO, "a FIFO someone reads: refused");
	if (rd >= 0)
		close(rd);
	alarm(0);
	mkdir_as("dir", 0755, 0);
	tap_ok(try_open("dir") == -EISDIR, "a directory: refused");
	tap_like(err, "it is a directory", "... saying so");
	err[0] = '\0';
	rd = tlob_open_output("/dev/null", err, sizeof(err));
	tap_ok(rd == -ENXIO, "a character device (/dev/null): refused");
	if (rd >= 0)
		close(rd);
	tap_ok(try_open("dir/") == -EINVAL, "a name ending in a slash: refused");
}

/* The protected_regular rule, decided by tlob whatever the sysctl says. */
static void sticky(void)
{
	mkdir_as("tmp", 01777, 0);
	mkfile("tmp/nobodys", 65534);
	mkfile("tmp/roots", 0);
	tap_ok(try_open("tmp/nobodys") == -EPERM,
	       "another user's file in a sticky world-writable directory: refused");
	tap_like(err, "uid 65534", "... saying whose it is");
	tap_ok(size_of("tmp/nobodys") == 4, "... not truncated");
	tap_ok(try_open("tmp/roots") == 0, "root's own file there: taken");
	mkdir_as("tmp-nobody", 01777, 65534);
	mkfile("tmp-nobody/nobodys", 65534);
	tap_ok(try_open("tmp-nobody/nobodys") == 0,
	       "the file of the sticky directory's owner: taken (as the kernel's rule)");
	mkdir_as("plain", 0755, 0);
	mkfile("plain/nobodys", 65534);
	tap_ok(try_open("plain/nobodys") == 0,
	       "another user's file in a directory only root writes: taken");
	mkdir_as("group", 01770, 0);
	mkfile("group/nobodys", 65534);
	tap_ok(try_open("group/nobodys") == -EPERM,
	       "another user's file in a sticky group-writable directory: refused");
}

static void created_and_truncated(void)
{
	struct stat st, before;
	int fd;

	umask(022);
	fd = tlob_open_output(at("new"), err, sizeof(err));
	tap_ok(fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0644 &&
	       st.st_uid == 0, "a new file: made, root's, mode 0644");
	tap_ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC), "... close-on-exec");
	tap_ok(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK), "... its writes block (as stdout's)");
	if (fd >= 0)
		close(fd);
	umask(077);
	tap_ok(try_open("new-umask") == 0 && !stat(at("new-umask"), &st) &&
	       (st.st_mode & 07777) == 0600, "... the umask applies (077: 0600)");
	umask(022);
	mkfile("existing", 0);
	chmod(at("existing"), 0640);
	stat(at("existing"), &before);
	fd = tlob_open_output(at("existing"), err, sizeof(err));
	tap_ok(fd >= 0 && !fstat(fd, &st) && st.st_size == 0 && st.st_ino == before.st_ino,
	       "an existing regular file: truncated, the same file");
	tap_ok(fd >= 0 && (st.st_mode & 07777) == 0640, "... its mode kept");
	if (fd >= 0)
		close(fd);
	tap_ok(try_open("nodir/file") == -ENOENT, "a missing directory: -ENOENT");
	tap_like(err, "cannot write", "... said");
}

int main(void)
{
	if (geteuid()) {
		printf("1..0 # SKIP needs root to give files to another owner\n");
		return 0;
	}
	snprintf(base, sizeof(base), "/tmp/tlob-open-output.XXXXXX");
	if (!mkdtemp(base)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	/* The test's own directory: root's, mode 0700, whatever /tmp is. */
	chmod(base, 0700);
	refusals();
	sticky();
	created_and_truncated();
	snprintf(path, sizeof(path), "rm -rf %s", base);
	if (system(path))
		printf("# could not remove %s\n", base);
	return tap_done();
}
