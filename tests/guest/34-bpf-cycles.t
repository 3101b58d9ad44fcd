#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: none
#   a load/unload soak: make check-all only; not the debug lane (verifying
#   100 loads under KASAN takes minutes each ten)
# Loading and unloading the pinned BPF monitor 100 times (10 with a short
# soak) (tlob bind, tlob unbind -a) leaves no pinned object, program, map
# or link behind.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/bpfobj.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"
PIN=/sys/fs/bpf/tlob

CYCLES=$(soak 100 10)
before=$(quiet)
t0=$(cut -d. -f1 /proc/uptime)
fails=0
i=0
while [ $i -lt $CYCLES ]; do
	timeout 120 tlob bind --backend bpf -b "$S1,1ms" >/tmp/34.out 2>&1 ||
		{ fails=$((fails + 1)); sed 's/^/# bind: /' /tmp/34.out; }
	[ -e $PIN/link_tlob_switch ] || fails=$((fails + 1))
	timeout 120 tlob unbind -a --backend bpf >/tmp/34.out 2>&1 ||
		{ fails=$((fails + 1)); sed 's/^/# unbind: /' /tmp/34.out; }
	i=$((i + 1))
	[ $((i % 10)) -eq 0 ] && diag "$i cycles, $fails failures, $(($(cut -d. -f1 /proc/uptime) - t0)) s"
done
diag "$CYCLES cycles in $(($(cut -d. -f1 /proc/uptime) - t0)) s"
is "$fails" 0 "$CYCLES bind/unbind -a cycles"
[ ! -e $PIN ]
ok $? "nothing pinned after $CYCLES cycles"
is "$(settled "$before")" "$before" "no program, map or link left after $CYCLES cycles"
done_testing
