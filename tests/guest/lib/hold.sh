# SPDX-License-Identifier: GPL-2.0
# Holding the pinned BPF monitor between a script's sessions. Apart from
# bpf.sh: sourcing that one asks `tlob list` for the detector, which loads
# the BPF programs (seconds under emulation) where no monitor is pinned.

# bpf_hold / bpf_release: keep the pinned BPF monitor loaded between a
# script's sessions, as a user's persistent binding does, with one of
# e2e-work's sections (a program these scripts never run). A session
# that finds the monitor pinned attaches to it: 0.15 s to "monitoring" on
# the stock lane, against 4 to 5 s for one that loads and verifies the
# programs itself (8 s on the newest lane), and that load is what made the
# BPF scripts the longest of make check. A script that holds still runs
# some sessions cold (the load, the attach order, the teardown are tested
# there and in 32-35). BPF_HELD tells tool.sh's tool_clean_state that the
# hold's binding is expected. Best taken while a session that loaded the
# monitor runs (tool.sh's MON_THEN): the hold then joins it (0.2 s), and
# that session's exit leaves the monitor up; taken after it, the hold
# loads the monitor again itself.
BPF_HOLD_SECTION=/opt/tlob/bin/e2e-work:e2e_begin,e2e_end,1s
bpf_hold() {
	tlob bind --backend bpf -b "$BPF_HOLD_SECTION" >/dev/null 2>"${TMPDIR:-/tmp}/bpf_hold.err" ||
		{ diag "bpf_hold: $(cat "${TMPDIR:-/tmp}/bpf_hold.err")"; return 1; }
	BPF_HELD=1
}
bpf_release() {
	BPF_HELD=
	tlob unbind --backend bpf -b "$BPF_HOLD_SECTION" >/dev/null 2>&1
}
# bpf_hold_if BACKEND / bpf_release_if BACKEND: the same in a loop over the
# backends, for BPF only (the hold with a TAP line of its own)
bpf_hold_if() {
	[ "$1" != bpf ] || ok_cmd "bpf: the monitor held for the next sessions (bpf_hold)" bpf_hold
}
bpf_release_if() { [ "$1" != bpf ] || bpf_release; }

# release_clean BACKEND NAME: the hold released (BPF), then a TAP line
# NAME: nothing of tlob's left (tool.sh's tool_clean_state)
release_clean() {
	bpf_release_if "$1"
	tool_clean_state "$1"
	ok $? "$2"
}
