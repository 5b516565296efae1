/* cmd_plot.c - mmsim plot DB -o DIR: draw a results database with gnuplot.
 *
 * For each plot the data is computed here with SQL (the database is only
 * read) and written to DIR/NAME.dat with a comment header saying what the
 * columns are; DIR/NAME.gp is a complete gnuplot script (a few variables,
 * then plots/common.gp and plots/NAME.gp, compiled into mmsim), so that a
 * plot can be restyled and redrawn by hand:
 *     cd DIR && gnuplot -e 'fmt="svg"' NAME.gp
 * gnuplot runs once per format, in DIR.
 *
 * Text from the database or the command line (policy names, run ids,
 * parameter keys, metric names, the database's path) reaches gnuplot only
 * as single-quoted strings (gp_quote, quote.h): gnuplot runs a command in
 * backquotes anywhere else, and a results database is input like any
 * other.  gnuplot's own -e argument carries only "fmt='png'" or 'svg'.
 *
 * Only runs with status 'ok' are read: a failed run's series stop early
 * and would bend the means.  A plot whose data is absent is skipped with a
 * note on stderr; the files written are listed on stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "quote.h"
#include "results.h"

/* the plots/NAME.gp templates, embedded by cmake/EmbedPlots.cmake */
struct plot_template { const char *name; const char *text; };
extern const struct plot_template mmsim_plot_templates[];

#define MAX_POLICIES 16
#define SCHEMA_VERSION RESULTS_SCHEMA_VERSION

/* A run's series, as mmsim compare's column by policy: the policy for a
 * simulation, real:POLICY for a real kernel's run (mmsim import), whose
 * series are drawn beside the simulations' where it has the data (a real
 * run has no census, no pageblock map and no THP fault samples). */
#define SERIES_OF(r) "(CASE WHEN " r ".source = 'real' THEN 'real:' || " r ".policy" \
                     " ELSE " r ".policy END)"

struct plot_ctx {
	sqlite3 *db;
	const char *db_path;
	const char *dir;
	int png, svg;                   /* formats to draw */
	/* the policies of the 'ok' runs, vanilla first: policy i is drawn
	 * with line type i+1 in every plot */
	char *policy[MAX_POLICIES];
	int nr_policies;
	int gnuplot_failed;             /* a plot failed to draw; go on with the others */
	int quiet;                      /* do not list the files written */
};

static void plot_usage(FILE *f)
{
	fprintf(f, "usage: mmsim plot DB -o DIR [--format png|svg|both] [--metric NAME]\n"
	           "                  [--param KEY] [--run ID]\n\n"
	           "Reads the results database DB (read-only) and draws with gnuplot into DIR\n"
	           "(created if missing), each plot as NAME.dat (the data), NAME.gp (the\n"
	           "script) and NAME.png / NAME.svg:\n"
	           "  thp_success              THP fault success rate over time, per policy\n"
	           "  blocks                   free and mixed pageblocks over time, per policy\n"
	           "  census                   blocks holding foreign pages over time, per type\n"
	           "                           and policy, with the spread over seeds\n"
	           "  blockmap-POLICY-seedN    the pageblock map of the first seed of each policy\n"
	           "  sweep-METRIC             METRIC against a swept parameter, per policy\n\n"
	           "  -o, --output DIR      where to write (required)\n"
	           "  --format FMT          png, svg or both (default both)\n"
	           "  --metric NAME         the sweep plot's metric: a compare row (\"THP fault\n"
	           "                        fail rate %%\", the default) or a vmstat or metrics name\n"
	           "  --param KEY           the swept parameter (default: the one params key\n"
	           "                        that varies within a policy, seeds aside)\n"
	           "  --run ID              draw the pageblock map of this run only\n");
}

/* ------------------------------------------------------------ small helpers */

/* a name safe in a file name and as a gnuplot word: [A-Za-z0-9._+-] */
static void slug(char *out, size_t n, const char *in)
{
	size_t i = 0;

	for (; *in && i + 1 < n; in++)
		out[i++] = (strchr("._+-", *in) || (*in >= 'a' && *in <= 'z') ||
		            (*in >= 'A' && *in <= 'Z') || (*in >= '0' && *in <= '9')) ? *in : '_';
	out[i] = '\0';
	if (i == 0)
		snprintf(out, n, "_");
	if (out[0] == '.')              /* no hidden files, no ".." */
		out[0] = '_';
}

/* "THP fault fail rate %" -> "thp-fault-fail-rate-pct" */
static void metric_slug(char *out, size_t n, const char *in)
{
	size_t i = 0;
	int dash = 0;

	for (; *in && i + 4 < n; in++) {
		char c = *in;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '%') {
			if (dash && i > 0)
				out[i++] = '-';
			dash = 0;
			if (c == '%')
				i += (size_t)snprintf(out + i, n - i, "pct");
			else
				out[i++] = c;
		} else {
			dash = 1;
		}
	}
	out[i] = '\0';
	if (i == 0)
		snprintf(out, n, "metric");
}

static const char *template_text(const char *name)
{
	for (const struct plot_template *t = mmsim_plot_templates; t->name; t++)
		if (!strcmp(t->name, name))
			return t->text;
	return NULL;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;
	fputs("mmsim: plot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* an SQL failure while reading: the schema is not what this mmsim knows */
static int sql_fail(struct plot_ctx *c, const char *what)
{
	error("%s: %s: %s", c->db_path, what, sqlite3_errmsg(c->db));
	return EX_DATAERR;
}

static sqlite3_stmt *prepare(struct plot_ctx *c, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* the first policy (the registry's first, the baseline: open_db) as
 * parameter i, so that its block comes first in every .dat */
static void bind_first(struct plot_ctx *c, sqlite3_stmt *st, int i)
{
	if (st && c->nr_policies)
		sqlite3_bind_text(st, i, c->policy[0], -1, SQLITE_STATIC);
}

static int policy_index(const struct plot_ctx *c, const char *name)
{
	for (int i = 0; i < c->nr_policies; i++)
		if (name && !strcmp(c->policy[i], name))
			return i;
	return -1;
}

/* start writing DIR/name (outfile.h: never through a link planted
 * there); NULL with the error printed */
static FILE *out_open(struct plot_ctx *c, struct outfile *o, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", c->dir, name);
	return outfile_open(o, path, 0666);
}

/* rename into place and list a file written; EX_IOERR if the writes failed */
static int out_close(struct plot_ctx *c, struct outfile *o, const char *name)
{
	if (outfile_commit(o))
		return EX_IOERR;
	if (!c->quiet)
		printf("%s/%s\n", c->dir, name);
	return 0;
}

/* --------------------------------------------------------------- gnuplot */

static int find_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(buf, sizeof(buf), "%.*s/gnuplot", len ? (int)len : 1, len ? path : ".");
		if (access(buf, X_OK) == 0)
			return 1;
		path += len;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* gnuplot -e "fmt='FMT'; output_stdout = 1" NAME.gp, in DIR, its
 * standard output the image file img (its messages go to stderr) */
static int run_gnuplot(struct plot_ctx *c, const char *script, const char *fmt, FILE *img)
{
	char fmtvar[64];
	pid_t pid;
	int status;

	snprintf(fmtvar, sizeof(fmtvar), "fmt='%s'; output_stdout = 1", fmt);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error("cannot run gnuplot: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char *argv[] = { "gnuplot", "-e", fmtvar, (char *)script, NULL };
		FILE *null = fopen("/dev/null", "r");

		if (null)
			dup2(fileno(null), 0);
		dup2(fileno(img), 1);
		if (chdir(c->dir))
			_exit(126);
		execvp("gnuplot", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			error("cannot run gnuplot: waitpid: %s", strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		error("cannot run gnuplot on '%s/%s' (is gnuplot installed?)", c->dir, script);
	else if (WIFEXITED(status))
		error("gnuplot failed on '%s/%s' (exit %d)", c->dir, script, WEXITSTATUS(status));
	else
		error("gnuplot failed on '%s/%s' (signal %d)", c->dir, script, WTERMSIG(status));
	return -1;
}

/* Write DIR/NAME.gp (vars, common.gp, TEMPLATE) and draw NAME.png/.svg.
 * vars: gnuplot assignments, one a line. */
static int draw(struct plot_ctx *c, const char *name, const char *tmpl, const char *vars)
{
	const char *common = template_text("common.gp"), *body = template_text(tmpl);
	const char *fmts[2] = { c->png ? "png" : NULL, c->svg ? "svg" : NULL };
	char script[512];
	struct outfile o;
	FILE *f;
	int rc;

	if (!common || !body) {
		error("plot template '%s' is missing from this mmsim", common ? tmpl : "common.gp");
		return EX_SOFTWARE;
	}
	snprintf(script, sizeof(script), "%s.gp", name);
	f = out_open(c, &o, script);
	if (!f)
		return EX_CANTCREAT;
	fprintf(f, "# %s - written by mmsim plot from ", script);
	gp_quote(f, c->db_path);
	fprintf(f, "\n# redraw in this directory: gnuplot -e \"fmt='svg'\" %s  (or fmt='png')\n", script);
	fprintf(f, "if (!exists(\"fmt\")) fmt = \"png\"\nname = ");
	gp_quote(f, name);
	fprintf(f, "\n%s\n%s\n%s", vars, common, body);
	rc = out_close(c, &o, script);
	if (rc)
		return rc;

	/* the image: gnuplot's standard output (output_stdout, common.gp)
	 * into a file of ours, renamed into place once complete */
	for (int i = 0; i < 2; i++) {
		char img[PATH_MAX];
		struct stat sb;

		if (!fmts[i])
			continue;
		snprintf(img, sizeof(img), "%s/%s.%s", c->dir, name, fmts[i]);
		unlink(img);            /* an old image must not pass for a new one */
		if (!outfile_open(&o, img, 0666))
			return EX_CANTCREAT;
		if (run_gnuplot(c, script, fmts[i], o.f)) {
			outfile_abort(&o);
			c->gnuplot_failed = 1;
			continue;
		}
		if (fstat(fileno(o.f), &sb) || sb.st_size == 0) {
			error("gnuplot wrote no '%s'", img);
			outfile_abort(&o);
			c->gnuplot_failed = 1;
			continue;
		}
		if (outfile_commit(&o))
			return EX_IOERR;
		if (!c->quiet)
			printf("%s\n", img);
	}
	return 0;
}

/* The variables every per-policy series plot shares: datafile, and the
 * policies with data (a block each in the .dat) with their line types. */
struct series {
	FILE *f;                        /* the .dat, opened at the first row */
	struct outfile out;             /* f's file */
	const char *name;               /* "thp_success" */
	const char *tmpl;               /* "thp_success.gp" */
	char file[256];                 /* "thp_success.dat" */
	int cur;                        /* policy of the current block, -1 none */
	char policies[MAX_POLICIES * 64], ltypes[MAX_POLICIES * 4];
};

static void series_init(struct series *s, const char *name, const char *tmpl)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->tmpl = tmpl;
	s->cur = -1;
	snprintf(s->file, sizeof(s->file), "%s.dat", name);
}

/* Start policy p's block if this row is its first; header is written with
 * the file.  NULL on failure (printed). */
static FILE *series_row(struct plot_ctx *c, struct series *s, int p, const char *header)
{
	char pol[64];
	size_t len;

	if (!s->f) {
		s->f = out_open(c, &s->out, s->file);
		if (!s->f)
			return NULL;
		fprintf(s->f, "# %s - written by mmsim plot from ", s->file);
		gp_quote(s->f, c->db_path);
		fprintf(s->f, "\n%s# one block per policy (gnuplot index 0, 1, ...), blocks\n"
		              "# separated by two blank lines\n", header);
	}
	if (p != s->cur) {
		if (s->cur >= 0)
			fputs("\n\n", s->f);
		/* a slug: a gnuplot word, and a comment of one line */
		slug(pol, sizeof(pol), c->policy[p]);
		fprintf(s->f, "# policy %s\n", pol);
		len = strlen(s->policies);
		snprintf(s->policies + len, sizeof(s->policies) - len, "%s%s", len ? " " : "", pol);
		len = strlen(s->ltypes);
		snprintf(s->ltypes + len, sizeof(s->ltypes) - len, "%s%d", len ? " " : "", p + 1);
		s->cur = p;
	}
	return s->f;
}

/* close the .dat and draw it; extra: more gnuplot variables or "" */
static int series_finish(struct plot_ctx *c, struct series *s, const char *extra)
{
	char vars[MAX_POLICIES * 80 + 1024];
	int rc;

	if (!s->f)
		return 0;
	rc = out_close(c, &s->out, s->file);
	s->f = NULL;
	if (rc)
		return rc;
	/* file and policies are slugs, ltypes numbers: nothing to escape */
	snprintf(vars, sizeof(vars), "datafile = '%s'\npolicies = '%s'\nltypes = '%s'\n%s",
	         s->file, s->policies, s->ltypes, extra);
	return draw(c, s->name, s->tmpl, vars);
}

/* ------------------------------------------------- 1. THP success over time */

/* Samples are cumulative counters: the rate of an interval is
 * d(alloc) / (d(alloc) + d(fallback)) between consecutive sample times of
 * a run.  Intervals without THP faults have no rate and are skipped (not
 * counted as 0 or 100%); the mean at t is over the runs that faulted. */
static const char thp_sql[] =
	"WITH s AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.run_id AS run_id, x.t AS t,"
	"         MAX(CASE WHEN x.name = 'thp_fault_alloc' THEN x.value END) AS a,"
	"         MAX(CASE WHEN x.name = 'thp_fault_fallback' THEN x.value END) AS f"
	"  FROM samples x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' AND x.name IN ('thp_fault_alloc', 'thp_fault_fallback')"
	"  GROUP BY x.run_id, x.t),"
	" d AS ("
	"  SELECT policy, t, a - LAG(a) OVER w AS da, f - LAG(f) OVER w AS df"
	"  FROM s WINDOW w AS (PARTITION BY run_id ORDER BY t)),"
	" q AS (SELECT policy, t, 100.0 * da / (da + df) AS rate FROM d WHERE da + df > 0)"
	" SELECT policy, t, AVG(rate), MIN(rate), MAX(rate), COUNT(*) FROM q"
	" GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

static int plot_thp_success(struct plot_ctx *c)
{
	struct series s;
	sqlite3_stmt *st = prepare(c, thp_sql);

	bind_first(c, st, 1);
	int rc = 0, step;

	if (!st)
		return sql_fail(c, "reading samples");
	series_init(&s, "thp_success", "thp_success.gp");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int p = policy_index(c, (const char *)sqlite3_column_text(st, 0));
		FILE *f;

		if (p < 0)
			continue;
		f = series_row(c, &s, p,
			"# THP fault success rate in each sample interval, percent:\n"
			"#   100 * d(thp_fault_alloc) / (d(thp_fault_alloc) + d(thp_fault_fallback))\n"
			"# from the cumulative samples of each run; intervals without THP faults\n"
			"# are skipped; then mean, min and max over the runs (seeds) at each t.\n"
			"# columns: t_s success_pct_mean success_pct_min success_pct_max runs\n");
		if (!f) {
			rc = EX_CANTCREAT;
			break;
		}
		fprintf(f, "%.9g %.6g %.6g %.6g %d\n", sqlite3_column_double(st, 1),
		        sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
		        sqlite3_column_double(st, 4), sqlite3_column_int(st, 5));
	}
	if (!rc && step != SQLITE_DONE)
		rc = sql_fail(c, "reading samples");
	sqlite3_finalize(st);
	if (rc) {
		outfile_abort(&s.out);
		return rc;
	}
	if (!s.f) {
		note("no thp_fault_alloc/thp_fault_fallback samples with faults: thp_success skipped");
		return 0;
	}
	return series_finish(c, &s, "");
}

/* ------------------------------------------------ 2. free and mixed blocks */

/* Wholly free pageblocks for every policy, whatever its migratetypes: the
 * free_pageblocks sample (free_pageblocks() in sim/mm/census.c: buddy
 * blocks of pageblock order and more, counted in pageblocks) at or before
 * the census time; only a file without that sample falls back to the
 * census row of a 'Free' migratetype (which only some policies have). */
static const char blocks_sql[] =
	"WITH b AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.t AS t,"
	"         COALESCE((SELECT s.value FROM samples s WHERE s.run_id = x.run_id"
	"                   AND s.name = 'free_pageblocks' AND s.t <= x.t ORDER BY s.t DESC LIMIT 1),"
	"                  SUM(CASE WHEN x.migratetype = 'Free' THEN x.blocks END)) AS free,"
	"         SUM(x.mixed_blocks) AS mixed"
	"  FROM block_census x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' GROUP BY x.run_id, x.t)"
	" SELECT policy, t, AVG(free), AVG(mixed), COUNT(*) FROM b"
	" GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

static int plot_blocks(struct plot_ctx *c)
{
	struct series s;
	sqlite3_stmt *st = prepare(c, blocks_sql);

	bind_first(c, st, 1);
	int rc = 0, step, has_free = 0;
	unsigned long free_policies = 0;        /* bit p: policy p has 'Free' rows */
	char vars[512];

	if (!st)
		return sql_fail(c, "reading block_census");
	series_init(&s, "blocks", "blocks.gp");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int p = policy_index(c, (const char *)sqlite3_column_text(st, 0));
		FILE *f;

		if (p < 0)
			continue;
		f = series_row(c, &s, p,
			"# pageblocks, mean over the runs (seeds) at each census time t:\n"
			"# free = wholly free pageblocks (the free_pageblocks sample at or\n"
			"# before t, for every policy; a file without it: the census row of a\n"
			"# 'Free' migratetype; NaN without either),\n"
			"# mixed = mixed_blocks summed over the migratetypes\n"
			"# columns: t_s free_blocks mixed_blocks runs\n");
		if (!f) {
			rc = EX_CANTCREAT;
			break;
		}
		fprintf(f, "%.9g ", sqlite3_column_double(st, 1));
		if (sqlite3_column_type(st, 2) == SQLITE_NULL) {
			fputs("NaN", f);
		} else {
			fprintf(f, "%.6g", sqlite3_column_double(st, 2));
			has_free = 1;
			if (p < 64)
				free_policies |= 1ul << p;
		}
		fprintf(f, " %.6g %d\n", sqlite3_column_double(st, 3), sqlite3_column_int(st, 4));
	}
	if (!rc && step != SQLITE_DONE)
		rc = sql_fail(c, "reading block_census");
	sqlite3_finalize(st);
	if (rc) {
		outfile_abort(&s.out);
		return rc;
	}
	if (!s.f) {
		note("no block_census rows: blocks skipped");
		return 0;
	}
	if (!has_free)
		note("no free_pageblocks samples (nor 'Free' census rows): blocks shows mixed blocks only");
	/* the 1-based indices of the policies that have free blocks: the
	 * others get no "free" line (not an empty one) */
	{
		size_t n = (size_t)snprintf(vars, sizeof(vars), "has_free = %d\nfree_policies = \"", has_free);
		for (int p = 0; p < 64 && n < sizeof(vars) - 8; p++)
			if (free_policies & (1ul << p))
				n += (size_t)snprintf(vars + n, sizeof(vars) - n, "%s%d", n && vars[n - 1] != '"' ? " " : "", p + 1);
		snprintf(vars + n, sizeof(vars) - n, "\"\n");
	}
	return series_finish(c, &s, vars);
}

/* --------------------------------- 2b. blocks holding foreign pages over time */

/* The cover letter's three mixed counts over time: unmovable blocks with
 * LRU or reclaimable slab pages, reclaimable blocks with non-slab pages,
 * movable blocks with non-LRU pages (block_census.mixed_blocks of each
 * type, classified by pageblock_census()); per policy the mean, min and
 * max over the runs (seeds) at each census time. */
static const char census_sql[] =
	"WITH c AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.t AS t,"
	"         SUM(CASE WHEN x.migratetype = 'Unmovable' THEN x.mixed_blocks ELSE 0 END) AS u,"
	"         SUM(CASE WHEN x.migratetype = 'Reclaimable' THEN x.mixed_blocks ELSE 0 END) AS rc,"
	"         SUM(CASE WHEN x.migratetype = 'Movable' THEN x.mixed_blocks ELSE 0 END) AS m"
	"  FROM block_census x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' GROUP BY x.run_id, x.t)"
	" SELECT policy, t, AVG(u), MIN(u), MAX(u), AVG(rc), MIN(rc), MAX(rc), AVG(m), MIN(m), MAX(m),"
	"        COUNT(*) FROM c GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

static int plot_census(struct plot_ctx *c)
{
	struct series s;
	sqlite3_stmt *st = prepare(c, census_sql);

	bind_first(c, st, 1);
	int rc = 0, step;

	if (!st)
		return sql_fail(c, "reading block_census");
	series_init(&s, "census", "census.gp");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int p = policy_index(c, (const char *)sqlite3_column_text(st, 0));
		FILE *f;

		if (p < 0)
			continue;
		f = series_row(c, &s, p,
			"# blocks holding foreign pages (block_census.mixed_blocks), over the\n"
			"# runs (seeds) at each census time: mean, min, max of\n"
			"#   unmovable blocks with LRU or reclaimable slab pages,\n"
			"#   reclaimable blocks with non-slab pages,\n"
			"#   movable blocks with non-LRU pages\n"
			"# columns: t_s unmov_mean unmov_min unmov_max recl_mean recl_min recl_max\n"
			"#          mov_mean mov_min mov_max runs\n");
		if (!f) {
			rc = EX_CANTCREAT;
			break;
		}
		fprintf(f, "%.9g", sqlite3_column_double(st, 1));
		for (int k = 2; k <= 10; k++)
			fprintf(f, " %.6g", sqlite3_column_double(st, k));
		fprintf(f, " %d\n", sqlite3_column_int(st, 11));
	}
	if (!rc && step != SQLITE_DONE)
		rc = sql_fail(c, "reading block_census");
	sqlite3_finalize(st);
	if (rc) {
		outfile_abort(&s.out);
		return rc;
	}
	if (!s.f) {
		note("no block_census rows: census skipped");
		return 0;
	}
	return series_finish(c, &s, "");
}

/* -------------------------------------------------------- 3. pageblock map */

static const char *const mt_names[] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Free", "Isolate",
};
#define MT_NONE 6                       /* no row: white in blockmap.gp */
#define MT_MIXED 7                      /* "Movable mixed": code 7 + the type's code */
#define MAX_MAP_COLUMNS 4096            /* times drawn; more are resampled */
#define MAX_MAP_CELLS (64L << 20)

/* "Movable" -> 1; "Movable mixed" (a group holding foreign pages or
 * blocks of several types: census.h's PAGEBLOCK_MAP_MIXED) -> 7 + 1 */
static int mt_code(const char *s)
{
	size_t len = s ? strcspn(s, " ") : 0;
	int mixed = s && !strcmp(s + len, " mixed");

	if (s && s[len] && !mixed)
		return -1;
	for (int i = 0; i < (int)(sizeof(mt_names) / sizeof(mt_names[0])); i++)
		if (s && strlen(mt_names[i]) == len && !strncmp(s, mt_names[i], len))
			return mixed ? MT_MIXED + i : i;
	return -1;
}

/* The map of one run as a regular grid (`with image` needs one): every
 * stored time is a column when the sampling interval is constant;
 * otherwise columns are spaced by the smallest interval and each shows the
 * latest map at or before its time. */
static int plot_blockmap_run(struct plot_ctx *c, const char *run_id, const char *policy, long seed)
{
	sqlite3_stmt *st;
	double *T = NULL, dt = 1;
	signed char *cell = NULL;
	long gmin, gmax, ngrp, nt = 0, ncol, unknown = 0;
	int rc = 0, step, regular = 1;
	char pol[64], idslug[64], name[128], file[160], vars[1024];
	struct outfile o;
	FILE *f;

	st = prepare(c, "SELECT MIN(grp), MAX(grp), COUNT(DISTINCT t) FROM blockmap WHERE run_id = ?1");
	if (!st)
		return sql_fail(c, "reading blockmap");
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return sql_fail(c, "reading blockmap");
	}
	gmin = sqlite3_column_int64(st, 0);
	gmax = sqlite3_column_int64(st, 1);
	nt = sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);
	slug(pol, sizeof(pol), policy);
	slug(idslug, sizeof(idslug), run_id);
	snprintf(name, sizeof(name), "blockmap-%s-seed%ld", pol, seed);
	if (nt == 0) {
		note("run %s has no blockmap rows: %s skipped", run_id, name);
		return 0;
	}
	/* in double: a garbage grp must not overflow */
	if ((double)gmax - (double)gmin + 1 > (double)(MAX_MAP_CELLS / nt)) {
		note("run %s: blockmap too large (%ld times, groups %ld..%ld): %s skipped",
		     run_id, nt, gmin, gmax, name);
		return 0;
	}
	ngrp = gmax - gmin + 1;

	/* the stored times, then the cells */
	T = malloc(sizeof(*T) * (size_t)nt);
	cell = malloc((size_t)(nt * ngrp));
	if (!T || !cell) {
		error("out of memory for the blockmap of run %s", run_id);
		rc = EX_SOFTWARE;
		goto out;
	}
	memset(cell, MT_NONE, (size_t)(nt * ngrp));
	st = prepare(c, "SELECT t, grp, migratetype FROM blockmap WHERE run_id = ?1 ORDER BY t, grp");
	if (!st) {
		rc = sql_fail(c, "reading blockmap");
		goto out;
	}
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	{
		long i = -1;
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			double t = sqlite3_column_double(st, 0);
			long g = sqlite3_column_int64(st, 1) - gmin;
			int code = mt_code((const char *)sqlite3_column_text(st, 2));

			if (i < 0 || t != T[i]) {
				if (++i >= nt)          /* cannot happen: counted above */
					break;
				T[i] = t;
			}
			if (code < 0)
				unknown++;
			else
				cell[i * ngrp + g] = (signed char)code;
		}
	}
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		rc = sql_fail(c, "reading blockmap");
	sqlite3_finalize(st);
	if (rc)
		goto out;
	if (unknown)
		note("run %s: %ld blockmap rows of unknown migratetypes drawn as 'no data'", run_id, unknown);

	/* the grid's columns */
	ncol = nt;
	if (nt > 1) {
		dt = T[1] - T[0];
		for (long i = 1; i + 1 < nt; i++)
			if (T[i + 1] - T[i] < dt)
				dt = T[i + 1] - T[i];
		for (long i = 0; i + 1 < nt; i++)
			if (fabs(T[i + 1] - T[i] - dt) > 1e-6 * dt)
				regular = 0;
		if (!regular) {
			double span = T[nt - 1] - T[0], cols = span / dt + 1.5;

			if (cols > MAX_MAP_COLUMNS) {
				ncol = MAX_MAP_COLUMNS;
				dt = span / (double)(ncol - 1);
			} else {
				ncol = (long)cols;
			}
		}
	}

	snprintf(file, sizeof(file), "%s.dat", name);
	f = out_open(c, &o, file);
	if (!f) {
		rc = EX_CANTCREAT;
		goto out;
	}
	fprintf(f, "# %s - written by mmsim plot from ", file);
	gp_quote(f, c->db_path);
	fprintf(f, "\n# pageblock map of run %s (policy %s, seed %ld), from the blockmap table\n"
	           "# codes: 0 Unmovable, 1 Movable, 2 Reclaimable, 3 HighAtomic, 4 Free,\n"
	           "#        5 Isolate, 6 no data; 7 + a type's code: a mixed group of that\n"
	           "#        majority type (blocks holding foreign pages or of several types)\n",
	        idslug, pol, seed);
	if (!regular)
		fprintf(f, "# sample times are irregular: columns every %.6g s, each showing\n"
		           "# the latest map at or before its time\n", dt);
	if (nt == 1 || ngrp == 1)
		fprintf(f, "# padded with 'no data' to the 2 x 2 cells gnuplot's image needs\n");
	fprintf(f, "# columns: t_s group code (a blank line between times)\n");
	for (long j = 0, i = 0; j < (ncol > 1 ? ncol : 2); j++) {
		double x = regular ? (j < nt ? T[j] : T[0] + 1) : T[0] + (double)j * dt;

		if (!regular)
			while (i + 1 < nt && T[i + 1] <= x + 1e-6 * dt)
				i++;
		else
			i = j;
		for (long g = 0; g < (ngrp > 1 ? ngrp : 2); g++)
			fprintf(f, "%.9g %ld %d\n", x, gmin + g,
			        (i < nt && g < ngrp) ? cell[i * ngrp + g] : MT_NONE);
		fputc('\n', f);
	}
	rc = out_close(c, &o, file);
	if (rc)
		goto out;

	{
		FILE *v = fmemopen(vars, sizeof(vars), "w");
		char title[300];

		if (!v) {
			rc = EX_SOFTWARE;
			goto out;
		}
		snprintf(title, sizeof(title), "Pageblock map: %s, seed %ld (run %s)", policy, seed, run_id);
		fprintf(v, "datafile = ");
		gp_quote(v, file);
		fprintf(v, "\ntitle_text = ");
		gp_quote(v, title);
		fputc('\n', v);
		fputc('\0', v);
		fclose(v);
		vars[sizeof(vars) - 1] = '\0';
	}
	rc = draw(c, name, "blockmap.gp", vars);
out:
	free(T);
	free(cell);
	return rc;
}

static int plot_blockmaps(struct plot_ctx *c, const char *only_run)
{
	/* per policy the lowest seed that has a map */
	static const char sql[] =
		"SELECT run_id, " SERIES_OF("r") " AS policy, seed FROM runs r"
		" WHERE (?1 IS NULL AND status = 'ok' OR run_id = ?1)"
		"   AND EXISTS (SELECT 1 FROM blockmap b WHERE b.run_id = r.run_id)"
		" ORDER BY policy <> ?2, policy, seed, run_id";
	sqlite3_stmt *st = prepare(c, sql);
	char last[256] = "";
	int rc = 0, step, n = 0;

	if (!st)
		return sql_fail(c, "reading runs");
	if (only_run)
		sqlite3_bind_text(st, 1, only_run, -1, SQLITE_STATIC);
	bind_first(c, st, 2);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *pol = (const char *)sqlite3_column_text(st, 1);

		if (!id || !pol || !strcmp(pol, last))
			continue;
		snprintf(last, sizeof(last), "%s", pol);
		n++;
		rc = plot_blockmap_run(c, id, pol, (long)sqlite3_column_int64(st, 2));
		if (rc)
			break;
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = sql_fail(c, "reading runs");
	sqlite3_finalize(st);
	if (!rc && n == 0) {
		if (only_run)
			note("run %s has no blockmap rows: blockmap skipped", only_run);
		else
			note("no blockmap rows: blockmap skipped");
	}
	return rc;
}

/* --------------------------------------------------------------- 4. sweep */

static const char DEFAULT_METRIC[] = "THP fault fail rate %";

struct sweep_pt {
	int pol;
	char *label;                    /* the param value as stored */
	double x, mean, min, max;
	int n;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct sweep_pt *p = a, *q = b;

	if (p->pol != q->pol)
		return p->pol - q->pol;
	return (p->x > q->x) - (p->x < q->x);
}

/* the sort key of a value: a number, a size (2G), else NAN (compared as text) */
static double value_key(const char *s, int *numeric)
{
	char *end;
	uint64_t sz;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end != s && !*end && !errno && isfinite(d)) {
		*numeric = 1;
		return d;
	}
	*numeric = 0;
	if (!parse_size(s, &sz))
		return (double)sz;
	return NAN;
}

static int cmp_label(const void *a, const void *b)
{
	const char *s = *(const char *const *)a, *t = *(const char *const *)b;
	int n1, n2;
	double x = value_key(s, &n1), y = value_key(t, &n2);

	if (!isnan(x) && !isnan(y) && x != y)
		return (x > y) - (x < y);
	return strcmp(s, t);
}

/* Which params key is swept: the keys with more than one value within a
 * policy (a key that only follows the policy is not a sweep), seeds aside.
 * 1 and key set, 0 none or several (noted). */
static int detect_param(struct plot_ctx *c, char *key, size_t n, int *rc)
{
	static const char sql[] =
		"SELECT DISTINCT p.key FROM params p JOIN runs r ON r.run_id = p.run_id"
		" WHERE r.status = 'ok'"
		"   AND p.key NOT IN ('seed', 'policy', 'run.seed', 'policy.name')"
		"   AND p.key NOT LIKE '%.seed'"
		"   AND p.key NOT LIKE 'real.%'"        /* a real run's provenance: its times vary */
		" GROUP BY " SERIES_OF("r") ", p.key HAVING COUNT(DISTINCT p.value) > 1 ORDER BY p.key";
	sqlite3_stmt *st = prepare(c, sql);
	char list[1024] = "";
	int found = 0, step;

	*rc = 0;
	if (!st) {
		*rc = sql_fail(c, "reading params");
		return 0;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		if (!k)
			continue;
		if (!found)
			snprintf(key, n, "%s", k);
		size_t len = strlen(list);
		snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "", k);
		found++;
	}
	if (step != SQLITE_DONE)
		*rc = sql_fail(c, "reading params");
	sqlite3_finalize(st);
	if (*rc)
		return 0;
	if (found == 0)
		note("no parameter varies across the runs of a policy (not a sweep): sweep plot skipped");
	else if (found > 1)
		note("several parameters vary (%s): choose one with --param; sweep plot skipped", list);
	return found == 1;
}

/* 1 if name is in table (vmstat or metrics) */
static int has_name(struct plot_ctx *c, const char *table, const char *name, int *any)
{
	char sql[128];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM %s WHERE name = ?1),"
	                           " EXISTS (SELECT 1 FROM %s)", table, table);
	st = prepare(c, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = sqlite3_column_int(st, 0);
		*any |= sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return found;
}

/* The sweep's metric as a per-run SQL expression over the run r: a
 * compare row, else a vmstat or metrics name (bound as ?2).  Checked
 * before anything is drawn, so that a misspelt name fails alone.
 * 0 (expr NULL: no data to find it in), or an exit code. */
struct metric {
	const char *name, *expr;
	int bind_name;
	int row;                        /* a compare row (metrics.h), or -1 */
};

/* A compare row's per-run values, computed by results/ from its one
 * definition (metrics.c) exactly as the table counts them (iterations
 * averaged, the zero-denominator rule), into a temporary table the sweep
 * query reads: the plot has no formula of its own. */
struct row_fill {
	sqlite3_stmt *ins;
	int row;
};

static int row_fill_one(void *arg, const char *run_id, const double *x)
{
	struct row_fill *f = arg;

	sqlite3_bind_text(f->ins, 1, run_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(f->ins, 2, x[f->row]);
	if (sqlite3_step(f->ins) != SQLITE_DONE)
		return 1;
	sqlite3_reset(f->ins);
	return 0;
}

static int fill_row_values(struct plot_ctx *c, int row)
{
	struct row_fill f = { .row = row };
	char err[1024];
	int rc;

	if (sqlite3_exec(c->db, "CREATE TEMP TABLE IF NOT EXISTS row_values"
	                        " (run_id TEXT PRIMARY KEY, value REAL); DELETE FROM temp.row_values",
	                 NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(c, "preparing the sweep");
	f.ins = prepare(c, "INSERT INTO temp.row_values VALUES (?1, ?2)");
	if (!f.ins)
		return sql_fail(c, "preparing the sweep");
	rc = results_run_values(c->db_path, row_fill_one, &f, err, sizeof(err));
	sqlite3_finalize(f.ins);
	if (rc) {
		error("%s", err);
		return EX_DATAERR;
	}
	return 0;
}

static int resolve_metric(struct plot_ctx *c, const char *name, struct metric *m)
{
	int any = 0, in_vmstat, in_metrics;

	*m = (struct metric){ .name = name, .row = results_metric_find(name) };
	if (m->row >= 0) {
		m->name = results_metrics[m->row].name;
		m->expr = "(SELECT value FROM temp.row_values x WHERE x.run_id = r.run_id)";
		return 0;
	}
	in_vmstat = has_name(c, "vmstat", name, &any);
	in_metrics = has_name(c, "metrics", name, &any);
	if (in_vmstat < 0 || in_metrics < 0)
		return sql_fail(c, "reading vmstat and metrics");
	m->bind_name = 1;
	if (in_vmstat)
		m->expr = "(SELECT value FROM vmstat x WHERE x.run_id = r.run_id AND x.name = ?2)";
	else if (in_metrics)
		m->expr = "(SELECT value FROM metrics x WHERE x.run_id = r.run_id AND x.name = ?2)";
	else if (any) {
		error("plot: unknown metric '%s' (a compare row such as '%s', or a name in the "
		      "vmstat or metrics table of '%s')", name, DEFAULT_METRIC, c->db_path);
		return EX_USAGE;
	}
	return 0;
}

static int plot_sweep(struct plot_ctx *c, const struct metric *mt, const char *param)
{
	const char *expr = mt->expr, *metric = mt->name;
	char key[256], sql[2048], mslug[128], name[160], extra[1024];
	struct sweep_pt *pts = NULL;
	const char **labels = NULL;
	size_t npts = 0, cap = 0, nlabels = 0;
	sqlite3_stmt *st;
	int rc = 0, step, categorical = 0, bind_name = mt->bind_name;
	double xmin = 0, xmax = 0;

	if (!expr) {
		note("no vmstat or metrics rows: sweep plot skipped");
		return 0;
	}

	if (param) {
		snprintf(key, sizeof(key), "%s", param);
	} else if (!detect_param(c, key, sizeof(key), &rc)) {
		return rc;
	}
	if (mt->row >= 0 && (rc = fill_row_values(c, mt->row)))
		return rc;

	snprintf(sql, sizeof(sql),
		"SELECT policy, value, AVG(m), MIN(m), MAX(m), COUNT(m) FROM ("
		"  SELECT " SERIES_OF("r") " AS policy, p.value AS value, %s AS m"
		"  FROM runs r JOIN params p ON p.run_id = r.run_id AND p.key = ?1"
		"  WHERE r.status = 'ok')"
		" WHERE m IS NOT NULL GROUP BY policy, value", expr);
	st = prepare(c, sql);
	if (!st)
		return sql_fail(c, "reading the sweep");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (bind_name)
		sqlite3_bind_text(st, 2, metric, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int p = policy_index(c, (const char *)sqlite3_column_text(st, 0));
		const char *v = (const char *)sqlite3_column_text(st, 1);

		if (p < 0 || !v)
			continue;
		if (npts == cap) {
			struct sweep_pt *np = realloc(pts, sizeof(*pts) * (cap = cap ? 2 * cap : 16));
			if (!np) {
				rc = EX_SOFTWARE;
				break;
			}
			pts = np;
		}
		pts[npts] = (struct sweep_pt){
			.pol = p, .label = strdup(v), .mean = sqlite3_column_double(st, 2),
			.min = sqlite3_column_double(st, 3), .max = sqlite3_column_double(st, 4),
			.n = sqlite3_column_int(st, 5),
		};
		if (!pts[npts].label) {
			rc = EX_SOFTWARE;
			break;
		}
		npts++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = sql_fail(c, "reading the sweep");
	else if (rc)
		error("out of memory reading the sweep");
	sqlite3_finalize(st);
	if (rc)
		goto out;
	if (npts == 0) {
		note("no runs with parameter '%s' and metric '%s': sweep plot skipped", key, metric);
		goto out;
	}

	/* x: the value itself when every value is a number, else its rank
	 * among the distinct values (sizes by size, others by name) */
	labels = malloc(sizeof(*labels) * npts);
	if (!labels) {
		error("out of memory reading the sweep");
		rc = EX_SOFTWARE;
		goto out;
	}
	for (size_t i = 0; i < npts; i++) {
		int numeric;
		value_key(pts[i].label, &numeric);
		if (!numeric)
			categorical = 1;
		labels[i] = pts[i].label;
	}
	qsort(labels, npts, sizeof(*labels), cmp_label);
	for (size_t i = 0; i < npts; i++)
		if (i == 0 || strcmp(labels[i], labels[nlabels - 1]))
			labels[nlabels++] = labels[i];
	for (size_t i = 0; i < npts; i++) {
		int numeric;
		pts[i].x = value_key(pts[i].label, &numeric);
		if (categorical)
			for (size_t k = 0; k < nlabels; k++)
				if (!strcmp(labels[k], pts[i].label))
					pts[i].x = (double)k;
	}
	qsort(pts, npts, sizeof(*pts), cmp_pt);
	for (size_t i = 0; i < npts; i++) {
		xmin = i == 0 || pts[i].x < xmin ? pts[i].x : xmin;
		xmax = i == 0 || pts[i].x > xmax ? pts[i].x : xmax;
	}

	metric_slug(mslug, sizeof(mslug), metric);
	snprintf(name, sizeof(name), "sweep-%s", mslug);
	{
		struct series s;
		char header[1024];

		/* the names as given, quoted, on one comment line each */
		FILE *h = fmemopen(header, sizeof(header), "w");
		if (!h) {
			rc = EX_SOFTWARE;
			goto out;
		}
		fputs("# metric ", h);
		gp_quote(h, metric);
		fputs("\n# against the parameter ", h);
		gp_quote(h, key);
		fprintf(h, ", per policy: mean, min and max over\n"
			"# the runs (seeds) at each value (ratios are per run, then averaged)\n"
			"# columns: x mean min max runs \"value\"%s\n",
			categorical ? "  (x is the rank of the value)" : "");
		fputc('\0', h);
		fclose(h);
		header[sizeof(header) - 1] = '\0';
		series_init(&s, name, "sweep.gp");
		for (size_t i = 0; i < npts; i++) {
			FILE *f = series_row(c, &s, pts[i].pol, header);
			if (!f) {
				rc = EX_CANTCREAT;
				goto out;
			}
			fprintf(f, "%.9g %.6g %.6g %.6g %d \"", pts[i].x, pts[i].mean, pts[i].min, pts[i].max, pts[i].n);
			for (const char *p = pts[i].label; *p; p++)
				fputc(*p == '"' || (unsigned char)*p < ' ' ? '\'' : *p, f);
			fputs("\"\n", f);
		}
		FILE *v = fmemopen(extra, sizeof(extra), "w");
		if (!v) {
			outfile_abort(&s.out);
			rc = EX_SOFTWARE;
			goto out;
		}
		fprintf(v, "metric = ");
		gp_quote(v, metric);
		fprintf(v, "\nparam = ");
		gp_quote(v, key);
		fprintf(v, "\ncategorical = %d\nnvalues = %zu\nxmin = %.9g\nxmax = %.9g\n",
		        categorical, nlabels, xmin, xmax);
		fputc('\0', v);
		fclose(v);
		extra[sizeof(extra) - 1] = '\0';
		rc = series_finish(c, &s, extra);
	}
out:
	for (size_t i = 0; i < npts; i++)
		free(pts[i].label);
	free(pts);
	free(labels);
	return rc;
}

/* ------------------------------------------------------------ the database */

/* Open DB read-only and check it is a results database of this schema:
 * 66 if it does not exist, 65 if it is not one. */
static int open_db(struct plot_ctx *c)
{
	static const char *const tables[] = {
		"runs", "params", "vmstat", "metrics", "samples", "block_census", "blockmap", NULL,
	};
	struct stat sb;
	sqlite3_stmt *st;
	int version = -1;

	if (stat(c->db_path, &sb)) {
		error("cannot open '%s': %s", c->db_path, strerror(errno));
		return EX_NOINPUT;
	}
	if (!S_ISREG(sb.st_mode)) {
		error("'%s' is not a results database (not a regular file)", c->db_path);
		return EX_DATAERR;
	}
	if (sqlite3_open_v2(c->db_path, &c->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		error("cannot open '%s': %s", c->db_path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
		return EX_NOINPUT;
	}
	/* a file that is not SQLite fails here, at the first read */
	st = prepare(c, "PRAGMA user_version");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0) {
		error("'%s' is not a results database: %s", c->db_path, sqlite3_errmsg(c->db));
		return EX_DATAERR;
	}
	if (version < 1 || version > SCHEMA_VERSION) {
		error("'%s' is not a results database of this mmsim (schema version %d, expected 1..%d)",
		      c->db_path, version, SCHEMA_VERSION);
		return EX_DATAERR;
	}
	st = prepare(c, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
	if (!st)
		return sql_fail(c, "reading the schema");
	for (int i = 0; tables[i]; i++) {
		int found;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, tables[i], -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
		if (!found) {
			sqlite3_finalize(st);
			error("'%s' is not a results database: no table '%s'", c->db_path, tables[i]);
			return EX_DATAERR;
		}
	}
	sqlite3_finalize(st);
	{
		/* a version-2 file: its runs read with source 'sim' */
		char err[512];
		if (results_compat_view(c->db, c->db_path, err, sizeof(err))) {
			error("%s", err);
			return EX_DATAERR;
		}
	}

	/* the policies, vanilla first: the line types of every plot */
	st = prepare(c, "SELECT DISTINCT " SERIES_OF("r") " AS p FROM runs r WHERE status = 'ok'"
	                " ORDER BY p");
	if (!st)
		return sql_fail(c, "reading runs");
	while (sqlite3_step(st) == SQLITE_ROW) {
		char name[64];

		if (c->nr_policies == MAX_POLICIES) {
			note("more than %d policies: the others are not drawn", MAX_POLICIES);
			break;
		}
		/* kept as stored: slug() is for file names only */
		snprintf(name, sizeof(name), "%s", (const char *)sqlite3_column_text(st, 0));
		c->policy[c->nr_policies] = strdup(name);
		if (!c->policy[c->nr_policies])
			break;
		c->nr_policies++;
	}
	sqlite3_finalize(st);
	/* the registry's first policy (the baseline) first, the others sorted */
	{
		const char *names = mm_policy_names();
		size_t n = strcspn(names, ",");
		for (int i = 1; i < c->nr_policies; i++)
			if (strlen(c->policy[i]) == n && !strncmp(c->policy[i], names, n)) {
				char *first = c->policy[i];
				memmove(&c->policy[1], &c->policy[0], sizeof(c->policy[0]) * (size_t)i);
				c->policy[0] = first;
				break;
			}
	}
	return 0;
}

int make_dir(const char *dir)
{
	char path[4096];
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path)) {
		error("cannot create '%s': bad directory name", dir);
		return EX_CANTCREAT;
	}
	memcpy(path, dir, len + 1);
	/* mkdir -p */
	for (char *p = path + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;
			*p = '\0';
			if (mkdir(path, 0777) && errno != EEXIST) {
				error("cannot create '%s': %s", path, strerror(errno));
				return EX_CANTCREAT;
			}
			*p = saved;
			if (!saved)
				break;
		}
	}
	struct stat sb;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		error("cannot create '%s': not a directory", dir);
		return EX_CANTCREAT;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "metric", required_argument, NULL, 'm' },
		{ "param", required_argument, NULL, 'k' },
		{ "run", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_opts o = { .png = 1, .svg = 1 };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.dir = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "png") || !strcmp(optarg, "svg") || !strcmp(optarg, "both")) {
				o.png = strcmp(optarg, "svg") != 0;
				o.svg = strcmp(optarg, "png") != 0;
			} else {
				error("plot: unknown format '%s' (valid: png, svg, both)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'k':
			o.param = optarg;
			break;
		case 'r':
			o.run = optarg;
			break;
		case 'd':
			o.db = optarg;
			break;
		case 'h':
			plot_usage(stdout);
			return EXIT_OK;
		default:
			plot_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc && !o.db)
		o.db = argv[optind++];
	if (optind < argc) {
		error("plot: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!o.db || !o.dir) {
		error("plot: %s", !o.db ? "no database given (mmsim plot DB -o DIR)"
		                             : "no output directory given (-o DIR)");
		return EXIT_USAGE;
	}
	return plot_draw(&o);
}

/* mmsim plot's work, also reproduce's: the plots of o->db into o->dir */
int plot_draw(const struct plot_opts *o)
{
	struct plot_ctx c = { .db_path = o->db, .png = o->png, .svg = o->svg, .quiet = o->quiet };
	const char *metric = o->metric ? o->metric : DEFAULT_METRIC, *param = o->param, *run = o->run;
	struct metric mt;
	char dir[4096];
	int rc;

	snprintf(dir, sizeof(dir), "%s", o->dir);
	/* "-o out/" and "-o out" name the same files */
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	c.dir = dir;

	rc = open_db(&c);
	if (rc)
		goto out;
	if (run) {
		sqlite3_stmt *st = prepare(&c, "SELECT 1 FROM runs WHERE run_id = ?1");
		int found;

		if (!st) {
			rc = sql_fail(&c, "reading runs");
			goto out;
		}
		sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		if (!found) {
			error("plot: no run '%s' in '%s'", run, c.db_path);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	rc = resolve_metric(&c, metric, &mt);
	if (rc)
		goto out;
	if (!find_gnuplot()) {
		error("plot: gnuplot not found in PATH (install gnuplot-nox: scripts/install-deps.sh)");
		rc = EX_UNAVAILABLE;
		goto out;
	}
	rc = make_dir(c.dir);
	if (rc)
		goto out;
	if (c.nr_policies == 0)
		note("'%s' has no runs with status 'ok': nothing to draw", c.db_path);

	rc = plot_thp_success(&c);
	if (!rc)
		rc = plot_blocks(&c);
	if (!rc)
		rc = plot_census(&c);
	if (!rc)
		rc = plot_blockmaps(&c, run);
	if (!rc && !o->no_sweep)
		rc = plot_sweep(&c, &mt, param);
	if (!rc && c.gnuplot_failed)
		rc = EX_SOFTWARE;
out:
	for (int i = 0; i < c.nr_policies; i++)
		free(c.policy[i]);
	sqlite3_close(c.db);
	return rc;
}
