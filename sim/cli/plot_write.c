/* plot_write.c - every file mmsim plot writes (plot.h): the data files,
 * the gnuplot scripts, and the images gnuplot draws from them.
 *
 * Text from the database or the command line (policy names, run ids,
 * parameter keys, metric names, the database's path) reaches gnuplot only
 * as single-quoted strings (gp_quote, quote.h), or as slugs: gnuplot runs a
 * command in backquotes anywhere else, and a results database is input
 * like any other.  gnuplot's own -e argument carries only "fmt='png'" or
 * 'svg'.  Every file is written aside and renamed into place (outfile.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>
#include "cli.h"
#include "plot.h"
#include "mmsim/quote.h"

/* the plots/NAME.gp templates, embedded by cmake/EmbedPlots.cmake */
struct plot_template { const char *name; const char *text; };
extern const struct plot_template mmsim_plot_templates[];

void plot_note(const char *fmt, ...)
{
	va_list ap;
	fputs("mmsim: plot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void plot_slug(char *out, size_t n, const char *in)
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

int plot_policy_index(const struct plot_ctx *c, const char *name)
{
	for (int i = 0; i < c->nr_policies; i++)
		if (name && !strcmp(c->policy[i], name))
			return i;
	return -1;
}

/* a failed read: the schema is not what this mmsim knows */
int plot_read_fail(struct plot_ctx *c)
{
	error("%s", results_reader_errmsg(c->r));
	return EX_DATAERR;
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

/* ------------------------------------------------------------ data files */

void plot_dat_init(struct plot_dat *d, const char *name, const char *tmpl, const char *header)
{
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->tmpl = tmpl;
	d->header = header;
	d->cur = -1;
	snprintf(d->file, sizeof(d->file), "%s.dat", name);
}

FILE *plot_dat_open(struct plot_ctx *c, struct plot_dat *d)
{
	d->f = out_open(c, &d->out, d->file);
	if (!d->f)
		return NULL;
	fprintf(d->f, "# %s - written by mmsim plot from ", d->file);
	gp_quote(d->f, c->db_path);
	fprintf(d->f, "\n%s", d->header);
	return d->f;
}

int plot_dat_point(struct plot_ctx *c, struct plot_dat *d, int p, const struct results_point *pt)
{
	char pol[64];
	size_t len;

	if (!d->f) {
		if (!plot_dat_open(c, d))
			return EX_CANTCREAT;
		fputs("# one block per policy (gnuplot index 0, 1, ...), blocks\n"
		      "# separated by two blank lines\n", d->f);
	}
	if (p != d->cur) {
		if (d->cur >= 0)
			fputs("\n\n", d->f);
		/* a slug: a gnuplot word, and a comment of one line */
		plot_slug(pol, sizeof(pol), c->policy[p]);
		fprintf(d->f, "# policy %s\n", pol);
		len = strlen(d->policies);
		snprintf(d->policies + len, sizeof(d->policies) - len, "%s%s", len ? " " : "", pol);
		len = strlen(d->ltypes);
		snprintf(d->ltypes + len, sizeof(d->ltypes) - len, "%s%d", len ? " " : "", p + 1);
		d->cur = p;
	}
	fprintf(d->f, "%.9g", pt->x);
	for (int i = 0; i < pt->ny; i++) {
		if (isnan(pt->y[i])) {
			fputs(" NaN", d->f);
		} else {
			fprintf(d->f, " %.6g", pt->y[i]);
			if (i == 0 && p < 64)
				d->with_y0 |= 1ul << p;
		}
	}
	fprintf(d->f, " %d", pt->runs);
	if (pt->label) {
		/* a gnuplot string of one line that holds no '"' */
		fputs(" \"", d->f);
		for (const char *s = pt->label; *s; s++)
			fputc(*s == '"' || (unsigned char)*s < ' ' ? '\'' : *s, d->f);
		fputc('"', d->f);
	}
	fputc('\n', d->f);
	return 0;
}

int plot_dat_close(struct plot_ctx *c, struct plot_dat *d)
{
	int rc = out_close(c, &d->out, d->file);

	d->f = NULL;
	return rc;
}

int plot_series_finish(struct plot_ctx *c, struct plot_dat *d, const char *extra)
{
	char vars[PLOT_MAX_POLICIES * 80 + 1024];
	int rc;

	if (!d->f)
		return 0;
	rc = plot_dat_close(c, d);
	if (rc)
		return rc;
	/* file and policies are slugs, ltypes numbers: nothing to escape */
	snprintf(vars, sizeof(vars), "datafile = '%s'\npolicies = '%s'\nltypes = '%s'\n%s",
	         d->file, d->policies, d->ltypes, extra);
	return plot_draw_gp(c, d->name, d->tmpl, vars);
}

/* --------------------------------------------------------------- gnuplot */

static const char *template_text(const char *name)
{
	for (const struct plot_template *t = mmsim_plot_templates; t->name; t++)
		if (!strcmp(t->name, name))
			return t->text;
	return NULL;
}

int plot_find_gnuplot(void)
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

int plot_draw_gp(struct plot_ctx *c, const char *name, const char *tmpl, const char *vars)
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
