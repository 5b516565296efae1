/* scenario_pressure.c - whole machines under memory pressure, on the
 * virtual clock: kswapd, direct reclaim, swap, the OOM killer, refaults,
 * CPU sharing.  SimGrid runs once per process, so every simulation runs
 * in a child (engine_fork_run) and reports its counters through shared
 * memory.  Machines are small (256-512 MiB) so that the suite stays fast;
 * the invariant checker runs during every simulation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "mmsim/machine.h"
#include "simple.h"

struct result {
	double t;                       /* virtual seconds at the end */
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	long node_stat[NR_VM_NODE_STAT_ITEMS];
	unsigned long check_failures;
	unsigned long tasks_oom_killed;
	double utime_ns;
	unsigned long stalls, stalls_timed;     /* the host's stall calls; those the clock moved in */
	unsigned long kswapd_runs, kswapd_order0_runs;
};

enum kind { HOGS, READER, BURNERS };

struct scenario {
	const char *policy;
	const char *sw_key, *sw_value;  /* one policy switch, or NULL */
	bool compaction;
	uint64_t ram;
	unsigned long swap_pages;
	unsigned cpus;
	enum kind kind;
	unsigned nr;                    /* processes */
	unsigned long pages;            /* hog target, or file set size */
	unsigned passes;                /* reader passes */
	uint64_t seed;
	bool simgrid_sharing;           /* SimGrid's CPU model instead of the engine's heap */
	struct result *res;             /* shared with the parent */
};

/* the host's stall, watched: a stalled process spends its time before it
 * looks at the free lists again, and the clock moves meanwhile */
static const struct mm_host_ops *engine_ops;
static struct mm_host_ops watched_ops;
static struct result *stall_res;

static void watched_stall(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	double before = engine_now();

	engine_ops->stall(pgdat, ctx);
	stall_res->stalls++;
	if (engine_now() > before && ctx->kernel_done_ns == ctx->kernel_ns)
		stall_res->stalls_timed++;
}

static int child(void *arg)
{
	struct scenario *sc = arg;
	static struct pglist_data pgdat;
	static struct anon_hog hogs[8];
	static struct cpu_burner burners[8];
	static struct file_reader reader;
	static struct address_space *files[64];
	struct machine_desc md;
	struct mm_policy *policy;
	struct engine e;
	struct engine_config cfg;
	char err[256];
	int argc = 1;
	char *argv[] = { "scenario", NULL };

	machine_desc_defaults(&md);
	md.ram = sc->ram;
	md.cpus = sc->cpus;
	md.swap = (uint64_t)sc->swap_pages * PAGE_SIZE;
	md.sysctl.config_compaction = sc->compaction;
	md.check_every = 50000;
	if (mm_policy_create(sc->policy, &policy, err, sizeof(err)) ||
	    (sc->sw_key && mm_policy_set(policy, sc->sw_key, sc->sw_value, err, sizeof(err))) ||
	    mm_policy_validate(policy, err, sizeof(err)))
		return 11;
	if (machine_boot(&pgdat, &md, policy, err, sizeof(err)))
		return 12;
	engine_config_defaults(&cfg);
	cfg.cpus = sc->cpus;
	cfg.cpu_heap = !sc->simgrid_sharing;
	if (engine_init(&e, &pgdat, &cfg, &argc, argv, err, sizeof(err)))
		return 14;
	engine_ops = pgdat.host_ops;
	watched_ops = *engine_ops;
	watched_ops.stall = watched_stall;
	stall_res = sc->res;
	pgdat.host_ops = &watched_ops;
	switch (sc->kind) {
	case HOGS:
		for (unsigned i = 0; i < sc->nr; i++) {
			anon_hog_init(&hogs[i], sc->pages, 1000, 5000, 2.0, sc->seed, i);
			engine_spawn(&e, "hog", &anon_hog_ops, &hogs[i]);
		}
		break;
	case READER:
		for (unsigned i = 0; i < sc->nr; i++)
			files[i] = inode_create(&pgdat, sc->pages / sc->nr, false);
		file_reader_init(&reader, files, sc->nr, 256, sc->passes, 200);
		engine_spawn(&e, "reader", &file_reader_ops, &reader);
		break;
	case BURNERS:
		for (unsigned i = 0; i < sc->nr; i++) {
			cpu_burner_init(&burners[i], 1e9);
			engine_spawn(&e, "burner", &cpu_burner_ops, &burners[i]);
		}
		break;
	}
	sc->res->t = engine_run(&e, 0);
	sc->res->kswapd_runs = e.kswapd_runs;
	sc->res->kswapd_order0_runs = e.kswapd_order0_runs;
	memcpy(sc->res->vm_events, pgdat.vm_events, sizeof(pgdat.vm_events));
	memcpy(sc->res->node_stat, pgdat.vm_node_stat, sizeof(pgdat.vm_node_stat));
	sc->res->check_failures = check_pgdat(&pgdat, "scenario end");
	return 0;
}

static struct result *run(struct scenario sc)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	sc.res = r;
	assert_int_equal(engine_fork_run(child, &sc), 0);
	assert_int_equal(r->check_failures, 0);
	return r;
}

static void print_counts(const char *what, const struct result *r)
{
	fprintf(stderr, "%s: pgscan_kswapd %lu pgsteal_kswapd %lu pgscan_direct %lu pswpout %lu "
	        "allocstall_movable %lu compact_stall %lu compact_migrate_scanned %lu "
	        "compact_free_scanned %lu kcompactd_wake %lu oom_kill %lu kswapd runs %lu pageoutrun %lu\n",
	        what, r->vm_events[PGSCAN_KSWAPD], r->vm_events[PGSTEAL_KSWAPD], r->vm_events[PGSCAN_DIRECT],
	        r->vm_events[PSWPOUT], r->vm_events[ALLOCSTALL_MOVABLE], r->vm_events[COMPACTSTALL],
	        r->vm_events[COMPACTMIGRATE_SCANNED], r->vm_events[COMPACTFREE_SCANNED],
	        r->vm_events[KCOMPACTD_WAKE], r->vm_events[OOM_KILL], r->kswapd_runs, r->vm_events[PAGEOUTRUN]);
}

static struct scenario hogs(const char *policy, unsigned long swap_pages)
{
	/* two processes of 200 MiB each on a 256 MiB guest */
	return (struct scenario){ .policy = policy, .ram = 256ull << 20, .swap_pages = swap_pages,
	                          .cpus = 2, .kind = HOGS, .nr = 2, .pages = 51200, .seed = 1 };
}

/* growing anonymous memory past RAM: kswapd wakes and swaps, then
 * allocations stall in direct reclaim; with room in swap, nobody dies */
static void test_anon_past_ram_swaps(void **state)
{
	struct result *r = run(hogs("vanilla", 131072));
	(void)state;
	assert_true(r->vm_events[PAGEOUTRUN] > 0);
	assert_true(r->vm_events[PGSCAN_KSWAPD] > 0);
	assert_true(r->vm_events[PGSTEAL_KSWAPD] > 0);
	assert_true(r->vm_events[PSWPOUT] > 0);
	assert_true(r->vm_events[ALLOCSTALL_MOVABLE] > 0);
	assert_true(r->vm_events[PGSCAN_DIRECT] > 0);
	/* each direct reclaim (and compaction) stalled its process on the
	 * clock: the kernel time it ran up was spent there and then */
	assert_true(r->stalls > 0);
	assert_int_equal(r->stalls_timed, r->stalls);
	assert_true(r->stalls <= r->vm_events[ALLOCSTALL_MOVABLE] + r->vm_events[ALLOCSTALL_NORMAL] +
	                         r->vm_events[ALLOCSTALL_DMA32] + r->vm_events[ALLOCSTALL_DMA] +
	                         r->vm_events[COMPACTSTALL]);
	/* the hot sets come back from swap */
	assert_true(r->vm_events[PSWPIN] > 0);
	assert_int_equal(r->vm_events[OOM_KILL], 0);
	/* anon pages are freed only after their write: every page stolen
	 * from the anon list went to swap, not every written page is freed
	 * (some were faulted back from the swap cache) */
	assert_true(r->vm_events[PGSTEAL_ANON] > 0);
	assert_true(r->vm_events[PGSTEAL_ANON] <= r->vm_events[PSWPOUT]);
}

/* with swap exhausted, the OOM killer fires */
static void test_swap_exhausted_oom(void **state)
{
	struct result *r = run(hogs("vanilla", 2048));
	(void)state;
	assert_true(r->vm_events[PSWPOUT] >= 2048);
	assert_true(r->vm_events[OOM_KILL] >= 1);
}

/* reading a file set larger than RAM twice refaults on the second pass
 * only: the first pass finds no shadow entries */
static void test_file_refaults(void **state)
{
	struct scenario sc = { .policy = "vanilla", .ram = 256ull << 20, .cpus = 2, .kind = READER,
	                       .nr = 8, .pages = 96000, .passes = 1, .seed = 1 };
	struct result *r = run(sc);
	(void)state;
	assert_true(r->vm_events[PGSTEAL_FILE] > 0);
	assert_int_equal(r->node_stat[WORKINGSET_REFAULT_FILE], 0);
	sc.passes = 2;
	r = run(sc);
	assert_true(r->node_stat[WORKINGSET_REFAULT_FILE] > 0);
	/* no anon memory to speak of, no swap: reclaim is all file */
	assert_int_equal(r->vm_events[PSWPOUT], 0);
}

/* processor sharing, by the engine's heap (the default) and by SimGrid's
 * model: n CPU-bound processes of 1 s each on c cores each get min(1, c/n)
 * of a core, so all end at n/c s (1 s if n <= c); two on one core take
 * twice as long as on two, three on two cores one and a half */
static void test_cpu_sharing(void **state)
{
	(void)state;
	for (int simgrid = 0; simgrid <= 1; simgrid++) {
		struct scenario sc = { .policy = "vanilla", .ram = 256ull << 20, .cpus = 1, .kind = BURNERS,
		                       .nr = 2, .simgrid_sharing = simgrid };
		double t1, t2, t3;

		t1 = run(sc)->t;
		sc.cpus = 2;
		t2 = run(sc)->t;
		sc.nr = 3;
		t3 = run(sc)->t;
		print_message("%s: 2 on 1 core %.6f s, 2 on 2 %.6f s, 3 on 2 %.6f s\n",
		              simgrid ? "SimGrid's model" : "the heap", t1, t2, t3);
		assert_true(t1 > 1.9 && t1 < 2.2);
		assert_true(t2 > 0.95 && t2 < 1.1);
		assert_true(t1 / t2 > 1.9 && t1 / t2 < 2.1);
		assert_true(t3 / t2 > 1.45 && t3 / t2 < 1.55);
	}
}

/* the same seed gives the same counters */
static void test_same_seed_same_counters(void **state)
{
	struct result a, *r;
	(void)state;
	r = run(hogs("vanilla", 131072));
	a = *r;
	r = run(hogs("vanilla", 131072));
	assert_memory_equal(a.vm_events, r->vm_events, sizeof(a.vm_events));
	assert_memory_equal(a.node_stat, r->node_stat, sizeof(a.node_stat));
	assert_true(a.t == r->t);
}

/* hygiene measures watermarks against free pageblocks (RFC 22/26): with
 * kswapd balanced by the watermark alone, as in v6.2, it reclaims far
 * more than vanilla's to free whole blocks.  With RFC 20/26, kswapd
 * stops where compaction can go on and kcompactd takes over: kcompactd
 * is woken, and kswapd sleeps at the order it balanced for.  The invariant checker runs throughout. */
static void test_policies_reclaim_differently(void **state)
{
	struct scenario v = hogs("vanilla", 131072), h = hogs("hygiene", 131072);
	struct result rv, rh, rh20;
	(void)state;
	v.compaction = h.compaction = true;
	rv = *run(v);
	print_counts("vanilla, CONFIG_COMPACTION", &rv);
	/* vanilla: order-0 faults past RAM are served by kswapd and direct
	 * reclaim, never by direct compaction (__alloc_pages_direct_compact
	 * is for order > 0); kswapd steals what it scans at most */
	assert_true(rv.vm_events[PGSCAN_KSWAPD] > 0);
	assert_true(rv.vm_events[PGSTEAL_KSWAPD] > 0);
	assert_true(rv.vm_events[PGSTEAL_KSWAPD] <= rv.vm_events[PGSCAN_KSWAPD]);
	assert_true(rv.vm_events[PGSCAN_DIRECT] > 0);
	assert_true(rv.vm_events[PSWPOUT] > 0);
	assert_int_equal(rv.vm_events[COMPACTSTALL], 0);
	assert_int_equal(rv.vm_events[PAGEOUTRUN], rv.kswapd_runs);
	h.sw_key = "kswapd_compaction_suitable";
	h.sw_value = "no";
	rh = *run(h);
	assert_int_equal(rv.vm_events[OOM_KILL], 0);
	assert_int_equal(rh.vm_events[OOM_KILL], 0);
	assert_true(rh.vm_events[PGSCAN_KSWAPD] > rv.vm_events[PGSCAN_KSWAPD]);
	h.sw_value = "yes";
	rh20 = *run(h);
	assert_int_equal(rh20.vm_events[OOM_KILL], 0);
	/* (how much kswapd scans with RFC 20/26 against without it is not
	 * asserted: it goes either way by seed, 4 % more to 19 % less over
	 * seeds 1-4 with reclaim at one instant, and the stepped direct
	 * reclaim, which competes with kswapd, moves it again; the mechanism
	 * is what follows) */
	assert_true(rh20.vm_events[KCOMPACTD_WAKE] > 0);
	/* every wake asks for pageblock order (RFC 22/26), and with patch
	 * 20 kswapd tries to sleep at the order it balanced for; it runs at
	 * order 0 only when it could not sleep after a run and no new wake
	 * came (kswapd_high_wmark_hit_quickly).  v6.2's loop looked at the
	 * request again after every run, found 0, and reclaimed toward free
	 * blocks at order 0.  (Fewer than a quarter of the runs were at
	 * order 0 while the block devices let a request issued ahead of the
	 * clock hold the queue for everyone: the hogs waited seconds for
	 * phantom queues and kswapd slept between runs.  With a causal
	 * queue the hogs fault faster, kswapd fails to sleep in 60-75 % of
	 * its runs in both variants, and 17-47 % of the runs are at order 0
	 * in both, seeds 1-5: the share no longer tells them apart.) */
	fprintf(stderr, "kswapd runs (order 0, failed sleeps): v6.2 loop %lu (%lu, %lu), RFC 20/26 %lu (%lu, %lu)\n",
	        rh.kswapd_runs, rh.kswapd_order0_runs, rh.vm_events[KSWAPD_HIGH_WMARK_HIT_QUICKLY],
	        rh20.kswapd_runs, rh20.kswapd_order0_runs, rh20.vm_events[KSWAPD_HIGH_WMARK_HIT_QUICKLY]);
	assert_true(rh20.kswapd_runs > 0);
	assert_true(rh20.kswapd_order0_runs <= rh20.vm_events[KSWAPD_HIGH_WMARK_HIT_QUICKLY]);
	/* without compaction (the RFC's !CONFIG_COMPACTION form) hygiene
	 * reclaims like vanilla: watermarks on all free pages */
	v.compaction = h.compaction = false;
	{
		struct result rvc = rv;        /* vanilla with CONFIG_COMPACTION */
		rv = *run(v);
		rh = *run(h);
		print_counts("vanilla, !CONFIG_COMPACTION", &rv);
		print_counts("hygiene, !CONFIG_COMPACTION", &rh);
		/* !CONFIG_COMPACTION: nothing compacts, kcompactd is never woken */
		for (int i = 0; i < 2; i++) {
			const struct result *r = i ? &rh : &rv;
			assert_int_equal(r->vm_events[OOM_KILL], 0);
			assert_true(r->vm_events[PGSCAN_KSWAPD] > 0);
			assert_true(r->vm_events[PGSTEAL_KSWAPD] <= r->vm_events[PGSCAN_KSWAPD]);
			assert_int_equal(r->vm_events[COMPACTSTALL], 0);
			assert_int_equal(r->vm_events[COMPACTMIGRATE_SCANNED], 0);
			assert_int_equal(r->vm_events[COMPACTFREE_SCANNED], 0);
			assert_int_equal(r->vm_events[KCOMPACTD_WAKE], 0);
		}
		/* vanilla's reclaim of an order-0 load does not depend on
		 * CONFIG_COMPACTION: same seed, same reclaim counters (today
		 * pgscan_kswapd 211439, pswpout 76313 both ways; if a change
		 * makes kcompactd move pages here, this is where it shows) */
		assert_int_equal(rv.vm_events[PGSCAN_KSWAPD], rvc.vm_events[PGSCAN_KSWAPD]);
		assert_int_equal(rv.vm_events[PGSTEAL_KSWAPD], rvc.vm_events[PGSTEAL_KSWAPD]);
		assert_int_equal(rv.vm_events[PGSCAN_DIRECT], rvc.vm_events[PGSCAN_DIRECT]);
		assert_int_equal(rv.vm_events[PSWPOUT], rvc.vm_events[PSWPOUT]);
		assert_int_equal(rv.vm_events[ALLOCSTALL_MOVABLE], rvc.vm_events[ALLOCSTALL_MOVABLE]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anon_past_ram_swaps),
		cmocka_unit_test(test_swap_exhausted_oom),
		cmocka_unit_test(test_file_refaults),
		cmocka_unit_test(test_cpu_sharing),
		cmocka_unit_test(test_same_seed_same_counters),
		cmocka_unit_test(test_policies_reclaim_differently),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
