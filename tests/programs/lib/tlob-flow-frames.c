// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-flow's frame events, frame_begin and frame_end: compiled into
 * tlob-flow itself, and alone into libtlob-flow.so, the library that
 * tlob-flow-split (the same program, built with TLOB_FLOW_SPLIT) calls
 * them in, so that a model's events lie in two files (an application
 * and its library: `l` lines' file1=, tlob mon --model -e EVENT=LIB:SYM).
 * Each counts its calls in *@n; noinline, global, a nop first, as
 * tlob-flow.c's other events (their offsets are written at build time),
 * and each with a counter of its own too, so that no two bodies are one
 * (the compiler would fold them into one place).
 */
#define TLOB_FLOW_EVENT __attribute__((noinline, used, visibility("default")))

static unsigned long flow_begins, flow_ends;

TLOB_FLOW_EVENT void frame_begin(unsigned long *n)
{
	__asm__ volatile("nop" ::: "memory");
	__atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&flow_begins, 1, __ATOMIC_RELAXED);
}

TLOB_FLOW_EVENT void frame_end(unsigned long *n)
{
	__asm__ volatile("nop" ::: "memory");
	__atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&flow_ends, 1, __ATOMIC_RELAXED);
}
