# SPDX-License-Identifier: GPL-2.0
# Processes a test or the runner finds stuck (busybox ash): what each is
# doing, as TAP comments, so that a hang in CI (which keeps the end of the
# output only) says where it sat.
#   . /opt/tlob/tests/lib/procs.sh
#   proc_gone PID             0 when PID has exited (gone, or a zombie)
#   proc_wait_gone PID SECS   proc_gone within SECS seconds of uptime
#   proc_dump PID...          per process its command line; per thread its
#                             state, wait channel and kernel stack

proc_gone() {
	[ -r "/proc/$1/stat" ] || return 0
	# The state follows the last ')': comm may hold spaces and parentheses.
	case "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)" in
	'' | Z* | X*) return 0 ;;
	esac
	return 1
}

proc_wait_gone() {
	_pg_t0=$(cut -d. -f1 /proc/uptime)
	while ! proc_gone "$1"; do
		[ $(($(cut -d. -f1 /proc/uptime) - _pg_t0)) -lt "$2" ] || return 1
		sleep 0.1
	done
	return 0
}

proc_dump() {
	for _pd in "$@"; do
		[ -d "/proc/$_pd" ] || continue
		echo "# pid $_pd: $(tr '\0' ' ' 2>/dev/null <"/proc/$_pd/cmdline" | cut -c1-160)"
		for _pt in "/proc/$_pd"/task/*; do
			echo "#   thread ${_pt##*/} $(cat "$_pt/comm" 2>/dev/null):" \
				"$(sed -n 's/^State:[[:space:]]*//p' "$_pt/status" 2>/dev/null)," \
				"wchan $(cat "$_pt/wchan" 2>/dev/null)"
			sed 's/^/#     /' "$_pt/stack" 2>/dev/null | head -n 16
		done
	done
}
