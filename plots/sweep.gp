# sweep.gp - a metric against a swept parameter, one line per policy,
# error bars from the smallest to the largest run (seed) at each value.
# datafile: one block (index) per policy, columns
#   x  mean  min  max  runs  "label"
# categorical is 1 when the values are not numbers: x is then their rank
# (0 .. nvalues-1) and the labels name the tics; xmin and xmax are the
# smallest and largest x (a single value gets some room around it).
set title metric." against ".param." (mean over seeds; bars: min to max)"
set xlabel param
set ylabel metric
set key outside right top
set offsets graph 0.05, graph 0.05, 0, 0
if (categorical) {
	set xrange [-0.5:nvalues - 0.5]
} else {
	if (xmin == xmax) { set xrange [xmin - 1:xmax + 1] }
}
if (categorical) {
	plot for [i=1:words(policies)] datafile index (i-1) using 1:2:3:4:xtic(6) \
		with yerrorlines lt int(word(ltypes, i)) title word(policies, i)
} else {
	plot for [i=1:words(policies)] datafile index (i-1) using 1:2:3:4 \
		with yerrorlines lt int(word(ltypes, i)) title word(policies, i)
}
