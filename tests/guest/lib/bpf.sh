# SPDX-License-Identifier: GPL-2.0
# The BPF backend's overrun detector on the running kernel, as `tlob list`
# names it: bpf_timer where the verifier allows it, sampling where it does
# not (PREEMPT_RT 6.1, 6.12 and 7.3 refuse bpf_timer). Scripts key what they
# expect of the BPF backend on this, not on the lane's name.
# With tool.sh sourced first, its one listing of the script (tool_list).
bpf_detector() {
	if command -v tool_list >/dev/null; then tool_list; else tlob list --json 2>/dev/null; fi |
		sed -n 's/.*"name":"bpf".*"detector":"\([^"]*\)".*/\1/p'
}
: "${BPF_DETECTOR:=$(bpf_detector)}"
