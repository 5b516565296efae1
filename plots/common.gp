# common.gp - the start of every script `mmsim plot` writes (after the
# variables it sets: fmt, name, datafile, policies, ltypes, ...).
#
# fmt "svg" or "png" picks the terminal (pngcairo when this gnuplot has it,
# else libgd's png); the output is name.".".fmt.  Line type i is the i-th
# policy of the database (vanilla first), so a policy keeps its colour in
# every plot even where another policy has no data.
if (fmt eq "svg") {
	set terminal svg size 900,540 dynamic noenhanced font "sans,12" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 900,540 noenhanced font "sans,11"
	} else {
		set terminal png size 900,540 noenhanced
	}
}
# mmsim plot sets output_stdout: the image goes to gnuplot's standard
# output, a file mmsim created (never a link planted under the image's
# name) and renames to name.".".fmt once complete.
if (exists("output_stdout")) { set output } else { set output name.".".fmt }

set linetype 1 lc rgb "#1f77b4" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#d62728" lw 2 pt 5 ps 0.8
set linetype 3 lc rgb "#2ca02c" lw 2 pt 9 ps 0.8
set linetype 4 lc rgb "#ff7f0e" lw 2 pt 11 ps 0.8
set linetype 5 lc rgb "#9467bd" lw 2 pt 13 ps 0.8
set linetype 6 lc rgb "#8c564b" lw 2 pt 15 ps 0.8
set linetype cycle 6

set grid
set datafile missing "NaN"
