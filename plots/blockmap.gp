# blockmap.gp - the pageblock map of one run: x time, y block group,
# colour the group's migratetype.
# datafile: a regular grid, columns  t  group  code  (blank line between
# times), code 0..5 as in the palette below, 6 where no row was stored
# (white; `with image` needs every cell of the grid, so no NaN holes).
# title_text names the run.
set title title_text
set xlabel "time (s)"
set ylabel "pageblock group"
set grid noxtics noytics
set autoscale fix
set palette defined (0 "#d62728", 1 "#1f77b4", 2 "#ff7f0e", 3 "#9467bd", 4 "#e0e0e0", 5 "#000000", 6 "#ffffff")
set palette maxcolors 7
set cbrange [-0.5:6.5]
set cbtics ("Unmovable" 0, "Movable" 1, "Reclaimable" 2, "HighAtomic" 3, "Free" 4, "Isolate" 5, "no data" 6) scale 0
set rmargin 16
plot datafile using 1:2:3 with image notitle
