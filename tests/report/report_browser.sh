#!/usr/bin/env bash
# report_browser.sh - `mmsim report` opened in a real headless Chromium:
# the page loads from the file system with no console message, every plot
# renders as a non-empty inline SVG, the page asks for nothing outside
# itself, and the means in its table are those `mmsim compare` prints for
# the same database.  Writes a screenshot (WORKDIR/report.png) for a person
# to look at.  Exit 77 (ctest: skipped) when chromium is not installed,
# saying so.
#
#   report_browser.sh MMSIM SOURCE_DIR WORKDIR
set -uo pipefail

mmsim=$1 src=$2 work=$3
fail=0
ok()  { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
	echo "SKIP: chromium is not installed (scripts/install-deps.sh installs Debian's chromium)"
	exit 77
fi
command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 is missing (scripts/install-deps.sh)"; exit 1; }

rm -rf "$work"
mkdir -p "$work"
db=$work/fixture.db
sqlite3 -bail "$db" < "$src/results/schema.sql" && sqlite3 -bail "$db" < "$src/tests/golden/plot-fixture.sql" ||
	{ echo "FAIL: cannot build the fixture database"; exit 1; }

# (the fixture's runs of two watermark_scale_factors share a policy's column)
page=$("$mmsim" report "$db" -o "$work/out" --allow-mixed 2> "$work/report.err")
rc=$?
[[ $rc == 0 && $page == "$work/out/report.html" && -s $page ]] &&
	ok "mmsim report wrote $page" || { bad "mmsim report: exit $rc, printed '$page': $(cat "$work/report.err")"; exit 1; }

# nothing outside the page: no script, no stylesheet or image to fetch
if grep -qiE '<script|<link|<iframe|(src|href)="(https?:)?//|url\(' "$page"; then
	bad "the page refers to something outside itself: $(grep -oiE '<script|<link|<iframe|(src|href)="[^"]*"|url\([^)]*\)' "$page" | head -3)"
else
	ok "the page is self-contained (no script, no external resource)"
fi

chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile-$1" --enable-logging=stderr --v=0 "${@:2}"
}

chrome dom --dump-dom "file://$page" > "$work/dom.html" 2> "$work/chrome.log"
rc=$?
[[ $rc == 0 && -s $work/dom.html ]] && ok "chromium loaded the page" ||
	{ bad "chromium --dump-dom: exit $rc; $(grep -v dbus "$work/chrome.log" | tail -3)"; exit 1; }

# console messages are logged as ...:CONSOLE...; the page has no script,
# so any is an error (a resource that failed, a parse problem)
if grep -q ':CONSOLE' "$work/chrome.log"; then
	bad "console messages: $(grep ':CONSOLE' "$work/chrome.log" | head -5)"
else
	ok "no console message"
fi

# every plot of the plots directory is in the page, each a non-empty SVG
nsvg=$(ls "$work/out/plots/"*.svg 2>/dev/null | wc -l)
tr '\n' ' ' < "$work/dom.html" | sed 's|<figure class="plot">|\n&|g' | grep '^<figure class="plot">' |
	sed 's|</figure>.*||' > "$work/figures"
nfig=$(wc -l < "$work/figures")
nfull=$(grep -cE '<svg[^>]*>.*<(path|image|rect|polygon)' "$work/figures")
if (( nsvg >= 4 && nfig == nsvg && nfull == nsvg )); then
	ok "$nfig plots inline, each an SVG with drawing elements"
else
	bad "plots: $nsvg SVG files, $nfig figures in the page, $nfull with drawing elements"
fi

# the table's means against mmsim compare's text table: metric|column#|mean
grep -oE 'data-metric="[^"]*" data-column="[^"]*">[^<]*<' "$work/dom.html" |
	sed -E 's/data-metric="([^"]*)" data-column="[^"]*">([^<]*)</\1|\2/' |
	awk -F'|' '{ n[$1]++; print $1 "|" n[$1] "|" $2 }' > "$work/page.means"
"$mmsim" compare "$db" --allow-mixed | awk 'NR > 2 {
		name = substr($0, 1, 40); sub(/ +$/, "", name)
		rest = substr($0, 41); i = 0
		while (length(rest) > 0) {
			cell = substr(rest, 1, 24); rest = substr(rest, 25)
			split(cell, f, " "); print name "|" ++i "|" f[1] } }' > "$work/compare.means"
nmeans=$(wc -l < "$work/compare.means")
if (( nmeans >= 50 )) && diff "$work/compare.means" "$work/page.means" > "$work/means.diff"; then
	ok "the page's $nmeans means are those of mmsim compare"
else
	bad "means differ from mmsim compare ($nmeans compared): $(head -5 "$work/means.diff")"
fi

# a screenshot for a person to look at
chrome shot --screenshot="$work/report.png" --window-size=1400,5000 "file://$page" \
	> /dev/null 2> "$work/chrome-shot.log"
if [[ -s $work/report.png ]] && head -c 8 "$work/report.png" | grep -q PNG; then
	ok "screenshot: $work/report.png"
else
	bad "no screenshot: $(grep -v dbus "$work/chrome-shot.log" | tail -3)"
fi

rm -rf "$work"/profile-*
exit $fail
