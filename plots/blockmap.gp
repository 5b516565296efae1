# blockmap.gp - the pageblock map of one run: x time, y block group,
# colour the group's migratetype, in a pale shade of it where the group is
# mixed (a block of it holds pages its type should not, or its blocks are
# of several types: sim/include/mmsim/census.h), so that mixing shows
# even where a group's majority type is Movable.
# datafile: a regular grid, columns  t  group  code  (blank line between
# times), code 0..5 as in the palette below, 6 where no row was stored
# (white; `with image` needs every cell of the grid, so no NaN holes),
# 7..12 the mixed groups of types 0..5.
# title_text names the run.
set title title_text
set xlabel "time (s)"
set ylabel "pageblock group"
set grid noxtics noytics
set autoscale fix
set palette defined (0 "#d62728", 1 "#1f77b4", 2 "#ff7f0e", 3 "#9467bd", 4 "#e0e0e0", 5 "#000000", 6 "#ffffff", \
                     7 "#f4a3a4", 8 "#ffd92f", 9 "#ffc58a", 10 "#d4c2e6", 11 "#b0b0b0", 12 "#606060")
set palette maxcolors 13
set cbrange [-0.5:12.5]
set cbtics ("Unmovable" 0, "Movable" 1, "Reclaimable" 2, "HighAtomic" 3, "Free" 4, "Isolate" 5, "no data" 6, \
            "Unmovable mixed" 7, "Movable mixed" 8, "Reclaimable mixed" 9, "HighAtomic mixed" 10, \
            "Free mixed" 11, "Isolate mixed" 12) scale 0
set rmargin 22
# pixels: one rectangle per cell, so that a viewer scaling the figure
# (a browser, the report) cannot blur the cells into each other
plot datafile using 1:2:3 with image pixels notitle
