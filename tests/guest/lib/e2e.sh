# SPDX-License-Identifier: GPL-2.0
# Helpers of the end-to-end scenario suite (tests/guest/5*-e2e-*.t,
# tests/e2e/README.md), busybox ash. Sourced after tap.sh.
#
# A scenario (one line of lib/e2e-scenarios.tsv) runs ONCE, with both
# backends monitoring that same run: `tlob mon --backend kmod` and
# `tlob mon --backend bpf` are started side by side, so the module's and
# the BPF programs' uprobes and scheduler hooks see the very same events,
# and any difference between their records is the backends', not the
# emulator's scheduling noise between two runs.
#
# Records are flattened to one line each (REC_FIELDS, "-" for empty):
#   1 kind 2 tag 3 verdict 4 abort 5 pid 6 tgid 7 start 8 end 9 elapsed
#   10 running 11 waiting 12 sleeping 13 preemptions 14 sleeps 15 wakeups
#   16 detector 17 detect_latency 18 budget

E2E_TABLE=/opt/tlob/tests/lib/e2e-scenarios.tsv
E2E_OUT=/tmp/e2e
REC_FIELDS="kind_name tag verdict_name abort_reason_name pid tgid start_ns end_ns elapsed_ns running_ns waiting_ns sleeping_ns preemptions sleeps wakeups detector_name detect_latency_ns budget_ns"
mkdir -p "$E2E_OUT"

# e2e_prog NAME: the program of a table line's prog column
e2e_prog() {
	case $1 in
	workload) echo /opt/tlob/bin/tlob-workload ;;
	e2e) echo /opt/tlob/bin/e2e-work ;;
	*) echo "/nonexistent/$1" ;;
	esac
}

# e2e_has NAME CHECK: 0 if the scenario's checks column has CHECK
e2e_has() { case " $(e2e_col "$1" 6) " in *" $2 "*) return 0 ;; esac; return 1; }

# e2e_names: the scenario names, in table order
e2e_names() { grep -v '^#' "$E2E_TABLE" | grep -v '^$' | cut -f1; }

# e2e_col NAME N: column N of the scenario's line
e2e_col() { awk -F '\t' -v n="$1" -v c="$2" '$1 == n { print $c }' "$E2E_TABLE"; }

# e2e_flatten JSON-FILE: the record lines of a tlob mon --json stream,
# flattened (REC_FIELDS) and sorted by kind, tag, pid, start
e2e_flatten() {
	awk -v keys="$REC_FIELDS" '
	/^\{"type":"record"/ {
		n = split(keys, k, " ")
		out = ""
		for (i = 1; i <= n; i++) {
			v = ""
			if (match($0, "\"" k[i] "\":\"[^\"]*\"")) {
				v = substr($0, RSTART + length(k[i]) + 4, RLENGTH - length(k[i]) - 5)
			} else if (match($0, "\"" k[i] "\":[^,}]*")) {
				v = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 3)
			}
			if (v == "")
				v = "-"
			out = out (i > 1 ? " " : "") v
		}
		print out
	}' "$1" | sort -k1,1 -k2,2 -k5,5n -k7,7n
}

# e2e_summary REC-FILE [NAME]: KIND:TAG:VERDICT:ABORT:DOMINANT per record,
# sorted; with NAME, DOMINANT is "*" where the scenario's table line says so
e2e_summary() {
	awk -v wild="$([ -n "$2" ] && e2e_col "$2" 5)" '
	BEGIN {
		n = split(wild, w, " ")
		for (i = 1; i <= n; i++) {
			sub(/^[0-9]+\*/, "", w[i])
			if (w[i] ~ /:\*$/) { sub(/:\*$/, "", w[i]); star[w[i]] = 1 }
		}
	}
	{
		d = "running"
		if ($11 > $10 && $11 >= $12) d = "waiting"
		else if ($12 > $10 && $12 > $11) d = "sleeping"
		k = $1 ":" $2 ":" $3 ":" $4
		print k ":" (k in star ? "*" : d)
	}' "$1" | sort
}

# e2e_expect NAME: the expect column expanded (N*R -> N lines), sorted
e2e_expect() {
	for _r in $(e2e_col "$1" 5); do
		case $_r in
		*'*'*)
			_i=0
			while [ $_i -lt "${_r%%\**}" ]; do echo "${_r#*\*}"; _i=$((_i + 1)); done ;;
		*) echo "$_r" ;;
		esac
	done | sort
}

# e2e_mon_wait ERRFILE PID: until that tlob mon says it is monitoring
# (30 s at most: loading the BPF objects is slow under emulation); 1 if
# it died or never got there
e2e_mon_wait() {
	wait_line "$1" monitoring 30 "$2"
}

# e2e_run NAME BACKEND...: one run of the scenario's workload, monitored by
# every BACKEND at once. Leaves $E2E_OUT/NAME.BACKEND.{json,err,rc,rec}
# and $E2E_OUT/NAME.wpid (the workload's pid); returns 1 if a monitor did
# not come up (its .err says why). $E2E_THEN, if set, runs once every
# monitor is up, after the workload (50-e2e-scenarios: bpf_hold; not
# before it: on PREEMPT_RT a bind spends seconds registering its uprobes).
e2e_run() {
	_n=$1
	shift
	_prog=$(e2e_prog "$(e2e_col "$_n" 2)")
	_b=
	for _s in $(e2e_col "$_n" 4 | tr ';' ' '); do _b="$_b -b $_prog:$_s"; done
	_pids='' _up=0
	# The monitors load side by side (loading BPF under emulation takes
	# seconds), then the workload runs once all are monitoring.
	for _be in "$@"; do
		# shellcheck disable=SC2086
		: >"$E2E_OUT/$_n.$_be.err"	# before the child: e2e_mon_wait may read first
		tlob mon --backend "$_be" --json $_b >"$E2E_OUT/$_n.$_be.json" 2>"$E2E_OUT/$_n.$_be.err" &
		echo $! >"$E2E_OUT/$_n.$_be.pid"
		_pids="$_pids $!"
	done
	for _be in "$@"; do
		e2e_mon_wait "$E2E_OUT/$_n.$_be.err" "$(cat "$E2E_OUT/$_n.$_be.pid")" || _up=1
	done
	if [ $_up = 0 ]; then
		# shellcheck disable=SC2046
		"$_prog" $(e2e_col "$_n" 3) >"$E2E_OUT/$_n.out" 2>&1 &
		echo $! >"$E2E_OUT/$_n.wpid"
		wait $!
		${E2E_THEN:+$E2E_THEN}
		sleep 0.5
	fi
	for _p in $_pids; do kill -INT "$_p" 2>/dev/null; done
	for _be in "$@"; do
		wait "$(cat "$E2E_OUT/$_n.$_be.pid")"
		echo $? >"$E2E_OUT/$_n.$_be.rc"
		e2e_flatten "$E2E_OUT/$_n.$_be.json" >"$E2E_OUT/$_n.$_be.rec"
	done
	return $_up
}

# e2e_matches NAME BACKEND: 0 if the backend's records are the table's
e2e_matches() {
	[ "$(e2e_summary "$E2E_OUT/$1.$2.rec" "$1")" = "$(e2e_expect "$1")" ]
}

# e2e_check_table NAME BACKEND: the backend's records against the table
e2e_check_table() {
	_n=$1 _be=$2
	_r=$E2E_OUT/$_n.$_be.rec
	_w=$(cat "$E2E_OUT/$_n.wpid")
	is "$(cat "$E2E_OUT/$_n.$_be.rc")" 0 "$_n: $_be: tlob mon exits 0" ||
		sed 's/^/#   /' "$E2E_OUT/$_n.$_be.err"
	is "$(e2e_summary "$_r" "$_n" | tr '\n' ' ')" "$(e2e_expect "$_n" | tr '\n' ' ')" \
		"$_n: $_be: verdicts and dominant states as in the table" ||
		sed 's/^/#   /' "$_r"
	# Every violation is reported while its window is still open.
	_bad=$(awk '$1 == "window" { we[$2 " " $5 " " $7] = $8 }
		$1 == "violation" { v[$2 " " $5 " " $7] = $8 }
		END { for (k in v) if (!(k in we) || v[k] >= we[k]) n++; print n + 0 }' "$_r")
	is "$_bad" 0 "$_n: $_be: every violation reported before its window ended"
	for _c in $(e2e_col "$_n" 6); do
		case $_c in
		mainpid)
			is "$(awk '{ print $5 " " $6 }' "$_r" | sort -u | tr '\n' ' ')" "$_w $_w " \
				"$_n: $_be: every record is the workload process ($_w) itself" ;;
		pids=*)
			is "$(awk '$1 == "window" { print $5 }' "$_r" | sort -u | wc -l)" "${_c#pids=}" \
				"$_n: $_be: ${_c#pids=} tasks, each with its own windows"
			is "$(awk '{ print $6 }' "$_r" | sort -u | tr '\n' ' ')" "$_w " \
				"$_n: $_be: all of one process ($_w)" ;;
		nocarry)
			_bad=$(awk '$1 == "window" { print $7, $8, $9, $18, $3 }' "$_r" | sort -n | awk '
				NR > 1 && $1 <= pend { n++ }
				$5 == "ok" && $3 >= $4 { n++ }
				$5 != "ok" && $3 < $4 { n++ }
				{ pend = $2 } END { print n + 0 }')
			is "$_bad" 0 "$_n: $_be: windows in sequence, each timed from its own START" ;;
		preempt\>=*)
			_min=$(awk '$1 == "window" { print $13 }' "$_r" | sort -n | head -1)
			cmp_ok "${_min:-0}" -ge "${_c#preempt>=}" "$_n: $_be: every window preempted >= ${_c#preempt>=} times" ;;
		-|hog|spread-only) ;;
		*) ok 1 "$_n: unknown check '$_c' in the table" ;;
		esac
	done
}

# The agreement tolerance on the breakdown of one window seen by both
# backends in the same run: TOL_ABS_NS + TOL_PCT % of its elapsed time, per
# component (running, waiting, sleeping) and on elapsed itself. See
# tests/e2e/README.md for why, and for the spread measured.
: "${TOL_ABS_NS:=1000000}"
: "${TOL_PCT:=2}"
# Detection: the BPF backend's violation may come later than the module's
# (same run, same deadline) by at most its path's bound: for the bpf_timer
# (a soft timer, expired from the softirq the hard timer interrupt raises)
# LAT_SLACK_NS or the module's own lateness again, whichever is more (a
# stalled emulator delays both, measured: +0.6..+24 ms with the module
# itself 74 ms late); on PREEMPT_RT (timer-free sampling: at most one
# period late) the sampling period more.
: "${LAT_SLACK_NS:=20000000}"
: "${TLOB_BPF_SAMPLE_US:=1000}"

# e2e_pairs NAME: $E2E_OUT/NAME.pairs, one line per pair of records
# (module, BPF; same sort order):
#   window MAXDIFF ALLOWED |DSTART| |DPRE| |DSLEEPS| |DWAKEUPS| ELAPSED |DEND|
#   violation KMOD_LATENCY BPF_LATENCY KMOD_DETECTOR BPF_DETECTOR
e2e_pairs() {
	paste -d ' ' "$E2E_OUT/$1.kmod.rec" "$E2E_OUT/$1.bpf.rec" | awk -v abs="$TOL_ABS_NS" -v pct="$TOL_PCT" '
	function d(a, b) { return a > b ? a - b : b - a }
	$1 == "window" {
		m = d($9, $27)
		if (d($10, $28) > m) m = d($10, $28)
		if (d($11, $29) > m) m = d($11, $29)
		if (d($12, $30) > m) m = d($12, $30)
		printf "window %d %d %d %d %d %d %d %d\n", m, d($7, $25) + d($8, $26) + abs + $9 * pct / 100,
			d($7, $25), d($13, $31), d($14, $32), d($15, $33), $9, d($8, $26)
	}
	$1 == "violation" { print "violation", $17, $35, $16, $34 }' >"$E2E_OUT/$1.pairs"
}

# e2e_verdicts REC-FILE: the records without the dominant state, sorted
e2e_verdicts() { awk '{ print $1 ":" $2 ":" $3 ":" $4 }' "$1" | sort; }

# e2e_agree NAME: 0 unless both backends gave the same records (kinds,
# verdicts, abort reasons) but a window breakdown beyond the tolerance or
# a dominant state off the table (silent; decides a rerun: a verdict
# disagreement is never rerun)
e2e_agree() {
	[ "$(e2e_verdicts "$E2E_OUT/$1.kmod.rec")" = "$(e2e_verdicts "$E2E_OUT/$1.bpf.rec")" ] || return 0
	e2e_matches "$1" bpf || return 1
	e2e_has "$1" spread-only && return 0
	e2e_pairs "$1"
	! awk '$1 == "window" && $2 > $3' "$E2E_OUT/$1.pairs" | grep -q .
}

# e2e_check_equiv NAME: the module's records against the BPF backend's
# (same run): same verdicts and dominant states, window breakdowns within
# the tolerance, the same counts, detection within the bound. Prints one
# "# spread ..." line with the measured differences.
e2e_check_equiv() {
	_n=$1
	_k=$E2E_OUT/$_n.kmod.rec _f=$E2E_OUT/$_n.bpf.rec
	is "$(e2e_summary "$_f" "$_n" | tr '\n' ' ')" "$(e2e_summary "$_k" "$_n" | tr '\n' ' ')" \
		"$_n: kmod and bpf: the same records, verdicts and dominant states" || return 1
	# One line per pair: the largest |difference| of a breakdown component,
	# the allowed one, and the count and latency differences.
	e2e_pairs "$_n"
	# bpf - kmod of start, end, running, waiting, sleeping (us), per window
	paste -d ' ' "$_k" "$_f" | awk -v n="$_n" -v lane="$TLOB_LANE" '$1 == "window" {
		printf "# pair lane=%s scenario=%s elapsed_us=%d d_start_us=%d d_end_us=%d d_run_us=%d d_wait_us=%d d_sleep_us=%d pre=%d/%d\n",
			lane, n, $9 / 1000, ($25 - $7) / 1000, ($26 - $8) / 1000, ($28 - $10) / 1000,
			($29 - $11) / 1000, ($30 - $12) / 1000, $13, $31 }'
	# Beyond the tolerance: listed here, counted lane-wide (e2e_tally_check):
	# a stall between the two probes of one switch hits single windows at
	# random, a backend that books time differently hits most of them.
	_bad=$(awk '$1 == "window" && $2 > $3' "$E2E_OUT/$_n.pairs" | wc -l)
	_all=$(grep -c '^window' "$E2E_OUT/$_n.pairs")
	if e2e_has "$_n" spread-only; then
		diag "$_n: breakdown agreement not checked (spread-only): $_bad of $_all windows beyond the tolerance"
	else
		echo "$_n $_bad $_all" >>"$E2E_OUT/tally"
		[ "$_bad" = 0 ] ||
			awk -v n="$_n" '$1 == "window" && $2 > $3 { print "# beyond the tolerance: " n " diff_ns=" $2 " allowed_ns=" $3 }' "$E2E_OUT/$_n.pairs"
	fi
	# A count may differ only by switches that fell between the two
	# handlers of a window edge: two per edge whose handlers are >= 30 us
	# apart, plus one per ms of such gaps. Without a switch between them
	# the two handlers are 10-20 us apart in this guest; a switch out and
	# back in between takes longer (measured: +1 with the two STOP
	# handlers 38 us apart on stock, and on rt 77-96 us apart around a
	# preemption of 30-50 us; +1 at 0.7 ms with 4 threads sharing a CPU;
	# on rt +2 preemptions and a sleep/wakeup at 3.6 ms).
	_bad=$(awk '$1 == "window" {
		m = $5; if ($6 > m) m = $6; if ($7 > m) m = $7
		a = 2 * (($4 >= 30000) + ($9 >= 30000)) + int(($4 + $9) / 1000000)
		if (m > a) n++
	} END { print n + 0 }' "$E2E_OUT/$_n.pairs")
	is "$_bad" 0 "$_n: kmod and bpf: the same preemptions, sleeps and wakeups per window (but for switches between an edge's two handlers)" ||
		paste -d ' ' "$_k" "$_f" | awk '$1 == "window" { print "#   kmod p/s/w=" $13 "/" $14 "/" $15 " bpf=" $31 "/" $32 "/" $33 }'
	if grep -q '^violation' "$E2E_OUT/$_n.pairs"; then
		case $BPF_DETECTOR in
		sampling) _bound=$((TLOB_BPF_SAMPLE_US * 1000 + LAT_SLACK_NS)) _path="sampling period + slack" ;;
		*) _bound=$LAT_SLACK_NS _path="bpf_timer slack" ;;
		esac
		# A SCHED_FIFO hog on the task's CPU: the bpf_timer is a soft
		# timer, and once softirqs are deferred to ksoftirqd (SCHED_OTHER)
		# it runs only when the hog lets go, so the bound is the hog's
		# end: the module's record of how long the task waited.
		if e2e_has "$_n" hog && [ "$BPF_DETECTOR" = bpf_timer ]; then
			_bound=$(awk '$1 == "window" { print $11 - $18 + s; exit }' s="$LAT_SLACK_NS" "$_k")
			_path="the hog's end: bpf_timer is soft"
		fi
		_bad=$(awk -v b="$_bound" '$1 == "violation" && $3 - $2 > (b > $2 ? b : $2)' "$E2E_OUT/$_n.pairs" | wc -l)
		is "$_bad" 0 "$_n: bpf detects at most max($((_bound / 1000)) us, the module's latency) after the module ($_path)" ||
			awk '$1 == "violation" { print "#   kmod_ns=" $2 " bpf_ns=" $3 }' "$E2E_OUT/$_n.pairs"
		is "$(awk '$1 == "violation" { print $4 }' "$E2E_OUT/$_n.pairs" | sort -u)" hrtimer \
			"$_n: kmod: detected by the hrtimer"
		case $BPF_DETECTOR in
		sampling) _want="sample|sched" ;;
		*) _want="bpf_timer|sched" ;;
		esac
		_got=$(awk '$1 == "violation" { print $5 }' "$E2E_OUT/$_n.pairs" | sort -u | tr '\n' ' ')
		_bad=$(awk '$1 == "violation" { print $5 }' "$E2E_OUT/$_n.pairs" | grep -cvE "^($_want)\$")
		is "$_bad" 0 "$_n: bpf: detected by $_want ($_got)"
	fi
	awk -v n="$_n" -v lane="$TLOB_LANE" '
	$1 == "window" { w++; if ($2 > m) m = $2; if ($8 > 0 && $2 * 10000 / $8 > r) r = $2 * 10000 / $8
		if ($4 > s) s = $4 }
	$1 == "violation" { v++; l = $3 - $2; if (v == 1 || l > lm) lm = l }
	END { printf "# spread lane=%s scenario=%s windows=%d max_diff_ns=%d max_diff_pct=%.2f max_start_diff_ns=%d", lane, n, w, m, r / 100, s
		if (v) printf " violations=%d max_bpf_minus_kmod_latency_ns=%d", v, lm
		printf "\n" }' "$E2E_OUT/$_n.pairs"
}

# e2e_tally_check: the breakdowns of at most E2E_OUTLIER_PCT % of all the
# windows compared on this lane (at least one) are beyond the tolerance
: "${E2E_OUTLIER_PCT:=10}"
e2e_tally_check() {
	[ -f "$E2E_OUT/tally" ] || { skip "no window compared between the backends"; return 0; }
	_bad=$(awk '{ n += $2 } END { print n + 0 }' "$E2E_OUT/tally")
	_all=$(awk '{ n += $3 } END { print n + 0 }' "$E2E_OUT/tally")
	_max=$((_all * E2E_OUTLIER_PCT / 100))
	[ "$_max" -ge 1 ] || _max=1
	diag "breakdown beyond the tolerance: $_bad of $_all windows ($(awk '$2 > 0 { printf "%s:%d ", $1, $2 }' "$E2E_OUT/tally"))"
	cmp_ok "$_bad" -le "$_max" "kmod and bpf: window breakdowns within |d_start| + |d_end| + $((TOL_ABS_NS / 1000)) us + $TOL_PCT % for all but $E2E_OUTLIER_PCT % of the $_all windows (at most $_max)"
}
