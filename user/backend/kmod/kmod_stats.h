/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parse one line of the module's `stats` file (the control-tree
 * contract, kernel/shared/README.md).
 */
#ifndef TLOB_KMOD_STATS_H
#define TLOB_KMOD_STATS_H

#include "backend/backend.h"

/*
 * "id=<n> path=<PATH> start=0x<x> stop=0x<x>|ret tag=<tag or -> windows=<n>
 *  violations=<n> errors=<n> aborted=<n> min_ns=<n> max_ns=<n> mean_ns=<n>
 *  sum_ns=<n> hist=<i>:<count>,..." -> st; or an alive binding's
 * "id=<n> kind=alive path=<PATH> start=0x<x> tag=<tag or -> period=<ns>
 *  expect=<n> margin=<n> per=process|task tolerance=K/W holders=..
 *  cycles=<n> too_few=<n> too_many=<n> tolerated=<n> aborted=<n> errors=<n>
 *  dropped=<n> instances=<n> min_checkpoints=<n> max_checkpoints=<n>
 *  sum_checkpoints=<n>" -> st with spec.alive and st->alive. 0 or -EINVAL
 * (also for a kind= other than alive: its counts mean something else).
 */
int tlob_kmod_stats_parse(const char *line, struct tlob_binding_stats *st);

#endif /* TLOB_KMOD_STATS_H */
