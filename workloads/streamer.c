/* streamer.c - a file reader: `procs` processes read `files` files of
 * `file_size` bytes through the page cache, in blocks, sequentially or at
 * random, once or over and over, at a given rate or as fast as the CPU
 * and the disk let them.  Files larger than memory make the page cache
 * churn under reclaim, as mmtests' THP-challenge configurations do with
 * fio beside their THP load.  Background workload: it stops when the
 * measured workload has finished (or, with reread = no, when each
 * process has read its files once).
 *
 * Which file and offset come next is workloads/streamer_pattern.c, the
 * same code that drives the real program (real/streamer.c), so that a
 * run and its real counterpart read the same blocks in the same order
 * for the same seed.  Reads go through filemap_read(): hits are copies
 * that mark the page accessed, misses allocate page cache pages on the
 * inactive file list (activated at once when their shadow entry says
 * they were evicted within the workingset's reach) and wait for the
 * disk, one request per read.  A process reads a quantum's worth at a
 * time (its CPU and I/O wait together fill the quantum), and with a rate
 * sleeps until its next bytes are due.  docs/workloads.md, "streamer".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/limits.h"
#include "streamer_pattern.h"
#include "workload.h"

enum { LAYOUT_COLD, LAYOUT_WRITTEN };
enum st_state { ST_START, ST_WAIT, ST_LAYOUT, ST_READ, ST_DONE };

/* the longest sleep between looks at the stop flag: a process waiting
 * for its start or for its rate ends with the others at the run's end */
#define ST_MAX_SLEEP 1.0

/* the layout writes in chunks of this many pages (real/streamer.c's
 * 1 MiB writes) */
#define LAYOUT_CHUNK_PAGES 256ul

struct streamer;

struct st_proc {
	struct streamer *s;
	unsigned id;
	struct task *task;
	enum st_state state;
	struct sp_state pat;
	struct sp_io io;
	bool have_io;                   /* io is the next read (taken from pat, not yet done) */
	/* layout progress: the k-th of this process's files, its next page */
	unsigned layout_file;
	unsigned long layout_page;
	double t_wake;                  /* ST_WAIT: when `start` has passed */
	/* rate: the time reading began; bytes read since */
	double t_first, t_end;
	/* counters */
	unsigned long long bytes, reads, pages, layout_pages;
	struct filemap_read_stat stat;
	double utime_ns, stime_ns, iowait_ns;
	bool finished, oom_killed;
};

struct streamer {
	/* parameters */
	unsigned files;
	unsigned long file_size;        /* bytes */
	double rate;                    /* MiB/s over all processes; 0: unlimited */
	int pattern;                    /* enum sp_order */
	unsigned long block;            /* bytes; 0: the pattern's default */
	bool reread;
	double read_ns, call_ns;
	int layout;
	double start;                   /* seconds */
	unsigned procs;
	/* state */
	struct sp_config cfg;
	struct address_space **as;      /* per file */
	struct st_proc *proc;
	struct workload *w;
};

static const char *const pattern_names[] = { "seq", "random", NULL };
static const char *const layout_names[] = { "cold", "written", NULL };

#define ST(f) PARAM_AT(struct streamer, f)
static const struct param streamer_params[] = {
	{ "files", PARAM_INT, NULL, 1, 1000000, "1", "files read (all processes together; each process its own)",
	  ST(files) },
	{ "file_size", PARAM_SIZE, "bytes", 4096, PARAM_SIZE_MAX, "1G", "size of each file", ST(file_size) },
	{ "rate", PARAM_DOUBLE, "MiB/s", 0, 1e6, "0",
	  "MiB (2^20 bytes) per second read, all processes together; 0: as fast as CPU and disk allow",
	  ST(rate) },
	{ "pattern", PARAM_ENUM, NULL, 0, 0, "seq",
	  "seq: each file from start to end; random: every block once per pass, in random order",
	  ST(pattern), .choices = pattern_names },
	{ "block", PARAM_SIZE, "bytes", 4096, 1 << 30, "auto",
	  "bytes per read() (a multiple of 4K); auto: 128K for seq, 4K for random", ST(block),
	  .word = "auto", .word_value = 0 },
	{ "reread", PARAM_BOOL, NULL, 0, 0, "yes", "yes: read the files over and over; no: once, then stop",
	  ST(reread) },
	{ "read_ns", PARAM_DOUBLE, "ns", 0, 1e9, "143",
	  "CPU (user + system) per 4 KiB page of a cached read (measured: docs/workloads.md)", ST(read_ns) },
	{ "call_ns", PARAM_DOUBLE, "ns", 0, 1e9, "1344",
	  "CPU (user + system) per read() call beyond its pages' (measured: docs/workloads.md)", ST(call_ns) },
	{ "layout", PARAM_ENUM, NULL, 0, 0, "cold",
	  "cold: the files on disk, not cached; written: written through the page cache at the start",
	  ST(layout), .choices = layout_names },
	{ "start", PARAM_DOUBLE, "seconds", 0, 1e6, "0", "seconds before the processes begin", ST(start) },
	{ "procs", PARAM_INT, NULL, 1, 64, "1", "reading processes (files are dealt out among them)",
	  ST(procs) },
	{ NULL },
};

static unsigned long size_pages(unsigned long bytes)
{
	return (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
}

static int st_validate(struct workload *w, char *err, size_t errlen)
{
	struct streamer *s = w->priv;
	char msg[256];
	uint64_t need;

	s->cfg = (struct sp_config){ .files = s->files, .file_size = s->file_size,
	                             .block = s->block ? s->block : sp_default_block((enum sp_order)s->pattern),
	                             .order = (enum sp_order)s->pattern, .reread = s->reread, .procs = s->procs };
	if (s->cfg.block % PAGE_SIZE) {
		snprintf(err, errlen, "streamer.block: %lu is not a multiple of 4K (reads are whole pages)",
		         s->block);
		return -1;
	}
	if (sp_check(&s->cfg, msg, sizeof(msg))) {
		snprintf(err, errlen, "streamer: %s", msg);
		return -1;
	}
	/* each file's page cache slots are host memory (4 bytes a page) */
	need = (uint64_t)s->files * size_pages(s->file_size) * sizeof(uint32_t);
	if (mmsim_host_memory_check(need, msg, sizeof(msg))) {
		snprintf(err, errlen, "streamer.file_size: %u files %s", s->files, msg);
		return -1;
	}
	return 0;
}

/* The CPU of one read() or write() of `pages` pages beyond what the page
 * cache path charged: the measured cost of a cached read (call_ns +
 * pages x read_ns) less the model's copy (pagecache_hit_ns a page,
 * charged as system time by filemap_read/write); what is left is the
 * process's side (syscall entry and exit, its loop), user time. */
static double call_cpu(const struct streamer *s, unsigned long pages)
{
	double cost = s->call_ns + (double)pages * s->read_ns;
	double kernel = (double)pages * s->w->pgdat->costs.pagecache_hit_ns;

	return cost > kernel ? cost - kernel : 0;
}

static struct address_space *proc_file(const struct st_proc *p, unsigned k)
{
	return p->s->as[p->id + k * p->s->procs];
}

/* layout = written: write this process's files through the page cache,
 * a chunk at a time, each chunk written back at once and waited for.
 * The model has no dirty throttling (balance_dirty_pages): writing back
 * as it goes holds the writer to the disk's speed as the throttling
 * would, and leaves clean page cache, as fio's layout (write, then
 * fsync) does.  Returns the user time, or -1 on failure. */
static double layout_quantum(struct st_proc *p, struct mm_ctx *ctx, double quantum_ns)
{
	struct streamer *s = p->s;
	struct pglist_data *pgdat = s->w->pgdat;
	unsigned nf = sp_files_of(&s->cfg, p->id);
	unsigned long pages = size_pages(s->file_size);
	double user = 0;

	while (p->layout_file < nf && user + ctx->kernel_ns + ctx->io_wait_ns < quantum_ns) {
		struct address_space *as = proc_file(p, p->layout_file);
		unsigned long n = pages - p->layout_page < LAYOUT_CHUNK_PAGES ? pages - p->layout_page
		                                                              : LAYOUT_CHUNK_PAGES;

		if (filemap_write(pgdat, ctx, as, p->layout_page, n))
			return -1;
		filemap_write_and_wait_range(pgdat, ctx, as, p->layout_page, n);
		user += call_cpu(s, n);
		p->layout_pages += n;
		p->layout_page += n;
		if (p->layout_page == pages) {
			p->layout_file++;
			p->layout_page = 0;
		}
	}
	if (p->layout_file == nf)
		p->state = ST_READ;
	return user;
}

/* reading: a quantum's worth of reads (CPU and I/O wait together), or,
 * with a rate, what is due by the end of the quantum; ahead of the rate,
 * sleep until the next bytes are due */
static double read_quantum(struct st_proc *p, struct task *t, struct mm_ctx *ctx, double quantum_ns)
{
	struct streamer *s = p->s;
	struct pglist_data *pgdat = s->w->pgdat;
	double rate = s->rate * (double)(1u << 20) / s->procs, now = engine_now(), user = 0, allowed = 0;
	unsigned long long batch = 0;

	if (p->t_first < 0)
		p->t_first = now;
	if (rate > 0) {
		double due = p->t_first + (double)p->bytes / rate;
		if (due > now) {
			t->sleep = due - now < ST_MAX_SLEEP ? due - now : ST_MAX_SLEEP;
			return 0;
		}
		allowed = rate * (now + quantum_ns * 1e-9 - p->t_first) - (double)p->bytes;
	}
	while (user + ctx->kernel_ns + ctx->io_wait_ns < quantum_ns && (rate <= 0 || (double)batch < allowed)) {
		unsigned long first, n;

		if (!p->have_io && !(p->have_io = sp_next(&p->pat, &p->io))) {
			p->state = ST_DONE;
			p->finished = true;
			break;
		}
		first = p->io.offset / PAGE_SIZE;
		n = size_pages(p->io.offset + p->io.len) - first;
		if (filemap_read_stat(pgdat, ctx, s->as[p->io.file], first, n, &p->stat))
			return -1;      /* an OOM victim, or no memory for the page cache */
		p->have_io = false;
		user += call_cpu(s, n);
		p->bytes += p->io.len;
		p->pages += n;
		p->reads++;
		batch += p->io.len;
	}
	return user;
}

static double st_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct st_proc *p = arg;
	struct streamer *s = p->s;
	double quantum_ns = t->engine->cfg.quantum * 1e9;

	if (workload_stopping(s->w))
		return -1;
	switch (p->state) {
	case ST_START:
		p->t_wake = engine_now() + s->start;
		p->state = ST_WAIT;
		/* fall through */
	case ST_WAIT:
		if (engine_now() < p->t_wake) {
			double left = p->t_wake - engine_now();
			t->sleep = left < ST_MAX_SLEEP ? left : ST_MAX_SLEEP;
			return 0;
		}
		p->state = s->layout == LAYOUT_WRITTEN ? ST_LAYOUT : ST_READ;
		return st_quantum(t, ctx, arg);
	case ST_LAYOUT:
		return layout_quantum(p, ctx, quantum_ns);
	case ST_READ:
		return read_quantum(p, t, ctx, quantum_ns);
	case ST_DONE:
		return -1;
	}
	return -1;
}

static void st_exit(struct task *t, void *arg)
{
	struct st_proc *p = arg;

	p->t_end = engine_now();
	p->utime_ns = t->utime_ns;
	p->stime_ns = t->stime_ns;
	p->iowait_ns = t->iowait_ns;
	p->oom_killed = t->oom_killed || (t->mm && t->mm->oom_victim);
}

static const struct task_ops streamer_task_ops = {
	.quantum = st_quantum,
	.exit = st_exit,
};

static int st_start(struct workload *w, char *err, size_t errlen)
{
	struct streamer *s = w->priv;
	struct pglist_data *pgdat = w->pgdat;
	struct mm_ctx ctx = { 0 };

	s->w = w;
	s->as = calloc(s->files, sizeof(*s->as));
	s->proc = calloc(s->procs, sizeof(*s->proc));
	if (!s->as || !s->proc) {
		snprintf(err, errlen, "streamer: out of memory");
		return -1;
	}
	/* cold: the files as the real harness leaves them (written, then
	 * POSIX_FADV_DONTNEED): on disk, no page cached, their dentries and
	 * inodes in the caches from the layout (an open of nothing
	 * allocates them); written: empty files the processes write */
	for (unsigned f = 0; f < s->files; f++) {
		bool cold = s->layout == LAYOUT_COLD;
		if (!(s->as[f] = inode_create(pgdat, cold ? size_pages(s->file_size) : 0, false)) ||
		    (cold && filemap_read(pgdat, &ctx, s->as[f], 0, 0))) {
			snprintf(err, errlen, "streamer: cannot create file %u", f);
			return -1;
		}
	}
	for (unsigned i = 0; i < s->procs; i++) {
		struct st_proc *p = &s->proc[i];
		char name[32];

		p->s = s;
		p->id = i;
		p->t_first = p->t_end = -1;
		sp_init(&p->pat, &s->cfg, i, w->seed);
		snprintf(name, sizeof(name), "streamer/%u", i);
		if (!(p->task = engine_spawn(w->engine, name, &streamer_task_ops, p))) {
			snprintf(err, errlen, "streamer: cannot spawn its process %u", i);
			return -1;
		}
	}
	return 0;
}

static size_t st_report(const struct workload *w, struct metric *out, size_t n)
{
	const struct streamer *s = w->priv;
	unsigned long long bytes = 0, reads = 0, pages = 0, layout = 0, passes = 0;
	unsigned long missed = 0, shadowed = 0;
	double user = 0, sys = 0, iowait = 0, t0 = -1, t1 = -1;
	unsigned done = 0, killed = 0;
	size_t i = 0;

	for (unsigned k = 0; s->proc && k < s->procs; k++) {
		const struct st_proc *p = &s->proc[k];
		double end = p->t_end >= 0 ? p->t_end : engine_now();

		bytes += p->bytes;
		reads += p->reads;
		pages += p->pages;
		layout += p->layout_pages;
		missed += p->stat.missed;
		shadowed += p->stat.shadowed;
		passes += p->pat.pass + (p->pat.done ? 1 : 0);
		user += p->utime_ns;
		sys += p->stime_ns;
		iowait += p->iowait_ns;
		done += p->finished;
		killed += p->oom_killed;
		if (p->t_first >= 0 && (t0 < 0 || p->t_first < t0))
			t0 = p->t_first;
		if (p->t_first >= 0 && end > t1)
			t1 = end;
	}
#define PUT(nm, v) do { if (i < n) { snprintf(out[i].name, sizeof(out[i].name), "%s", nm); \
                                     out[i++].value = (double)(v); } } while (0)
	PUT("streamer_bytes_read", bytes);
	PUT("streamer_reads", reads);
	PUT("streamer_pages_read", pages);
	PUT("streamer_pages_missed", missed);
	PUT("streamer_pages_refaulted", shadowed);
	PUT("streamer_passes", passes);
	PUT("streamer_layout_pages", layout);
	PUT("streamer_read_seconds", t0 >= 0 ? t1 - t0 : 0);
	PUT("streamer_rate_mibs", t0 >= 0 && t1 > t0 ? bytes / (t1 - t0) / (1 << 20) : 0);
	PUT("streamer_user_seconds", user * 1e-9);
	PUT("streamer_system_seconds", sys * 1e-9);
	PUT("streamer_iowait_seconds", iowait * 1e-9);
	PUT("streamer_procs_done", done);
	PUT("streamer_oom_killed", killed);
#undef PUT
	return i;
}

static void st_fini(struct workload *w)
{
	struct streamer *s = w->priv;

	free(s->as);
	free(s->proc);
	s->as = NULL;
	s->proc = NULL;
}

const struct workload_ops streamer_ops = {
	.name = "streamer",
	.desc = "read files through the page cache: sequential or random, once or over and over, at a rate",
	.params = streamer_params,
	.priv_size = sizeof(struct streamer),
	.measured = false,
	.validate = st_validate,
	.start = st_start,
	.report = st_report,
	.fini = st_fini,
};
