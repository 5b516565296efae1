# census.gp - blocks holding foreign pages over time (the cover letter's
# block analysis): one colour per policy, one dash type per kind
# (solid: unmovable blocks with LRU or reclaimable slab pages; dashed:
# movable blocks with non-LRU pages; dotted: reclaimable blocks with
# non-slab pages); the shaded band is the min..max over seeds.
# datafile: one block (index) per policy, columns
#   t  unmov mean min max  recl mean min max  mov mean min max  runs
set title "Pageblocks holding foreign pages (mean over seeds; band: min..max)"
set xlabel "time (s)"
set ylabel "pageblocks"
set yrange [0:*]
set key outside right top
set style fill transparent solid 0.15 noborder
plot for [i=1:words(policies)] datafile index (i-1) using 1:3:4 \
		with filledcurves lt int(word(ltypes, i)) notitle, \
     for [i=1:words(policies)] datafile index (i-1) using 1:2 \
		with lines lt int(word(ltypes, i)) dt 1 title word(policies, i)." unmovable", \
     for [i=1:words(policies)] datafile index (i-1) using 1:9:10 \
		with filledcurves lt int(word(ltypes, i)) notitle, \
     for [i=1:words(policies)] datafile index (i-1) using 1:8 \
		with lines lt int(word(ltypes, i)) dt 2 title word(policies, i)." movable", \
     for [i=1:words(policies)] datafile index (i-1) using 1:6:7 \
		with filledcurves lt int(word(ltypes, i)) notitle, \
     for [i=1:words(policies)] datafile index (i-1) using 1:5 \
		with lines lt int(word(ltypes, i)) dt 3 title word(policies, i)." reclaimable"
