#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the control-file parser under PREEMPT_RT, and under KASAN
# Hostile input: tlob-fuzz writes 100 000 generated control lines (25 000
# with a short soak: make check, the debug lane) (valid
# ones, mutations, random bytes, overlong fields, embedded NULs, writes in
# pieces and beyond a page) to monitor, enable and reactors, from a fixed
# seed, checking after every write(2) that a refused write changed nothing
# and an accepted one changed exactly what a reference model computes
# (tests/programs/tlob-fuzz.c). About a quarter of the adds are `a` lines
# (alive checkpoints) and a fifth `l` lines (logical supervision: random
# automata, a third of them timed (clock=, edges that reset it or are
# guarded by it, and in two fifths of those invariants on states: inv=),
# about a quarter with events in several files (file1= .. file3=, E@N:OFF),
# and mutations of them, judged by the fuzzer's own
# reading of the table rules), so every verb, its keys, duplicates
# across them and removals of any are met. max_bindings=16 so -ENOSPC is
# met too.
# Here: the counts (`a` and `l` lines accepted and refused among them),
# every class of disagreement zero (and the errno of every single-line
# `l` write whose faults are of one class), the final listing equal to
# the accepted set, stats agreeing with it (kind=alive lines for the `a`
# ones, kind=logic for the `l` ones), a clean unload.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

# --- The module's names for a logical binding: adjust here ---------------
# logic_stats_has PATH REST: whether a stats line is the listed line
# "l PATH REST"'s (REST: model=NAME states=.. events=E0@[N:]OFF,..): "id=N
# kind=logic path=P start=OFF tag=T model=NAME ..", START event 0's offset
# (in whichever file: N: dropped)
logic_stats_has() {
	_m=${2#*model=}
	_o=${2#*events=}
	_o=${_o%%[, ]*}
	_o=${_o#*@}
	grep -F -- " kind=logic path=$1 start=${_o#*:} " $TLOB/stats | grep -qF -- " model=${_m%% *} "
}
# ---------------------------------------------------------------------------

N=$(soak 100000 25000)
SEED=${TLOB_FUZZ_SEED:-1}
D=/tmp/fuzz
mkdir -p $D/dir
for i in 0 1 2 3; do cp $WL $D/t$i || bail_out "cannot copy the workload"; done
echo "not a program, just bytes to put probes on" >$D/data
ln -sf t0 $D/link

kmod_load max_bindings=16 || bail_out "insmod failed"
is "$(cat $TLOB/monitor)" "" "nothing bound before"
t0=$(date +%s)
# progress on stderr, live (a hang shows where it stopped)
tlob-fuzz -s "$SEED" -n $N -o /tmp/fuzz.model $D >/tmp/fuzz.out
rc=$?
t1=$(date +%s)
grep '^fuzz:' /tmp/fuzz.out | sed 's/^/# /'
grep -A 5 '^# FAIL' /tmp/fuzz.out | head -n 72
diag "$((t1 - t0)) s in the guest"

v() { tr ' ' '\n' </tmp/fuzz.out | sed -n "s/^$1=//p" | head -n 1; }
cmp_ok "$(v lines)" -ge $N "at least $N lines written ($(v writes) writes)"
cmp_ok "$(v accepted)" -ge 1000 "writes accepted: $(v accepted)"
cmp_ok "$(v rejected)" -ge 1000 "writes rejected: $(v rejected)"
# (25 000 lines gave about 150..220 and 1 350..1 450 in a host simulation)
cmp_ok "$(v accepted_alive)" -ge 50 "a lines in accepted writes: $(v accepted_alive) of $(v alive_lines)"
cmp_ok "$(v rejected_alive)" -ge 500 "refused writes the model blames on an a line: $(v rejected_alive)"
cmp_ok "$(v eexist_cross)" -ge 1 "bindings of two verbs on one section refused as duplicates: $(v eexist_cross) ($(v eexist_logic) with an l line)"
cmp_ok "$(v kept)" -ge 1 "bindings removed and written back in one write kept: $(v kept)"
# (25 000 lines gave 63..90, 785..833 and 65..72 in a host simulation, tlob-fuzz -M)
cmp_ok "$(v accepted_logic)" -ge 20 "l lines in accepted writes: $(v accepted_logic) of $(v logic_lines)"
cmp_ok "$(v rejected_logic)" -ge 200 "refused writes the model blames on an l line: $(v rejected_logic)"
cmp_ok "$(v logic_errno_checked)" -ge 20 "single l lines refused with a known errno: $(v logic_errno_checked)"
is "$(v logic_errno_wrong)" "0" "... every one refused with the contract's errno"
# (25 000 lines gave 13..26, 210..242 and 16..25 in a host simulation, seeds 1..10)
cmp_ok "$(v accepted_files)" -ge 5 "l lines with events in several files in accepted writes: $(v accepted_files) of $(v files_lines)"
cmp_ok "$(v rejected_files)" -ge 60 "refused writes the model blames on one: $(v rejected_files)"
cmp_ok "$(v files_errno_checked)" -ge 5 "... single ones refused with a known errno: $(v files_errno_checked)"
is "$(v failed_changed)" "0" "every refused write changed nothing"
is "$(v accepted_bad)" "0" "no write the grammar calls malformed was accepted" ||
	diag "$(v accepted_bad_with_nul) of them hold a NUL with lines after it, which the kernel ignored"
is "$(v refused_good)" "0" "no write the model accepts was refused"
is "$(v wrong_state)" "0" "every accepted write changed exactly what it said"
is "$rc" "0" "tlob-fuzz exit status"
is "$(cat $TLOB/monitor)" "$(cat /tmp/fuzz.model)" "the final listing is the accepted set"
n=$(grep -c . /tmp/fuzz.model)
is "$(grep -c . $TLOB/stats)" "$n" "stats: one line per binding ($n)"
# a section's stats line is "id=N path=P start=S stop=..", an alive
# checkpoint's "id=N kind=alive path=P start=S tag=..", a logical
# binding's "id=N kind=logic path=P model=M .."
miss=0
while read -r verb ps rest; do
	path=${ps%:*}
	start=${ps##*:}
	case $verb in
	a) want=" kind=alive path=$path start=$start " ;;
	l) logic_stats_has "$ps" "$rest" || miss=$((miss + 1))
	   continue ;;
	*) want=" path=$path start=$start stop=" ;;
	esac
	grep -qF -- "$want" $TLOB/stats || miss=$((miss + 1))
done </tmp/fuzz.model
is "$miss" "0" "stats name every listed binding, of its kind"
is "$(grep -c ' kind=alive ' $TLOB/stats)" "$(grep -c '^a ' /tmp/fuzz.model)" \
	"stats: one kind=alive line per listed a line ($(grep -c '^a ' /tmp/fuzz.model))"
is "$(grep -c ' kind=logic ' $TLOB/stats)" "$(grep -c '^l ' /tmp/fuzz.model)" \
	"stats: one kind=logic line per listed l line ($(grep -c '^l ' /tmp/fuzz.model))"

# clean up through the same interface: every binding removed by its line
echo 0 >$TLOB/enable
# (an l binding by its PATH and its event 0's offset, in whichever file)
sed -n -e 's/^[pa] \([^ ]*\) .*/-\1/p' \
	-e 's/^l \([^ ]*\) .* events=[^@]*@\([0-9]*:\)\{0,1\}\(0x[0-9a-f]*\).*/-\1:\3/p' $TLOB/monitor >/tmp/fuzz.rm
if [ -s /tmp/fuzz.rm ]; then
	dd if=/tmp/fuzz.rm of=$TLOB/monitor bs=1M 2>/dev/null
	ok $? "the accepted set removed in one write"
else
	skip "nothing left to remove"
fi
is "$(cat $TLOB/monitor)$(pool bindings)" "0" "nothing listed, no binding left"
echo nop >$TLOB/reactors
ok_cmd "rmmod" kmod_unload
done_testing
