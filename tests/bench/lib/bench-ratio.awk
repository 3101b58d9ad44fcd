# SPDX-License-Identifier: GPL-2.0
# Ratios of variants measured side by side: reads "TABLE VARIANT ROUND
# VALUE" samples, and for one TABLE prints a markdown table with, per
# variant, the median value, the median of the per-round ratios
# VALUE/VALUE(base) with their spread (min..max over the rounds), the
# overhead in percent and its distance from the floor in points (per
# round, then the median). Rounds interleave the variants, so each ratio
# compares two runs made seconds apart.
#
#   awk -v table=T -v base=V -v floor=V -v order="V1 V2 ..." \
#       -v labels=FILE [-v unit=NAME] [-v cost=NAME] -f bench-ratio.awk SAMPLES
# cost=NAME adds a column: the median per-round extra time of one unit
# (1/VALUE - 1/VALUE(base)) in microseconds, e.g. per window.
# labels: lines "VARIANT|label|target"; target (optional) is
#   floor:P     overhead at most P points above the floor's
#   noise:V     overhead within the noise: |overhead| no larger than the
#               largest |1 - ratio| of variant V (the base measured twice)
#   like:V:N    the same cost as variant V (earlier in the order) within
#               the noise: |overhead - overhead(V)| no larger than
#               variant N's noise as above
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function median(a, n) {
	sort(a, n)
	if (n % 2)
		return a[(n + 1) / 2]
	return (a[n / 2] + a[n / 2 + 1]) / 2
}
BEGIN {
	FS = "|"
	while ((getline line < labels) > 0) {
		split(line, f, "|")
		label[f[1]] = f[2]
		target[f[1]] = f[3]
	}
	FS = " "
	if (unit == "")
		unit = "value"
}
$1 == table {
	v[$2, $3] = $4 + 0
	rounds[$3] = 1
}
END {
	nv = split(order, vars, " ")
	printf "| variant | n | median %s | ratio to %s | spread (min..max) | overhead %% | vs floor (points) |%s target |\n", unit, label[base] ? label[base] : base, cost != "" ? " extra us per " cost " |" : ""
	print "|---|---:|---:|---:|---|---:|---:|" (cost != "" ? "---:|" : "") "---|"
	for (k = 1; k <= nv; k++) {
		var = vars[k]
		n = 0; nr = 0; nf = 0
		for (r in rounds) {
			if (!((var, r) in v))
				continue
			vals[++n] = v[var, r]
			if (!((base, r) in v) || v[base, r] <= 0)
				continue
			ratio = v[var, r] / v[base, r]
			rat[++nr] = ratio
			if (v[var, r] > 0)
				ext[nr] = (1 / v[var, r] - 1 / v[base, r]) * 1e6
			if ((floor, r) in v)
				dfl[++nf] = (v[floor, r] / v[base, r] - ratio) * 100
		}
		if (!n)
			continue
		med = median(vals, n)
		if (nr) {
			mr = median(rat, nr)
			lo = rat[1]; hi = rat[nr]	# sorted by median()
			rs = sprintf("%.4f", mr)
			sp = sprintf("%.4f..%.4f", lo, hi)
			ov = sprintf("%+.2f", (1 - mr) * 100)
		} else {
			rs = sp = ov = "-"
		}
		fp = nf ? sprintf("%+.2f", median(dfl, nf)) : "-"
		cc = ""
		if (cost != "")
			cc = (nr ? sprintf(" %.2f |", median(ext, nr)) : " - |")
		if (nr) {
			ovr[var] = (1 - mr) * 100
			noise[var] = (1 - lo) * 100 > (hi - 1) * 100 ? (1 - lo) * 100 : (hi - 1) * 100
		}
		tg = target[var]
		split(tg, t, ":")
		if (t[1] == "floor" && nf) {
			tg = sprintf("<= %s pt above floor: %s", t[2], median(dfl, nf) <= t[2] + 0 ? "met" : "MISSED")
		} else if (t[1] == "like" && nr && (t[2] in ovr) && (t[3] in noise)) {
			d = ovr[var] - ovr[t[2]]
			tg = sprintf("same as %s within noise (%+.2f pt, noise %.2f %%): %s", t[2], d, noise[t[3]], (d < 0 ? -d : d) <= noise[t[3]] ? "met" : "MISSED")
		} else if (t[1] == "noise" && nr && (t[2] in noise)) {
			tg = sprintf("within noise (%.2f %%): %s", noise[t[2]], (ovr[var] < 0 ? -ovr[var] : ovr[var]) <= noise[t[2]] ? "met" : "MISSED")
		}
		printf "| %s | %d | %.0f | %s | %s | %s | %s |%s %s |\n", label[var] ? label[var] : var, n, med, rs, sp, ov, fp, cc, tg
		delete vals; delete rat; delete dfl; delete ext
	}
}
