/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob's configuration files (tlob apply), one setting a line:
 *
 *   # a comment: from a '#' at the start of a line or after a blank
 *   section /usr/bin/app:frame_begin,frame_end,10ms,tag=frame
 *   section p /usr/bin/app:0x1139 0x1150 threshold=10000000     (the kernel's line)
 *   reactor printk
 *   backend kmod
 *
 * A SECTION is what `tlob bind -b` takes, parsed by section.c (so the two
 * cannot disagree); its path must be absolute. Files are read in order
 * (tlob.conf, then every NAME.conf in tlob.conf.d/ by name); sections add up;
 * reactor and backend are set at most once over all the files (a second
 * line is refused, naming both). The same reader reads the
 * state file tlob apply writes (TLOB_CONF_STATE), which is a configuration
 * of what was bound, plus what --remove must put back.
 */
#ifndef TLOB_CONF_H
#define TLOB_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

#ifndef TLOB_CONF_DIR
#define TLOB_CONF_DIR		"/etc/tlob"
#endif
#define TLOB_CONF_FILE		"tlob.conf"
#define TLOB_CONF_DROPINS	"tlob.conf.d"
#ifndef TLOB_APPLY_STATE
#define TLOB_APPLY_STATE	"/run/tlob/apply.state"
#endif

enum tlob_conf_mode {
	TLOB_CONF_CONFIG,	/* a configuration: every offset checked against its file */
	/*
	 * tlob apply's state: sections as bound, not checked against the
	 * files (one replaced since must stay removable, as unbind's
	 * PATH:START), plus restore-reactor and restore-enable.
	 */
	TLOB_CONF_STATE,
};

/* Where a setting was read: for "FILE:LINE: reason". */
struct tlob_conf_where {
	const char *file;	/* one of tlob_conf.files */
	unsigned int line;	/* 1-based; 0: not set */
};

struct tlob_conf_section {
	struct tlob_binding_spec spec;
	struct tlob_conf_where at;
	char *text;		/* the SECTION as written */
};

struct tlob_conf {
	enum tlob_conf_mode mode;
	bool force_offset;	/* tlob apply --force-offset: TLOB_SECTION_FORCE */
	struct tlob_conf_section *sections;
	size_t nr_sections;
	char reactor[64];	/* "": keep the backend's */
	struct tlob_conf_where reactor_at;
	char backend[8];	/* "": not set */
	struct tlob_conf_where backend_at;
	/* TLOB_CONF_STATE only */
	char restore_reactor[64];	/* the reactor before apply; "": apply did not change it */
	struct tlob_conf_where restore_reactor_at;
	bool restore_enable;		/* apply enabled the monitor (it was off) */
	struct tlob_conf_where restore_enable_at;
	char **files;		/* every file read, in order (owned) */
	size_t nr_files;
	int status;		/* enum tlob_exit: the worst error so far */
};

void tlob_conf_init(struct tlob_conf *c, enum tlob_conf_mode mode);
void tlob_conf_free(struct tlob_conf *c);

/*
 * Read one file into c. Every bad line is reported on stderr as
 * "FILE:LINE: reason" and reading goes on, so one run shows them all.
 * Returns c->status: TLOB_EXIT_OK, TLOB_EXIT_USAGE when a line is
 * malformed (the worst), TLOB_EXIT_ERROR when something named is not
 * there (a file, a symbol) or the file cannot be read.
 */
int tlob_conf_read_file(struct tlob_conf *c, const char *path);

/*
 * Read DIR/tlob.conf (which must exist), then every NAME.conf in
 * DIR/tlob.conf.d/ in strcmp() order of their names (not the locale's: a boot sorts as a
 * shell does in the C locale), skipping names starting with '.'.
 */
int tlob_conf_read_dir(struct tlob_conf *c, const char *dir);

/* The files read, for messages: "/etc/tlob/tlob.conf (+2 drop-ins)". */
const char *tlob_conf_source(const struct tlob_conf *c, char *buf, size_t len);

#endif /* TLOB_CONF_H */
