# SPDX-License-Identifier: GPL-2.0
# Helpers for the tool's guest tests (2*-tool-*.t), busybox ash. Installed
# as /opt/tlob/bin/tool.sh (user/user.mk adds it to VM_DEPS).
#
# Every tool test runs once per backend in $BACKENDS (default "kmod bpf");
# a backend that `tlob list` reports unusable is skipped with its reason.

W=/opt/tlob/bin/tlob-workload
OFFSETS=/opt/tlob/bin/tlob-workload.offsets
: "${BACKENDS:=kmod bpf}"
# The tool's progress lines with timestamps (stderr): when a step is slow
# under emulation, the failing test's diag shows which.
export TLOB_VERBOSE=1
T=/tmp/tool-test.$$
mkdir -p "$T"

# off SYMBOL: the workload symbol's ELF file offset, in decimal (from the build).
off() { printf '%d' "$(awk -v s="$1" '$1 == s { print $2 }' "$OFFSETS")"; }
# hex N: N as JSON writes an offset ("start", "stop"): 0x and lowercase hex.
hex() { printf '0x%x' "$1"; }

# jget JSON KEY: the value of KEY in a flat JSON object (strings unquoted).
jget() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\(\"\([^\"]*\)\"\|\([^,}]*\)\).*/\2\3/p"
}

# jlines FILE TYPE [KEY VALUE]...: the JSON lines of FILE of that type
# (and with those key values). grep only: streams have thousands of lines.
jlines() {
	_f=$1 _t=$2
	shift 2
	grep "^{\"type\":\"$_t\"" "$_f" | _jfilter "$@"
}
_jfilter() {
	if [ $# -lt 2 ]; then
		cat
		return
	fi
	_k=$1 _v=$2
	shift 2
	grep -E "\"$_k\":(\"$_v\"|$_v)[,}]" | _jfilter "$@"
}

# Load the module unless loaded; unload at the end only if we loaded it.
module_loaded() { grep -q '^tlob ' /proc/modules; }
tool_module_up() {
	module_loaded && return 0
	insmod "$TLOB_KO" && _we_loaded=1
}
tool_module_down() {
	[ -n "${_we_loaded:-}" ] && rmmod tlob
	_we_loaded=
}

# backend_begin NAME: start one backend's round of a tool test: skip it
# (return 1) when `tlob list` calls it unusable, and start from no binding.
backend_begin() {
	if ! _why=$(backend_usable "$1"); then
		skip "$1 backend not usable: $_why"
		return 1
	fi
	tlob unbind -a --backend "$1" >/dev/null 2>&1
	return 0
}

# tool_list: `tlob list --json`, asked once per script (once with the
# module loaded, once without) and kept in $T. Listing the BPF backend
# loads and verifies its programs where no monitor is pinned (seconds
# under emulation), and what a backend is and can do (usable, its
# detector, transitions) stays the same while a script runs, but for the
# module backend being loaded or not.
tool_list() {
	_lf=$T/list.json.$(module_loaded && echo loaded || echo unloaded)
	[ -s "$_lf" ] || tlob list --json >"$_lf" 2>/dev/null
	cat "$_lf"
}

# backend_usable NAME: 0 if tlob list says so; the reason on stdout if not.
backend_usable() {
	_l=$(tool_list | grep "\"name\":\"$1\"")
	case "$_l" in
	*'"usable":true'*) return 0 ;;
	esac
	echo "${_l:+$(jget "$_l" reason)}"
	return 1
}

# no leftovers: no binding, monitor disabled, no private trace instance;
# while a script holds the BPF monitor (bpf_hold, tests/lib/hold.sh): the
# hold's binding alone, the monitor enabled.
tool_clean_state() {
	_s=$(tlob status --json --backend "$1" 2>/dev/null | head -1)
	_nb=0 _en=false
	if [ "$1" = bpf ] && [ -n "${BPF_HELD-}" ]; then
		_nb=1 _en=true
	fi
	[ "$(jget "$_s" bindings)" = $_nb ] && [ "$(jget "$_s" enabled)" = $_en ] &&
		! ls /sys/kernel/tracing/instances/ | grep -q '^tlob_'
}

tool_cleanup() { rm -rf "$T"; }

# mon_wait ERRFILE: until tlob mon says it is monitoring (120 s at most:
# loading BPF programs under emulation on a busy host is slow).
mon_wait() {
	wait_line "$1" monitoring 120 || { diag "mon_wait: no 'monitoring' after ${WAITED}s"; return 1; }
}

# mon_run NAME MON-ARGS... -- PROGRAM-ARGS...: tlob mon in the background
# for one run of $MON_PROG (default the workload, $W); leaves $T/NAME
# (stdout) and $T/NAME.err; wpid = the program's pid, mon_rc = tlob mon's
# exit status after Ctrl-C. $MON_THEN, if set, runs after the program,
# while tlob mon still runs (bpf_hold_if: a hold joins the monitor this
# session loaded; not before the program: on PREEMPT_RT a bind spends
# seconds in the kernel registering its uprobes).
mon_run() {
	_n=$1
	shift
	_m=
	while [ "$1" != -- ]; do _m="$_m $1"; shift; done
	shift
	# Emptied here, not by the redirection below: that runs in the
	# background child, possibly after mon_wait has read the last run's.
	: >"$T/$_n.err"
	# shellcheck disable=SC2086
	tlob mon $_m >"$T/$_n" 2>"$T/$_n.err" &
	_mp=$!
	mon_wait "$T/$_n.err"
	"${MON_PROG:-$W}" "$@" >/dev/null &
	wpid=$!
	wait $wpid
	${MON_THEN:+$MON_THEN}
	sleep 0.5
	kill -INT $_mp
	wait $_mp
	mon_rc=$?
}

# tlob-flow-split (tlob-flow with frame_begin and frame_end in its library,
# libtlob-flow.so) and the options binding the flow model's four events
# there: a model whose events lie in two files (39-*-logic.t).
SPLIT=/opt/tlob/bin/tlob-flow-split
SPLIT_LIB=/opt/tlob/bin/libtlob-flow.so
split_args() {
	echo "--model /opt/tlob/bin/${1:-flow.dot} -e init=$SPLIT:flow_init -e begin=$SPLIT_LIB:frame_begin" \
		"-e end=$SPLIT_LIB:frame_end -e shutdown=$SPLIT:flow_shutdown"
}
