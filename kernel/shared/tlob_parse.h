/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The monitor file's line syntax (upstream's, plus extensions):
 *
 *   p PATH:START STOP threshold=NS [min=NS] [tolerance=K/W] [tag=NAME]
 *     [pid=N | tgid=N]
 *   a PATH:CHECKPOINT period=NS expect=N [margin=M] [per=process|task]
 *     [tolerance=K/W] [tag=NAME] [pid=N | tgid=N]
 *   l PATH model=NAME states=S0,S1,.. events=E0@[N:]OFF,E1@[N:]OFF,..
 *     edges=F.E.T[.r][.gLO-[HI]],.. final=I[,J..] [initial=I] [clock=NAME]
 *     [inv=S.HI,..] [file1=PATH1 [file2=PATH2 [file3=PATH3]]]
 *     [per=process|task] [tolerance=K/W] [tag=NAME] [pid=N | tgid=N]
 *   -PATH:START
 *
 * `p` binds a section (deadline supervision, models/tlob.dot); `a` binds a
 * checkpoint (alive supervision, models/alive.dot): per process (default)
 * or per task, each reference cycle of period= must see the checkpoint
 * between expect-margin and expect+margin times; `l` binds a user's
 * deterministic automaton (logical supervision): each event is a symbol's
 * offset in PATH, or with N: in the line's fileN= (an application's
 * events may lie in its libraries; every file holds one), edges= are
 * FROM.EVENT.TO state and event indices, and an event the model does
 * not allow is a violation (tlob_logic.h checks the table). A model may
 * have one clock (clock=): an edge's `.r` resets it, its `.gLO-HI`
 * takes the edge only while the clock reads LO ns or more and less
 * than HI ns (no HI: no upper bound); an allowed event
 * outside its guard is a violation too, and so is a state held until
 * the clock reads its inv= HI ns or more (the module's timer). A
 * removal names any of them by its PATH:START (a checkpoint's offset is
 * its START, an `l` binding's its event 0's).
 *
 * START and STOP are ELF file offsets (decimal or 0x); STOP may be `ret`
 * (the return of the START function). PATH is absolute and may contain
 * ':' (the last one splits off the offset). Pure string work: no kernel
 * object is touched here, so the same file is the tool's parser too
 * (user/backend/monline.c, built with the host shim kernel/shared/tlob_host_shim.h for
 * kstrto*()) and is unit-tested on the host (tests/unit/kmod/): the
 * module and the tool cannot read a line differently.
 */
#ifndef TLOB_PARSE_H
#define TLOB_PARSE_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include "tlob_host_shim.h"
#endif

#include "tlob_abi.h"
#include "tlob_logic_table.h"

/* The longest line accepted, path and options included. */
#define TLOB_LINE_MAX	(PATH_MAX + 128)

enum tlob_filter {
	TLOB_FILTER_NONE,
	TLOB_FILTER_PID,
	TLOB_FILTER_TGID,
};

/* Why a line was refused: the tool words it, the module returns the errno. */
enum tlob_parse_why {
	TLOB_WHY_NONE,
	TLOB_WHY_TOO_LONG,	/* longer than TLOB_LINE_MAX */
	TLOB_WHY_VERB,		/* not "p ..." nor "-..." */
	TLOB_WHY_PATH,		/* not an absolute PATH:START */
	TLOB_WHY_PATH_CHAR,	/* a byte tlob_path_char_ok() refuses */
	TLOB_WHY_START,		/* START is not an offset */
	TLOB_WHY_NO_STOP,	/* no STOP */
	TLOB_WHY_STOP,		/* STOP is neither an offset nor ret */
	TLOB_WHY_SAME,		/* STOP == START */
	TLOB_WHY_TRAILING,	/* text after -PATH:START */
	TLOB_WHY_OPTION,	/* not KEY=VALUE, or an unknown or repeated key */
	TLOB_WHY_THRESHOLD,	/* threshold= not a decimal number */
	TLOB_WHY_RANGE,		/* threshold= outside 1 us .. 1 h */
	TLOB_WHY_TAG,		/* tag= not one tlob_tag_ok() takes */
	TLOB_WHY_FILTER,	/* pid=/tgid= not a pid, or both */
	TLOB_WHY_NO_THRESHOLD,	/* no threshold= */
	TLOB_WHY_MIN,		/* min= not a decimal number */
	TLOB_WHY_MIN_RANGE,	/* min= 0, or not below threshold= */
	TLOB_WHY_TOLERANCE,	/* tolerance= not K/W in decimal */
	TLOB_WHY_TOLERANCE_RANGE, /* not 1 <= K <= W <= 64 */
	TLOB_WHY_PERIOD,	/* period= not a decimal number */
	TLOB_WHY_PERIOD_RANGE,	/* period= outside 100 us .. 1 h */
	TLOB_WHY_EXPECT,	/* expect= not a count in 1..TLOB_EXPECT_MAX */
	TLOB_WHY_MARGIN,	/* margin= not a count, or above expect= */
	TLOB_WHY_PER,		/* per= neither process nor task */
	TLOB_WHY_NO_PERIOD,	/* an `a` line without period= */
	TLOB_WHY_NO_EXPECT,	/* an `a` line without expect= */
	/* `l` lines (the table: tlob_logic_check() says which rule broke) */
	TLOB_WHY_LOGIC_NAME,	/* model=, a state or an event name malformed */
	TLOB_WHY_LOGIC_LIST,	/* states=/events=/edges=/final=/inv= malformed */
	TLOB_WHY_LOGIC_RANGE,	/* more states, events, edges or invariants than allowed */
	TLOB_WHY_LOGIC_TABLE,	/* a table rule: tlob_logic_check() */
	TLOB_WHY_LOGIC_MISSING,	/* an `l` line without model=, states=, events=, edges= or final= */
	TLOB_WHY_LOGIC_FILE,	/* fileN= not a path, after a gap, or a file given twice */
};

/* Which instances an alive binding supervises (`a` lines' per=). */
enum tlob_per {
	TLOB_PER_PROCESS,	/* one per thread group: any thread's checkpoint counts */
	TLOB_PER_TASK,		/* one per thread */
};

struct tlob_req {
	bool remove;
	char *path;			/* points into the parsed line */
	u64 start;
	u64 stop;
	bool stop_ret;
	u64 budget_ns;
	u64 min_ns;			/* 0: none */
	u8 tol_k, tol_w;		/* tolerance=K/W; 1/1 when not given */
	char tag[TLOB_TAG_LEN];
	enum tlob_filter filter;
	u32 filter_id;
	/* An `a` line (alive supervision): no STOP, budget or minimum. */
	bool alive;
	u64 period_ns;
	u32 expect, margin;
	enum tlob_per per;		/* `a` and `l` lines */
	/*
	 * An `l` line (logical supervision): the table is the caller's
	 * storage (it is ~2.5 KiB: the module allocates one per line, the
	 * tool and the tests their own), set before tlob_parse_line(); a line
	 * of another verb leaves it untouched. start = event 0's offset.
	 */
	bool logic;
	struct tlob_logic_table *table;
	/*
	 * An `l` line's files (into the line): files[0] is PATH, files[f]
	 * the line's fileN= for f 1..table->nfiles - 1.
	 */
	const char *files[TLOB_LOGIC_FILES_MAX];
	/* When refused: why, and the token at fault (into the line) or NULL. */
	enum tlob_parse_why why;
	const char *bad;
	/*
	 * Refused for TLOB_WHY_LOGIC_TABLE: the rule (enum tlob_logic_rule,
	 * tlob_logic.h, worded by tlob_logic_rule_text()) and the state or
	 * event it is about (its name is in *table).
	 */
	u8 logic_rule;
	u8 logic_at;
};

/*
 * Parse one line (NUL-terminated, no newline; modified in place) into
 * @req, which is cleared but for req->table (an `l` line's storage: with
 * none, an `l` line is TLOB_WHY_VERB). Returns 0, 1 for a blank line,
 * -EINVAL when malformed, -ERANGE for a threshold outside
 * TLOB_BUDGET_MIN_NS..TLOB_BUDGET_MAX_NS or a min= that is 0 or not below
 * the threshold, a period= outside TLOB_PERIOD_MIN_NS..TLOB_BUDGET_MAX_NS,
 * or more states, events, edges or invariants than an `l` line may have.
 * An `l` line is accepted only with a table tlob_logic_check() accepts.
 */
int tlob_parse_line(char *line, struct tlob_req *req);

/*
 * An `l` line's table as its canonical text, "model=M states=S0,..
 * events=E0@0xOFF,E1@1:0xOFF,.. edges=F.E.T,.. final=I,.. initial=I
 * [clock=C inv=..] [file1=PATH1 ..]" (edges by FROM, then EVENT), which
 * tlob_parse_line() reads back as the same table; @files[f] is file f's
 * path for f 1..t->nfiles - 1 (@files may be NULL when nfiles is 1).
 * snprintf() semantics: returns the length it needs.
 */
int tlob_logic_format(const struct tlob_logic_table *t,
		      const char *const *files, char *buf, size_t size);

/*
 * A file offset as a line writes it: decimal digits, or "0x" and hex
 * digits, nothing else, at most LLONG_MAX. 0, or -EINVAL.
 */
int tlob_parse_offset(const char *s, u64 *off);

/*
 * What a listing shows for a binding without a tag (the stats lines' tag=),
 * so no tag can be it.
 */
#define TLOB_TAG_NONE	"-"

/*
 * A tag= a line can carry: 1..TLOB_TAG_LEN-1 of tlob_tag_char_ok()'s
 * characters, and not TLOB_TAG_NONE.
 */
bool tlob_tag_ok(const char *v);

/*
 * tolerance=K/W's value @v (modified, then restored): 0 with *@k and *@w
 * set, -EINVAL when it is not K/W in decimal, -ERANGE unless
 * 1 <= K <= W <= TLOB_TOLERANCE_MAX (tlob_tolerance.h says what it means).
 */
int tlob_parse_tolerance(char *v, u8 *k, u8 *w);

#endif /* TLOB_PARSE_H */
