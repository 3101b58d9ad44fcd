/* SPDX-License-Identifier: GPL-2.0 */
/* The tool's exit statuses (docs/guide.md, "Exit status"): every room returns these. */
#ifndef TLOB_EXIT_H
#define TLOB_EXIT_H

enum tlob_exit {
	TLOB_EXIT_OK		= 0,
	TLOB_EXIT_ERROR		= 1,	/* found on the system */
	TLOB_EXIT_USAGE		= 2,	/* malformed command line */
	TLOB_EXIT_VIOLATION	= 3,	/* mon --stop-on-violation stopped on one */
};

#endif /* TLOB_EXIT_H */
