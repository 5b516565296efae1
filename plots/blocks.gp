# blocks.gp - free and mixed pageblocks over time, one colour per policy:
# solid lines free blocks, dashed lines mixed blocks.
# datafile: one block (index) per policy, columns
#   t  free_blocks  mixed_blocks  runs       (means over seeds)
# has_free is 0 when the census has no 'Free' rows (then no free lines);
# free_policies lists the (1-based) policies that have them.
set title "Free and mixed pageblocks (mean over seeds)"
set xlabel "time (s)"
set ylabel "pageblocks"
set yrange [0:*]
set key outside right top
if (has_free) {
	plot for [k in free_policies] datafile index (int(k)-1) using 1:2 \
		with lines lt int(word(ltypes, int(k))) dt 1 title word(policies, int(k))." free", \
	     for [i=1:words(policies)] datafile index (i-1) using 1:3 \
		with lines lt int(word(ltypes, i)) dt 2 title word(policies, i)." mixed"
} else {
	plot for [i=1:words(policies)] datafile index (i-1) using 1:3 \
		with lines lt int(word(ltypes, i)) dt 2 title word(policies, i)." mixed"
}
