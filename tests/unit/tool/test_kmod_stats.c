// SPDX-License-Identifier: GPL-2.0
/* The module's stats line (kernel/README.md, `stats`) -> struct tlob_binding_stats. */
#include <errno.h>

#include "backend/kmod/kmod_stats.h"
#include "tap.h"
#include "tlob_parse.h"

int main(void)
{
	struct tlob_binding_stats st;
	int ret;

	ret = tlob_kmod_stats_parse("id=3 path=/opt/my app/bin start=0x1139 stop=ret tag=frame "
				    "threshold=5000000 min=40000 windows=10 violations=2 errors=1 aborted=3 early=6 dropped=5 min_ns=1000 "
				    "max_ns=9000000 mean_ns=500000 sum_ns=5000000 "
				    "hist=9:1,19:7,23:2", &st);
	tap_ok(ret == 0, "full line parses");
	tap_is_u64(st.spec.id, 3, "id");
	tap_is_str(st.spec.path, "/opt/my app/bin", "path with a space");
	tap_is_u64(st.spec.start, 0x1139, "start");
	tap_ok(st.spec.stop_is_ret, "stop=ret");
	tap_is_str(st.spec.tag, "frame", "tag");
	tap_is_u64(st.stats.windows, 10, "windows");
	tap_is_u64(st.stats.violations, 2, "violations");
	tap_is_u64(st.stats.errors, 1, "errors");
	tap_is_u64(st.stats.aborted, 3, "aborted");
	tap_is_u64(st.stats.early, 6, "early");
	tap_is_u64(st.stats.dropped, 5, "dropped");
	tap_is_u64(st.spec.budget_ns, 5000000, "threshold");
	tap_is_u64(st.spec.min_ns, 40000, "min (the section's minimum, not min_ns)");
	tap_is_u64(st.stats.min_ns, 1000, "min_ns");
	tap_is_u64(st.stats.max_ns, 9000000, "max_ns");
	tap_is_u64(st.mean_ns, 500000, "mean_ns");
	tap_is_u64(st.stats.sum_ns, 5000000, "sum_ns");
	tap_ok(st.stats.hist[9] == 1 && st.stats.hist[19] == 7 && st.stats.hist[23] == 2 &&
	       st.stats.hist[10] == 0,
	       "hist buckets 9, 19, 23");

	ret = tlob_kmod_stats_parse("id=4 path=/bin/x start=0x10 stop=0x20 tag=- windows=0 "
				    "violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 "
				    "sum_ns=0 hist=", &st);
	tap_ok(ret == 0 && st.spec.stop == 0x20 && !st.spec.stop_is_ret && !st.spec.tag[0],
	       "empty hist, tag=- is no tag, numeric stop");
	tap_ok(tlob_kmod_stats_parse("id=5 path=/bin/x start=0x10 stop=0x20 hist=64:1", &st) != 0,
	       "bucket 64 rejected");
	/* Shared bindings: the budget and the holders. */
	ret = tlob_kmod_stats_parse("id=6 path=/bin/x start=0x10 stop=0x20 tag=- threshold=5000000 "
				    "holders=monitor,812:tlob,90:a?b windows=0 hist=", &st);
	tap_ok(ret == 0, "a line with threshold= and holders= parses");
	tap_is_u64(st.spec.budget_ns, 5000000, "threshold= is the budget");
	tap_is_str(st.spec.holders, "monitor,812:tlob,90:a?b", "holders= as listed");
	ret = tlob_kmod_stats_parse("id=7 path=/bin/x start=0x10 stop=0x20 windows=0 hist=", &st);
	tap_ok(ret == 0 && !st.spec.budget_ns && !st.spec.holders[0],
	       "an older module's line: budget and holders unknown");
	/* An alive binding's line (kernel/module/tlob_listing.c): its own counts. */
	ret = tlob_kmod_stats_parse("id=8 kind=alive path=/opt/my app/bin start=0x1234 tag=hb "
				    "period=100000000 expect=10 margin=2 per=task tolerance=2/5 "
				    "holders=monitor,812:tlob cycles=120 too_few=3 too_many=1 "
				    "tolerated=2 aborted=4 errors=0 dropped=5 instances=6 "
				    "min_checkpoints=7 max_checkpoints=13 sum_checkpoints=1190", &st);
	tap_ok(ret == 0, "alive: the line parses");
	tap_ok(st.spec.alive, "alive: kind=alive");
	tap_is_u64(st.spec.id, 8, "alive: id");
	tap_is_str(st.spec.path, "/opt/my app/bin", "alive: path with a space");
	tap_is_u64(st.spec.start, 0x1234, "alive: the checkpoint");
	tap_is_str(st.spec.tag, "hb", "alive: tag");
	tap_is_u64(st.spec.period_ns, 100000000, "alive: period");
	tap_is_u64(st.spec.expect, 10, "alive: expect");
	tap_is_u64(st.spec.margin, 2, "alive: margin");
	tap_is_u64(st.spec.per, TLOB_PER_TASK, "alive: per=task");
	tap_ok(st.spec.tol_k == 2 && st.spec.tol_w == 5, "alive: tolerance 2/5");
	tap_is_str(st.spec.holders, "monitor,812:tlob", "alive: holders");
	tap_is_u64(st.alive.cycles, 120, "alive: cycles");
	tap_is_u64(st.alive.too_few, 3, "alive: too_few");
	tap_is_u64(st.alive.too_many, 1, "alive: too_many");
	tap_is_u64(st.alive.tolerated, 2, "alive: tolerated (the alive count)");
	tap_is_u64(st.alive.aborted, 4, "alive: aborted (the alive count)");
	tap_is_u64(st.alive.dropped, 5, "alive: dropped (the alive count)");
	tap_is_u64(st.alive.instances, 6, "alive: instances");
	tap_is_u64(st.alive.min_checkpoints, 7, "alive: min_checkpoints");
	tap_is_u64(st.alive.max_checkpoints, 13, "alive: max_checkpoints");
	tap_is_u64(st.alive.sum_checkpoints, 1190, "alive: sum_checkpoints");
	tap_ok(!st.stats.windows && !st.stats.aborted && !st.stats.tolerated &&
	       !st.stats.dropped && !st.spec.budget_ns && !st.spec.stop && !st.spec.stop_is_ret,
	       "alive: nothing in a section's counts or terms");
	ret = tlob_kmod_stats_parse("id=8 kind=alive path=/a start=0x10 tag=- period=100000 "
				    "expect=1 margin=0 per=process tolerance=1/1 cycles=0", &st);
	tap_ok(ret == 0 && st.spec.alive && st.spec.per == TLOB_PER_PROCESS && !st.spec.tag[0],
	       "alive: per=process, tag=-");
	tap_ok(tlob_kmod_stats_parse("id=8 kind=alive path=/a start=0x10 per=thread", &st) != 0,
	       "alive: per= neither process nor task rejected");
	tap_ok(tlob_kmod_stats_parse("id=8 kind=alive path=/a start=0x10 expect=4294967296",
				     &st) != 0, "alive: expect beyond 32 bits rejected");
	tap_ok(tlob_kmod_stats_parse("id=8 kind=logical path=/a start=0x10", &st) == -EINVAL,
	       "a kind this tool does not know is rejected, not read as a section");
	ret = tlob_kmod_stats_parse("id=9 path=/x kind=alive/bin start=0x10 stop=0x20 windows=3 "
				    "hist=", &st);
	tap_ok(ret == 0 && !st.spec.alive && !strcmp(st.spec.path, "/x kind=alive/bin") &&
	       st.stats.windows == 3, "kind=alive inside a path is the path's");

	/* What the module writes, and nothing else: a hostile or broken line is refused. */
	{
		static const char *const bad[] = {
			"id=1 path=/a start=0x10 stop=0x20 windows=-1",
			"id=1 path=/a start=0x10 stop=0x20 windows=+1",
			"id=1 path=/a start=0x10 stop=0x20 windows=\v1",
			"id=1 path=/a start=0x10 stop=0x20 windows=0x10",
			"id=1 path=/a start=0x10 stop=0x20 windows=18446744073709551616",
			"id=4294967297 path=/a start=0x10 stop=0x20",
			"id=1 path=/a start=0x10 stop=0x20 hist=9:1,,19:7",
			"id=1 path=/a start=0x10 stop=0x20 hist=9:1,",
			"id=1 path=/a start=0x10 stop=0x20 hist=,9:1",
			"id=1 path=/a start=0x10 stop=0x20 hist=9: 1",
			"id=1 path=/a start=0x10 stop=0x20 hist=+9:1",
			"id=1 path=/a start=0x10 stop=0x20 hist=9:-1",
			"id=1 path=/a start=0x10 stop=0x20 tag=abcdefghijklmnopq",
			"id=1 path=/a start=0x10 stop=0x20 tag=a/b",
			"id=1 path=/a start=0x10 stop=0x20 tag=",
			"id=1 path=/a start=0x10 stop=0x20 tolerance=1/2\n windows=1",
			"id=1 path=/a start=0x10 stop=0x20  windows=1",
			"id=1 path=/a start=0x10 stop=0x0x20",
			"id=1 path=/a start=-0x10 stop=0x20",
			"id=1 kind=alive path=/a start=0x10 expect=+3",
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char name[160];

			snprintf(name, sizeof(name), "refused: '%s'", bad[i]);
			tap_ok(tlob_kmod_stats_parse(bad[i], &st) == -EINVAL, name);
		}
	}
	ret = tlob_kmod_stats_parse("id=4294967295 path=/a start=0x10 stop=0x20 windows="
				    "18446744073709551615 hist=63:5\n", &st);
	tap_ok(ret == 0 && st.spec.id == 4294967295U && st.stats.windows == UINT64_MAX &&
	       st.stats.hist[63] == 5, "the largest values, and the listing's newline, read");
	tap_ok(tlob_kmod_stats_parse("garbage", &st) != 0, "garbage rejected");
	tap_ok(tlob_kmod_stats_parse("path=/bin/x start=0x10 stop=0x20", &st) != 0,
	       "line without id rejected");
	return tap_done();
}
