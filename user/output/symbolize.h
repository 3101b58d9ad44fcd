/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names for the addresses of a violation's diagnosis (struct tlob_diag):
 * user stacks through libdwfl (elfutils) on the live process, kernel
 * stacks through libtraceevent's reading of /proc/kallsyms.
 *
 * User stacks: dwfl_linux_proc_report() on the diagnosis' tgid, when the
 * diagnosis arrives (a violation and its diagnosis wake the reader at
 * once, so the process is normally alive), cached per process and
 * reported again when an address falls in no module it knows (a library
 * loaded since). Each module's file is checked against the one the
 * process mapped (/proc/TGID/map_files: the same inode, the same GNU
 * build-id): a file replaced on disk since gets no names, and a note
 * saying so, instead of the names of another build. A process that is
 * gone, and was not cached, gets raw addresses and a note: no guessing.
 *
 * Kernel stacks: /proc/kallsyms, read once per symbolizer
 * (tep_parse_kallsyms()), looked up with tep_find_function() and
 * tep_find_function_address(); addresses hidden by kptr_restrict give
 * raw addresses. It is read at the first kernel frame to name, not at the
 * start: 200k lines, 1.4 s of CPU under emulation, that sessions which
 * never see a violation would pay. A reader that must not wait that long
 * names its diagnoses in a thread of its own (diag_worker.h).
 *
 * One thread at a time per symbolizer.
 */
#ifndef TLOB_SYMBOLIZE_H
#define TLOB_SYMBOLIZE_H

#include <stdbool.h>

#include "output/output.h"

struct tlob_symbolizer;

/* NULL on ENOMEM only: what cannot be read later gives raw addresses. */
struct tlob_symbolizer *tlob_symbolizer_new(void);
void tlob_symbolizer_free(struct tlob_symbolizer *s);

/*
 * Kernel names from another file in /proc/kallsyms' format (tests);
 * called before they are read. path must outlive s.
 */
void tlob_symbolizer_kallsyms(struct tlob_symbolizer *s, const char *path);

/* true once the kernel names are read (or known to be missing). */
bool tlob_symbolizer_kernel_read(const struct tlob_symbolizer *s);

/*
 * d's stacks into syms: every frame gets its ip, and a name, file,
 * build-id or note where known. The strings stay valid until the next
 * call or tlob_symbolizer_free(). tlob_symbolize() does both halves:
 * the user stack (from the live process: while it is there), then the
 * kernel's (reading the names the first time). A kernel half's strings
 * stay valid until tlob_symbolizer_free().
 */
void tlob_symbolize(struct tlob_symbolizer *s, const struct tlob_diag *d,
		    struct tlob_diag_syms *syms);
void tlob_symbolize_user(struct tlob_symbolizer *s, const struct tlob_diag *d,
			 struct tlob_diag_syms *syms);
void tlob_symbolize_kernel(struct tlob_symbolizer *s, const struct tlob_diag *d,
			   struct tlob_diag_syms *syms);

#endif /* TLOB_SYMBOLIZE_H */
