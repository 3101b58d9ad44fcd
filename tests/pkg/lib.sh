# SPDX-License-Identifier: GPL-2.0
# Shared by the package tests (sourced): TAP (tests/lib/tap.sh), the
# tree's paths, the pristine-root helper, a copy of the source tree, and
# one lock so two runs never share a root or apt's cache at once.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
out=$BUILD/pkg
pkgroot=$top/tests/pkg/pkgroot
mkdir -p "$out"
. "$top/tests/lib/tap.sh"
t_start=$(date +%s)

# The seconds since the script started, for the report at the end.
elapsed() { echo $(($(date +%s) - t_start)); }

# The mirror is the one thing these tests may skip for.
need_mirror() {
	if ! "$pkgroot" reachable; then
		echo "1..0 # SKIP Debian mirror ${TLOB_DEBIAN_MIRROR:-http://deb.debian.org/debian} unreachable"
		exit 0
	fi
}

exec 8>"$out/.lock"
flock 8

# copy_tree DIR: the tree as git knows it (committed or not, ignored files
# left out: no build/, no in-place objects), without .git.
copy_tree() {
	mkdir -p "$1"
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		xargs -0 cp -P --parents -t "$1")
}

# run_logged LOG CMD...: CMD's output to LOG; its last lines as
# diagnostics when it fails.
run_logged() {
	local log=$1 r=0
	shift
	"$@" >"$log" 2>&1 || r=$?
	[ $r = 0 ] || { echo "# $* failed ($r), end of $log:"; tail -n 25 "$log" | diag; }
	return $r
}
