/* compare.c - the RFC cover letter's table, computed from a results
 * database into a results_table (format.c prints it).
 *
 * Columns: one per value of a key (the policy by default, or a runs
 * column, or a params key such as machine.ram), the baseline first.  By
 * policy, a real kernel's runs (source 'real', mmsim import) are a column
 * of their own, real:POLICY, and a counter such a run lacks is not
 * measured (n/a), where a simulation's reads as 0.
 * Rows: the cover letter's, in its order and with its names, each defined
 * once in metrics.c.  Every row is a value computed per run (a counter, a
 * difference, a ratio) and then averaged over the runs of the column: so a
 * percentage row is the mean of the per-run percentages, not the
 * percentage of the means, as mmtests' compare-kernels reports it.  A run
 * of several iterations ([run] iterations) gives each row as the mean of
 * its per-iteration values (each iteration's row computed from that
 * iteration's metrics and counters), which then counts as the run's
 * value.  The statistics (stats.c) take the seed as the unit of
 * replication: the runs of one seed in a column are averaged first.
 * Only runs with status 'ok' count.  A row a run did not measure (NaN:
 * Real time of a build its window cut short) leaves that run out of that
 * row only: each row keeps its own count.  docs/schema.md lists the
 * formulas.
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
/* the columns */

#define NR_ROWS RESULTS_NR_METRICS

/* a run as read: its seed and row values */
struct run_val {
	long long seed;
	double x[NR_ROWS];
};

struct column {
	char *key;                      /* the value of the `by` key */
	long nr_runs;
	long n[NR_ROWS];                /* runs that measured the row (not NaN) */
	double sum[NR_ROWS], min[NR_ROWS], max[NR_ROWS];
	/* over the iterations of its runs (a run of one iteration is one) */
	long nr_iters, ni[NR_ROWS];
	double imin[NR_ROWS], imax[NR_ROWS];
	struct run_val *run;            /* [nr_runs] */
	size_t cap_run;
	/* its first simulated run's scenario beside the seed, the name and
	 * the column's key ("key=value\n" by key), and that run */
	char *sig, *sig_run;
};

struct compare {
	const char *path;
	sqlite3 *db;
	sqlite3_stmt *vals;             /* a run's metrics and vmstat */
	sqlite3_stmt *iters;            /* a run's iterations' (NULL: a file without them) */
	sqlite3_stmt *params;           /* a run's params, by key */
	bool allow_mixed;               /* compare_opts.allow_mixed */
	struct column *col;
	size_t nr_col, cap_col;
	char *err;
	size_t errlen;
	/* the filter's budget (filter_step): progress-handler calls while a
	 * query holding --where (or a given column's condition) steps */
	bool in_filter;
	long filter_ticks;
};

/* A --where is arbitrary SQL: a recursive CTE without a bound runs
 * forever, and one with a huge bound for hours.  The queries that hold
 * it are stopped after FILTER_MAX_OPS virtual machine instructions of
 * their own (SQLite's progress handler, called every FILTER_TICK; the
 * metrics read meanwhile do not count).  2 10^8 instructions are a
 * second or two; a filter on the runs and params of a database of a million
 * runs takes far fewer. */
#define FILTER_TICK 10000
#define FILTER_MAX_OPS 200000000L

static int filter_progress(void *arg)
{
	struct compare *c = arg;

	return c->in_filter && ++c->filter_ticks > FILTER_MAX_OPS / FILTER_TICK;
}

/* sqlite3_step() of a query holding a condition the user gave (what:
 * "--where 'SQL'" or "column X"): its instructions counted against the
 * budget; SQLITE_INTERRUPT with the message when the budget is spent */
static int filter_step(struct compare *c, sqlite3_stmt *st, const char *what)
{
	int rc;

	c->in_filter = true;
	rc = sqlite3_step(st);
	c->in_filter = false;
	if (rc == SQLITE_INTERRUPT && c->filter_ticks > FILTER_MAX_OPS / FILTER_TICK)
		results_seterr(c->err, c->errlen, c->path, "%s: stopped after %ld million SQLite "
		               "instructions (a recursive query without an end?): a filter on the "
		               "runs table may take at most that many", what,
		               FILTER_MAX_OPS / 1000000);
	return rc;
}

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
	return results_metric_value(r, v);
}

/* one iteration's row values, for the spread over iterations */
static void column_account_iteration(struct column *col, const double *x)
{
	if (!col)
		return;
	for (size_t r = 0; r < NR_ROWS; r++) {
		if (isnan(x[r]))
			continue;
		if (!col->ni[r] || x[r] < col->imin[r])
			col->imin[r] = x[r];
		if (!col->ni[r] || x[r] > col->imax[r])
			col->imax[r] = x[r];
		col->ni[r]++;
	}
	col->nr_iters++;
}

/* one run's row values (with iterations: their means); -1 out of memory */
static int column_account(struct column *col, long long seed, const double *x_run)
{
	if ((size_t)col->nr_runs == col->cap_run) {
		size_t cap = col->cap_run ? 2 * col->cap_run : 8;
		struct run_val *n = realloc(col->run, cap * sizeof(*n));
		if (!n)
			return -1;
		col->run = n;
		col->cap_run = cap;
	}
	col->run[col->nr_runs].seed = seed;
	memcpy(col->run[col->nr_runs].x, x_run, sizeof(col->run[0].x));
	for (size_t r = 0; r < NR_ROWS; r++) {
		double x = x_run[r];
		if (isnan(x))
			continue;
		col->sum[r] += x;
		if (!col->n[r] || x < col->min[r])
			col->min[r] = x;
		if (!col->n[r] || x > col->max[r])
			col->max[r] = x;
		col->n[r]++;
	}
	col->nr_runs++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* reading the runs */

/* A run's sources.  A counter a simulation did not record is 0 (the
 * kernel's counters start at 0 and only appear once the code path
 * exists; a file written before the model counted it).  A real run
 * (source 'real') stored every counter its kernel has: one it lacks was
 * not measured, NaN, and the rows that need it print n/a for that run
 * instead of a 0 that no kernel counted. */
static int load_run(struct compare *c, const char *run_id, int real, double v[SRC_NR])
{
	sqlite3_stmt *st = c->vals;
	int rc;

	/* the median of free memory is no counter: a run that did not
	 * sample (sample_interval 0, or stored before it was kept) has none */
	for (int s = 0; s < SRC_NR; s++)
		v[s] = real || s == SRC_NR_FREE_PAGES_MEDIAN ? NAN : 0;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int vmstat = sqlite3_column_int(st, 0);
		int s = results_src_find(name, vmstat);
		if (s >= 0) {
			v[s] = sqlite3_column_double(st, 2);
		} else if (!vmstat && (s = results_src_bucket(name)) >= 0) {
			/* a tracepoint at one order: its range's sum */
			v[s] = (isnan(v[s]) ? 0 : v[s]) + sqlite3_column_double(st, 2);
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
	double v[SRC_NR], xi[NR_ROWS];
	long cur = -1, nx[NR_ROWS] = { 0 };
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
				if (!isnan(xi[r]))
					x[r] += xi[r], nx[r]++;
			}
			column_account_iteration(col, xi);
			n++;
			memset(v, 0, sizeof(v));
		}
		if (rc != SQLITE_ROW)
			break;
		cur = it;
		{
			int sidx = results_src_find((const char *)sqlite3_column_text(st, 2),
			                            sqlite3_column_int(st, 1));
			if (sidx >= 0)
				v[sidx] = sqlite3_column_double(st, 3);
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		results_seterr(c->err, c->errlen, c->path, "run %s: %s", run_id, sqlite3_errmsg(c->db));
		return -1;
	}
	for (size_t r = 0; n && r < NR_ROWS; r++)
		x[r] = nx[r] ? x[r] / (double)nx[r] : NAN;
	return n;
}

/* a run's row values x[] (a run of iterations: their means), its
 * iterations accounted in col (NULL: not) */
static int run_values(struct compare *c, const char *run_id, int real, struct column *col, double *x)
{
	double v[SRC_NR];
	int n = load_iterations(c, run_id, col, x);

	if (n < 0)
		return -1;
	if (!n) {
		if (load_run(c, run_id, real, v))
			return -1;
		for (size_t r = 0; r < NR_ROWS; r++)
			x[r] = row_value(r, v);
		column_account_iteration(col, x);
	}
	return 0;
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

/* mmsim_column(source, policy): the column of a run by policy: the
 * policy's canonical name for a simulation, "real:" and the canonical
 * name for a real kernel's run (mmsim import), so that the real runs
 * of a policy's nearest kernel setting stand beside its simulations */
static void sql_policy_column(sqlite3_context *ctx, int n, sqlite3_value **v)
{
	const unsigned char *source = sqlite3_value_text(v[0]);
	const unsigned char *name = sqlite3_value_text(v[1]);
	char *col;
	(void)n;
	if (!name) {
		sqlite3_result_null(ctx);
		return;
	}
	col = sqlite3_mprintf("%s%s", source && !strcmp((const char *)source, "real") ? "real:" : "",
	                      mm_policy_canonical((const char *)name));
	if (!col)
		sqlite3_result_error_nomem(ctx);
	else
		sqlite3_result_text(ctx, col, -1, sqlite3_free);
}

/* a column's key as the user may write it (--baseline): a policy's alias,
 * also after "real:", is its canonical name; into buf */
static const char *canonical_key(const char *key, char *buf, size_t n)
{
	if (!strncmp(key, "real:", 5))
		snprintf(buf, n, "real:%s", mm_policy_canonical(key + 5));
	else
		snprintf(buf, n, "%s", mm_policy_canonical(key));
	return buf;
}

static int is_runs_column(const char *by)
{
	static const char *const cols[] = {
		"policy", "source", "workload", "name", "sweep_id", "seed", "config_hash",
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

/* a run's column, as SQL on the runs table (?1: the parameter's key) */
static const char *column_expr(const char *by)
{
	return !strcmp(by, "policy") ? "mmsim_column(source, policy)"
	       : !strcmp(by, "policy.name")
	       ? "mmsim_policy((SELECT value FROM params WHERE params.run_id = runs.run_id AND key = ?1))"
	       : is_runs_column(by) ? by
	       : "(SELECT value FROM params WHERE params.run_id = runs.run_id AND key = ?1)";
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
		"SELECT g, run_id, seed, source FROM (SELECT %s AS g, run_id, seed, source FROM runs"
		" WHERE status = 'ok' AND (%s)) WHERE g IS NOT NULL ORDER BY g, run_id",
		column_expr(by), where ? where : "1");
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

/* The keys that may differ between the runs of a column: the seed, the
 * run's name, and the column's own key (by policy: the policy's name). */
static bool sig_skips(const char *key, const char *by)
{
	return !strcmp(key, "run.seed") || !strcmp(key, "run.name") || !strcmp(key, by) ||
	       (!strcmp(by, "policy") && !strcmp(key, "policy.name"));
}

/* A simulated run's scenario as "key=value\n" lines by key, without the
 * keys that may differ in a column; NULL out of memory */
static char *run_signature(struct compare *c, const char *run_id, const char *by)
{
	char *sig = strdup(""), *n;
	int rc;

	sqlite3_bind_text(c->params, 1, run_id, -1, SQLITE_TRANSIENT);
	while (sig && (rc = sqlite3_step(c->params)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(c->params, 0);
		const char *v = (const char *)sqlite3_column_text(c->params, 1);
		if (!k || sig_skips(k, by))
			continue;
		n = sqlite3_mprintf("%s%s=%s\n", sig, k, v ? v : "");
		free(sig);
		sig = n ? strdup(n) : NULL;
		sqlite3_free(n);
	}
	sqlite3_reset(c->params);
	return sig;
}

/* Runs of two scenarios averaged into one column would read as one
 * configuration: refused, naming the first key in which they differ
 * (unless compare_opts.allow_mixed).  Real runs are not checked: their
 * params are their provenance, which differs run by run. */
static int check_mixed(struct compare *c, struct column *col, const char *run_id, const char *by)
{
	char *sig;
	const char *a, *b;

	if (c->allow_mixed)
		return 0;
	if (!(sig = run_signature(c, run_id, by))) {
		results_seterr(c->err, c->errlen, c->path, "out of memory");
		return -1;
	}
	if (!col->sig) {
		col->sig = sig;
		if (!(col->sig_run = strdup(run_id))) {
			results_seterr(c->err, c->errlen, c->path, "out of memory");
			return -1;
		}
		return 0;
	}
	if (!strcmp(col->sig, sig)) {
		free(sig);
		return 0;
	}
	/* the first line that differs */
	for (a = col->sig, b = sig; *a && *b;) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || memcmp(a, b, la))
			break;
		a += la + (a[la] != 0);
		b += lb + (b[lb] != 0);
	}
	{
		const char *line = *a ? a : b;
		size_t kl = strcspn(line, "=");
		results_seterr(c->err, c->errlen, c->path,
		               "column %s holds runs of different scenarios: run %s has %.*s, run %s %.*s "
		               "(compare them apart with --by %.*s, or choose with --where; --allow-mixed "
		               "averages them anyway)", col->key, col->sig_run, (int)strcspn(a, "\n"),
		               *a ? a : "(no such key)", run_id, (int)strcspn(b, "\n"), *b ? b : "(no such key)",
		               (int)kl, line);
	}
	free(sig);
	return -1;
}

static int read_runs(struct compare *c, const char *by, const char *where)
{
	sqlite3_stmt *st = prepare_runs(c, by, where);
	struct column *col = NULL;
	char *what = sqlite3_mprintf("--where '%s'", where ? where : "");
	int rc;

	if (!st || !what) {
		sqlite3_finalize(st);
		sqlite3_free(what);
		if (st)
			results_seterr(c->err, c->errlen, c->path, "out of memory");
		return -1;
	}
	c->filter_ticks = 0;
	while ((rc = filter_step(c, st, what)) == SQLITE_ROW) {
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
			const char *src = (const char *)sqlite3_column_text(st, 3);
			bool real = src && !strcmp(src, "real");
			if (!real && check_mixed(c, col, run_id, by))
				break;
			if (run_values(c, run_id, real, col, x))
				break;
			if (column_account(col, sqlite3_column_int64(st, 2), x)) {
				results_seterr(c->err, c->errlen, c->path, "out of memory");
				break;
			}
		}
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE && rc != SQLITE_INTERRUPT)
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
	sqlite3_finalize(st);
	sqlite3_free(what);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* the columns given one by one (o->col_label, o->col_where): each its
 * own query, in the order given; a column that matches no run is an
 * error (a variant whose runs are missing would silently vanish) */
static int read_runs_given(struct compare *c, const struct compare_opts *o)
{
	for (size_t i = 0; i < o->nr_cols; i++) {
		const char *why = where_problem(o->col_where[i]);
		struct column *col;
		sqlite3_stmt *st = NULL;
		char *sql;
		int rc;

		if (!why && o->where)
			why = where_problem(o->where);
		if (why) {
			results_seterr(c->err, c->errlen, c->path, "column %s: '%s': %s", o->col_label[i],
			               o->col_where[i], why);
			return -1;
		}
		sql = sqlite3_mprintf("SELECT run_id, seed, source FROM runs WHERE status = 'ok' AND (%s) AND (%s)"
		                      " ORDER BY run_id", o->col_where[i], o->where ? o->where : "1");
		if (!sql || sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
			results_seterr(c->err, c->errlen, c->path, "column %s: %s", o->col_label[i],
			               sql ? sqlite3_errmsg(c->db) : "out of memory");
			sqlite3_free(sql);
			return -1;
		}
		sqlite3_free(sql);
		if (!(col = column_add(c, o->col_label[i]))) {
			sqlite3_finalize(st);
			results_seterr(c->err, c->errlen, c->path, "out of memory");
			return -1;
		}
		c->filter_ticks = 0;
		while ((rc = filter_step(c, st, o->col_label[i])) == SQLITE_ROW) {
			const char *run_id = (const char *)sqlite3_column_text(st, 0);
			const char *src = (const char *)sqlite3_column_text(st, 2);
			double x[NR_ROWS];

			if (!run_id)
				continue;
			if (run_values(c, run_id, src && !strcmp(src, "real"), col, x)) {
				sqlite3_finalize(st);
				return -1;
			}
			if (column_account(col, sqlite3_column_int64(st, 1), x)) {
				sqlite3_finalize(st);
				results_seterr(c->err, c->errlen, c->path, "out of memory");
				return -1;
			}
		}
		if (rc != SQLITE_DONE && rc != SQLITE_INTERRUPT)
			results_seterr(c->err, c->errlen, c->path, "column %s: %s", o->col_label[i],
			               sqlite3_errmsg(c->db));
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return -1;
		if (!col->nr_runs) {
			results_seterr(c->err, c->errlen, c->path, "no runs with status 'ok' for column %s",
			               o->col_label[i]);
			return -1;
		}
	}
	return 0;
}

/* One line on notes for every column whose runs are left out for their
 * status (make died, a real run marked invalid): the column dropped when
 * none of its runs is 'ok', else how many of its runs are not counted;
 * with the first stored reason.  A table that silently lost a policy
 * would read as a comparison of the others.  (The runs --where leaves
 * out are not named: the user asked for that.) */
static int note_left_out(struct compare *c, const char *by, const char *where, FILE *notes)
{
	sqlite3_stmt *st = NULL;
	char *sql;
	int rc;

	sql = sqlite3_mprintf(
		"SELECT g, count(*), sum(status = 'ok'), min(status) FILTER (WHERE status != 'ok'),"
		" min(coalesce(error, 'no reason stored')) FILTER (WHERE status != 'ok')"
		" FROM (SELECT %s AS g, status, error FROM runs WHERE (%s)) WHERE g IS NOT NULL"
		" GROUP BY g HAVING sum(status != 'ok') > 0 ORDER BY g", column_expr(by),
		where ? where : "1");
	if (!sql) {
		results_seterr(c->err, c->errlen, c->path, "out of memory");
		return -1;
	}
	rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
		return -1;
	}
	if (!is_runs_column(by))
		sqlite3_bind_text(st, 1, by, -1, SQLITE_TRANSIENT);
	c->filter_ticks = 0;
	while ((rc = filter_step(c, st, "--where")) == SQLITE_ROW) {
		const char *g = (const char *)sqlite3_column_text(st, 0);
		long long n = sqlite3_column_int64(st, 1), ok = sqlite3_column_int64(st, 2);
		const char *status = (const char *)sqlite3_column_text(st, 3);
		const char *why = (const char *)sqlite3_column_text(st, 4);

		if (!ok)
			fprintf(notes, "mmsim: compare: %s %s dropped: %s%lld run%s with status '%s' "
			        "(%s)\n", by, g, n > 1 ? "all its " : "its ", n, n > 1 ? "s" : "",
			        status ? status : "?", why ? why : "?");
		else
			fprintf(notes, "mmsim: compare: %s %s: %lld of its %lld runs left out, status "
			        "'%s' (%s)\n", by, g, n - ok, n, status ? status : "?", why ? why : "?");
	}
	if (rc != SQLITE_DONE && rc != SQLITE_INTERRUPT)
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
	char canon[256];

	for (b = 0; b < c->nr_col; b++)
		if (baseline ? !strcmp(c->col[b].key, baseline) ||
		               !strcmp(c->col[b].key, canonical_key(baseline, canon, sizeof(canon)))
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
/* the table as data */

/* new / base - 1, in percent; from a base of 0, anything is infinitely more */
static double change(double base, double v)
{
	double p;

	if (base == 0)
		return v == 0 ? 0 : v > 0 ? INFINITY : -INFINITY;
	p = (v / base - 1) * 100;
	return fabs(p) < 0.005 ? 0 : p;         /* no "-0.00%" */
}

static int cmp_run_seed(const void *a, const void *b)
{
	const struct run_val *p = a, *q = b;
	return (p->seed > q->seed) - (p->seed < q->seed);
}

/* column i of the table from the column read: the runs of one seed
 * averaged into the seed's value, then the statistics over the seeds */
static int table_column(struct results_table *t, size_t i, struct column *col)
{
	struct results_column *tc = &t->col[i];
	double xs[NR_ROWS], *vals;
	size_t k = 0;

	tc->key = col->key;
	col->key = NULL;
	tc->nr_runs = col->nr_runs;
	tc->nr_iters = col->nr_iters;
	qsort(col->run, (size_t)col->nr_runs, sizeof(col->run[0]), cmp_run_seed);
	tc->seed = malloc(sizeof(*tc->seed) * (size_t)col->nr_runs);
	tc->seed_value = malloc(sizeof(double) * NR_ROWS * (size_t)col->nr_runs);
	vals = malloc(sizeof(double) * (size_t)col->nr_runs);
	if (!tc->seed || !tc->seed_value || !vals) {
		free(vals);
		return -1;
	}
	for (long a = 0, b; a < col->nr_runs; a = b) {
		long ns[NR_ROWS] = { 0 };
		for (size_t r = 0; r < NR_ROWS; r++)
			xs[r] = 0;
		for (b = a; b < col->nr_runs && col->run[b].seed == col->run[a].seed; b++)
			for (size_t r = 0; r < NR_ROWS; r++)
				if (!isnan(col->run[b].x[r]))
					xs[r] += col->run[b].x[r], ns[r]++;
		tc->seed[k] = col->run[a].seed;
		for (size_t r = 0; r < NR_ROWS; r++)
			tc->seed_value[k * NR_ROWS + r] = ns[r] ? xs[r] / (double)ns[r] : NAN;
		k++;
	}
	tc->nr_seeds = k;
	for (size_t r = 0; r < NR_ROWS; r++) {
		struct results_cell *cell = &tc->cell[r];

		size_t nv = 0;

		cell->mean = col->n[r] ? col->sum[r] / (double)col->n[r] : NAN;
		cell->min = col->n[r] ? col->min[r] : NAN;
		cell->max = col->n[r] ? col->max[r] : NAN;
		cell->imin = col->ni[r] ? col->imin[r] : NAN;
		cell->imax = col->ni[r] ? col->imax[r] : NAN;
		for (size_t s = 0; s < k; s++)
			if (!isnan(tc->seed_value[s * NR_ROWS + r]))
				vals[nv++] = tc->seed_value[s * NR_ROWS + r];
		results_summarize(vals, nv, &cell->s);
		cell->change = change(t->col[0].cell[r].mean, cell->mean);
		if (i > 0)
			results_welch_test(&t->col[0].cell[r].s, &cell->s, &cell->w);
		else
			cell->w = (struct results_welch){ .t = NAN, .df = NAN, .p = NAN };
	}
	free(vals);
	return 0;
}

void results_table_free(struct results_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_col; i++) {
		free(t->col[i].key);
		free(t->col[i].seed);
		free(t->col[i].seed_value);
	}
	free(t->col);
	free(t->by);
	free(t);
}

static struct results_table *build_table(struct compare *c, const char *by)
{
	struct results_table *t = calloc(1, sizeof(*t));

	if (!t || !(t->col = calloc(c->nr_col, sizeof(*t->col))) || !(t->by = strdup(by)))
		goto oom;
	t->nr_col = c->nr_col;
	for (size_t i = 0; i < c->nr_col; i++)
		if (table_column(t, i, &c->col[i]))
			goto oom;
	return t;
oom:
	results_table_free(t);
	results_seterr(c->err, c->errlen, c->path, "out of memory");
	return NULL;
}

/* ------------------------------------------------------------------ */

static int compare_open(struct compare *c)
{
	static const char *const tables[] = { "runs", "params", "vmstat", "metrics", NULL };

	if (!(c->db = results_open_ro(c->path, tables, RESULTS_SCHEMA_READ_MIN, c->err, c->errlen)))
		return -1;
	sqlite3_set_authorizer(c->db, authorize, NULL);
	sqlite3_progress_handler(c->db, FILTER_TICK, filter_progress, c);
	/* mmsim_policy(name): the canonical name, for conditions (--where, a
	 * given column's); mmsim_column(source, policy): a run's column */
	sqlite3_create_function(c->db, "mmsim_policy", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
	                        sql_policy_canonical, NULL, NULL);
	sqlite3_create_function(c->db, "mmsim_column", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
	                        sql_policy_column, NULL, NULL);
	if (sqlite3_prepare_v2(c->db,
	                       "SELECT 0, name, value FROM metrics WHERE run_id = ?1 UNION ALL"
	                       " SELECT 1, name, value FROM vmstat WHERE run_id = ?1",
	                       -1, &c->vals, NULL) != SQLITE_OK) {
		results_seterr(c->err, c->errlen, c->path, "%s", sqlite3_errmsg(c->db));
		return -1;
	}
	if (sqlite3_prepare_v2(c->db, "SELECT key, value FROM params WHERE run_id = ?1 ORDER BY key",
	                       -1, &c->params, NULL) != SQLITE_OK) {
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
	sqlite3_finalize(c->params);
	for (size_t i = 0; i < c->nr_col; i++) {
		free(c->col[i].key);
		free(c->col[i].run);
		free(c->col[i].sig);
		free(c->col[i].sig_run);
	}
	free(c->col);
	sqlite3_finalize(c->vals);
	sqlite3_close(c->db);
}

int results_table_compute(struct results_table **t, const char *db_path,
                          const struct compare_opts *o, char *err, size_t errlen)
{
	struct compare c = { .path = db_path, .err = err, .errlen = errlen,
	                     .allow_mixed = o && o->allow_mixed };
	const char *by = o && o->by && *o->by ? o->by : "policy";
	int rc = -1;

	*t = NULL;
	if (o && o->nr_cols) {
		/* the columns as given: no grouping, no reordering */
		if (compare_open(&c) == 0 && read_runs_given(&c, o) == 0 && (*t = build_table(&c, by)))
			rc = 0;
		compare_close(&c);
		return rc;
	}
	if (compare_open(&c) == 0 && read_runs(&c, by, o ? o->where : NULL) == 0 &&
	    (!o || !o->notes || note_left_out(&c, by, o->where, o->notes) == 0) &&
	    no_runs(&c, by, o ? o->where : NULL) == 0 &&
	    order_columns(&c, by, o ? o->baseline : NULL) == 0 &&
	    (*t = build_table(&c, by)))
		rc = 0;
	compare_close(&c);
	return rc;
}

int results_compare(FILE *out, const char *db_path, const struct compare_opts *o,
                    char *err, size_t errlen)
{
	static const struct compare_opts none;
	struct results_table *t;
	int rc;

	if (!out) {
		results_seterr(err, errlen, db_path, "no output stream");
		return -1;
	}
	/* the whole table is computed before the first byte is printed */
	if (results_table_compute(&t, db_path, o, err, errlen))
		return -1;
	rc = results_table_print(out, t, o ? o : &none);
	if (rc)
		results_seterr(err, errlen, db_path, "cannot write the table");
	results_table_free(t);
	return rc;
}

int results_run_values(const char *db_path, int (*cb)(void *arg, const char *run_id, const double *x),
                       void *arg, char *err, size_t errlen)
{
	struct compare c = { .path = db_path, .err = err, .errlen = errlen };
	sqlite3_stmt *st = NULL;
	int rc = -1, step = SQLITE_DONE;

	if (compare_open(&c))
		goto out;
	if (sqlite3_prepare_v2(c.db, "SELECT run_id, source FROM runs WHERE status = 'ok' ORDER BY run_id",
	                       -1, &st, NULL) != SQLITE_OK) {
		results_seterr(err, errlen, db_path, "%s", sqlite3_errmsg(c.db));
		goto out;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *src = (const char *)sqlite3_column_text(st, 1);
		double x[NR_ROWS];

		if (!id)
			continue;
		if (run_values(&c, id, src && !strcmp(src, "real"), NULL, x))
			goto out;
		if (cb(arg, id, x)) {
			rc = 0;
			goto out;
		}
	}
	if (step != SQLITE_DONE)
		results_seterr(err, errlen, db_path, "%s", sqlite3_errmsg(c.db));
	else
		rc = 0;
out:
	sqlite3_finalize(st);
	compare_close(&c);
	return rc;
}
