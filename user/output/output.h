/* SPDX-License-Identifier: GPL-2.0 */
/* How records, transitions and statistics look: readable lines or JSON. */
#ifndef TLOB_OUTPUT_H
#define TLOB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"

/*
 * 12345678 -> "12.346ms": 3 decimals of the largest unit that keeps the
 * integer part under 1000 (ns, us, ms, s), rounded half up.
 */
const char *tlob_fmt_ns(uint64_t ns, char *buf, size_t len);
/*
 * At most max bytes of s as text output shows an outside string (text_str()
 * in jbuf.h: "\\", "\n", "\t", "\e", "\xNN"), into buf; returns buf.
 */
const char *tlob_text_shown(const char *s, size_t max, char *buf, size_t len);

/*
 * One JSON object, no newline: every struct tlob_record field by its C
 * name, plus *_name strings for the enums (state/event from the model).
 * Returns the length, or -ENOSPC if buf is too small.
 */
int tlob_record_json(const struct tlob_record *rec, char *buf, size_t len);
int tlob_transition_json(const struct tlob_transition *tr, char *buf, size_t len);
/*
 * A section binding (budget and minimum time) and its statistics: the
 * section kind's half of kinds/kind.h; tlob_spec_json() and
 * tlob_stats_json() there pick the kind.
 */
int tlob_section_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len);
int tlob_section_spec_json(const struct tlob_binding_spec *spec, char *buf, size_t len);

/*
 * A binding of any kind as tlob_spec_json() writes a section: {"type":"binding",TERMS,"pid":..,"tgid":..
 * [,"holders":..]}, its terms written by @terms (jbuf.h's writer).
 */
struct jbuf;
/*
 * What every binding object starts with, of any kind: "id", "path" and
 * "start", the ELF file offset as a "0x.." string, as text and the
 * metrics' labels write it.
 */
void tlob_json_binding_head(struct jbuf *j, const struct tlob_binding_spec *s);
int tlob_kind_spec_json(const struct tlob_binding_spec *s,
			void (*terms)(struct jbuf *j, const struct tlob_binding_spec *s),
			char *buf, size_t len);

/*
 * s as the inside of a JSON string (no quotes), in out: RFC 8259 escapes,
 * and every ill-formed UTF-8 sequence replaced by U+FFFD (the same
 * writer as the objects above). A string that does not fit is cut after
 * its last whole character. Returns out.
 */
const char *tlob_json_escape(const char *s, char *out, size_t len);

/*
 * One readable line each, with a newline: into buf (the length, or
 * -ENOSPC), or written to f. comm and tag as they are.
 */
int tlob_record_text(const struct tlob_record *rec, char *buf, size_t len);
int tlob_transition_text(const struct tlob_transition *tr, char *buf, size_t len);
void tlob_record_print(FILE *f, const struct tlob_record *rec);
void tlob_transition_print(FILE *f, const struct tlob_transition *tr);

/*
 * One frame of a diagnosis' stack, as the symbolizer (symbolize.h)
 * resolved it. The strings belong to whoever filled the frame and must
 * outlive the formatting only.
 */
struct tlob_frame {
	uint64_t ip;
	const char *name;	/* the function; NULL: not known (raw address) */
	uint64_t off;		/* ip - the function's address */
	const char *file;	/* the ELF file mapped there (user frames); NULL: none */
	const char *build_id;	/* that file's GNU build-id in hex; NULL: none */
	const char *note;	/* why a name is missing where a file is known; NULL */
};

/* A diagnosis' stacks resolved (frames parallel to ustack[]/kstack[]). */
struct tlob_diag_syms {
	struct tlob_frame ustack[TLOB_DIAG_USTACK];
	struct tlob_frame kstack[TLOB_DIAG_KSTACK];
	const char *unote;	/* about the user stack as a whole ("process gone"); NULL */
	const char *knote;	/* about the kernel stack (addresses hidden); NULL */
};

/*
 * The version of the JSON contract (docs/json/tlob.schema.json): raised
 * when a field changes its meaning or its type, or goes away; a new field
 * or object keeps it.
 */
#define TLOB_JSON_VERSION	1

/*
 * The first object of a JSON stream (tlob mon -j): the contract's version,
 * the tool's and the backend's name. The length, or -ENOSPC.
 */
int tlob_header_json(const char *backend, char *buf, size_t len);

/*
 * A violation's diagnosis (struct tlob_diag): the JSON object of the
 * contract ({"type":"diagnosis",...}, user/README.md), no newline; or the
 * indented lines printed under its VIOLATION line, each with a newline.
 * syms NULL: raw addresses only. The length, or -ENOSPC. No printf-family
 * call, as for records.
 */
int tlob_diag_json(const struct tlob_diag *d, const struct tlob_diag_syms *syms,
		   char *buf, size_t len);
int tlob_diag_text(const struct tlob_diag *d, const struct tlob_diag_syms *syms,
		   char *buf, size_t len);
/*
 * The line a diagnosis printed late starts with, in place of coming
 * right under its VIOLATION line: which violation (pid, tgid, binding,
 * the window's START).
 */
int tlob_diag_text_late(const struct tlob_diag *d, char *buf, size_t len);
/*
 * For an on-violation exec's environment: n frames one a line, as the
 * text shows them without "at " ("NAME+0xOFF (FILE)"; f NULL: addresses);
 * the tasks that ran instead one a line ("COMM-PID policy/prio TIME",
 * "none"). The length, or -ENOSPC.
 */
int tlob_frames_text(const __u64 *ips, const struct tlob_frame *f, unsigned int n,
		     char *buf, size_t len);
int tlob_ran_text(const struct tlob_diag *d, char *buf, size_t len);
/* SCHED_* policy -> "other", "fifo", ... ("?" unknown). */
const char *tlob_policy_name(unsigned int policy);
/* enum tlob_stack_when -> "none", "deadline", "deferred". */
const char *tlob_stack_when_name(unsigned int when);

/*
 * A section binding's summary and its log2 histogram: its filled buckets,
 * or (@with_zeros) every bucket from the first filled to the last.
 */
void tlob_section_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros);

#endif /* TLOB_OUTPUT_H */
