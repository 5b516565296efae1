/* scenario_stepped.c - direct reclaim and compaction that share the
 * machine (sim/mm/sched.c): they yield at v6.2's cond_resched() points,
 * and other actors run meanwhile.  Asserts:
 *   (a) an async direct compaction that trylocks while another actor's
 *       compaction holds the zone's locks ends COMPACT_CONTENDED;
 *   (b) between two steps of a direct reclaim another actor allocates:
 *       the free pages the reclaimer sees change across its yields;
 *   (c) too_many_isolated(): a direct reclaimer throttles (and scans no
 *       file page) while other tasks hold more isolated file pages than
 *       an eighth of the inactive file list; async compaction gives up
 *       with COMPACT_CONTENDED when more than half the LRU is isolated;
 *   (e) need_resched(): true when more actors are runnable than cores and
 *       the caller has run its CFS slice (6 ms with 4 runnable on 2
 *       cores), false otherwise; async direct compaction tries no further
 *       zone once it is true;
 *   (d) the invariant checker passes across the yields of a pressure
 *       scenario (a kernel build beside a THP faulter, checked every
 *       2000 operations, a yield every 2 us of pending time).
 * The engine tests run in a child each (engine_fork_run) and report
 * through shared memory. */
#include "../unit/testlib.h"
#include <sys/mman.h>
#include "mmsim/engine.h"
#include "kbuild.h"
#include "simple.h"
#include "workload.h"

#define BLOCKS 16

/* ------------------------------------------------------------------ */
/* a fragmented zone (as test_compaction.c builds it, without asserts:
 * this runs in the child) */

struct fragmented {
	struct machine *m;
	struct mm_struct *mm;
	unsigned long nr;
};

static int build_fragmented(struct fragmented *f, unsigned cpus)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32(BLOCKS);
	struct pglist_data *pgdat;
	struct zone *zone;

	memset(f, 0, sizeof(*f));
	f->m = tl_boot("vanilla", NULL, &l, cpus, &s);
	pgdat = &f->m->pgdat;
	zone = &pgdat->node_zones[ZONE_DMA32];
	pgdat->debug_check_interval = 0;
	f->mm = mm_alloc(pgdat, &f->m->ctx);
	if (!f->mm)
		return 1;
	f->nr = (unsigned long)zone_page_state(zone, NR_FREE_PAGES) - 4 * pageblock_nr_pages;
	if (mm_mmap(f->mm, f->nr) != 0 || mm_access(pgdat, &f->m->ctx, f->mm, 0, f->nr, true))
		return 2;
	drain_all_pages(pgdat);
	for (int t = 0; t < 2; t++)
		for (int order = MAX_ORDER - 1; order >= 0; order--)
			while (alloc_pages(pgdat, &f->m->ctx,
			                   GFP_NOWAIT | __GFP_NOWARN | __GFP_MEMALLOC | (t ? 0 : __GFP_MOVABLE),
			                   (unsigned)order))
				;
	drain_all_pages(pgdat);
	for (unsigned long v = 0; v < f->nr; v++)
		if (((uint32_t)(v * 2654435761u) >> 12) % 4)
			mm_unmap(pgdat, &f->m->ctx, f->mm, v, 1);
	drain_all_pages(pgdat);
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		if (zone->free_area[o].nr_free)
			return 3;
	return check_pgdat(pgdat, "fragmented") ? 4 : 0;
}

/* a long-term pin on the last mapped page of each block: no block can
 * be freed whole, so neither compaction captures one; async compaction
 * isolates the pages before the pin, then gives the block up */
static void pin_last_per_block(struct fragmented *f)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	unsigned long last = PFN_NONE;

	for (unsigned long v = 0; v < f->mm->nr_vpages; v++) {
		uint32_t e = f->mm->pte[v];
		if (!entry_present(e))
			continue;
		if (last != PFN_NONE && entry_pfn(e) >> pageblock_order != last >> pageblock_order)
			SetPageFlag(&pgdat->mem_map[last], PG_pinned);
		last = entry_pfn(e);
	}
	if (last != PFN_NONE)
		SetPageFlag(&pgdat->mem_map[last], PG_pinned);
}

static enum compact_result direct_compact(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                          enum compact_priority prio)
{
	struct alloc_context ac = { .highest_zoneidx = (enum zone_type)gfp_zone(GFP_TRANSHUGE),
	                            .migratetype = MIGRATE_MOVABLE };
	struct capture_control capc = { .order = pageblock_order, .compact_order = pageblock_order,
	                                .migratetype = MIGRATE_MOVABLE, .page = PFN_NONE };
	struct mm_ctx *saved = mm_current();
	enum compact_result r;

	ctx->capture_control = &capc;
	mm_set_current(ctx);
	r = try_to_compact_pages(pgdat, ctx, GFP_TRANSHUGE, pageblock_order, ALLOC_WMARK_MIN, &ac, prio, &capc);
	mm_set_current(saved);
	ctx->capture_control = NULL;
	return r;
}

/* ------------------------------------------------------------------ */
/* (a) contention */

struct contend_result {
	int status;
	int holder_result, async_result;
	unsigned long polls;            /* quanta the async task waited for a holder */
	unsigned long yields, contended;
	int async_yielded;              /* the async run spent time at a yield */
};

static struct {
	struct fragmented f;
	struct contend_result *r;
	bool holder_done;
} ct;

/* a sync direct compaction of the whole zone: it yields often */
static double holder_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	(void)t, (void)arg;
	if (ct.holder_done)
		return -1;
	ct.r->holder_result = direct_compact(&ct.f.m->pgdat, ctx, COMPACT_PRIO_SYNC_LIGHT);
	ct.holder_done = true;
	return 0;
}

/* waits (1 us naps) until the holder's work holds a lock, then runs an
 * async direct compaction */
static double async_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct pglist_data *pgdat = &ct.f.m->pgdat;
	struct zone *zone = &pgdat->node_zones[ZONE_DMA32];
	unsigned long yields;

	(void)arg;
	if (ct.r->async_result >= 0 || ct.holder_done)
		return -1;
	if (!zone->lock_holders && !pgdat->lru_lock_holders) {
		ct.r->polls++;
		t->sleep = 1e-6;
		return 0;
	}
	yields = pgdat->sched_stats.yields;
	ct.r->async_result = direct_compact(pgdat, ctx, COMPACT_PRIO_ASYNC);
	ct.r->async_yielded = ctx->kernel_done_ns > 0 || pgdat->sched_stats.yields > yields;
	return -1;
}

static const struct task_ops holder_ops = { .quantum = holder_quantum };
static const struct task_ops async_ops = { .quantum = async_quantum };

static int contend_child(void *arg)
{
	struct engine e;
	struct engine_config cfg;
	char err[256];
	int rc;

	ct.r = arg;
	ct.r->async_result = -1;
	if ((rc = build_fragmented(&ct.f, 2)))
		return rc;
	pin_last_per_block(&ct.f);
	engine_config_defaults(&cfg);
	cfg.cpus = 2;
	cfg.sample_interval = 0;
	cfg.dirty_writeback_interval = 0;
	cfg.resched_ns = 2000;          /* a yield every 2 us of work */
	if (engine_init(&e, &ct.f.m->pgdat, &cfg, NULL, NULL, err, sizeof(err)))
		return 20;
	engine_spawn(&e, "holder", &holder_ops, NULL);
	engine_spawn(&e, "async", &async_ops, NULL);
	engine_run(&e, 0);
	ct.r->yields = ct.f.m->pgdat.sched_stats.yields;
	ct.r->contended = ct.f.m->pgdat.sched_stats.compact_contended;
	return check_pgdat(&ct.f.m->pgdat, "contend end") ? 21 : 0;
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	memset(p, 0, size);
	return p;
}

static void test_async_compaction_contended(void **state)
{
	struct contend_result *r = shared(sizeof(*r));
	(void)state;
	assert_int_equal(engine_fork_run(contend_child, r), 0);
	fprintf(stderr, "holder %d async %d after %lu polls, yields %lu, contended %lu\n", r->holder_result,
	        r->async_result, r->polls, r->yields, r->contended);
	/* the holder's compaction yielded, the async one ran while a lock
	 * was held and ended contended; the holder (sync) scanned the zone */
	assert_true(r->yields > 2);
	assert_int_equal(r->async_result, COMPACT_CONTENDED);
	assert_int_equal(r->contended, 1);
	assert_int_equal(r->holder_result, COMPACT_COMPLETE);
	munmap(r, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* (b) a direct reclaim's steps, with another actor allocating between */

struct reclaim_result {
	unsigned long reclaimed;
	unsigned long yields;           /* the reclaimer's resched() calls */
	unsigned long changed;          /* of them, after which the free pages differed */
	unsigned long allocs_during;    /* the allocator's allocations inside the reclaim */
};

static struct {
	struct machine *m;
	struct reclaim_result *r;
	struct mm_ctx *reclaimer;
	const struct mm_host_ops *engine_ops;   /* the engine's, and its own with resched watched */
	struct mm_host_ops watched_ops;
	bool in_reclaim, done;
} rc;

static long free_pages(void)
{
	return zone_page_state(&rc.m->pgdat.node_zones[ZONE_DMA32], NR_FREE_PAGES);
}

/* the host's resched, watched: the free pages before and after the
 * reclaimer's wait */
static void watched_resched(struct pglist_data *pgdat, struct mm_ctx *ctx, double ns)
{
	long before = free_pages();

	rc.engine_ops->resched(pgdat, ctx, ns);
	if (ctx == rc.reclaimer) {
		rc.r->yields++;
		rc.r->changed += free_pages() != before;
	}
}

static double reclaimer_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct mm_ctx *saved = mm_current();

	(void)t, (void)arg;
	if (rc.done)
		return -1;
	rc.reclaimer = ctx;
	rc.in_reclaim = true;
	mm_set_current(ctx);
	rc.r->reclaimed = try_to_free_pages(&rc.m->pgdat, ctx, 0, GFP_KERNEL, ZONE_DMA32);
	mm_set_current(saved);
	rc.in_reclaim = false;
	rc.done = true;
	return 0;
}

/* order-4 allocations (no pcp list: they leave the buddy lists at once),
 * one per 100 ns, until the reclaim is over (at most 50: 800 pages of
 * the 2000 free) */
static double allocator_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	static unsigned n;

	(void)t, (void)arg;
	if (rc.done || ++n > 50)
		return -1;
	if (alloc_pages(&rc.m->pgdat, ctx, GFP_KERNEL, 4) && rc.in_reclaim)
		rc.r->allocs_during++;
	return 100;
}

static const struct task_ops reclaimer_ops = { .quantum = reclaimer_quantum };
static const struct task_ops allocator_ops = { .quantum = allocator_quantum };

static int reclaim_child(void *arg)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32(BLOCKS);
	struct engine e;
	struct engine_config cfg;
	struct address_space *as;
	char err[256];

	rc.r = arg;
	rc.m = tl_boot("vanilla", NULL, &l, 2, &s);
	rc.m->pgdat.debug_check_interval = 0;
	/* clean page cache over 6000 of the 8192 pages */
	as = inode_create(&rc.m->pgdat, 6000, false);
	if (!as || filemap_read(&rc.m->pgdat, &rc.m->ctx, as, 0, 6000))
		return 1;
	engine_config_defaults(&cfg);
	cfg.cpus = 2;
	cfg.sample_interval = 0;
	cfg.dirty_writeback_interval = 0;
	cfg.resched_ns = 1;             /* every cond_resched() point yields */
	if (engine_init(&e, &rc.m->pgdat, &cfg, NULL, NULL, err, sizeof(err)))
		return 20;
	rc.engine_ops = rc.m->pgdat.host_ops;
	rc.watched_ops = *rc.engine_ops;
	rc.watched_ops.resched = watched_resched;
	rc.m->pgdat.host_ops = &rc.watched_ops;
	engine_spawn(&e, "reclaimer", &reclaimer_ops, NULL);
	engine_spawn(&e, "allocator", &allocator_ops, NULL);
	engine_run(&e, 0);
	return check_pgdat(&rc.m->pgdat, "reclaim end") ? 21 : 0;
}

static void test_direct_reclaim_steps_see_others_allocate(void **state)
{
	struct reclaim_result *r = shared(sizeof(*r));
	(void)state;
	assert_int_equal(engine_fork_run(reclaim_child, r), 0);
	fprintf(stderr, "reclaimed %lu, %lu yields, free pages changed across %lu, %lu allocations during\n",
	        r->reclaimed, r->yields, r->changed, r->allocs_during);
	assert_true(r->reclaimed >= 32);
	assert_true(r->yields >= 2);
	assert_true(r->changed >= 1);
	assert_true(r->allocs_during >= 1);
	munmap(r, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* (c) too_many_isolated(), without an engine: the isolated pages are
 * another task's batch, put in the node's counter by hand */

static unsigned long throttles;
static double throttle_timeout;

static void fake_throttle(struct pglist_data *pgdat, struct mm_ctx *ctx, double timeout)
{
	(void)pgdat, (void)ctx;
	throttles++;
	throttle_timeout = timeout;
}

static const struct mm_host_ops fake_throttle_host = { .throttle = fake_throttle };

static void test_too_many_isolated_throttles_reclaim(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_ctx ctx = { .cpu = 0, .stalls = true };
	struct address_space *as = inode_create(pgdat, 6000, false);
	unsigned long inactive, scanned;
	(void)state;

	assert_non_null(as);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 6000), 0);
	pgdat->host_ops = &fake_throttle_host;
	inactive = lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	assert_true(inactive > 1000);
	/* others hold one more isolated file page than an eighth of the
	 * inactive list (GFP_KERNEL may do IO and FS) */
	mod_node_page_state(pgdat, NR_ISOLATED_FILE, (long)(inactive >> 3) + 1);
	mm_set_current(&ctx);
	scanned = pgdat->vm_events[PGSCAN_FILE];
	try_to_free_pages(pgdat, &ctx, 0, GFP_KERNEL, ZONE_DMA32);
	assert_true(throttles >= 1);
	assert_true(throttle_timeout == 0.02);           /* HZ/50 */
	assert_int_equal(pgdat->sched_stats.throttled_isolated, throttles);
	assert_int_equal(pgdat->vm_events[PGSCAN_FILE], scanned);
	/* once they are put back: no throttle, and the file list is scanned */
	mod_node_page_state(pgdat, NR_ISOLATED_FILE, -(long)(inactive >> 3) - 1);
	throttles = 0;
	try_to_free_pages(pgdat, &ctx, 0, GFP_KERNEL, ZONE_DMA32);
	mm_set_current(NULL);
	assert_int_equal(throttles, 0);
	assert_true(pgdat->vm_events[PGSCAN_FILE] > scanned);
	tl_check(m);
}

static void test_too_many_isolated_aborts_async_compaction(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	struct mm_ctx ctx = { .cpu = 0 };
	unsigned long lru = 0;
	(void)state;

	assert_int_equal(build_fragmented(&f, 1), 0);
	pgdat = &f.m->pgdat;
	for (int l = 0; l < LRU_UNEVICTABLE; l++)
		lru += lruvec_lru_size(pgdat, (enum lru_list)l);
	mod_node_page_state(pgdat, NR_ISOLATED_ANON, (long)(lru / 2) + 1);
	assert_int_equal(direct_compact(pgdat, &ctx, COMPACT_PRIO_ASYNC), COMPACT_CONTENDED);
	assert_int_equal(pgdat->vm_events[COMPACTISOLATED], 0);
	/* half of the LRU isolated is not too many */
	mod_node_page_state(pgdat, NR_ISOLATED_ANON, -1);
	assert_true(direct_compact(pgdat, &ctx, COMPACT_PRIO_ASYNC) != COMPACT_CONTENDED);
	assert_true(pgdat->vm_events[COMPACTISOLATED] > 0);
	mod_node_page_state(pgdat, NR_ISOLATED_ANON, -(long)(lru / 2));
	tl_check(f.m);
}

/* ------------------------------------------------------------------ */
/* (d) the invariant checker across yields, under pressure */

struct pressure_result {
	char err[256];
	unsigned long yields, contended, compact_stalls, direct_scanned;
	unsigned long check_failures;
};

static int pressure_child(void *arg)
{
	static const char *const build[] = { "tree", "synthetic", "scale", "0.02", "jobs", "8", NULL };
	struct pressure_result *r = arg;
	static struct pglist_data pgdat;
	static struct workload_set set;
	struct workload *kb, *faulter;
	struct mm_layout layout;
	struct vm_sysctl sysctl;
	struct mm_policy *policy;
	struct engine e;
	struct engine_config cfg;

	if (mm_layout_qemu(1ull << 30, 9542, &layout, r->err, sizeof(r->err)))
		return 10;
	vm_sysctl_defaults(&sysctl);
	if (mm_policy_create("vanilla", &policy, r->err, sizeof(r->err)) ||
	    mm_policy_validate(policy, r->err, sizeof(r->err)))
		return 11;
	if (pgdat_init(&pgdat, &layout, 2, &sysctl, policy, r->err, sizeof(r->err)))
		return 12;
	if (swap_setup(&pgdat, 131072, 100e-6, 1e9, r->err, sizeof(r->err)))
		return 13;
	pgdat.debug_check_interval = 2000;      /* check_pgdat_or_die() */
	engine_config_defaults(&cfg);
	cfg.cpus = 2;
	cfg.sample_interval = 0;
	cfg.resched_ns = 2000;
	if (engine_init(&e, &pgdat, &cfg, NULL, NULL, r->err, sizeof(r->err)))
		return 14;
	if (workload_create("kbuild", &kb, r->err, sizeof(r->err)))
		return 15;
	for (const char *const *p = build; *p; p += 2)
		if (workload_set_param(kb, p[0], p[1], r->err, sizeof(r->err)))
			return 16;
	if (workload_validate(kb, r->err, sizeof(r->err)))
		return 17;
	workload_set_add(&set, kb);
	if (workload_create("thp_faulter", &faulter, r->err, sizeof(r->err)) ||
	    workload_set_param(faulter, "region", "512M", r->err, sizeof(r->err)) ||
	    workload_validate(faulter, r->err, sizeof(r->err)))
		return 18;
	workload_set_add(&set, faulter);
	if (workload_set_start(&set, &e, &pgdat, 1, r->err, sizeof(r->err)))
		return 19;
	engine_run(&e, 0);
	r->yields = pgdat.sched_stats.yields;
	r->contended = pgdat.sched_stats.compact_contended;
	r->compact_stalls = pgdat.vm_events[COMPACTSTALL];
	r->direct_scanned = pgdat.vm_events[PGSCAN_DIRECT];
	r->check_failures = check_pgdat(&pgdat, "scenario end");
	return 0;
}

static void test_invariants_hold_across_yields(void **state)
{
	struct pressure_result *r = shared(sizeof(*r));
	int status;
	(void)state;
	status = engine_fork_run(pressure_child, r);
	if (status)
		fprintf(stderr, "child failed (%d): %s\n", status, r->err);
	assert_int_equal(status, 0);
	fprintf(stderr, "yields %lu, contended %lu, compact_stall %lu, pgscan_direct %lu\n", r->yields,
	        r->contended, r->compact_stalls, r->direct_scanned);
	assert_true(r->yields > 100);
	assert_true(r->compact_stalls > 0);
	assert_int_equal(r->check_failures, 0);
	munmap(r, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* (e) need_resched() */

struct resched_result {
	int answers[4];         /* 4 runnable, 7 ms; 4 runnable, 5 ms; 2 runnable, 7 ms; idle, 7 ms */
};

static struct {
	struct machine *m;
	struct resched_result *r;
	int probe;
	bool slept;
} nr;

/* at t = 0.1013 s (the burners are inside their quanta), ask with 7 ms
 * and 5 ms of kernel time run in this quantum */
static double probe_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	(void)arg;
	if (!nr.slept) {
		nr.slept = true;
		t->sleep = 0.1013;
		return 0;
	}
	ctx->kernel_ns = 7e6;
	nr.r->answers[nr.probe] = need_resched(&nr.m->pgdat, ctx);
	if (nr.probe == 0) {
		ctx->kernel_ns = 5e6;
		nr.r->answers[1] = need_resched(&nr.m->pgdat, ctx);
	}
	ctx->kernel_ns = 0;
	return -1;
}

static const struct task_ops probe_ops = { .quantum = probe_quantum };

static int resched_child(void *arg)
{
	static struct cpu_burner burners[3];
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32(BLOCKS);
	struct engine e;
	struct engine_config cfg;
	char err[256];
	int burn = nr.probe == 0 ? 3 : nr.probe == 2 ? 1 : 0;

	nr.r = arg;
	nr.m = tl_boot("vanilla", NULL, &l, 2, &s);
	nr.m->pgdat.debug_check_interval = 0;
	engine_config_defaults(&cfg);
	cfg.cpus = 2;
	cfg.sample_interval = 0;
	cfg.dirty_writeback_interval = 0;
	if (engine_init(&e, &nr.m->pgdat, &cfg, NULL, NULL, err, sizeof(err)))
		return 20;
	for (int i = 0; i < burn; i++) {
		cpu_burner_init(&burners[i], 0.5e9);
		engine_spawn(&e, "burner", &cpu_burner_ops, &burners[i]);
	}
	engine_spawn(&e, "probe", &probe_ops, NULL);
	engine_run(&e, 0);
	return 0;
}

static void test_need_resched_rule(void **state)
{
	struct resched_result *r = shared(sizeof(*r));
	(void)state;
	for (int i = 0; i < 4; i++)
		r->answers[i] = -1;
	nr.probe = 0;           /* three burners and the probe on two cores */
	assert_int_equal(engine_fork_run(resched_child, r), 0);
	nr.probe = 2;           /* one burner and the probe */
	assert_int_equal(engine_fork_run(resched_child, r), 0);
	nr.probe = 3;           /* the probe alone */
	assert_int_equal(engine_fork_run(resched_child, r), 0);
	assert_int_equal(r->answers[0], 1);     /* slice: 12 ms / 2 per CPU = 6 ms < 7 ms */
	assert_int_equal(r->answers[1], 0);     /* 5 ms: within the slice */
	assert_int_equal(r->answers[2], 0);     /* nobody waits for a CPU */
	assert_int_equal(r->answers[3], 0);
	munmap(r, sizeof(*r));
}

static bool always_resched(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	(void)pgdat, (void)ctx;
	return true;
}
static const struct mm_host_ops always_resched_host = { .need_resched = always_resched };

/* async compaction that finds need_resched() set tries no further zone:
 * Normal (fragmented like DMA32 by the same process, its pages pinned so
 * that it fails) is compacted, DMA32 is not considered */
static void test_need_resched_stops_async_zonelist(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32_normal(BLOCKS, BLOCKS);
	struct machine *m = tl_boot("vanilla", NULL, &l, 1, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_ctx ctx = { .cpu = 0, .stalls = true };
	struct mm_struct *mm;
	unsigned long nr_pages = (unsigned long)(zone_page_state(tl_zone(m, ZONE_NORMAL), NR_FREE_PAGES) +
	                                         zone_page_state(tl_zone(m, ZONE_DMA32), NR_FREE_PAGES)) -
	                         8 * pageblock_nr_pages;
	unsigned considered;
	(void)state;

	pgdat->debug_check_interval = 0;
	mm = mm_alloc(pgdat, &m->ctx);
	assert_non_null(mm);
	assert_int_equal(mm_mmap(mm, nr_pages), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, mm, 0, nr_pages, true), 0);
	for (unsigned long v = 0; v < nr_pages; v++)
		if (((uint32_t)(v * 2654435761u) >> 12) % 4)
			mm_unmap(pgdat, &m->ctx, mm, v, 1);
	drain_all_pages(pgdat);
	/* Normal's pages pinned: its compaction cannot succeed, and the
	 * zonelist walk would go on to DMA32 */
	for (unsigned long v = 0; v < nr_pages; v++) {
		uint32_t e = mm->pte[v];
		if (entry_present(e) && zone_spans_pfn(tl_zone(m, ZONE_NORMAL), entry_pfn(e)))
			SetPageFlag(&pgdat->mem_map[entry_pfn(e)], PG_pinned);
	}
	/* deferral counts every consideration of a zone */
	tl_zone(m, ZONE_DMA32)->compact_order_failed = 0;
	tl_zone(m, ZONE_DMA32)->compact_defer_shift = 1;
	considered = tl_zone(m, ZONE_DMA32)->compact_considered;
	pgdat->host_ops = &always_resched_host;
	direct_compact(pgdat, &ctx, COMPACT_PRIO_ASYNC);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->compact_considered, considered);
	/* without it, DMA32 is considered too */
	pgdat->host_ops = NULL;
	direct_compact(pgdat, &ctx, COMPACT_PRIO_ASYNC);
	assert_true(tl_zone(m, ZONE_DMA32)->compact_considered != considered);
	tl_check(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_async_compaction_contended),
		cmocka_unit_test(test_direct_reclaim_steps_see_others_allocate),
		cmocka_unit_test_teardown(test_too_many_isolated_throttles_reclaim, tl_teardown),
		cmocka_unit_test_teardown(test_too_many_isolated_aborts_async_compaction, tl_teardown),
		cmocka_unit_test(test_need_resched_rule),
		cmocka_unit_test_teardown(test_need_resched_stops_async_zonelist, tl_teardown),
		cmocka_unit_test(test_invariants_hold_across_yields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
