/* scenario_streamer.c - the streamer file reader on a small machine (512
 * MiB, 2 CPUs), through the run driver.  Asserts:
 *   (a) files of twice the RAM read sequentially churn the page cache:
 *       every page read is a miss (pgpgin is exactly the misses), from
 *       the second pass on every miss finds its shadow entry
 *       (workingset_refault_file), reclaim scans and frees file pages
 *       (pgscan_file, pgsteal_file) and leaves the faulter's anonymous
 *       memory beside it alone; the same seed gives the same counters;
 *   (b) a rate holds: bytes read over the run within 2 % of rate x time
 *       since the processes' start;
 *   (c) reread = no reads each block of each file once and stops (seq
 *       and random), and files that fit stay cached: a second process
 *       reading them would hit;
 *   (d) layout = written writes every page through the page cache and
 *       writes it back (pgpgout, nr_written); the reads that follow hit.
 * Each simulation is a child process (engine_fork_run) reporting through
 * shared memory; the invariant checker runs during every simulation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/run.h"
#include "workload.h"

#define MAX_METRICS 32

struct result {
	int status;
	char err[256];
	double t;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	long node_stat[NR_VM_NODE_STAT_ITEMS];
	struct metric m[MAX_METRICS];
	size_t nr_metrics;
	unsigned long check_failures;
};

struct job {
	const char *text;
	struct result *res;
};

static int child(void *arg)
{
	struct job *j = arg;
	struct result *r = j->res;
	struct scenario *s = scenario_new();
	struct run *run;

	if (scenario_load_string(s, j->text, "scenario_streamer", r->err, sizeof(r->err)))
		return 10;
	if (scenario_resolve(s, r->err, sizeof(r->err)))
		return 11;
	if (!(run = run_create(s, 200000, r->err, sizeof(r->err))))
		return 12;
	if (run_execute(run, r->err, sizeof(r->err)))
		return 13;
	r->t = run->sim_seconds;
	for (unsigned i = 0; i < run->set->n; i++) {
		const struct workload *w = run->set->w[i];
		if (!strcmp(w->ops->name, "streamer"))
			r->nr_metrics = w->ops->report(w, r->m, MAX_METRICS);
	}
	memcpy(r->vm_events, run->pgdat.vm_events, sizeof(r->vm_events));
	memcpy(r->node_stat, run->pgdat.vm_node_stat, sizeof(r->node_stat));
	r->check_failures = check_pgdat(&run->pgdat, "scenario end");
	return 0;
}

static struct result *run(const char *text)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct job j = { text, r };
	int status;

	assert_true(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	status = engine_fork_run(child, &j);
	if (status)
		fprintf(stderr, "child failed (%d): %s\n", status, r->err);
	assert_int_equal(status, 0);
	assert_int_equal(r->check_failures, 0);
	return r;
}

static double M(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->m[i].name, name))
			return r->m[i].value;
	fail_msg("no metric %s", name);
	return 0;
}

#define EV(r, i) ((r)->vm_events[i])
#define NS(r, i) ((r)->node_stat[i])
#define MACHINE "[machine]\nram = 512M\ncpus = 2\nswap = 256M\n"

static void show(const char *what, const struct result *r)
{
	print_message("%s: t %.2f s, read %.0f B in %.0f reads (%.0f pages, missed %.0f, shadowed %.0f), "
	              "passes %.0f, done %.0f, rate %.1f MiB/s, layout %.0f pages; pgpgin %lu, pgpgout %lu, "
	              "refault_file %ld, activate_file %ld, pgscan_file %lu, pgsteal_file %lu, "
	              "pgscan_anon %lu, pgsteal_anon %lu, pswpout %lu\n",
	              what, r->t, M(r, "streamer_bytes_read"), M(r, "streamer_reads"), M(r, "streamer_pages_read"),
	              M(r, "streamer_pages_missed"), M(r, "streamer_pages_refaulted"), M(r, "streamer_passes"),
	              M(r, "streamer_procs_done"), M(r, "streamer_rate_mibs"), M(r, "streamer_layout_pages"),
	              EV(r, PGPGIN), EV(r, PGPGOUT), NS(r, WORKINGSET_REFAULT_FILE),
	              NS(r, WORKINGSET_ACTIVATE_FILE), EV(r, PGSCAN_FILE), EV(r, PGSTEAL_FILE),
	              EV(r, PGSCAN_ANON), EV(r, PGSTEAL_ANON), EV(r, PSWPOUT));
}

/* (a) two files of 512 MiB, sequential, over and over, as fast as it
 * can, beside the THP faulter holding 128 MiB of anonymous memory */
static const char churn[] =
	MACHINE
	"[workload]\nnames = thp_faulter, streamer\n"
	"[workload.thp_faulter]\nregion = 128M\nhold = 5\npause = 0.1\n"
	"[workload.streamer]\nfiles = 2\nfile_size = 512M\n"
	"[run]\nduration = 6\nsample_interval = 0.5\n";

static void test_churn(void **state)
{
	struct result a, *r;
	double pages, missed, shadowed, file_pages = 2 * 131072;
	(void)state;

	a = *run(churn);
	r = &a;
	show("churn", r);
	pages = M(r, "streamer_pages_read");
	missed = M(r, "streamer_pages_missed");
	shadowed = M(r, "streamer_pages_refaulted");
	/* more than one pass: the files are read again */
	assert_true(M(r, "streamer_passes") >= 2);
	assert_true(M(r, "streamer_bytes_read") == pages * 4096);
	/* twice the RAM read in order: nothing is still cached when it is
	 * read again, every read is a miss, and it is all the disk reads */
	assert_true(missed == pages);
	assert_int_equal(EV(r, PGPGIN), (unsigned long)missed * 4);
	/* the first pass finds empty slots, every later one shadows */
	assert_true(shadowed >= pages - file_pages && shadowed <= pages - file_pages + 64);
	assert_int_equal(NS(r, WORKINGSET_REFAULT_FILE), (long)shadowed);
	/* evicted a RAM's worth before: too far to be activated */
	assert_true(NS(r, WORKINGSET_ACTIVATE_FILE) * 100 < NS(r, WORKINGSET_REFAULT_FILE));
	/* reclaim freed about every page read beyond what memory holds, and
	 * took file pages, not the faulter's */
	assert_true(EV(r, PGSTEAL_FILE) > pages - 131072);
	assert_true(EV(r, PGSCAN_FILE) >= EV(r, PGSTEAL_FILE));
	assert_true(EV(r, PGSTEAL_ANON) * 100 < EV(r, PGSTEAL_FILE));
	assert_int_equal(M(r, "streamer_oom_killed"), 0);
	/* the same seed, the same run */
	r = run(churn);
	assert_memory_equal(a.vm_events, r->vm_events, sizeof(a.vm_events));
	assert_memory_equal(a.node_stat, r->node_stat, sizeof(a.node_stat));
}

/* (b) the same files at 40 MiB/s with 2 processes, from 2 s into a
 * 10 s run: the rate is the two's together, over 8 s */
static void test_rate(void **state)
{
	static const char text[] =
		MACHINE
		"[workload]\nnames = streamer\n"
		"[workload.streamer]\nfiles = 2\nfile_size = 512M\nrate = 40\nprocs = 2\nstart = 2\n"
		"[run]\nduration = 10\n";
	struct result *r;
	double want = 40.0 * (1 << 20) * 8;
	(void)state;

	r = run(text);
	show("rate 40", r);
	assert_true(M(r, "streamer_bytes_read") > want * 0.98);
	assert_true(M(r, "streamer_bytes_read") < want * 1.02);
	assert_true(M(r, "streamer_rate_mibs") > 40 * 0.98 && M(r, "streamer_rate_mibs") < 40 * 1.02);
	/* well within what the reader could do: it slept most of the time */
	assert_true(M(r, "streamer_system_seconds") + M(r, "streamer_iowait_seconds") < 5);
}

/* (c) reread = no: read once, stop; the files fit, and stay cached */
static void test_once(void **state)
{
	static const char seq[] =
		MACHINE
		"[workload]\nnames = streamer\n"
		"[workload.streamer]\nfiles = 3\nfile_size = 40001K\nreread = no\n"
		"[run]\nduration = 10\n";
	static const char rnd[] =
		MACHINE
		"[workload]\nnames = streamer\n"
		"[workload.streamer]\nfiles = 3\nfile_size = 40001K\nreread = no\npattern = random\nprocs = 2\n"
		"[run]\nduration = 10\n";
	const char *const texts[] = { seq, rnd };
	/* 40001 KiB: 10001 pages, the last block of each file short */
	double pages = 3 * 10001.0;
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct result *r = run(texts[i]);
		show(i ? "once, random, 2 procs" : "once, seq", r);
		assert_true(M(r, "streamer_bytes_read") == 3 * 40001.0 * 1024);
		assert_true(M(r, "streamer_pages_read") == pages);
		assert_true(M(r, "streamer_pages_missed") == pages);
		assert_true(M(r, "streamer_pages_refaulted") == 0);
		assert_true(M(r, "streamer_passes") == (i ? 2 : 1));
		assert_true(M(r, "streamer_procs_done") == (i ? 2 : 1));
		/* it stopped long before the run's end */
		assert_true(M(r, "streamer_read_seconds") < 5);
		assert_true(M(r, "streamer_reads") == (i ? pages : 3 * 313));
		assert_int_equal(EV(r, PGPGIN), (unsigned long)pages * 4);
		assert_int_equal(EV(r, PGSCAN_FILE), 0);
		/* still cached at the end */
		assert_true(NS(r, NR_FILE_PAGES) >= (long)pages);
	}
}

/* (d) layout = written: the files written, written back, then read:
 * the reads hit */
static void test_written(void **state)
{
	static const char text[] =
		MACHINE
		"[workload]\nnames = streamer\n"
		"[workload.streamer]\nfiles = 2\nfile_size = 64M\nreread = no\nlayout = written\n"
		"[run]\nduration = 10\n";
	struct result *r;
	double pages = 2 * 16384.0;
	(void)state;

	r = run(text);
	show("written", r);
	assert_true(M(r, "streamer_layout_pages") == pages);
	assert_int_equal(NS(r, NR_DIRTIED), (long)pages);
	assert_int_equal(NS(r, NR_WRITTEN), (long)pages);
	assert_int_equal(NS(r, NR_FILE_DIRTY), 0);
	assert_int_equal(EV(r, PGPGOUT), (unsigned long)pages * 4);
	assert_true(M(r, "streamer_bytes_read") == pages * 4096);
	assert_true(M(r, "streamer_pages_missed") == 0);
	assert_int_equal(EV(r, PGPGIN), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_once),
		cmocka_unit_test(test_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
