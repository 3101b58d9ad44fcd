// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void tlob_signals_setup(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	/* No SA_RESTART: a signal must end the backend's sleep with EINTR. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
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
