# SPDX-License-Identifier: GPL-2.0
# What BPF objects the kernel holds (bpftool's counts), for the tests that
# check nothing is left behind (32, 34, 35).
objects() {
	echo "progs=$(bpftool prog show | grep -c '^[0-9]*:')" \
		"maps=$(bpftool map show | grep -c '^[0-9]*:')" \
		"links=$(bpftool link show | grep -c '^[0-9]*:')"
}
# settled COUNTS: the counts once they equal COUNTS, or after 10 s. The
# kernel frees a released program or map after an RCU grace period
# (longer on PREEMPT_RT).
settled() {
	_si=0
	while [ "$(objects)" != "$1" ] && [ $_si -lt 100 ]; do
		sleep 0.1
		_si=$((_si + 1))
	done
	objects
}
