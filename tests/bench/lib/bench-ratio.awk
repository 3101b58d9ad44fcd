# SPDX-License-Identifier: GPL-2.0
# Ratios of variants measured side by side: reads "TABLE VARIANT ROUND
# VALUE" samples, and for one TABLE prints a markdown table with, per
# variant, the median value, the median of the per-round ratios
# VALUE/VALUE(base) with their spread (min..max over the rounds), the
# overhead in percent and its distance from the variant's floor in points
# (per round, then the median). Rounds interleave the variants, so each
# ratio compares two runs made seconds apart.
#
#   awk -v table=T -v base=V -v floor=V -v order="V1 V2 ..." \
#       -v labels=FILE [-v unit=NAME] [-v cost=NAME] [-v verdicts=FILE] \
#       -f bench-ratio.awk SAMPLES
# floor=V: the floor of every variant that names none ("-": no floor).
# worse=higher: a larger value is the worse one (latencies): "overhead"
# is then VALUE/VALUE(base) - 1, and the points above the floor follow.
# cost=NAME adds two columns: the median per-round extra time of one unit
# (1/VALUE - 1/VALUE(base)) in microseconds, e.g. per window, and the
# same above the variant's floor (1/VALUE - 1/VALUE(floor)).
# labels: lines "VARIANT|label|targets|floor"; floor (optional) is the
#   variant this one's "vs floor" is measured against (the floor that
#   attaches what this variant attaches); targets (optional, ";"-separated)
#   are stated thresholds, each judged on the median over the rounds:
#   floor:P   at most P points above its floor
#   over:P    overhead at most P %
#   cost:X    at most X us per unit above its floor (needs cost=)
#   costx:V:K its extra time per unit above its floor at most K times
#             variant V's above V's floor: per round, the quotient
#   ratio:F   VALUE/VALUE(base) at most F
#   same:V:P  the same cost as variant V within P points: per round
#             |VALUE - VALUE(V)| / VALUE(base), in points
#   and are printed with the median, a distribution-free confidence
#   interval of that median (order statistics of the rounds: the widest
#   coverage >= 95 % the number of rounds allows, stated), and PASS or
#   FAIL; verdicts=FILE gets one more line per target, "PASS|text" or
#   "FAIL|text" ("SKIP|text" when the rounds to judge it are missing),
#   which the bench scripts turn into TAP (bench.sh: targets).
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
# Coverage of [x(k), x(n-k+1)] as an interval for the median of n
# samples: 1 - 2 P(Binomial(n, 1/2) <= k - 1).
function coverage(n, k,    i, c, p, t) {
	p = 0
	c = 1
	for (i = 0; i < k; i++) {
		p += c
		c = c * (n - i) / (i + 1)
	}
	t = 1	# 2^n (busybox awk may have no math: no ^)
	for (i = 0; i < n; i++)
		t *= 2
	return 1 - 2 * p / t
}
# ci(a, n): sets CI_LO, CI_HI, CI_COV (percent) from the sorted a[1..n]
function ci(a, n,    k) {
	sort(a, n)
	k = 1
	while (k + 1 <= (n + 1) / 2 && coverage(n, k + 1) >= 0.95)
		k++
	CI_LO = a[k]
	CI_HI = a[n - k + 1]
	CI_COV = coverage(n, k) * 100
}
function verdict(v, text) {
	if (verdicts != "")
		print v "|" text >> verdicts
	return v
}
BEGIN {
	FS = "|"
	while ((getline line < labels) > 0) {
		split(line, f, "|")
		label[f[1]] = f[2]
		target[f[1]] = f[3]
		vfloor[f[1]] = f[4]
	}
	FS = " "
	if (unit == "")
		unit = "value"
	sg = worse == "higher" ? -1 : 1
}
$1 == table {
	v[$2, $3] = $4 + 0
	rounds[$3] = 1
}
END {
	nv = split(order, vars, " ")
	printf "| variant | n | median %s | ratio to %s | spread (min..max) | overhead %% | floor | vs floor (points) |%s target | verdict |\n", unit, label[base] ? label[base] : base, cost != "" ? " extra us per " cost " | extra us per " cost " vs floor |" : ""
	print "|---|---:|---:|---:|---|---:|---|---:|" (cost != "" ? "---:|---:|" : "") "---|---|"
	for (k = 1; k <= nv; k++) {
		var = vars[k]
		fl = vfloor[var] != "" ? vfloor[var] : floor
		n = 0; nr = 0; nf = 0; nc = 0
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
			if (!((fl, r) in v))
				continue
			dfl[++nf] = sg * (v[fl, r] / v[base, r] - ratio) * 100
			if (v[var, r] > 0 && v[fl, r] > 0)
				efl[++nc] = (1 / v[var, r] - 1 / v[fl, r]) * 1e6
		}
		if (!n)
			continue
		med = median(vals, n)
		if (nr) {
			mr = median(rat, nr)
			lo = rat[1]; hi = rat[nr]	# sorted by median()
			rs = sprintf("%.4f", mr)
			sp = sprintf("%.4f..%.4f", lo, hi)
			ov = sprintf("%+.2f", sg * (1 - mr) * 100 + 0)	# + 0: no -0.00
		} else {
			rs = sp = ov = "-"
		}
		fp = nf ? sprintf("%+.2f", median(dfl, nf)) : "-"
		cc = ""
		if (cost != "")
			cc = (nr ? sprintf(" %.2f |", median(ext, nr)) : " - |") (nc ? sprintf(" %.2f |", median(efl, nc)) : " - |")
		# The targets: each on the median of its per-round values.
		nt = split(target[var], items, ";")
		tg = ""; vd = ""
		for (i = 1; i <= nt; i++) {
			split(items[i], t, ":")
			lim = t[2] + 0
			if (t[1] == "floor") {
				what = sprintf("<= %s pt above %s", t[2], label[fl] ? label[fl] : fl)
				m = nf
				for (j = 1; j <= m; j++) a[j] = dfl[j]
				fmt = "%+.2f"
			} else if (t[1] == "over") {
				what = sprintf("overhead <= %s %%", t[2])
				m = nr
				for (j = 1; j <= m; j++) a[j] = sg * (1 - rat[j]) * 100
				fmt = "%+.2f"
			} else if (t[1] == "ratio") {
				what = sprintf("ratio to %s <= %s", label[base] ? label[base] : base, t[2])
				m = nr
				for (j = 1; j <= m; j++) a[j] = rat[j]
				fmt = "%.2f"
			} else if (t[1] == "cost") {
				what = sprintf("<= %s us per %s above %s", t[2], cost, label[fl] ? label[fl] : fl)
				m = nc
				for (j = 1; j <= m; j++) a[j] = efl[j]
				fmt = "%.2f"
			} else if (t[1] == "costx" && t[2] in label) {
				lim = t[3] + 0
				o = t[2]
				ofl = vfloor[o] != "" ? vfloor[o] : floor
				what = sprintf("<= %sx the extra us per %s of %s (each above its floor)",
					       t[3], cost, label[o])
				m = 0
				for (r in rounds) {
					if (!((var, r) in v) || !((fl, r) in v) || !((o, r) in v) ||
					    !((ofl, r) in v) || v[var, r] <= 0 || v[fl, r] <= 0 ||
					    v[o, r] <= 0 || v[ofl, r] <= 0)
						continue
					eo = 1 / v[o, r] - 1 / v[ofl, r]
					if (eo > 0)
						a[++m] = (1 / v[var, r] - 1 / v[fl, r]) / eo
				}
				fmt = "%.2f"
			} else if (t[1] == "same" && t[2] in label) {
				lim = t[3] + 0
				what = sprintf("within %s pt of %s", t[3], label[t[2]])
				m = 0
				for (r in rounds) {
					if (!((var, r) in v) || !((t[2], r) in v) ||
					    !((base, r) in v) || v[base, r] <= 0)
						continue
					d = (v[var, r] - v[t[2], r]) / v[base, r] * 100
					a[++m] = d < 0 ? -d : d
				}
				fmt = "%.2f"
			} else {
				# A target misspelt is a target missed, never a pass.
				what = "unknown target '" items[i] "'"
				m = -1
			}
			if (m < 0) {
				res = verdict("FAIL", label[var] ": " what)
				txt = what
			} else if (m) {
				mv = median(a, m)
				ci(a, m)
				res = verdict(mv <= lim ? "PASS" : "FAIL", label[var] ": " what ": " sprintf(fmt, mv))
				txt = sprintf("%s: " fmt " (%.0f %% CI " fmt ".." fmt ", %d rounds)", what, mv, CI_COV, CI_LO, CI_HI, m)
			} else {
				res = verdict("SKIP", label[var] ": " what ": not measured")
				txt = what ": not measured"
			}
			delete a
			tg = tg (i > 1 ? "; " : "") txt
			vd = vd (i > 1 ? ", " : "") res
		}
		printf "| %s | %d | %.0f | %s | %s | %s | %s | %s |%s %s | %s |\n", label[var] ? label[var] : var, n, med, rs, sp, ov, fl != "-" && fl != var ? (label[fl] ? label[fl] : fl) : "-", fp, cc, tg, vd
		delete vals; delete rat; delete dfl; delete ext; delete efl
	}
}
