// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer over the configuration reader (user/config/conf.c), the whole of it:
 * the input is written to a file, which tlob_conf_read_file() opens and
 * reads as `tlob apply` does, as a configuration or (first byte odd) as
 * apply's state file. It must not crash or leak, must end in a status it
 * documents, and what it keeps must be what it promises: one reactor and
 * one backend with the line that set them, sections each with its text.
 * Run it with -close_fd_mask=2: every bad line is a line on stderr.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/conf.h"
#include "options/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond)	do { if (!(cond)) abort(); } while (0)

/*
 * The file the input goes to: a memfd (a regular file in memory, which a
 * disk's ftruncate() would make 100 times slower), opened by the reader
 * through its /proc/self/fd name as any configuration file.
 */
static char path[64];
static int fd = -1;

static void write_input(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("tlob-fuzz-conf", MFD_CLOEXEC);
		check(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	check(!ftruncate(fd, 0));
	check(pwrite(fd, data, size, 0) == (ssize_t)size);
}

static void check_result(const struct tlob_conf *c, int status)
{
	check(status == c->status);
	check(status == TLOB_EXIT_OK || status == TLOB_EXIT_USAGE || status == TLOB_EXIT_ERROR);
	check(!c->reactor[0] || c->reactor_at.line);
	check(!c->backend[0] || c->backend_at.line);
	check(!strcmp(c->backend, "") || !strcmp(c->backend, "kmod") ||
	      !strcmp(c->backend, "bpf") || !strcmp(c->backend, "auto"));
	for (size_t i = 0; i < c->nr_sections; i++)
		check(c->sections[i].text && c->sections[i].at.line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tlob_conf c;
	int status;

	if (!size)
		return 0;
	write_input(data + 1, size - 1);
	tlob_conf_init(&c, data[0] & 1 ? TLOB_CONF_STATE : TLOB_CONF_CONFIG);
	status = tlob_conf_read_file(&c, path);
	check_result(&c, status);
	tlob_conf_free(&c);
	return 0;
}
