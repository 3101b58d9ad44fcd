#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt
#   both backends at once under PREEMPT_RT
# The end-to-end scenario suite (tests/e2e/README.md): every scenario of
# lib/e2e-scenarios.tsv runs once on this lane's kernel, monitored by the
# module (tlob mon --backend kmod) and the BPF backend (--backend bpf) at
# the same time. Each backend's records are checked against the table
# (verdicts, dominant state, extra checks), then against each other:
# same records, window breakdowns within the stated tolerance, same
# preemption/sleep/wakeup counts, and the BPF detection no later than its
# path's stated bound after the module's hrtimer. The stock and rt lanes
# give the four kernel x backend combinations.
#   E2E_ONLY="name ..."      run only these scenarios
#   E2E_BACKENDS="kmod|bpf"  one backend only (no equivalence checks)
# or, from the kernel command line (tests/harness/run-lane --append):
#   e2e.only=name,name e2e.backends=bpf
# The module's records are also the reference for the run itself: if they
# differ from the table, or the two backends' breakdowns differ beyond the
# tolerance, the emulated guest may have been disturbed and the scenario
# runs once more (said in a diag line); see tests/e2e/README.md.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/bpf.sh
. /opt/tlob/tests/lib/hold.sh
. /opt/tlob/tests/lib/e2e.sh

cmdarg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tr , ' '; }
: "${E2E_ONLY:=$(cmdarg e2e.only)}"
: "${E2E_BACKENDS:=$(cmdarg e2e.backends)}"

tool_module_up || bail_out "cannot load $TLOB_KO"
rm -f "$E2E_OUT/tally"
BES=
for B in ${E2E_BACKENDS:-kmod bpf}; do
	if why=$(backend_usable "$B"); then
		BES="$BES $B"
		tlob unbind -a --backend "$B" >/dev/null 2>&1
	else
		diag "$B backend not usable here: $why"
	fi
done
[ -n "$BES" ] || skip_all "no usable backend"

# The first scenario's BPF session loads the monitor and a hold joins it;
# the others find it up (each session's own load took 4 to 8 s here).
case "$BES" in
*bpf*) E2E_THEN="bpf_hold_if bpf" ;;
esac
for S in ${E2E_ONLY:-$(e2e_names)}; do
	t0=$(date +%s)
	# shellcheck disable=SC2086
	if ! e2e_run "$S" $BES; then
		ok 1 "$S: every backend monitoring ($BES)"
		for B in $BES; do sed "s/^/#   $B: /" "$E2E_OUT/$S.$B.err"; done
		continue
	fi
	[ -z "${BPF_HELD-}" ] || E2E_THEN=
	# The module is the reference: if even its records differ from the
	# table, the run was disturbed (the emulator's vCPU thread stalled by
	# the loaded host makes a 20 ms spin take 200 ms of guest time), so the
	# scenario runs once more. Likewise when the backends give the same
	# verdicts but their breakdowns differ by more than the tolerance (or
	# only BPF's dominant state is off the table, a near tie): a stall
	# between the module's and the BPF probe of one event shifts time
	# between states in one backend only, so only a difference that repeats
	# counts. Different verdicts are never retried.
	again=
	case " $BES " in
	*" kmod "*)
		e2e_matches "$S" kmod || again="the module's records differ from the table" ;;
	esac
	case "$BES" in
	*kmod*bpf*)
		[ -n "$again" ] || e2e_agree "$S" ||
			again="same verdicts, but the BPF dominant state is off the table or a breakdown differs beyond the tolerance" ;;
	esac
	if [ -n "$again" ]; then
		diag "$S: $again, running it once more; first run:"
		for B in $BES; do sed "s/^/#   $B: /" "$E2E_OUT/$S.$B.rec"; done
		# shellcheck disable=SC2086
		e2e_run "$S" $BES
	fi
	for B in $BES; do
		e2e_check_table "$S" "$B"
	done
	case "$BES" in
	*kmod*bpf*) e2e_check_equiv "$S" ;;
	*) skip "$S: backend equivalence needs both backends (have:$BES)" ;;
	esac
	diag "$S: $(($(date +%s) - t0)) s: $(tr '\n' ' ' <"$E2E_OUT/$S.out")"
done
if [ -n "${BPF_HELD-}" ]; then
	bpf_release
fi
case "$BES" in
*kmod*bpf*) e2e_tally_check ;;
esac
for B in $BES; do
	tool_clean_state "$B"
	ok $? "$B: no binding, monitor disabled, no trace instance left"
done
tool_module_down
tool_cleanup
done_testing
