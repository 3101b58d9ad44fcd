#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all
#   the kernel contract: what it checks depends on the kernel (the detector
#   each backend runs there)
# tlob list and the backend choice: what is usable and why not, --backend
# auto says which it took, and the errors a person meets first (module not
# loaded, kernel-side rejection) are sentences, exit 1.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
tool_module_up || bail_out "cannot load $TLOB_KO"

tlob list >"$T/list" 2>&1
ok $? "tlob list exits 0"
grep -q '^kmod  *yes  *\[OFF\]  *nop ' "$T/list"
ok $? "list: kmod usable, [OFF], reactor nop" || cat "$T/list"
tlob list --json >"$T/list.json"
k=$(grep '"name":"kmod"' "$T/list.json")
is "$(jget "$k" usable)" true "list --json: kmod usable"
is "$(jget "$k" enabled)" false "list --json: kmod disabled"
is "$(jget "$k" reactor)" nop "list --json: kmod reactor"
is "$(jget "$k" bindings)" 0 "list --json: no bindings"
is "$(jget "$k" detector)" hrtimer "list --json: kmod's detector is the hrtimer"
grep -q '^kmod .* hrtimer  *overruns detected by a hard hrtimer' "$T/list"
ok $? "list: kmod's detector column and sentence" || cat "$T/list"
b=$(grep '"name":"bpf"' "$T/list.json")
case "$(jget "$b" usable)" in
true)
	ok 0 "list --json: bpf usable"
	# The verifier decides: bpf_timer on every stock kernel; on
	# PREEMPT_RT whichever this kernel's verifier accepts, and when it is
	# the sampler, the reason.
	d=$(jget "$b" detector)
	diag "bpf detector on $(uname -r): $d: $(jget "$b" detector_detail)"
	case "$TLOB_FLAVOUR:$d" in
	stock:bpf_timer | rt:bpf_timer) ok 0 "list --json: bpf's detector is bpf_timer" ;;
	rt:sampling)
		jget "$b" detector_detail | grep -q 'refuses bpf_timer.*sampling every'
		ok $? "list --json: bpf samples on PREEMPT_RT and says why" ;;
	*) ok 1 "list --json: bpf names its detector on $TLOB_FLAVOUR (got '$d')" ;;
	esac
	grep -q "^bpf .* $d  *overruns detected by\|^bpf .* $d  *the verifier" "$T/list"
	ok $? "list: bpf's detector column and sentence" || cat "$T/list"
	;;
false) ok $([ -n "$(jget "$b" reason)" ]; echo $?) "list --json: bpf not usable, with a reason: $(jget "$b" reason)" ;;
*) ok 1 "list --json: a bpf line" ;;
esac

tlob status >"$T/st" 2>"$T/st.err"
grep -q '^tlob: using the kmod backend$' "$T/st.err"
ok $? "auto takes the module when it is loaded, and says so" || cat "$T/st.err"
tlob status --backend kmod 2>"$T/st.err" >/dev/null
ok $([ ! -s "$T/st.err" ]; echo $?) "an explicit backend is not announced"

begin=$(off tlob_section_begin)
size=$(wc -c <"$W")
tlob bind --backend kmod -b "p $W:$((size + 4096)) $((size + 8192)) threshold=1000000" >/dev/null 2>"$T/e"
is "$?" 1 "offsets past the end of the file: exit 1"
grep -q "^tlob: offset 0x[0-9a-f]* of $W is not in its executable code" "$T/e"
ok $? "... refused by the tool before the kernel sees them" || cat "$T/e"
tlob bind --backend kmod -b "p $W:$begin ret threshold=1000000" >/dev/null
tlob bind --backend kmod -b "p $W:$begin ret threshold=2000000" >/dev/null 2>"$T/e"
grep -q "^tlob: binding already present: $W:0x" "$T/e"
ok $? "raw line duplicate: binding already present" || cat "$T/e"
tlob unbind -a --backend kmod >/dev/null

rmmod tlob
tlob status --backend kmod >/dev/null 2>"$T/e"
is "$?" 1 "kmod without the module: exit 1"
grep -q "^tlob: tlob.ko is not loaded (no /sys/kernel/tlob)" "$T/e"
ok $? "... saying the module is not loaded" || cat "$T/e"
tlob status >/dev/null 2>"$T/e"
rc=$?
if [ "$(jget "$b" usable)" = true ]; then
	grep -q '^tlob: using the bpf backend$' "$T/e"
	ok $? "auto without the module takes bpf, and says so" || cat "$T/e"
else
	is "$rc" 1 "auto with neither backend: exit 1"
	grep -q '^tlob: no backend usable: kmod: tlob.ko is not loaded .*; bpf: ' "$T/e"
	ok $? "... giving both reasons" || cat "$T/e"
fi
tool_module_up
tool_module_down
tool_cleanup
done_testing
