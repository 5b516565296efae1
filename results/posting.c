/* posting.c - a posting's table as data (configs/postings/NAME.posting) and
 * the simulated table beside it, for mmsim reproduce --posting.
 *
 * The file is read whole, line by line; a mistake is reported as
 * "PATH:LINE: key: why" and nothing is run.  The simulated value of a row
 * is read from a sweep's database in one of four ways (enum
 * posting_measure): a row of mmsim compare (the same definition compare
 * prints, results_run_values), a run's metric, a /proc/vmstat counter's
 * change, or the last block census.  A row's mean is over the 'ok'
 * simulated runs of its column (one per seed in a reproduction).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "posting.h"
#include "results.h"
#include "results_int.h"

#define LINE_MAX_LEN 4096

/* the keys whose value is one line of text, kept as written */
static const struct {
	const char *key;
	size_t off;                     /* of the char * in struct posting */
} text_keys[] = {
	{ "title", offsetof(struct posting, title) },
	{ "author", offsetof(struct posting, author) },
	{ "date", offsetof(struct posting, date) },
	{ "source", offsetof(struct posting, source) },
	{ "compares", offsetof(struct posting, compares) },
	{ "load", offsetof(struct posting, load) },
};
#define VALID_KEYS "title, author, date, source, compares, load, conclusion, note, scenario, vary, " \
                   "columns, set, seeds, row"

/* ---------------------------------------------------------------- reading */

struct reader {
	struct posting *p;
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct reader *r, const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->line)
		snprintf(r->err, r->errlen, "%s:%d: %s: %s", r->path, r->line, key, msg);
	else
		snprintf(r->err, r->errlen, "%s: %s: %s", r->path, key, msg);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int dup_into(struct reader *r, const char *key, char **dst, const char *v)
{
	if (*dst)
		return fail(r, key, "given twice");
	if (!*v)
		return fail(r, key, "empty");
	if (!(*dst = strdup(v)))
		return fail(r, key, "out of memory");
	return 0;
}

static int add_text(struct reader *r, const char *key, char **arr, int *n, const char *v)
{
	if (*n == POSTING_MAX_TEXT)
		return fail(r, key, "more than %d lines", POSTING_MAX_TEXT);
	if (!*v)
		return fail(r, key, "empty");
	if (!(arr[*n] = strdup(v)))
		return fail(r, key, "out of memory");
	(*n)++;
	return 0;
}

/* a SECTION.KEY: letters, digits, '_' and one '.' inside */
static int is_key(const char *s, size_t len)
{
	size_t dots = 0;

	if (!len || s[0] == '.' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			dots++;
		else if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	}
	return dots == 1;
}

static int is_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* "KEY=V1,V2,...": the key whose values are the posting's columns */
static int read_vary(struct reader *r, char *v)
{
	struct posting *p = r->p;
	char *eq = strchr(v, '='), *save = NULL, *tok;

	if (p->vary_key)
		return fail(r, "vary", "given twice");
	if (!eq || !is_key(v, (size_t)(eq - v)))
		return fail(r, "vary", "'%s' is not SECTION.KEY=VALUE,VALUE...", v);
	*eq = '\0';
	if (!(p->vary_key = strdup(v)))
		return fail(r, "vary", "out of memory");
	for (tok = strtok_r(eq + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok = trim(tok);
		if (!*tok)
			return fail(r, "vary", "an empty value");
		if (p->nr_cols == POSTING_MAX_COLS)
			return fail(r, "vary", "more than %d values", POSTING_MAX_COLS);
		for (int i = 0; i < p->nr_cols; i++)
			if (!strcmp(p->vary_value[i], tok))
				return fail(r, "vary", "'%s' is given twice", tok);
		if (!(p->vary_value[p->nr_cols++] = strdup(tok)))
			return fail(r, "vary", "out of memory");
	}
	if (p->nr_cols < 2)
		return fail(r, "vary", "two values at least (the first is the baseline column)");
	return 0;
}

/* "NAME | NAME ...": as many as vary's values */
static int read_columns(struct reader *r, char *v)
{
	struct posting *p = r->p;
	char *save = NULL, *tok;
	int n = 0;

	if (!p->vary_key)
		return fail(r, "columns", "comes after vary:");
	if (p->column[0])
		return fail(r, "columns", "given twice");
	for (tok = strtok_r(v, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		tok = trim(tok);
		if (!*tok)
			return fail(r, "columns", "an empty name");
		if (n == p->nr_cols)
			return fail(r, "columns", "more names than vary: has values (%d)", p->nr_cols);
		if (!(p->column[n++] = strdup(tok)))
			return fail(r, "columns", "out of memory");
	}
	if (n != p->nr_cols)
		return fail(r, "columns", "%d names for vary:'s %d values", n, p->nr_cols);
	return 0;
}

static int read_measure(struct reader *r, struct posting_row *row, char *m)
{
	char *colon = strchr(m, ':');

	row->kind = POSTING_NONE;
	if (!strcmp(m, "-"))
		return 0;
	if (!colon)
		return fail(r, "row", "measure '%s': not -, row:NAME, metric:NAME, vmstat:NAME or "
		            "census:MIGRATETYPE:blocks|mixed_blocks", m);
	*colon = '\0';
	if (!(row->what = strdup(trim(colon + 1))))
		return fail(r, "row", "out of memory");
	if (!strcmp(m, "row")) {
		row->kind = POSTING_ROW;
		if ((row->field = results_metric_find(row->what)) < 0)
			return fail(r, "row", "no row '%s' (mmsim compare --list-metrics)", row->what);
	} else if (!strcmp(m, "metric") || !strcmp(m, "vmstat")) {
		row->kind = !strcmp(m, "metric") ? POSTING_METRIC : POSTING_VMSTAT;
		if (!is_word(row->what))
			return fail(r, "row", "%s:'%s' is not a name", m, row->what);
	} else if (!strcmp(m, "census")) {
		char *f = strchr(row->what, ':');
		row->kind = POSTING_CENSUS;
		if (!f)
			return fail(r, "row", "census:'%s': not MIGRATETYPE:blocks|mixed_blocks", row->what);
		*f++ = '\0';
		if (!is_word(row->what) || (strcmp(f, "blocks") && strcmp(f, "mixed_blocks")))
			return fail(r, "row", "census:'%s:%s': not MIGRATETYPE:blocks|mixed_blocks", row->what, f);
		row->field = strcmp(f, "blocks") != 0;
	} else {
		return fail(r, "row", "measure kind '%s': not row, metric, vmstat or census", m);
	}
	return 0;
}

/* "LABEL | MEASURE | VALUE | VALUE ...": one value per column, - for none */
static int read_row(struct reader *r, char *v)
{
	struct posting *p = r->p;
	struct posting_row *row;
	char *field[2 + POSTING_MAX_COLS + 1], *save = NULL, *tok;
	int n = 0;

	if (!p->column[0])
		return fail(r, "row", "comes after vary: and columns:");
	if (p->nr_rows == POSTING_MAX_ROWS)
		return fail(r, "row", "more than %d rows", POSTING_MAX_ROWS);
	for (tok = strtok_r(v, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		if (n == 2 + p->nr_cols)
			return fail(r, "row", "more than %d fields (label, measure, %d values)", 2 + p->nr_cols,
			            p->nr_cols);
		field[n++] = trim(tok);
	}
	if (n != 2 + p->nr_cols)
		return fail(r, "row", "%d fields: want the label, the measure and %d values", n, p->nr_cols);
	row = &p->row[p->nr_rows++];
	if (!*field[0])
		return fail(r, "row", "an empty label");
	if (!(row->label = strdup(field[0])))
		return fail(r, "row", "out of memory");
	if (read_measure(r, row, field[1]))
		return -1;
	for (int c = 0; c < p->nr_cols; c++) {
		char *end;
		row->sim[c] = NAN;
		if (!strcmp(field[2 + c], "-")) {
			row->posted[c] = NAN;
			continue;
		}
		errno = 0;
		row->posted[c] = strtod(field[2 + c], &end);
		if (end == field[2 + c] || *end || errno || !isfinite(row->posted[c]))
			return fail(r, "row", "'%s': value '%s' of column %s is not a number (or -)",
			            row->label, field[2 + c], p->column[c]);
	}
	return 0;
}

static int read_line(struct reader *r, char *line)
{
	struct posting *p = r->p;
	char *colon = strchr(line, ':'), *key, *v;

	if (!colon)
		return fail(r, trim(line), "not 'key: value'");
	*colon = '\0';
	key = trim(line);
	v = trim(colon + 1);
	for (size_t i = 0; i < sizeof(text_keys) / sizeof(text_keys[0]); i++)
		if (!strcmp(key, text_keys[i].key))
			return dup_into(r, key, (char **)((char *)p + text_keys[i].off), v);
	if (!strcmp(key, "conclusion"))
		return add_text(r, key, p->conclusion, &p->nr_conclusion, v);
	if (!strcmp(key, "note"))
		return add_text(r, key, p->note, &p->nr_note, v);
	if (!strcmp(key, "vary"))
		return read_vary(r, v);
	if (!strcmp(key, "columns"))
		return read_columns(r, v);
	if (!strcmp(key, "row"))
		return read_row(r, v);
	if (!strcmp(key, "set")) {
		char *eq = strchr(v, '=');
		if (!eq || !is_key(v, (size_t)(eq - v)))
			return fail(r, key, "'%s' is not SECTION.KEY=VALUE", v);
		if (p->nr_sets == POSTING_MAX_SETS)
			return fail(r, key, "more than %d", POSTING_MAX_SETS);
		if (!(p->set[p->nr_sets++] = strdup(v)))
			return fail(r, key, "out of memory");
		return 0;
	}
	if (!strcmp(key, "seeds")) {
		char *end;
		unsigned long n;
		if (p->seeds)
			return fail(r, key, "given twice");
		errno = 0;
		n = strtoul(v, &end, 10);
		if (!*v || *end || errno || n < 1 || n > 1024 || v[0] == '-')
			return fail(r, key, "'%s' is not a number of seeds (1..1024)", v);
		p->seeds = n;
		return 0;
	}
	if (strcmp(key, "scenario"))
		return fail(r, key, "unknown key (valid: " VALID_KEYS ")");
	/* scenario: relative to the posting's directory */
	{
		char *copy, *dir;
		int rc = 0;
		if (p->scenario)
			return fail(r, key, "given twice");
		if (!*v)
			return fail(r, key, "empty");
		if (v[0] == '/')
			return dup_into(r, key, &p->scenario, v);
		if (!(copy = strdup(r->path)))
			return fail(r, key, "out of memory");
		dir = dirname(copy);
		if (asprintf(&p->scenario, "%s/%s", dir, v) < 0) {
			p->scenario = NULL;
			rc = fail(r, key, "out of memory");
		} else {
			/* configs/postings/../x.ini printed as configs/x.ini */
			char *real = realpath(p->scenario, NULL);
			if (real) {
				free(p->scenario);
				p->scenario = real;
			}
		}
		free(copy);
		return rc;
	}
}

int posting_load(struct posting **out, const char *path, char *err, size_t errlen)
{
	struct posting *p = calloc(1, sizeof(*p));
	struct reader r = { .p = p, .path = path, .err = err, .errlen = errlen };
	char buf[LINE_MAX_LEN + 2];
	FILE *f;
	int rc = 0;

	*out = NULL;
	if (!p) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (!(f = fopen(path, "r"))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(p);
		return -1;
	}
	p->path = strdup(path);
	while (!rc && fgets(buf, sizeof(buf), f)) {
		char *s;
		r.line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			rc = fail(&r, "line", "longer than %d characters", LINE_MAX_LEN);
			break;
		}
		s = trim(buf);
		if (!*s || *s == '#')
			continue;
		rc = read_line(&r, s);
	}
	if (!rc && ferror(f))
		rc = fail(&r, "file", "read error");
	fclose(f);
	r.line = 0;
	if (!rc && !p->title)
		rc = fail(&r, "title", "missing");
	if (!rc && !p->scenario)
		rc = fail(&r, "scenario", "missing");
	if (!rc && !p->column[0])
		rc = fail(&r, p->vary_key ? "columns" : "vary", "missing");
	if (!rc && !p->nr_rows)
		rc = fail(&r, "row", "none given");
	if (rc) {
		posting_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

void posting_free(struct posting *p)
{
	if (!p)
		return;
	free(p->path);
	free(p->title);
	free(p->author);
	free(p->date);
	free(p->source);
	free(p->compares);
	free(p->load);
	for (int i = 0; i < p->nr_conclusion; i++)
		free(p->conclusion[i]);
	for (int i = 0; i < p->nr_note; i++)
		free(p->note[i]);
	free(p->scenario);
	free(p->vary_key);
	for (int i = 0; i < POSTING_MAX_COLS; i++) {
		free(p->vary_value[i]);
		free(p->column[i]);
	}
	for (int i = 0; i < p->nr_sets; i++)
		free(p->set[i]);
	for (int i = 0; i < p->nr_rows; i++) {
		free(p->row[i].label);
		free(p->row[i].what);
	}
	free(p);
}

/* ---------------------------------------------------------------- computing */

struct run_col {
	char *run_id;
	int col;
};

struct compute {
	struct posting *p;
	sqlite3 *db;
	const char *path;
	struct run_col *run;
	size_t nr_run;
	double sum[POSTING_MAX_ROWS][POSTING_MAX_COLS];
	char *err;
	size_t errlen;
};

static int cmp_run(const void *a, const void *b)
{
	return strcmp(((const struct run_col *)a)->run_id, ((const struct run_col *)b)->run_id);
}

/* the column of a run, or -1 (not a run of the posting's columns) */
static int column_of(const struct compute *c, const char *run_id)
{
	struct run_col key = { .run_id = (char *)run_id };
	const struct run_col *hit = bsearch(&key, c->run, c->nr_run, sizeof(*c->run), cmp_run);

	return hit ? hit->col : -1;
}

static void add(struct compute *c, int row, int col, double v)
{
	if (col < 0 || isnan(v))
		return;
	c->sum[row][col] += v;
	c->p->row[row].nr_sim[col]++;
}

static int sql_fail(struct compute *c, const char *what)
{
	results_seterr(c->err, c->errlen, c->path, "%s: %s", what, sqlite3_errmsg(c->db));
	return -1;
}

/* every simulated 'ok' run and its column (its value of the vary key) */
static int read_runs(struct compute *c)
{
	const struct posting *p = c->p;
	int policy = !strcmp(p->vary_key, "policy.name");
	sqlite3_stmt *st;
	size_t cap = 0;
	int step;

	if (sqlite3_prepare_v2(c->db, policy
	                       ? "SELECT run_id, policy FROM runs WHERE status = 'ok' AND source = 'sim'"
	                       : "SELECT r.run_id, p.value FROM runs r JOIN params p ON p.run_id = r.run_id"
	                         " AND p.key = ?1 WHERE r.status = 'ok' AND r.source = 'sim'",
	                       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(c, "reading runs");
	if (!policy)
		sqlite3_bind_text(st, 1, p->vary_key, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		int col = -1;
		for (int i = 0; v && i < p->nr_cols; i++)
			if (!strcmp(p->vary_value[i], v))
				col = i;
		if (!id || col < 0)
			continue;
		if (c->nr_run == cap) {
			struct run_col *n = realloc(c->run, (cap = cap ? 2 * cap : 64) * sizeof(*n));
			if (!n) {
				sqlite3_finalize(st);
				results_seterr(c->err, c->errlen, c->path, "out of memory");
				return -1;
			}
			c->run = n;
		}
		if (!(c->run[c->nr_run].run_id = strdup(id))) {
			sqlite3_finalize(st);
			results_seterr(c->err, c->errlen, c->path, "out of memory");
			return -1;
		}
		c->run[c->nr_run++].col = col;
		c->p->nr_runs[col]++;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return sql_fail(c, "reading runs");
	qsort(c->run, c->nr_run, sizeof(*c->run), cmp_run);
	return 0;
}

static int row_values(void *arg, const char *run_id, const double *x)
{
	struct compute *c = arg;
	int col = column_of(c, run_id);

	for (int i = 0; i < c->p->nr_rows; i++)
		if (c->p->row[i].kind == POSTING_ROW)
			add(c, i, col, x[c->p->row[i].field]);
	return 0;
}

/* a metric, a vmstat counter or a census figure of every run: (run_id, value) */
static int read_measure_runs(struct compute *c, int i)
{
	const struct posting_row *row = &c->p->row[i];
	static const char *const census_sql[2] = {
		"SELECT l.run_id, COALESCE((SELECT b.blocks FROM block_census b WHERE b.run_id = l.run_id"
		" AND b.t = l.t AND b.migratetype = ?1), 0)"
		" FROM (SELECT run_id, MAX(t) AS t FROM block_census GROUP BY run_id) l",
		"SELECT l.run_id, COALESCE((SELECT b.mixed_blocks FROM block_census b WHERE b.run_id = l.run_id"
		" AND b.t = l.t AND b.migratetype = ?1), 0)"
		" FROM (SELECT run_id, MAX(t) AS t FROM block_census GROUP BY run_id) l",
	};
	const char *sql = row->kind == POSTING_METRIC ? "SELECT run_id, value FROM metrics WHERE name = ?1"
	                  : row->kind == POSTING_VMSTAT ? "SELECT run_id, value FROM vmstat WHERE name = ?1"
	                  : census_sql[row->field];
	sqlite3_stmt *st;
	int step;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(c, row->label);
	sqlite3_bind_text(st, 1, row->what, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		if (id)
			add(c, i, column_of(c, id), sqlite3_column_double(st, 1));
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : sql_fail(c, row->label);
}

int posting_compute(struct posting *p, const char *db, char *err, size_t errlen)
{
	static const char *const tables[] = { "runs", "params", "metrics", "vmstat", "block_census", NULL };
	struct compute *c = calloc(1, sizeof(*c));
	int rc = -1, rows = 0;

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", db);
		return -1;
	}
	*c = (struct compute){ .p = p, .path = db, .err = err, .errlen = errlen };
	for (int i = 0; i < p->nr_rows; i++) {
		for (int k = 0; k < p->nr_cols; k++) {
			p->row[i].sim[k] = NAN;
			p->row[i].nr_sim[k] = 0;
		}
		rows += p->row[i].kind == POSTING_ROW;
	}
	memset(p->nr_runs, 0, sizeof(p->nr_runs));
	if (!(c->db = results_open_ro(db, tables, RESULTS_SCHEMA_READ_MIN, err, errlen)) || read_runs(c))
		goto out;
	if (!c->nr_run) {
		results_seterr(err, errlen, db, "no simulated 'ok' run has %s = %s%s", p->vary_key,
		               p->vary_value[0], p->nr_cols > 1 ? " or the posting's other values" : "");
		goto out;
	}
	if (rows && results_run_values(db, row_values, c, err, errlen))
		goto out;
	for (int i = 0; i < p->nr_rows; i++)
		if (p->row[i].kind != POSTING_ROW && p->row[i].kind != POSTING_NONE && read_measure_runs(c, i))
			goto out;
	for (int i = 0; i < p->nr_rows; i++)
		for (int k = 0; k < p->nr_cols; k++)
			if (p->row[i].nr_sim[k])
				p->row[i].sim[k] = c->sum[i][k] / (double)p->row[i].nr_sim[k];
	rc = 0;
out:
	if (c->db)
		sqlite3_close(c->db);
	for (size_t i = 0; i < c->nr_run; i++)
		free(c->run[i].run_id);
	free(c->run);
	free(c);
	return rc;
}

/* ---------------------------------------------------------------- printing */

int posting_way(double a, double b)
{
	double big;

	if (isnan(a) || isnan(b))
		return 2;
	big = fmax(fabs(a), fabs(b));
	if (big == 0 || fabs(b - a) < 0.05 * big)
		return 0;
	return b > a ? 1 : -1;
}

static void print_value(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, " %12s", "-");
	else if (fabs(v) >= 1e9)
		fprintf(out, " %12.4g", v);
	else
		fprintf(out, " %12.2f", v);
}

static void print_change(FILE *out, double a, double b)
{
	char s[32];

	if (isnan(a) || isnan(b))
		snprintf(s, sizeof(s), "-");
	else if (a == 0)
		snprintf(s, sizeof(s), b == 0 ? "+0.00%%" : "from 0");
	else
		snprintf(s, sizeof(s), "%+.2f%%", 100.0 * (b / a - 1));
	fprintf(out, " %10s", s);
}

static const char *way_word(int w)
{
	return w == 0 ? "level" : w > 0 ? "up" : "down";
}

/* the rows of column k against the baseline column 0 */
static void print_pair(FILE *out, const struct posting *p, int k)
{
	int same = 0, n = 0, none = 0;

	fprintf(out, "\n%s against %s (posting), %s against %s (mmsim):\n", p->column[k], p->column[0],
	        p->vary_value[k], p->vary_value[0]);
	fprintf(out, "%-34s %12.12s %12.12s %10s %12.12s %12.12s %10s  %s\n", "", "posting:", "", "",
	        "mmsim:", "", "", "");
	fprintf(out, "%-34s %12.12s %12.12s %10s %12.12s %12.12s %10s  %s\n", "row", p->column[0],
	        p->column[k], "change", p->vary_value[0], p->vary_value[k], "change", "same way");
	for (int i = 0; i < p->nr_rows; i++) {
		const struct posting_row *r = &p->row[i];
		int wp = posting_way(r->posted[0], r->posted[k]), ws = posting_way(r->sim[0], r->sim[k]);
		const char *verdict;

		fprintf(out, "%-34.34s", r->label);
		print_value(out, r->posted[0]);
		print_value(out, r->posted[k]);
		print_change(out, r->posted[0], r->posted[k]);
		print_value(out, r->sim[0]);
		print_value(out, r->sim[k]);
		print_change(out, r->sim[0], r->sim[k]);
		if (r->kind == POSTING_NONE) {
			verdict = "not modelled";
			none++;
		} else if (wp == 2 || ws == 2) {
			verdict = "n/a";
			none++;
		} else {
			n++;
			same += wp == ws;
			verdict = wp == ws ? "yes" : "no";
		}
		fprintf(out, "  %s", verdict);
		if (wp != 2 && ws != 2 && wp != ws)
			fprintf(out, " (posting %s, mmsim %s)", way_word(wp), way_word(ws));
		fputc('\n', out);
	}
	fprintf(out, "Same way: %d of %d rows (%s against %s; a change under 5 %% of the larger mean "
	        "counts as level)%s", same, n, p->column[k], p->column[0], none ? "; " : "\n");
	if (none)
		fprintf(out, "%d row%s not compared\n", none, none == 1 ? "" : "s");
}

int posting_print(FILE *out, const struct posting *p)
{
	fprintf(out, "\nThe posting: %s\n", p->title);
	if (p->author || p->date)
		fprintf(out, "  %s%s%s\n", p->author ? p->author : "", p->author && p->date ? ", " : "",
		        p->date ? p->date : "");
	if (p->source)
		fprintf(out, "  %s\n", p->source);
	if (p->compares)
		fprintf(out, "  Compares: %s\n", p->compares);
	if (p->load)
		fprintf(out, "  Load: %s\n", p->load);
	fprintf(out, "mmsim: %s, %s =", p->scenario, p->vary_key);
	for (int k = 0; k < p->nr_cols; k++)
		fprintf(out, "%s %s (%ld run%s)", k ? "," : "", p->vary_value[k], p->nr_runs[k],
		        p->nr_runs[k] == 1 ? "" : "s");
	fprintf(out, "; means over the runs\n");
	for (int k = 1; k < p->nr_cols; k++)
		print_pair(out, p, k);
	for (int i = 0; i < p->nr_conclusion; i++)
		fprintf(out, "%s%s\n", i ? "  " : "\nThe author: ", p->conclusion[i]);
	for (int i = 0; i < p->nr_note; i++)
		fprintf(out, "%s%s\n", i ? "  " : "\nNote: ", p->note[i]);
	return ferror(out) ? -1 : 0;
}
