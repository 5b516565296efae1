/* scenario_system.c - the base system ([system] profile, workloads/system.c)
 * on the virtual clock: the headless profile's kernel memory lands in the
 * /proc/vmstat counters as the profile's totals (slab reclaimable and
 * unreclaimable, kernel stacks, page tables), in reclaimable and
 * unmovable pageblocks; a daemon exists, wakes, logs, churns slab
 * objects and GPU buffers.  Each simulation runs in a child
 * (engine_fork_run) and reports through shared memory; the invariant
 * checker runs at the end of each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "mmsim/census.h"
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "system_profile.h"
#include "workload.h"

#define MAX_METRICS 32

struct result {
	char err[256];
	/* right after start(): the boot */
	long boot_slab_recl, boot_slab_unrecl, boot_kstack_kb, boot_pagetables;
	struct block_census boot_census;
	/* at the end */
	long slab_recl, slab_unrecl, kstack_kb, pagetables, file_pages, dirty_written, mapped;
	unsigned long live_tasks;                /* processes alive at the end */
	struct metric m[MAX_METRICS];
	size_t nm;
	unsigned long check_failures;
};

struct scenario {
	const char *profile;
	double seconds;
	struct result *res;
};

static int child(void *arg)
{
	struct scenario *sc = arg;
	struct result *r = sc->res;
	static struct pglist_data pgdat;
	static struct workload_set set;
	struct workload *w;
	struct mm_layout layout;
	struct vm_sysctl sysctl;
	struct mm_policy *policy;
	struct engine e;
	struct engine_config cfg;
	int argc = 1;
	char *argv[] = { "scenario", NULL };

	if (mm_layout_qemu(2ull << 30, 9542, &layout, r->err, sizeof(r->err)))
		return 10;
	vm_sysctl_defaults(&sysctl);
	if (mm_policy_create("vanilla", &policy, r->err, sizeof(r->err)) ||
	    mm_policy_validate(policy, r->err, sizeof(r->err)))
		return 11;
	if (pgdat_init(&pgdat, &layout, 4, &sysctl, policy, r->err, sizeof(r->err)))
		return 12;
	engine_config_defaults(&cfg);
	cfg.cpus = 4;
	if (engine_init(&e, &pgdat, &cfg, &argc, argv, r->err, sizeof(r->err)))
		return 14;
	if (workload_create("system", &w, r->err, sizeof(r->err)) ||
	    workload_set_param(w, "profile", sc->profile, r->err, sizeof(r->err)))
		return 15;
	workload_set_add(&set, w);
	if (workload_set_start(&set, &e, &pgdat, 1, r->err, sizeof(r->err)))
		return 18;
	r->boot_slab_recl = node_page_state(&pgdat, NR_SLAB_RECLAIMABLE_B);
	r->boot_slab_unrecl = node_page_state(&pgdat, NR_SLAB_UNRECLAIMABLE_B);
	r->boot_kstack_kb = node_page_state(&pgdat, NR_KERNEL_STACK_KB);
	r->boot_pagetables = node_page_state(&pgdat, NR_PAGETABLE);
	pageblock_census(&pgdat, &r->boot_census);
	engine_run(&e, sc->seconds);
	r->slab_recl = node_page_state(&pgdat, NR_SLAB_RECLAIMABLE_B);
	r->slab_unrecl = node_page_state(&pgdat, NR_SLAB_UNRECLAIMABLE_B);
	r->kstack_kb = node_page_state(&pgdat, NR_KERNEL_STACK_KB);
	r->pagetables = node_page_state(&pgdat, NR_PAGETABLE);
	r->file_pages = node_page_state(&pgdat, NR_FILE_PAGES);
	r->mapped = node_page_state(&pgdat, NR_FILE_MAPPED);
	r->dirty_written = (long)pgdat.vm_node_stat[NR_WRITTEN] + node_page_state(&pgdat, NR_FILE_DIRTY);
	r->live_tasks = e.nr_live_tasks;
	r->nm = w->ops->report(w, r->m, MAX_METRICS);
	r->check_failures = check_pgdat(&pgdat, "scenario end");
	return 0;
}

static struct result *run(const char *profile, double seconds)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct scenario sc = { .profile = profile, .seconds = seconds };
	int status;

	assert_true(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	sc.res = r;
	status = engine_fork_run(child, &sc);
	if (status)
		fprintf(stderr, "child failed (%d): %s\n", status, r->err);
	assert_int_equal(status, 0);
	assert_int_equal(r->check_failures, 0);
	return r;
}

static double metric(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return r->m[i].value;
	fail_msg("no metric %s", name);
	return -1;
}

static unsigned long pages_of(uint64_t bytes)
{
	return (unsigned long)((bytes + 4095) / 4096);
}

/* |got - want| within want / 100 (SLUB's rounding: a slab emptied by the
 * even frees and discarded, a minimum-order fallback) */
static void assert_near(long got, long want)
{
	long d = got > want ? got - want : want - got;
	if (d > want / 100) {
		fprintf(stderr, "got %ld, want %ld\n", got, want);
		fail();
	}
}

static void test_headless_boot(void **state)
{
	struct system_profile *p;
	char err[512];
	unsigned long recl, unrecl, threads = 0, tables = 0;
	struct result *r;

	(void)state;
	assert_int_equal(system_profile_load("headless", &p, err, sizeof(err)), 0);
	system_profile_slab_pages(p, &recl, &unrecl);
	/* the measured machine's slab: tens of MiB, both kinds */
	assert_true(recl > 10000 && unrecl > 2000);
	for (unsigned i = 0; i < p->nr_daemon; i++) {
		unsigned long anon = pages_of(p->daemon[i].anon);
		unsigned long own = 1 + (anon + 511) / 512 + (pages_of(p->daemon[i].file) + 511) / 512;
		threads += p->daemon[i].threads;
		tables += pages_of(p->daemon[i].page_tables) > own ? pages_of(p->daemon[i].page_tables) : own;
	}
	r = run("headless", 5);

	/* at boot, before any process ran: the kernel's memory alone */
	assert_near(r->boot_slab_recl, (long)recl);
	assert_near(r->boot_slab_unrecl, (long)unrecl);
	assert_int_equal(r->boot_kstack_kb, (long)p->kernel_threads * 16);
	assert_int_equal(r->boot_pagetables, 0);
	/* slab pages went where the allocator puts them: reclaimable slab in
	 * reclaimable pageblocks, the rest in unmovable ones */
	assert_true(r->boot_census.blocks[MIGRATE_RECLAIMABLE] * 512 >= recl);
	assert_true(r->boot_census.blocks[MIGRATE_UNMOVABLE] * 512 >= unrecl);

	/* after the daemons' start: their stacks and page tables (VmPTE) */
	assert_int_equal(r->kstack_kb, (long)(p->kernel_threads + threads) * 16);
	assert_int_equal(r->pagetables, (long)tables);
	assert_near(r->slab_recl, (long)recl);
	assert_int_equal(metric(r, "system_daemons"), p->nr_daemon);
	assert_int_equal(metric(r, "system_daemon_failures"), 0);
	assert_int_equal(metric(r, "system_daemon_anon_pages"), pages_of(p->daemon[0].anon));
	assert_true(r->live_tasks == p->nr_daemon);
	system_profile_free(p);
}

/* a daemon that does everything a profile can ask */
static const char busy_profile[] =
	"[kernel]\n"
	"kernel_threads = 2\n"
	"[slab]\n"
	"kmalloc-256 = 256 16 1 100 160 unreclaimable\n"
	"[daemon.logger]\n"
	"anon = 4M\n"
	"file = 2M\n"
	"cache = 1M\n"
	"page_tables = 64K\n"
	"threads = 3\n"
	"interval = 1\n"
	"log = 12K\n"
	"churn = kmalloc-256:4, kmalloc-64:2\n"
	"gem = 2M\n"
	"gem_objects = 29\n"
	"gem_pinned = 256K\n"
	"gem_churn = 64K\n";

static void test_daemon_churn(void **state)
{
	char path[] = "/tmp/mmsim-system-XXXXXX.ini";
	int fd = mkstemps(path, 4);
	struct result *r;
	double wakeups;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, busy_profile, sizeof(busy_profile) - 1), (ssize_t)sizeof(busy_profile) - 1);
	close(fd);
	r = run(path, 10.5);
	unlink(path);

	/* it wakes once a second from a random phase: 10 or 11 times */
	wakeups = metric(r, "system_wakeups");
	assert_true(wakeups >= 10 && wakeups <= 11);
	assert_int_equal(metric(r, "system_churn_objects"), 6 * wakeups);
	/* 12 KiB a second: three pages a wake-up, four when it straddles */
	assert_true(metric(r, "system_log_pages_written") >= 3 * wakeups);
	assert_true(r->dirty_written >= 3 * (long)wakeups);
	assert_int_equal(metric(r, "system_daemon_gem_pages"), 512);
	/* an in-use object of 64 pages, 28 of 16 pages: one replaced a
	 * wake-up */
	assert_int_equal(metric(r, "system_gem_objects"), 29);
	assert_int_equal(metric(r, "system_gem_pinned_pages"), 64);
	assert_int_equal(metric(r, "system_gem_pages_reallocated"), 16 * wakeups);
	/* its binary and cached files are in the page cache, its log too;
	 * its binary is mapped */
	assert_true(r->file_pages >= 512 + 256 + 3);
	assert_int_equal(r->mapped, 512);
	/* three threads: two stacks beyond fork's */
	assert_int_equal(r->kstack_kb, (2 + 3) * 16);
	assert_int_equal(r->pagetables, 16);
	assert_int_equal(r->live_tasks, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headless_boot),
		cmocka_unit_test(test_daemon_churn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
