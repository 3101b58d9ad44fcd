/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parse one line of the module's `stats` file (the control-tree
 * contract, kernel/shared/README.md).
 */
#ifndef TLOB_KMOD_STATS_H
#define TLOB_KMOD_STATS_H

#include "backend.h"

/*
 * "id=<n> path=<PATH> start=0x<x> stop=0x<x>|ret tag=<tag or -> windows=<n>
 *  violations=<n> errors=<n> aborted=<n> min_ns=<n> max_ns=<n> mean_ns=<n>
 *  sum_ns=<n> hist=<i>:<count>,..." -> st. 0 or -EINVAL.
 */
int tlob_kmod_stats_parse(const char *line, struct tlob_binding_stats *st);

#endif /* TLOB_KMOD_STATS_H */
