# SPDX-License-Identifier: GPL-2.0
# Latency distributions: reads "TABLE VARIANT ROUND VALUE_NS" samples,
# sorted by value (sort -k4,4n: busybox awk has no sort and the samples
# can be many thousands), and
# for one TABLE prints a markdown table with, per variant, the sample
# count and p50/p99/max in microseconds (nearest-rank percentiles), plus
# each p99 and max as a multiple of those of a reference variant.
#
#   awk -v table=T -v order="V1 V2 ..." -v labels=FILE [-v ref=V] \
#       [-v verdicts=FILE] -f bench-pct.awk SAMPLES
# labels: lines "VARIANT|label|note"; note items are separated by ";",
#   an item "p99<=F*V" or "max<=F*V" is a target: this variant's p99
#   (max) at most F times V's, printed with PASS or FAIL (verdicts=FILE
#   gets "PASS|text", "FAIL|text" or, when either side was not measured,
#   "SKIP|text", for bench.sh's targets); "p99<=Nms" or "max<=Nms" is
#   a target of N milliseconds itself; any other item is printed as it
#   is.
function rank(a, n, p,    i) {
	i = int(p * n + 0.999999)
	if (i < 1)
		i = 1
	if (i > n)
		i = n
	return a[i]
}
function name(v) {
	return label[v] ? label[v] : v
}
function verdict(v, text) {
	if (verdicts != "")
		print v "|" text >> verdicts
	return v
}
BEGIN {
	FS = "|"
	while ((getline line < labels) > 0) {
		split(line, lf, "|")
		label[lf[1]] = lf[2]
		note[lf[1]] = lf[3]
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
	rn = ref != "" ? name(ref) : "-"
	printf "| variant | n | p50 us | p99 us | max us | p99 / %s p99 | max / %s max | targets and notes |\n", rn, rn
	print "|---|---:|---:|---:|---:|---:|---:|---|"
	for (k = 1; k <= nv; k++) {
		var = vars[k]
		nt = split(note[var], items, ";")
		txt = ""
		for (i = 1; i <= nt; i++) {
			it = items[i]
			if (match(it, /^(p99|max)<=[0-9.]+ms$/)) {
				q = substr(it, 1, 3)
				lim = substr(it, 6, RLENGTH - 7) + 0
				what = sprintf("%s <= %s ms", q, lim)
				if (cnt[var]) {
					mine = q == "p99" ? p99[var] : mx[var]
					res = verdict(mine <= lim * 1000000 ? "PASS" : "FAIL", sprintf("%s: %s (%.1f ms)", name(var), what, mine / 1000000))
					it = sprintf("%s: %s (%.1f ms)", what, res, mine / 1000000)
				} else {
					verdict("SKIP", name(var) ": " what ": not measured")
					it = what ": not measured"
				}
			} else if (match(it, /^(p99|max)<=[0-9.]+\*/)) {
				q = substr(it, 1, 3)
				f = substr(it, 6, RLENGTH - 6) + 0
				other = substr(it, RLENGTH + 1)
				what = sprintf("%s <= %sx %s", q, f, name(other))
				if (cnt[other] && cnt[var]) {
					mine = q == "p99" ? p99[var] : mx[var]
					theirs = q == "p99" ? p99[other] : mx[other]
					res = verdict(mine <= f * theirs ? "PASS" : "FAIL", sprintf("%s: %s (%.2fx)", name(var), what, theirs > 0 ? mine / theirs : 0))
					it = sprintf("%s: %s (%.2fx)", what, res, theirs > 0 ? mine / theirs : 0)
				} else {
					verdict("SKIP", name(var) ": " what ": not measured")
					it = what ": not measured"
				}
			}
			txt = txt (i > 1 ? "; " : "") it
		}
		if (!cnt[var]) {
			printf "| %s | 0 | - | - | - | - | - | not measured%s |\n", name(var), txt != "" ? "; " txt : ""
			continue
		}
		rel = (ref != "" && cnt[ref] && p99[ref] > 0) ? sprintf("%.2f", p99[var] / p99[ref]) : "-"
		relm = (ref != "" && cnt[ref] && mx[ref] > 0) ? sprintf("%.2f", mx[var] / mx[ref]) : "-"
		printf "| %s | %d | %.1f | %.1f | %.1f | %s | %s | %s |\n", name(var), cnt[var], p50[var] / 1000, p99[var] / 1000, mx[var] / 1000, rel, relm, txt
	}
}
