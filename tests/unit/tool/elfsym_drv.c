// SPDX-License-Identifier: GPL-2.0
/* elfsym_drv PATH SYMBOL: prints the file offset in hex, or "error: MSG" and exits 1. */
#include <inttypes.h>
#include <stdio.h>

#include "elfsym.h"

int main(int argc, char **argv)
{
	char err[1024];
	uint64_t off;

	if (argc != 3) {
		fprintf(stderr, "usage: elfsym_drv PATH SYMBOL\n");
		return 2;
	}
	if (tlob_elf_resolve(argv[1], argv[2], &off, err, sizeof(err))) {
		printf("error: %s\n", err);
		return 1;
	}
	printf("0x%" PRIx64 "\n", off);
	return 0;
}
