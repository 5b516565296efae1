/* compare.c - the RFC cover letter's table, from a results database.
 *
 * Columns: one per value of a key (the policy by default, or a runs
 * column, or a params key such as machine.ram), the baseline first.
 * Rows: the cover letter's, in its order and with its names.  Every row is
 * a value computed per run (a counter, a difference, a ratio) and then
 * averaged over the runs of the column: so a percentage row is the mean of
 * the per-run percentages, not the percentage of the means, as mmtests'
 * compare-kernels reports it.  A run of several iterations ([run]
 * iterations) gives each row as the mean of its per-iteration values
 * (each iteration's row computed from that iteration's metrics and
 * counters), which then counts as the run's value.  Each cell prints the mean and its change
 * against the baseline column, new / base - 1, in percent.
 * Only runs with status 'ok' count.  docs/schema.md lists the formulas.
 */
#include <ctype.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "results_int.h"

/* ------------------------------------------------------------------ */
/* what a run provides: workload metrics, then /proc/vmstat counters */

enum src {
	REAL_TIME, USER_TIME, SYSTEM_TIME,
	NR_METRIC_SRC,
	THP_FAULT_ALLOC = NR_METRIC_SRC, THP_FAULT_FALLBACK,
	COMPACT_STALL, COMPACT_FAIL, COMPACT_SUCCESS,
	COMPACT_DAEMON_MIGRATE_SCANNED, COMPACT_DAEMON_FREE_SCANNED,
	COMPACT_MIGRATE_SCANNED, COMPACT_FREE_SCANNED,
	ALLOCSTALL_DMA, ALLOCSTALL_DMA32, ALLOCSTALL_NORMAL, ALLOCSTALL_MOVABLE,
	PGSCAN_KSWAPD, PGSTEAL_KSWAPD, PGSCAN_DIRECT, PGSTEAL_DIRECT,
	PSWPOUT, PSWPIN, WORKINGSET_REFAULT_FILE,
	NR_SRC
};

static const char *const src_name[NR_SRC] = {
	"real_time", "user_time", "system_time",
	"thp_fault_alloc", "thp_fault_fallback",
	"compact_stall", "compact_fail", "compact_success",
	"compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"compact_migrate_scanned", "compact_free_scanned",
	"allocstall_dma", "allocstall_dma32", "allocstall_normal", "allocstall_movable",
	"pgscan_kswapd", "pgsteal_kswapd", "pgscan_direct", "pgsteal_direct",
	"pswpout", "pswpin", "workingset_refault_file",
};

/* ------------------------------------------------------------------ */
/* the rows */

/* a run whose denominator is 0 did nothing of the kind: 0, not NaN */
static double pct(double num, double den)
{
	return den != 0 ? 100.0 * num / den : 0.0;
}

static double thp_fail_rate(const double *v)
{
	return pct(v[THP_FAULT_FALLBACK], v[THP_FAULT_ALLOC] + v[THP_FAULT_FALLBACK]);
}

static double compact_success_rate(const double *v)
{
	return pct(v[COMPACT_SUCCESS], v[COMPACT_STALL]);
}

/* the kernel counts all scanning in compact_*_scanned and kcompactd's share
 * again in compact_daemon_*_scanned: direct = total - daemon */
static double direct_migrate_scanned(const double *v)
{
	return v[COMPACT_MIGRATE_SCANNED] - v[COMPACT_DAEMON_MIGRATE_SCANNED];
}

static double direct_free_scanned(const double *v)
{
	return v[COMPACT_FREE_SCANNED] - v[COMPACT_DAEMON_FREE_SCANNED];
}

static double migrate_daemon_pct(const double *v)
{
	return pct(v[COMPACT_DAEMON_MIGRATE_SCANNED], v[COMPACT_MIGRATE_SCANNED]);
}

static double free_daemon_pct(const double *v)
{
	return pct(v[COMPACT_DAEMON_FREE_SCANNED], v[COMPACT_FREE_SCANNED]);
}

static double alloc_stall(const double *v)
{
	return v[ALLOCSTALL_DMA] + v[ALLOCSTALL_DMA32] + v[ALLOCSTALL_NORMAL] + v[ALLOCSTALL_MOVABLE];
}

static double kswapd_scan_pct(const double *v)
{
	return pct(v[PGSCAN_KSWAPD], v[PGSCAN_KSWAPD] + v[PGSCAN_DIRECT]);
}

static const struct row {
	const char *name;
	int src;                        /* a source as it is, or -1: */
	double (*fn)(const double *v);  /* computed from the run's sources */
} rows[] = {
	{ "Real time", REAL_TIME, NULL },
	{ "User time", USER_TIME, NULL },
	{ "System time", SYSTEM_TIME, NULL },
	{ "THP fault alloc", THP_FAULT_ALLOC, NULL },
	{ "THP fault fallback", THP_FAULT_FALLBACK, NULL },
	{ "THP fault fail rate %", -1, thp_fail_rate },
	{ "Direct compact stall", COMPACT_STALL, NULL },
	{ "Direct compact fail", COMPACT_FAIL, NULL },
	{ "Direct compact success", COMPACT_SUCCESS, NULL },
	{ "Direct compact success rate %", -1, compact_success_rate },
	{ "Compact daemon scanned migrate", COMPACT_DAEMON_MIGRATE_SCANNED, NULL },
	{ "Compact daemon scanned free", COMPACT_DAEMON_FREE_SCANNED, NULL },
	{ "Compact direct scanned migrate", -1, direct_migrate_scanned },
	{ "Compact direct scanned free", -1, direct_free_scanned },
	{ "Compact migrate scanned daemon %", -1, migrate_daemon_pct },
	{ "Compact free scanned daemon %", -1, free_daemon_pct },
	{ "Alloc stall", -1, alloc_stall },
	{ "Pages kswapd scanned", PGSCAN_KSWAPD, NULL },
	{ "Pages kswapd reclaimed", PGSTEAL_KSWAPD, NULL },
	{ "Pages direct scanned", PGSCAN_DIRECT, NULL },
	{ "Pages direct reclaimed", PGSTEAL_DIRECT, NULL },
	{ "Pages scanned kswapd %", -1, kswapd_scan_pct },
	{ "Swap out", PSWPOUT, NULL },
	{ "Swap in", PSWPIN, NULL },
	{ "File refaults", WORKINGSET_REFAULT_FILE, NULL },
};

#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))

/* ------------------------------------------------------------------ */
/* the columns */

struct column {
	char *key;                      /* the value of the `by` key */
	long nr_runs;
	double sum[NR_ROWS], min[NR_ROWS], max[NR_ROWS];
	/* over the iterations of its runs (a run of one iteration is one) */
	long nr_iters;
	double imin[NR_ROWS], imax[NR_ROWS];
};

struct compare {
	const char *path;
	sqlite3 *db;
	sqlite3_stmt *vals;             /* a run's metrics and vmstat */
	sqlite3_stmt *iters;            /* a run's iterations' (NULL: a file without them) */
	struct column *col;
	size_t nr_col, cap_col;
	char *err;
	size_t errlen;
};

static struct column *column_add(struct compare *c, const char *key)
{
	struct column *col;

	if (c->nr_col == c->cap_col) {
		size_t cap = c->cap_col ? 2 * c->cap_col : 4;
		struct column *n = realloc(c->col, cap * sizeof(*n));
		if (!n)
			return NULL;
		c->col = n;
		c->cap_col = cap;
	}
	col = &c->col[c->nr_col];
	memset(col, 0, sizeof(*col));
	if (!(col->key = strdup(key)))
		return NULL;
	c->nr_col++;
	return col;
}

static double row_value(size_t r, const double *v)
{
	return rows[r].fn ? rows[r].fn(v) : v[rows[r].src];
}

/* one iteration's row values, for the spread over iterations */
static void column_account_iteration(struct column *col, const double *x)
{
	for (size_t r = 0; r < NR_ROWS; r++) {
		if (!col->nr_iters || x[r] < col->imin[r])
			col->imin[r] = x[r];
		if (!col->nr_iters || x[r] > col->imax[r])
			col->imax[r] = x[r];
	}
	col->nr_iters++;
}

/* one run's row values (with iterations: their means) */
static void column_account(struct column *col, const double *x_run)
{
	for (size_t r = 0; r < NR_ROWS; r++) {
		double x = x_run[r];
		col->sum[r] += x;
		if (!col->nr_runs || x < col->min[r])
			col->min[r] = x;
		if (!col->nr_runs || x > col->max[r])
			col->max[r] = x;
	}
	col->nr_runs++;
}

/* ------------------------------------------------------------------ */
/* reading the runs */

/* A run's sources; a counter the run did not record is 0 (the kernel's
 * counters start at 0 and only appear once the code path exists). */
static int load_run(struct compare *c, const char *run_id, double v[NR_SRC])
{
	sqlite3_stmt *st = c->vals;
	int rc;

	memset(v, 0, NR_SRC * sizeof(v[0]));
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int vmstat = sqlite3_column_int(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int s = vmstat ? NR_METRIC_SRC : 0, end = vmstat ? NR_SRC : NR_METRIC_SRC;

		for (; name && s < end; s++)
			if (!strcmp(name, src_name[s])) {
				v[s] = sqlite3_column_double(st, 2);
				break;
			}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		results_seterr(c->err, c->errlen, c->path, "run %s: %s", run_id, sqlite3_errmsg(c->db));
		return -1;
	}
	return 0;
}

/* A run of [run] iterations > 1: every row computed per iteration (from
 * that iteration's metrics and counters), then averaged over the
 * iterations: x[] gets the run's row values.  Returns the number of
 * iterations (0: the run has none stored, and x is untouched), -1 on
 * error. */
static int load_iterations(struct compare *c, const char *run_id, struct column *col, double *x)
{
	sqlite3_stmt *st = c->iters;
	double v[NR_SRC], xi[NR_ROWS];
	long cur = -1;
	int n = 0, rc;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	memset(x, 0, NR_ROWS * sizeof(x[0]));
	memset(v, 0, sizeof(v));
	for (;;) {
		long it;
		rc = sqlite3_step(st);
		it = rc == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : -2;
		if (cur >= 0 && it != cur) {
			/* the iteration before is complete */
			for (size_t r = 0; r < NR_ROWS; r++) {
				xi[r] = row_value(r, v);
				x[r] += xi[r];
			}
			column_account_iteration(col, xi);
			n++;
			memset(v, 0, sizeof(v));
		}
		if (rc != SQLITE_ROW)
			break;
		cur = it;
		{
			int vmstat = sqlite3_column_int(st, 1);
			const char *name = (const char *)sqlite3_column_text(st, 2);
			int sidx = vmstat ? NR_METRIC_SRC : 0, end = vmstat ? NR_SRC : NR_METRIC_SRC;
			for (; name && sidx < end; sidx++)
				if (!strcmp(name, src_name[sidx])) {
					v[sidx] = sqlite3_column_double(st, 3);
					break;
				}
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		results_seterr(c->err, c->errlen, c->path, "run %s: %s", run_id, sqlite3_errmsg(c->db));
		return -1;
	}
	for (size_t r = 0; n && r < NR_ROWS; r++)
		x[r] /= n;
	return n;
}

/* the run columns a table may be split by; any other key is a params key */
/* mmsim/policy.h's (see is_first_policy) */
const char *mm_policy_canonical(const char *name);

static void sql_policy_canonical(sqlite3_context *ctx, int n, sqlite3_value **v)
{
	const unsigned char *name = sqlite3_value_text(v[0]);
	(void)n;
	if (!name)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_text(ctx, mm_policy_canonical((const char *)name), -1, SQLITE_TRANSIENT);
}

static int is_runs_column(const char *by)
{
	static const char *const cols[] = {
		"policy", "workload", "name", "sweep_id", "seed", "config_hash",
		"mmsim_version", "git_commit", "build_type", NULL,
	};
	for (const char *const *p = cols; *p; p++)
		if (!strcmp(by, *p))
			return 1;
	return 0;
}

/* --where is pasted into the query: keep it to reading (the file is
 * opened read-only as well) */
static int authorize(void *arg, int action, const char *a, const char *b, const char *d,
                     const char *e)
{
	(void)arg; (void)a; (void)b; (void)d; (void)e;
	return action == SQLITE_SELECT || action == SQLITE_READ || action == SQLITE_FUNCTION ||
	       action == SQLITE_RECURSIVE ? SQLITE_OK : SQLITE_DENY;
}

/* --where goes inside "status = 'ok' AND (...)": it must be one
 * expression that cannot close that parenthesis, or "1) OR (1" would
 * widen the filter to every status.  Its parentheses must balance
 * outside string literals and quoted names, and it may hold no comment
 * (which could hide the closing parenthesis).  NULL if so, else why. */
static const char *where_problem(const char *w)
{
	int depth = 0;

	for (const char *p = w; *p; p++) {
		switch (*p) {
		case '\'': case '"': case '`': case '[': {
			char close = *p == '[' ? ']' : *p;
			for (p++;; p++) {
				if (!*p)
					return "an unterminated quote";
				if (*p == close) {
					if (close != ']' && p[1] == close) {
						p++;    /* '' inside '...' */
						continue;
					}
					break;
				}
			}
			break;
		}
		case '(':
			depth++;
			break;
		case ')':
			if (--depth < 0)
				return "a ')' without its '(': the condition would escape the status filter";
			break;
		case '-':
			if (p[1] == '-')
				return "a comment (--)";
			break;
		case '/':
			if (p[1] == '*')
				return "a comment (/*)";
			break;
		case ';':
			return "a ';': one SQL expression only";
		}
	}
	return depth ? "a '(' without its ')'" : NULL;
}

static sqlite3_stmt *prepare_runs(struct compare *c, const char *by, const char *where)
{
	char *sql;
	const char *tail = NULL, *why;
	sqlite3_stmt *st = NULL;
	int rc;

	if (where && (why = where_problem(where))) {
		results_seterr(c->err, c->errlen, c->path, "--where '%s': %s", where, why);
		return NULL;
	}

	/* a policy's column is its canonical name, whatever name (or alias,
	 * such as the RFC policy's former "hygiene") a run stored */
	sqlite3_create_function(c->db, "mmsim_policy", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
	                        sql_policy_canonical, NULL, NULL);
	sql = sqlite3_mprintf(
		"SELECT g, run_id FROM (SELECT %s AS g, run_id FROM runs"
		" WHERE status = 'ok' AND (%s)) WHERE g IS NOT NULL ORDER BY g, run_id",
		!strcmp(by, "policy") ? "mmsim_policy(policy)"
		: !strcmp(by, "policy.name")
		? "mmsim_policy((SELECT value FROM params WHERE params.run_id = runs.run_id AND key = ?1))"
		: is_runs_column(by) ? by
		: "(SELECT value FROM params WHERE params.run_id = runs.run_id AND key = ?1)",
		where ? where : "1");
	if (!sql) {
		results_seterr(c->err, c->errlen, c->path, "out of memory");
		return NULL;
	}
	rc = sqlite3_prepare_v2(c->db, sql, -1, &st, &tail);
	if (rc == SQLITE_OK && tail && tail[strspn(tail, " \t\n;")])
		rc = SQLITE_MISUSE;             /* a second statement: tail points into sql */
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		results_seterr(c->err, c->errlen, c->path, "--where '%s': %s", where ? where : "",
		               rc != SQLITE_MISUSE ? sqlite3_errmsg(c->db) : "must be one SQL expression");
		sqlite3_finalize(st);
		return NULL;
	}
	if (!is_runs_column(by))
		sqlite3_bind_text(st, 1, by, -1, SQLITE_TRANSIENT);
	return st;
}

static int read_runs(struct compare *c, const char *by, const char *where)
{
	sqlite3_stmt *st = prepare_runs(c, by, where);
	struct column *col = NULL;
	double v[NR_SRC];
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *run_id = (const char *)sqlite3_column_text(st, 1);

		if (!key || !run_id)
			continue;
		/* sorted by key: a new key starts a new column */
		if (!col || strcmp(col->key, key)) {
			if (!(col = column_add(c, key))) {
				results_seterr(c->err, c->errlen, c->path, "out of memory");
				break;
			}
		}
		{
			double x[NR_ROWS];
			int n = load_iterations(c, run_id, col, x);
			if (n < 0)
				break;
			if (!n) {
				if (load_run(c, run_id, v))
					break;
				for (size_t r = 0; r < NR_ROWS; r++)
					x[r] = row_value(r, v);
				column_account_iteration(col, x);
			}
			column_account(col, x);
		}
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int no_runs(struct compare *c, const char *by, const char *where)
{
	char msg[512] = "no runs with status 'ok'";

	if (c->nr_col)
		return 0;
	if (!is_runs_column(by))
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " and a parameter '%s'", by);
	if (where)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " matching --where '%s'", where);
	results_seterr(c->err, c->errlen, c->path, "%s", msg);
	return -1;
}

/* mmsim/policy.h's registry (not included: its vmstat enums would clash
 * with this file's row names): the first policy is the default baseline */
const char *mm_policy_names(void);

static bool is_first_policy(const char *key)
{
	const char *names = mm_policy_names();
	size_t n = strcspn(names, ",");
	return strlen(key) == n && !strncmp(key, names, n);
}

/* the baseline first, the others in their (sorted) order */
static int order_columns(struct compare *c, const char *by, const char *baseline)
{
	size_t b, i;
	struct column tmp;

	for (b = 0; b < c->nr_col; b++)
		if (baseline ? !strcmp(c->col[b].key, baseline) ||
		               !strcmp(c->col[b].key, mm_policy_canonical(baseline))
		             : is_first_policy(c->col[b].key))
			break;
	if (b == c->nr_col && !baseline)
		b = 0;
	if (b == c->nr_col) {
		char list[256] = "";
		for (i = 0; i < c->nr_col; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			         i ? ", " : "", c->col[i].key);
		results_seterr(c->err, c->errlen, c->path, "baseline '%s' is not a value of %s"
		               " (values: %s)", baseline, by, list);
		return -1;
	}
	tmp = c->col[b];
	memmove(&c->col[1], &c->col[0], b * sizeof(tmp));
	c->col[0] = tmp;
	return 0;
}

/* ------------------------------------------------------------------ */
/* printing, in the cover letter's layout: the row name in 40 columns,
 * then per column a 23-character cell "%10.2f (%+9.2f%%)", the cells
 * after the first preceded by a space */

#define NAME_WIDTH 40
#define CELL_WIDTH 23

/* new / base - 1, in percent; from a base of 0, anything is infinitely more */
static double change(double base, double v)
{
	double p;

	if (base == 0)
		return v == 0 ? 0 : v > 0 ? INFINITY : -INFINITY;
	p = (v / base - 1) * 100;
	return fabs(p) < 0.005 ? 0 : p;         /* no "-0.00%" */
}

static void print_header(FILE *out, const struct compare *c)
{
	fprintf(out, "%-*s", NAME_WIDTH, "");
	for (size_t i = 0; i < c->nr_col; i++) {
		char name[128];
		size_t n = (size_t)snprintf(name, sizeof(name), "HUGEALLOC-%s", c->col[i].key);

		for (size_t k = 10; k < n && k < sizeof(name); k++)
			name[k] = (char)toupper((unsigned char)name[k]);
		fprintf(out, "%*s", CELL_WIDTH + (i > 0), name);
	}
	fprintf(out, "\n%-*s", NAME_WIDTH, "Runs");
	for (size_t i = 0; i < c->nr_col; i++)
		fprintf(out, "%*ld", CELL_WIDTH + (i > 0), c->col[i].nr_runs);
	fputc('\n', out);
}

static void print_row(FILE *out, const struct compare *c, size_t r, int spread, int ispread)
{
	double base = c->col[0].sum[r] / (double)c->col[0].nr_runs;

	fprintf(out, "%-*s", NAME_WIDTH, rows[r].name);
	for (size_t i = 0; i < c->nr_col; i++) {
		double mean = c->col[i].sum[r] / (double)c->col[i].nr_runs;
		fprintf(out, "%s%10.2f (%+9.2f%%)", i ? " " : "", mean, change(base, mean));
	}
	fputc('\n', out);
	if (spread) {
		fprintf(out, "%-*s", NAME_WIDTH, "  min..max");
		for (size_t i = 0; i < c->nr_col; i++)
			/* " .. " keeps a space between seven-digit bounds */
			fprintf(out, "%s%10.2f .. %9.2f", i ? " " : "", c->col[i].min[r], c->col[i].max[r]);
		fputc('\n', out);
	}
	if (ispread) {
		fprintf(out, "%-*s", NAME_WIDTH, "  min..max of iterations");
		for (size_t i = 0; i < c->nr_col; i++)
			fprintf(out, "%s%10.2f .. %9.2f", i ? " " : "", c->col[i].imin[r], c->col[i].imax[r]);
		fputc('\n', out);
	}
}

/* ------------------------------------------------------------------ */

static int compare_open(struct compare *c)
{
	static const char *const tables[] = { "runs", "params", "vmstat", "metrics", NULL };

	if (!(c->db = results_open_ro(c->path, tables, c->err, c->errlen)))
		return -1;
	sqlite3_set_authorizer(c->db, authorize, NULL);
	if (sqlite3_prepare_v2(c->db,
	                       "SELECT 0, name, value FROM metrics WHERE run_id = ?1 UNION ALL"
	                       " SELECT 1, name, value FROM vmstat WHERE run_id = ?1",
	                       -1, &c->vals, NULL) != SQLITE_OK) {
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
		return -1;
	}
	if (sqlite3_prepare_v2(c->db,
	                       "SELECT iteration, 0, name, value FROM iteration_metrics WHERE run_id = ?1"
	                       " UNION ALL SELECT iteration, 1, name, value FROM iteration_vmstat"
	                       " WHERE run_id = ?1 ORDER BY 1",
	                       -1, &c->iters, NULL) != SQLITE_OK) {
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
		return -1;
	}
	return 0;
}

static void compare_close(struct compare *c)
{
	sqlite3_finalize(c->iters);
	for (size_t i = 0; i < c->nr_col; i++)
		free(c->col[i].key);
	free(c->col);
	sqlite3_finalize(c->vals);
	sqlite3_close(c->db);
}

int results_compare(FILE *out, const char *db_path, const struct compare_opts *o,
                    char *err, size_t errlen)
{
	struct compare c = { .path = db_path, .err = err, .errlen = errlen };
	const char *by = o && o->by && *o->by ? o->by : "policy";
	int rc = -1;

	if (!out) {
		results_seterr(err, errlen, db_path, "no output stream");
		return -1;
	}
	/* the whole table is computed before the first byte is printed */
	if (compare_open(&c) == 0 && read_runs(&c, by, o ? o->where : NULL) == 0 &&
	    no_runs(&c, by, o ? o->where : NULL) == 0 &&
	    order_columns(&c, by, o ? o->baseline : NULL) == 0) {
		print_header(out, &c);
		for (size_t r = 0; r < NR_ROWS; r++)
			print_row(out, &c, r, o && o->spread, o && o->iteration_spread);
		rc = 0;
	}
	compare_close(&c);
	return rc;
}
