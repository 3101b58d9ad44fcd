# SPDX-License-Identifier: GPL-2.0
# The test-only pin (tlob.pin=1: tlob_test_floor.ko copies=2, loaded by
# guest/init, docs/limitations.md) off and back on, for the scripts
# that run as users do. pin 0 unloads it if the boot loaded it; pin 1 loads
# it again; both do nothing on an unpinned boot.
PIN_KO=/opt/tlob/modules/tlob_test_floor.ko
pinned=$(grep -c '^tlob_test_floor ' /proc/modules)
pin() {
	[ "$pinned" = 1 ] || return 0
	if [ "$1" = 1 ]; then insmod $PIN_KO copies=2; else rmmod tlob_test_floor; fi
}
