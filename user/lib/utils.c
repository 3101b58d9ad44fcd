// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/utils.h"

static volatile sig_atomic_t stop_flag;
static sigset_t wait_mask;

void tlob_require_root(const char *cmd)
{
	if (geteuid() == 0)
		return;
	fprintf(stderr, "tlob: '%s' needs root (it changes kernel tracing and tlob settings)\n",
		cmd);
	exit(1);
}

bool tlob_err_denied(int err)
{
	if (err < 0)
		err = -err;
	return err == EACCES || err == EPERM;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Only to end the sleep: whoever waits for a child looks with waitpid(). */
static void on_child(int sig)
{
	(void)sig;
}

void tlob_signals_setup(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction child = { .sa_handler = on_child, .sa_flags = SA_NOCLDSTOP };
	sigset_t block;

	/* No SA_RESTART: a signal must end the backend's sleep with EINTR. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&child.sa_mask);
	sigaction(SIGCHLD, &child, NULL);

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGCHLD);
}

bool tlob_should_stop(void)
{
	return stop_flag;
}

const sigset_t *tlob_wait_sigmask(void)
{
	return &wait_mask;
}

void tlob_verbose(const char *fmt, ...)
{
	static uint64_t t0;
	uint64_t now;
	va_list ap;

	if (!getenv("TLOB_VERBOSE"))
		return;
	now = tlob_now_ns();
	if (!t0)
		t0 = now;
	fprintf(stderr, "tlob: [+%.3f] ", (double)(now - t0) / 1e9);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint64_t tlob_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int tlob_ms_until(uint64_t at, uint64_t now)
{
	uint64_t ms = at > now ? (at - now + 999999) / 1000000 : 0;

	return ms > INT_MAX ? INT_MAX : (int)ms;
}

char *tlob_read_file(const char *path)
{
	size_t cap = 4096, used = 0;
	char *buf = NULL, *nbuf;
	ssize_t n;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		nbuf = realloc(buf, cap + 1);
		if (!nbuf)
			goto fail;
		buf = nbuf;
		n = read(fd, buf + used, cap - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used == cap)
			cap *= 2;
	}
	close(fd);
	buf[used] = '\0';
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

int tlob_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, s, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

static size_t shown_width(char c)
{
	unsigned char u = (unsigned char)c;

	return u < 0x20 || u == 0x7f ? 4 : 1;
}

static bool utf8_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

static char *shown_copy(char *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (shown_width(s[i]) == 1)
			*o++ = s[i];
		else
			o += sprintf(o, "\\x%02x", (unsigned char)s[i]);
	}
	*o = '\0';
	return o;
}

const char *tlob_shown(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s), width = 0, room, head = 0, tail = n, hw = 0, tw = 0;
	char *o;

	if (len < 8) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	for (size_t i = 0; i < n; i++)
		width += shown_width(s[i]);
	if (width < len) {
		shown_copy(buf, s, n);
		return buf;
	}
	room = len - 1 - 3;	/* "..." */
	while (head < n && hw + shown_width(s[head]) <= room / 2)
		hw += shown_width(s[head++]);
	while (head > 0 && utf8_continuation(s[head]))
		hw -= shown_width(s[--head]);
	while (tail > head && tw + shown_width(s[tail - 1]) <= room - hw)
		tw += shown_width(s[--tail]);
	while (tail < n && utf8_continuation(s[tail]))
		tw -= shown_width(s[tail++]);
	o = shown_copy(buf, s, head);
	o = stpcpy(o, "...");
	shown_copy(o, s + tail, n - tail);
	return buf;
}

/*
 * The directory path names a file in, opened to open the file from and to
 * judge it by; *base is the file's name in it. The fd, or -errno and err.
 */
static int output_dir(const char *path, const char **base, char *err, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd, e;

	*base = slash ? slash + 1 : path;
	if (!**base || strlen(path) >= sizeof(dir)) {
		snprintf(err, len, "cannot write '%s': not a file name", TLOB_SHOWN(path));
		return -EINVAL;
	}
	/* The root directory is the one name ending in its slash. */
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	e = errno;
	snprintf(err, len, "cannot write %s: %s", TLOB_SHOWN(path), strerror(e));
	return -e;
}

/*
 * base in dfd for writing, never through a link and never blocking: the
 * file that is there, else a new one (0644 less the umask). Without
 * O_CREAT on an existing file the kernel's protected_regular stays out of
 * it, so the owner check after it is always tlob's own. -1 and errno.
 */
static int output_openat(int dfd, const char *base)
{
	int flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, fd = -1;

	/* Twice: a file removed or made between the two opens. */
	for (int i = 0; i < 2; i++) {
		fd = openat(dfd, base, flags);
		if (fd >= 0 || errno != ENOENT)
			return fd;
		fd = openat(dfd, base, flags | O_CREAT | O_EXCL, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return fd;
}

/* Why the open of path refused it (errno e), in err; -e. */
static int output_refused(const char *path, int e, char *err, size_t len)
{
	const char *why = e == ELOOP ? "it is a symbolic link" :
			  e == EISDIR ? "it is a directory" :
			  e == ENXIO ? "it is not a regular file" : NULL;

	if (why)
		snprintf(err, len, "refusing to write %s: %s", TLOB_SHOWN(path), why);
	else
		snprintf(err, len, "cannot write %s: %s", TLOB_SHOWN(path), strerror(e));
	return -e;
}

/*
 * What the opened file st in directory dst may not be: anything but a
 * regular file, another user's file in a sticky directory others can
 * write to (they could have put it there for root to write through).
 * 0, or -errno and err.
 */
static int output_judge(const char *path, const struct stat *st, const struct stat *dst,
			char *err, size_t len)
{
	if (!S_ISREG(st->st_mode))
		return output_refused(path, ENXIO, err, len);
	if ((dst->st_mode & S_ISVTX) && (dst->st_mode & (S_IWGRP | S_IWOTH)) &&
	    st->st_uid != geteuid() && st->st_uid != dst->st_uid) {
		snprintf(err, len, "refusing to write %s: it belongs to uid %u in a sticky "
			 "directory others can write to", TLOB_SHOWN(path), (unsigned int)st->st_uid);
		return -EPERM;
	}
	return 0;
}

int tlob_open_output(const char *path, char *err, size_t len)
{
	struct stat st, dst;
	const char *base;
	int dfd, fd, ret;

	dfd = output_dir(path, &base, err, len);
	if (dfd < 0)
		return dfd;
	fd = output_openat(dfd, base);
	if (fd < 0)
		ret = output_refused(path, errno, err, len);
	else if (fstat(fd, &st) || fstat(dfd, &dst))
		ret = output_refused(path, errno, err, len);
	else
		ret = output_judge(path, &st, &dst, err, len);
	/* Only a file that passed loses its content; writes block as stdout's do. */
	if (!ret && (ftruncate(fd, 0) || fcntl(fd, F_SETFL, 0)))
		ret = output_refused(path, errno, err, len);
	close(dfd);
	if (ret && fd >= 0)
		close(fd);
	return ret ? ret : fd;
}
