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
# quiet: the counts to compare with at the end. What the scripts before
# left may still be being freed (a program that used a sleepable one's
# maps frees them after an RCU tasks-trace grace period, seconds under
# emulation): the counts once they have held still for 2 s (30 s at most).
quiet() {
	_prev= _same=0 _i=0
	while [ $_i -lt 300 ] && [ $_same -lt 20 ]; do
		_now=$(objects)
		if [ "$_now" = "$_prev" ]; then _same=$((_same + 1)); else _same=0; fi
		_prev=$_now
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_prev"
}
