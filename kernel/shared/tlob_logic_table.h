/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A logical binding's table (an `l` line's automaton, a user's model):
 * what the parser fills (tlob_parse.c), tlob_logic_check() accepts
 * (tlob_logic.h) and every backend runs (tlob_logic_step.h: the module's
 * tlob_logic.c, the BPF programs' tlob_logic.bpf.h, which get it through a
 * map). Fixed-size, no pointer: the same bytes on every side.
 */
#ifndef TLOB_LOGIC_TABLE_H
#define TLOB_LOGIC_TABLE_H

#ifdef __KERNEL__
#include <linux/types.h>
#elif !defined(__VMLINUX_H__)
#include "tlob_host_shim.h"
#endif
#include "tlob_abi.h"

/*
 * A logical binding's automaton (an `l` line), checked by
 * tlob_logic_check() before anything uses it: next[s][e] is the state
 * event e leads to from state s, TLOB_LOGIC_NONE where the model has no
 * edge (the event is a violation there).
 */
struct tlob_logic_table {
	u8 nstates, nevents, initial;
	u8 nfiles;			/* 1..TLOB_LOGIC_FILES_MAX */
	u16 nedges;
	u32 final;			/* bit s: state s is final */
	u8 next[TLOB_LOGIC_STATES_MAX][TLOB_LOGIC_EVENTS_MAX];
	/*
	 * The model's one clock, clock[0] '\0' when it has none. It starts
	 * at an instance's first event; the edge (s,e) resets it when bit e
	 * of reset[s] is set, and is taken only while it reads lo[s][e] ns
	 * or more and less than hi[s][e] ns (0: no bound). State s may be
	 * held only while the clock reads less than inv[s] ns (0: no
	 * invariant): the module arms a timer for it. All zero: no clock,
	 * no reset, no guard, no invariant; a table with none is the table
	 * of a model without time, byte for byte.
	 */
	u16 reset[TLOB_LOGIC_STATES_MAX];
	u64 lo[TLOB_LOGIC_STATES_MAX][TLOB_LOGIC_EVENTS_MAX];
	u64 hi[TLOB_LOGIC_STATES_MAX][TLOB_LOGIC_EVENTS_MAX];
	u64 inv[TLOB_LOGIC_STATES_MAX];
	char clock[TLOB_LOGIC_NAME_MAX + 1];
	/*
	 * Event e is a uprobe at ELF file offset offset[e] of file file[e]:
	 * 0 is the line's PATH, 1..nfiles - 1 its file1= .. (the paths are
	 * the binding's, not the table's: no backend's step reads them).
	 */
	u64 offset[TLOB_LOGIC_EVENTS_MAX];
	u8 file[TLOB_LOGIC_EVENTS_MAX];
	char model[TLOB_LOGIC_NAME_MAX + 1];
	char state[TLOB_LOGIC_STATES_MAX][TLOB_LOGIC_NAME_MAX + 1];
	char event[TLOB_LOGIC_EVENTS_MAX][TLOB_LOGIC_NAME_MAX + 1];
};

#endif /* TLOB_LOGIC_TABLE_H */
