# thp_success.gp - THP fault success rate over time, one line per policy.
# datafile: one block (index) per policy, columns
#   t  mean%  min%  max%  runs
# (see the header of thp_success.dat for how the rate is computed)
set title "THP fault success rate per sample interval (mean over seeds)"
set xlabel "time (s)"
set ylabel "THP faults served with a huge page (%)"
set yrange [0:105]
set key bottom left
plot for [i=1:words(policies)] datafile index (i-1) using 1:2 \
	with linespoints lt int(word(ltypes, i)) title word(policies, i)
