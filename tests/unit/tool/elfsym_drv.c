// SPDX-License-Identifier: GPL-2.0
/*
 * elfsym_drv [--force] PATH SYMBOL|OFFSET: prints the file offset in hex
 * (an OFFSET, which starts with a digit, is checked, as PATH:0xOFF is), or
 * "error: MSG" and exits 1 (2 for a malformed SYMBOL).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "section/elfsym.h"

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	char err[1024];
	uint64_t off;
	int ret;

	if (argc == 4 && !strcmp(argv[1], "--force")) {
		flags = TLOB_ELF_FORCE;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: elfsym_drv [--force] PATH SYMBOL|OFFSET\n");
		return 2;
	}
	if (argv[2][0] >= '0' && argv[2][0] <= '9') {
		off = strtoull(argv[2], NULL, 0);
		ret = tlob_elf_check_offset(argv[1], off, flags, err, sizeof(err));
	} else {
		ret = tlob_elf_resolve(argv[1], argv[2], flags, &off, err, sizeof(err));
	}
	if (ret) {
		printf("error: %s\n", err);
		return ret == -EINVAL ? 2 : 1;
	}
	printf("0x%" PRIx64 "\n", off);
	return 0;
}
