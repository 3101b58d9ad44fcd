# SPDX-License-Identifier: GPL-2.0
# Latency distributions: reads "TABLE VARIANT ROUND VALUE_NS" samples,
# sorted by value (sort -k4,4n: busybox awk has no sort and the samples
# can be many thousands), and
# for one TABLE prints a markdown table with, per variant, the sample
# count and p50/p99/max in microseconds (nearest-rank percentiles), plus
# each p99 as a multiple of the p99 of a reference variant.
#
#   awk -v table=T -v order="V1 V2 ..." -v labels=FILE [-v ref=V] \
#       -f bench-pct.awk SAMPLES
# labels: lines "VARIANT|label|note"; note items are separated by ";",
#   an item "p99<=F*V" is a target: this p99 at most F times V's p99
#   (printed with met/MISSED), any other item is printed as it is.
function rank(a, n, p,    i) {
	i = int(p * n + 0.999999)
	if (i < 1)
		i = 1
	if (i > n)
		i = n
	return a[i]
}
BEGIN {
	FS = "|"
	while ((getline line < labels) > 0) {
		split(line, f, "|")
		label[f[1]] = f[2]
		note[f[1]] = f[3]
	}
	FS = " "
}
$1 == table {
	cnt[$2]++
	val[$2, cnt[$2]] = $4 + 0
}
END {
	nv = split(order, vars, " ")
	for (k = 1; k <= nv; k++) {
		var = vars[k]
		n = cnt[var]
		for (i = 1; i <= n; i++)
			a[i] = val[var, i]
		p50[var] = rank(a, n, 0.5)
		p99[var] = rank(a, n, 0.99)
		mx[var] = a[n]
		delete a
	}
	printf "| variant | n | p50 us | p99 us | max us | p99 / %s p99 | note |\n", ref != "" ? (label[ref] ? label[ref] : ref) : "-"
	print "|---|---:|---:|---:|---:|---:|---|"
	for (k = 1; k <= nv; k++) {
		var = vars[k]
		if (!cnt[var]) {
			printf "| %s | 0 | - | - | - | - | not measured |\n", label[var] ? label[var] : var
			continue
		}
		nt = split(note[var], items, ";")
		txt = ""
		for (i = 1; i <= nt; i++) {
			it = items[i]
			if (match(it, /^p99<=[0-9.]+\*/)) {
				f = substr(it, 6, RLENGTH - 6) + 0
				other = substr(it, RLENGTH + 1)
				if (cnt[other] && cnt[var])
					it = sprintf("p99 <= %sx %s: %s (%.2fx)", f, label[other] ? label[other] : other, (p99[var] <= f * p99[other] ? "met" : "MISSED"), (p99[other] > 0 ? p99[var] / p99[other] : 0))
				else
					it = sprintf("p99 <= %sx %s: not measured", f, label[other] ? label[other] : other)
			}
			txt = txt (i > 1 ? "; " : "") it
		}
		rel = (ref != "" && cnt[ref] && p99[ref] > 0) ? sprintf("%.2f", p99[var] / p99[ref]) : "-"
		printf "| %s | %d | %.1f | %.1f | %.1f | %s | %s |\n", label[var] ? label[var] : var, cnt[var], p50[var] / 1000, p99[var] / 1000, mx[var] / 1000, rel, txt
	}
}
