#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock 6.12-rt debug
#   bpf_timer (stock) and the sampler (6.12-rt)
# When the BPF backend cannot run, it says why in one sentence, not with a
# verifier dump: no privileges, the kernel's BTF hidden, bpf_timer forced where the
# verifier refuses it (PREEMPT_RT) with the log kept in a file.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/bpf.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end,10ms"
OUT=/tmp/33-bpf
mkdir -p $OUT

# No BTF: hide /sys/kernel/btf under an empty tmpfs.
mount -t tmpfs none /sys/kernel/btf
tlob mon --backend bpf -d 1 -b "$S1" >$OUT/nobtf.out 2>$OUT/nobtf.err
rc=$?
umount /sys/kernel/btf
cmp_ok $rc -ne 0 "no BTF: tlob mon fails"
grep -q "exposes no BTF (/sys/kernel/btf/vmlinux is missing" $OUT/nobtf.err
ok $? "no BTF: says so" || sed 's/^/# /' $OUT/nobtf.err
is "$(wc -l <$OUT/nobtf.err | tr -d ' ')" 1 "no BTF: one line" || sed 's/^/# /' $OUT/nobtf.err
tlob list >$OUT/list.out 2>&1
mount -t tmpfs none /sys/kernel/btf
tlob list >$OUT/list-nobtf.out 2>&1
umount /sys/kernel/btf
grep -q "^bpf .*no BTF" $OUT/list-nobtf.out
ok $? "tlob list: bpf unusable, why" || sed 's/^/# /' $OUT/list-nobtf.out

# Without privileges: one line saying so, nothing loaded. (The initramfs
# root may be 0700: nobody could not even run tlob.)
chmod 755 /
tlob-asuser 65534 65534 tlob mon --backend bpf -d 1 -b "$S1" >$OUT/nopriv.out 2>$OUT/nopriv.err
cmp_ok $? -ne 0 "unprivileged: tlob mon --backend bpf fails"
grep -q "needs root" $OUT/nopriv.err
ok $? "unprivileged: says it needs root" || sed 's/^/# /' $OUT/nopriv.err
is "$(wc -l <$OUT/nopriv.err | tr -d ' ')" 1 "unprivileged: one line" || sed 's/^/# /' $OUT/nopriv.err
[ ! -e /sys/fs/bpf/tlob ]
ok $? "unprivileged: nothing pinned"

# bpf_timer forced: refused on PREEMPT_RT with a one-line reason and the
# log in TLOB_BPF_LOG; accepted on stock.
TLOB_BPF_DETECTOR=timer TLOB_BPF_LOG=$OUT/verifier.log \
	tlob mon --backend bpf -d 1 -b "$S1" >$OUT/timer.out 2>$OUT/timer.err
rc=$?
if [ "$BPF_DETECTOR" = sampling ]; then
	cmp_ok $rc -ne 0 "PREEMPT_RT: TLOB_BPF_DETECTOR=timer fails"
	grep -q "bpf_timer detector (TLOB_BPF_DETECTOR=timer) failed.*PREEMPT_RT.*$OUT/verifier.log" \
		$OUT/timer.err
	ok $? "PREEMPT_RT: names the verifier's reason and the log file" ||
		sed 's/^/# /' $OUT/timer.err
	cmp_ok "$(wc -l <$OUT/timer.err)" -le 2 "PREEMPT_RT: no verifier dump on stderr" ||
		head -5 $OUT/timer.err | sed 's/^/# /'
	grep -q "BEGIN PROG LOAD LOG" $OUT/verifier.log
	ok $? "PREEMPT_RT: the verifier log is in the file"
else
	is "$rc" 0 "stock: TLOB_BPF_DETECTOR=timer works" || sed 's/^/# /' $OUT/timer.err
	grep -q "overruns detected by bpf_timer" $OUT/timer.err
	ok $? "stock: says bpf_timer" || sed 's/^/# /' $OUT/timer.err
fi
TLOB_BPF_DETECTOR=bogus tlob mon --backend bpf -d 1 -b "$S1" >/dev/null 2>$OUT/bogus.err
cmp_ok $? -ne 0 "TLOB_BPF_DETECTOR=bogus refused"
grep -q "TLOB_BPF_DETECTOR=bogus: use timer, sample or auto" $OUT/bogus.err
ok $? "and says what is allowed" || sed 's/^/# /' $OUT/bogus.err
done_testing
