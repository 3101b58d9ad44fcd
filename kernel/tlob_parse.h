/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The monitor file's line syntax (upstream's, plus extensions):
 *
 *   p PATH:START STOP threshold=NS [tag=NAME] [pid=N | tgid=N]
 *   -PATH:START
 *
 * START and STOP are ELF file offsets (decimal or 0x); STOP may be `ret`
 * (the return of the START function). PATH is absolute and may contain
 * ':' (the last one splits off the offset). Pure string work: no kernel
 * object is touched here, so the same file is unit-tested on the host
 * (tests/unit/kmod/) with a small shim for kstrto*().
 */
#ifndef TLOB_PARSE_H
#define TLOB_PARSE_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <tlob_host_shim.h>
#endif

#include "tlob_abi.h"

/* The longest line accepted, path and options included. */
#define TLOB_LINE_MAX	(PATH_MAX + 128)

enum tlob_filter {
	TLOB_FILTER_NONE,
	TLOB_FILTER_PID,
	TLOB_FILTER_TGID,
};

struct tlob_req {
	bool remove;
	char *path;			/* points into the parsed line */
	u64 start;
	u64 stop;
	bool stop_ret;
	u64 budget_ns;
	char tag[TLOB_TAG_LEN];
	enum tlob_filter filter;
	u32 filter_id;
};

/*
 * Parse one line (NUL-terminated, no newline; modified in place).
 * Returns 0, 1 for a blank line, -EINVAL when malformed, -ERANGE for a
 * threshold outside TLOB_BUDGET_MIN_NS..TLOB_BUDGET_MAX_NS.
 */
int tlob_parse_line(char *line, struct tlob_req *req);

#endif /* TLOB_PARSE_H */
