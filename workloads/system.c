/* system.c - the base system of a booted machine: the kernel's own memory
 * and the daemons, from a profile (system_profile.h, configs/system/).
 *
 * A scenario's `[system] profile = NAME` puts this workload first, so that
 * its start() runs before any other workload's: at t = 0, before the
 * measured window's first event, it allocates the kernel memory through
 * the model's own paths:
 *
 *   - every [slab] cache is created with its measured geometry
 *     (kmem_cache_create(): object size, objects per slab, slab order,
 *     SLAB_RECLAIM_ACCOUNT) and gets NUM_OBJS objects through
 *     kmem_cache_alloc(), so its slab pages are what allocate_slab() takes
 *     from the buddy allocator, in the pageblocks the allocator chooses;
 *     then NUM_OBJS - ACTIVE_OBJS of them, spread evenly, are freed, so
 *     that the slabs are as full as the measurement found them.  The
 *     caches are filled together, in 64 rounds, on the CPUs in turn, as a
 *     boot's allocations interleave; dentries and ext4 inodes join the
 *     superblock shrinker's LRU, so reclaim can free them;
 *   - kernel threads' 16 KiB stacks (nr_kernel_stack), vmalloc and
 *     per-cpu pages, and kmalloc_large's (order 2), in the same rounds
 *     (kernel_pages.h).
 *
 * Then each [daemon.NAME] is a process: its first quanta fault its
 * anonymous memory (page tables come with the faults), allocate the stacks
 * of its other threads and the page tables beyond those its areas make
 * (`page_tables`, its VmPTE), map its binary and libraries (`file`, one
 * file mapped VM_READ | VM_EXEC with mm_mmap_file() and faulted in: mapped
 * page cache) and read the files it keeps cached (`cache`).  Both files
 * are read into the page cache at boot, in start(), before the measured
 * window opens, so the mapping faults are minor ones.  Then it
 * sleeps and wakes every `interval` seconds (the first wake-up at a random
 * phase, from the run's seed): it uses `touch` of its anonymous memory and
 * of its mapped binary (the ptes' accessed bits), replaces its GPU buffers
 * at `gem_churn` bytes per wake-up (a whole object, the oldest the
 * shrinker may release, once as many bytes have accrued: freed, and a new
 * one of its size made and its pages got), appends `log` bytes per second of its run to its log file
 * (dirty page cache the flusher writes back; the file wraps at `log_file`,
 * as a rotated log), frees the slab objects its last wake-up allocated and
 * allocates new ones (`churn`), and runs `cpu` seconds.
 *
 * GPU buffers (`gem`, `gem_objects`, `gem_pinned`) are i915 GEM objects
 * (i915_gem.h): shmem pages, GFP_HIGHUSER | __GFP_RECLAIMABLE, made at the
 * daemon's start and holding their pages (unevictable, pinned).  One
 * object of `gem_pinned` bytes is in use (the shrinker passes it over);
 * the rest of `gem` is split evenly among the other `gem_objects` - 1, which
 * i915's shrinker releases to the LRU under pressure, for reclaim to swap
 * out.  A released object stays released until it is replaced.  Daemons stop when
 * the measured workloads have finished (a background workload); the
 * kernel memory stays until the machine is torn down.
 *
 * Parameter: profile (a name, configs/system/NAME.ini, or a path; "none"
 * does nothing).  The scenario sets it from [system] profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "mmsim/i915_gem.h"
#include "mmsim/kernel_pages.h"
#include "mmsim/slab.h"
#include "system_profile.h"
#include "workload.h"

#define BOOT_ROUNDS   64
#define FAULT_CHUNK   4096ul            /* pages a daemon faults per quantum at its start */
#define OWNER_BOOT    UINT32_MAX        /* the owner of boot objects: no file of the model */
/* kmalloc_large: the sizes are not measured; 16 KiB (order 2) stands for
 * them (an estimate: the kmalloc()s of 8-16 KiB buffers are the common ones) */
#define KMALLOC_LARGE_ORDER 2
#define POLL_SECONDS  1.0               /* a sleeping daemon looks at the stop flag this often */

struct sys_kpage {
	struct page *page;
	enum kernel_page_kind kind;
};

struct sys_proc {
	struct system *sys;
	const struct sys_daemon *d;
	struct task *task;
	bool booted, failed;
	unsigned long anon_pages, faulted, base;
	struct address_space *exe, *cache, *log;
	unsigned long exe_vpage;        /* where its file is mapped */
	double log_carry;               /* bytes of log not yet written */
	unsigned long log_pos;          /* byte offset in the log file */
	struct sys_kpage *kpages;
	unsigned long nr_kpages;
	struct drm_i915_gem_object **gem;       /* its GEM objects; [0] the in-use one if any */
	unsigned nr_gem, gem_first, gem_next;   /* objects made; the first shrinkable; next replaced */
	double gem_carry;               /* pages of churn not yet replaced */
	int churn_ids[SYS_MAX_CHURN];
	struct { int cache; slab_obj_t obj; } *churn_objs;
	unsigned long nr_churn_objs;
	double next_wake;
	gsl_rng *rng;
};

struct system {
	char profile_name[512];
	struct system_profile *prof;
	struct workload *w;
	struct sys_proc *procs;
	/* what the boot allocated */
	unsigned long slab_objects, slab_reclaimable, slab_unreclaimable;
	unsigned long kstack_pages, vmalloc_pages, percpu_pages, kmalloc_large_pages;
	/* what the daemons did */
	unsigned long wakeups, log_pages, churn_objects, anon_pages, file_pages, failures;
	unsigned long gem_pages, gem_pinned_pages, gem_objects, gem_churn_pages;
};

/* profile: load it now, so that a bad profile is an error where it is named */
static int sys_set_profile(void *owner, const char *value, char *err, size_t errlen)
{
	struct system *s = owner;
	struct system_profile *p = NULL;

	if (strcmp(value, "none") && system_profile_load(value, &p, err, errlen))
		return -1;
	system_profile_free(s->prof);
	s->prof = p;
	snprintf(s->profile_name, sizeof(s->profile_name), "%s", value);
	return 0;
}

static const struct param system_params[] = {
	{ "profile", PARAM_CUSTOM, .def = "none", .set = sys_set_profile,
	  .help = "the base-system profile: NAME (configs/system/NAME.ini), a path, or none" },
	{ NULL },
};

/* ------------------------------------------------------------ the boot */

static int kpages_add(struct sys_kpage **v, unsigned long *n, struct page *p, enum kernel_page_kind kind)
{
	/* the array doubles when its count reaches a power of two (16 first) */
	if (*n >= 16 && (*n & (*n - 1)) == 0) {
		struct sys_kpage *nv = realloc(*v, 2 * *n * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
	} else if (!*v && !(*v = malloc(16 * sizeof(**v)))) {
		return -1;
	}
	(*v)[*n].page = p;
	(*v)[*n].kind = kind;
	(*n)++;
	return 0;
}

static unsigned long share(unsigned long total, unsigned round)
{
	return (unsigned long)((unsigned long long)total * (round + 1) / BOOT_ROUNDS);
}

static int boot_kernel(struct system *s, char *err, size_t errlen)
{
	const struct system_profile *p = s->prof;
	struct pglist_data *pgdat = s->w->pgdat;
	struct mm_ctx ctx = { 0 };
	unsigned long kstack = (unsigned long)p->kernel_threads * KSTACK_PAGES;
	unsigned long vmalloc = (unsigned long)((p->vmalloc + PAGE_SIZE - 1) / PAGE_SIZE);
	unsigned long percpu = (unsigned long)((p->percpu + PAGE_SIZE - 1) / PAGE_SIZE);
	unsigned long kmlarge = (unsigned long)((p->kmalloc_large + (PAGE_SIZE << KMALLOC_LARGE_ORDER) - 1) /
	                                        (PAGE_SIZE << KMALLOC_LARGE_ORDER));
	unsigned long done_kstack = 0, done_vmalloc = 0, done_percpu = 0, done_kmlarge = 0;
	unsigned long scanned0 = pgdat->vm_events[SLABS_SCANNED];
	long recl0 = node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B);
	long unrecl0 = node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B);
	int *ids = calloc(p->nr_slab + 1, sizeof(*ids));
	slab_obj_t **objs = calloc(p->nr_slab + 1, sizeof(*objs));
	unsigned long *done = calloc(p->nr_slab + 1, sizeof(*done));
	int rc = -1;

	if (!ids || !objs || !done)
		goto nomem;
	for (unsigned i = 0; i < p->nr_slab; i++) {
		const struct sys_slab *c = &p->slab[i];
		unsigned order = 0;

		while ((1u << order) < c->pages_per_slab)
			order++;
		ids[i] = kmem_cache_create(pgdat, c->name, c->object_size, c->objs_per_slab, order,
		                           c->reclaimable);
		if (ids[i] < 0) {
			snprintf(err, errlen, "system: %s: [slab] %s: the model cannot create this cache "
			         "(already in use with another geometry, or more than %d caches)",
			         p->path, c->name, MAX_KMEM_CACHES);
			goto out;
		}
		if (c->num_objs && !(objs[i] = malloc(c->num_objs * sizeof(slab_obj_t))))
			goto nomem;
	}
	for (unsigned r = 0; r < BOOT_ROUNDS; r++) {
		ctx.cpu = r % pgdat->nr_cpus;
		for (unsigned i = 0; i < p->nr_slab; i++) {
			unsigned long target = share(p->slab[i].num_objs, r);
			for (; done[i] < target; done[i]++) {
				objs[i][done[i]] = kmem_cache_alloc(pgdat, &ctx, (enum kmem_cache_id)ids[i],
				                                     GFP_KERNEL, OWNER_BOOT);
				if (objs[i][done[i]] == SLAB_OBJ_NONE)
					goto full;
			}
		}
		for (; done_kstack < share(kstack, r); done_kstack++)
			if (!kernel_page_alloc(pgdat, &ctx, KPAGE_STACK, 0))
				goto full;
		for (; done_vmalloc < share(vmalloc, r); done_vmalloc++)
			if (!kernel_page_alloc(pgdat, &ctx, KPAGE_VMALLOC, 0))
				goto full;
		for (; done_percpu < share(percpu, r); done_percpu++)
			if (!kernel_page_alloc(pgdat, &ctx, KPAGE_PERCPU, 0))
				goto full;
		for (; done_kmlarge < share(kmlarge, r); done_kmlarge++)
			if (!kernel_page_alloc(pgdat, &ctx, KPAGE_KMALLOC_LARGE, KMALLOC_LARGE_ORDER))
				goto full;
	}
	/* a boot that needed reclaim does not fit the machine, and the
	 * shrinker may have freed objects whose handles are kept here */
	if (pgdat->vm_events[SLABS_SCANNED] != scanned0)
		goto full;
	/* the objects freed since (NUM_OBJS - ACTIVE_OBJS), spread evenly so
	 * that the slabs stay as partial as the measurement found them */
	for (unsigned i = 0; i < p->nr_slab; i++) {
		const struct sys_slab *c = &p->slab[i];
		unsigned long nfree = c->num_objs - c->active_objs;

		for (unsigned long k = 0; k < nfree; k++) {
			unsigned long idx = (unsigned long)((unsigned long long)k * c->num_objs / nfree);
			kmem_cache_free(pgdat, &ctx, (enum kmem_cache_id)ids[i], objs[i][idx]);
		}
		s->slab_objects += c->active_objs;
	}
	s->kstack_pages = done_kstack;
	s->vmalloc_pages = done_vmalloc;
	s->percpu_pages = done_percpu;
	s->kmalloc_large_pages = done_kmlarge << KMALLOC_LARGE_ORDER;
	s->slab_reclaimable = (unsigned long)(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B) - recl0);
	s->slab_unreclaimable = (unsigned long)(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B) - unrecl0);
	rc = 0;
	goto out;
full:
	snprintf(err, errlen, "system: %s: the profile's kernel memory does not fit this machine's RAM",
	         p->path);
	goto out;
nomem:
	snprintf(err, errlen, "system: out of memory");
out:
	for (unsigned i = 0; objs && i < p->nr_slab; i++)
		free(objs[i]);
	free(objs);
	free(ids);
	free(done);
	return rc;
}

/* ------------------------------------------------------------ daemons */

static unsigned long pages_of(uint64_t bytes)
{
	return (unsigned long)((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

/* the pages of a daemon's GEM object k: the in-use one (k = 0 when
 * gem_pinned), then the rest of gem split evenly, the first ones a page
 * larger */
static unsigned long gem_object_pages(const struct sys_daemon *d, unsigned k)
{
	unsigned long pinned = pages_of(d->gem_pinned), rest = pages_of(d->gem) - pinned;
	unsigned objs = d->gem_objects - (pinned ? 1 : 0);

	if (pinned) {
		if (!k)
			return pinned;
		k--;
	}
	return rest / objs + (k < rest % objs ? 1 : 0);
}

/* the first quanta: anonymous memory, then the rest at once */
static int daemon_boot(struct sys_proc *dp, struct task *t, struct mm_ctx *ctx)
{
	struct pglist_data *pgdat = dp->sys->w->pgdat;
	const struct sys_daemon *d = dp->d;
	unsigned long n, tables;

	if (dp->faulted < dp->anon_pages) {
		n = dp->anon_pages - dp->faulted;
		if (n > FAULT_CHUNK)
			n = FAULT_CHUNK;
		{
			unsigned long v = mm_grow(t->mm, n);
			if (!dp->faulted)
				dp->base = v;
		}
		if (mm_access(pgdat, ctx, t->mm, dp->base + dp->faulted, n, true))
			return -1;
		dp->faulted += n;
		dp->sys->anon_pages += n;
		if (dp->faulted < dp->anon_pages)
			return 0;
	}
	/* the other threads' stacks (the first came with fork) */
	for (unsigned long i = 0; i < (unsigned long)(d->threads - 1) * KSTACK_PAGES; i++) {
		struct page *p = kernel_page_alloc(pgdat, ctx, KPAGE_STACK, 0);
		if (!p || kpages_add(&dp->kpages, &dp->nr_kpages, p, KPAGE_STACK))
			return -1;
	}
	/* VmPTE beyond what its anonymous and file areas make (one table per
	 * 2 MiB of each, and the pgd): the tables of the mappings the model
	 * does not have (its stacks, the libraries' data, sparse areas) */
	tables = 1 + (dp->anon_pages + PTRS_PER_PTE - 1) / PTRS_PER_PTE +
	         (pages_of(d->file) + PTRS_PER_PTE - 1) / PTRS_PER_PTE;
	for (unsigned long i = tables; i < pages_of(d->page_tables); i++) {
		struct page *p = kernel_page_alloc(pgdat, ctx, KPAGE_PAGETABLE, 0);
		if (!p || kpages_add(&dp->kpages, &dp->nr_kpages, p, KPAGE_PAGETABLE))
			return -1;
	}
	/* its GPU buffers: the in-use object, then the others */
	for (; d->gem && dp->nr_gem < d->gem_objects; dp->nr_gem++) {
		unsigned long npg = gem_object_pages(d, dp->nr_gem);
		struct drm_i915_gem_object *o = i915_gem_object_create(pgdat, npg, d->gem_pinned && !dp->nr_gem);

		if (!o)
			return -1;
		dp->gem[dp->nr_gem] = o;
		if (i915_gem_object_get_pages(pgdat, ctx, o))
			return -1;
		dp->sys->gem_pages += npg;
		dp->sys->gem_objects++;
		if (d->gem_pinned && !dp->nr_gem)
			dp->sys->gem_pinned_pages += npg;
	}
	/* its binary and libraries: mapped and faulted in through the page
	 * cache (mapped file pages, nr_mapped) */
	if (dp->exe) {
		dp->exe_vpage = mm_mmap_file(t->mm, dp->exe, 0, dp->exe->size, VM_READ | VM_EXEC);
		if (mm_access(pgdat, ctx, t->mm, dp->exe_vpage, dp->exe->size, false))
			return -1;
	}
	dp->sys->file_pages += (dp->exe ? dp->exe->size : 0) + (dp->cache ? dp->cache->size : 0);
	dp->booted = true;
	/* the first wake-up at a random phase of the interval */
	dp->next_wake = engine_now() + (d->interval > 0 ? gsl_rng_uniform(dp->rng) * d->interval : 0);
	return 0;
}

/* a window of n of total pages at a random place */
static unsigned long window(gsl_rng *r, unsigned long total, unsigned long n)
{
	return total > n ? gsl_rng_uniform_int(r, total - n + 1) : 0;
}

static int daemon_wake(struct sys_proc *dp, struct task *t, struct mm_ctx *ctx)
{
	struct pglist_data *pgdat = dp->sys->w->pgdat;
	const struct sys_daemon *d = dp->d;
	unsigned long n;

	dp->sys->wakeups++;
	if (dp->anon_pages && d->touch > 0) {
		n = (unsigned long)(d->touch * dp->anon_pages + 0.5);
		if (n && mm_access(pgdat, ctx, t->mm, dp->base + window(dp->rng, dp->anon_pages, n), n, true))
			return -1;
	}
	if (dp->exe && d->touch > 0) {
		n = (unsigned long)(d->touch * dp->exe->size + 0.5);
		if (n && mm_access(pgdat, ctx, t->mm, dp->exe_vpage + window(dp->rng, dp->exe->size, n), n, false))
			return -1;
	}
	if (dp->log) {
		/* append the log written since the last wake-up: the pages the
		 * bytes fall in are dirtied (a partial page again and again) */
		unsigned long bytes, first, last, size = dp->log->size * PAGE_SIZE;

		dp->log_carry += d->log * d->interval;
		bytes = (unsigned long)dp->log_carry;
		dp->log_carry -= (double)bytes;
		if (bytes) {
			first = dp->log_pos / PAGE_SIZE;
			last = (dp->log_pos + bytes - 1) / PAGE_SIZE;
			for (unsigned long pg = first; pg <= last; pg++)
				if (filemap_write(pgdat, ctx, dp->log, pg % dp->log->size, 1))
					return -1;
			dp->sys->log_pages += last - first + 1;
			dp->log_pos = (dp->log_pos + bytes) % size;
		}
	}
	/* buffers reallocated (a window resized, a surface replaced): once
	 * an object's worth of churn has accrued, the oldest shrinkable
	 * object is freed and a new one of its size made and filled */
	if (d->gem_churn && dp->gem_first < dp->nr_gem) {
		dp->gem_carry += (double)pages_of(d->gem_churn);
		for (;;) {
			unsigned k = dp->gem_next;
			unsigned long npg = gem_object_pages(d, k);
			struct drm_i915_gem_object *o;

			if (dp->gem_carry < (double)npg)
				break;
			dp->gem_carry -= (double)npg;
			i915_gem_object_put(pgdat, ctx, dp->gem[k]);
			dp->gem[k] = NULL;
			if (!(o = i915_gem_object_create(pgdat, npg, false)))
				return -1;
			dp->gem[k] = o;
			if (i915_gem_object_get_pages(pgdat, ctx, o))
				return -1;
			dp->gem_next = k + 1 < dp->nr_gem ? k + 1 : dp->gem_first;
			dp->sys->gem_churn_pages += npg;
		}
	}
	/* churn: last wake-up's objects go, new ones come */
	for (unsigned long i = 0; i < dp->nr_churn_objs; i++)
		kmem_cache_free(pgdat, ctx, (enum kmem_cache_id)dp->churn_objs[i].cache, dp->churn_objs[i].obj);
	dp->nr_churn_objs = 0;
	for (unsigned c = 0; c < d->nr_churn; c++)
		for (unsigned k = 0; k < d->churn[c].count; k++) {
			slab_obj_t o = kmem_cache_alloc(pgdat, ctx, (enum kmem_cache_id)dp->churn_ids[c],
			                                GFP_KERNEL, OWNER_BOOT);
			if (o == SLAB_OBJ_NONE)
				return -1;
			dp->churn_objs[dp->nr_churn_objs].cache = dp->churn_ids[c];
			dp->churn_objs[dp->nr_churn_objs++].obj = o;
			dp->sys->churn_objects++;
		}
	return 0;
}

static double daemon_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct sys_proc *dp = arg;
	double now = engine_now();

	if (workload_stopping(dp->sys->w))
		return -1;
	if (!dp->booted) {
		if (daemon_boot(dp, t, ctx)) {
			dp->failed = true;
			dp->sys->failures++;
			return -1;
		}
		t->sleep = dp->booted ? (dp->next_wake - now < POLL_SECONDS ? dp->next_wake - now : POLL_SECONDS) : 0;
		return 0;
	}
	if (dp->d->interval <= 0 || now + 1e-9 < dp->next_wake) {
		/* asleep: look at the stop flag now and then */
		double left = dp->d->interval <= 0 ? POLL_SECONDS : dp->next_wake - now;
		t->sleep = left < POLL_SECONDS ? left : POLL_SECONDS;
		return 0;
	}
	if (daemon_wake(dp, t, ctx)) {
		dp->failed = true;
		dp->sys->failures++;
		return -1;
	}
	dp->next_wake += dp->d->interval;
	if (dp->next_wake <= now)
		dp->next_wake = now + dp->d->interval;
	t->sleep = dp->next_wake - now < POLL_SECONDS ? dp->next_wake - now : POLL_SECONDS;
	return dp->d->cpu * 1e9;
}

/* exit: the other threads' stacks, the extra page tables and the churn
 * objects go back (the engine frees the rest with the mm) */
static void daemon_exit(struct task *t, void *arg)
{
	struct sys_proc *dp = arg;
	struct pglist_data *pgdat = dp->sys->w->pgdat;
	struct mm_ctx ctx = { .cpu = t->cpu, .mm = t->mm };

	for (unsigned long i = 0; i < dp->nr_kpages; i++)
		kernel_page_free(pgdat, &ctx, dp->kpages[i].page, dp->kpages[i].kind, 0);
	dp->nr_kpages = 0;
	for (unsigned i = 0; i < dp->nr_gem; i++)
		i915_gem_object_put(pgdat, &ctx, dp->gem[i]);
	dp->nr_gem = 0;
	for (unsigned long i = 0; i < dp->nr_churn_objs; i++)
		kmem_cache_free(pgdat, &ctx, (enum kmem_cache_id)dp->churn_objs[i].cache, dp->churn_objs[i].obj);
	dp->nr_churn_objs = 0;
}

static const struct task_ops daemon_ops = {
	.quantum = daemon_quantum,
	.exit = daemon_exit,
};

/* A booted machine has read its daemons' binaries and files: their page
 * cache is there before the measured window opens (as kbuild's warm
 * start does, the disk time belongs to the boot, not to the run) */
static int boot_read(struct pglist_data *pgdat, struct address_space *as)
{
	struct mm_ctx ctx = { 0 };
	struct blockdev disk = pgdat->disk;
	int rc;

	if (!as)
		return 0;
	rc = filemap_read(pgdat, &ctx, as, 0, as->size);
	pgdat->disk = disk;
	return rc;
}

static int sys_start(struct workload *w, char *err, size_t errlen)
{
	struct system *s = w->priv;
	struct system_profile *p = s->prof;
	struct pglist_data *pgdat = w->pgdat;

	s->w = w;
	if (!p)
		return 0;                       /* profile = none */
	if (boot_kernel(s, err, errlen))
		return -1;
	s->procs = calloc(p->nr_daemon + 1, sizeof(*s->procs));
	if (!s->procs)
		goto nomem;
	for (unsigned i = 0; i < p->nr_daemon; i++) {
		struct sys_proc *dp = &s->procs[i];
		const struct sys_daemon *d = &p->daemon[i];
		unsigned long nchurn = 0;

		dp->sys = s;
		dp->d = d;
		dp->anon_pages = pages_of(d->anon);
		if (d->file && !(dp->exe = inode_create(pgdat, pages_of(d->file), false)))
			goto nomem;
		if (d->cache && !(dp->cache = inode_create(pgdat, pages_of(d->cache), false)))
			goto nomem;
		if (d->log > 0 && !(dp->log = inode_create(pgdat, pages_of(d->log_file), false)))
			goto nomem;
		if (boot_read(pgdat, dp->exe) || boot_read(pgdat, dp->cache)) {
			snprintf(err, errlen, "system: %s: the daemons' files do not fit this machine's RAM", p->path);
			return -1;
		}
		for (unsigned c = 0; c < d->nr_churn; c++) {
			dp->churn_ids[c] = kmem_cache_find(pgdat, d->churn[c].cache);
			if (dp->churn_ids[c] < 0) {
				snprintf(err, errlen, "system: %s: [daemon.%s] churn: no cache '%s'", p->path,
				         d->name, d->churn[c].cache);
				return -1;
			}
			/* the shrinker frees dentries and inodes behind their
			 * owner's back: a daemon could not free its own later */
			if (dp->churn_ids[c] == DENTRY_CACHE || dp->churn_ids[c] == INODE_CACHE) {
				snprintf(err, errlen, "system: %s: [daemon.%s] churn: '%s' objects belong to the "
				         "shrinker's LRU; churn another cache", p->path, d->name, d->churn[c].cache);
				return -1;
			}
			nchurn += d->churn[c].count;
		}
		if (nchurn && !(dp->churn_objs = calloc(nchurn, sizeof(*dp->churn_objs))))
			goto nomem;
		if (d->gem && !(dp->gem = calloc(d->gem_objects, sizeof(*dp->gem))))
			goto nomem;
		dp->gem_first = dp->gem_next = d->gem_pinned ? 1 : 0;
		if (!(dp->rng = gsl_rng_alloc(gsl_rng_taus2)))
			goto nomem;
		gsl_rng_set(dp->rng, (unsigned long)workload_seed(w, i));
		if (!(dp->task = engine_spawn(w->engine, d->name, &daemon_ops, dp))) {
			snprintf(err, errlen, "system: cannot spawn daemon %s", d->name);
			return -1;
		}
	}
	return 0;
nomem:
	snprintf(err, errlen, "system: out of memory");
	return -1;
}

static size_t sys_report(const struct workload *w, struct metric *out, size_t n)
{
	const struct system *s = w->priv;
	struct i915_gem_stats gs;

	i915_gem_stats(w->pgdat, &gs);
	const struct { const char *name; double v; } m[] = {
		{ "system_slab_objects", (double)s->slab_objects },
		{ "system_slab_reclaimable_pages", (double)s->slab_reclaimable },
		{ "system_slab_unreclaimable_pages", (double)s->slab_unreclaimable },
		{ "system_kernel_stack_pages", (double)s->kstack_pages },
		{ "system_vmalloc_pages", (double)s->vmalloc_pages },
		{ "system_percpu_pages", (double)s->percpu_pages },
		{ "system_kmalloc_large_pages", (double)s->kmalloc_large_pages },
		{ "system_daemons", s->prof ? (double)s->prof->nr_daemon : 0 },
		{ "system_daemon_anon_pages", (double)s->anon_pages },
		{ "system_daemon_file_pages", (double)s->file_pages },
		{ "system_daemon_gem_pages", (double)s->gem_pages },
		{ "system_gem_objects", (double)s->gem_objects },
		{ "system_gem_pinned_pages", (double)s->gem_pinned_pages },
		{ "system_gem_pages_reallocated", (double)s->gem_churn_pages },
		{ "system_gem_shrinker_released_objects", (double)gs.released_objects },
		{ "system_gem_shrinker_released_pages", (double)gs.released_pages },
		{ "system_gem_swapin_pages", (double)gs.swapin_pages },
		{ "system_wakeups", (double)s->wakeups },
		{ "system_log_pages_written", (double)s->log_pages },
		{ "system_churn_objects", (double)s->churn_objects },
		{ "system_daemon_failures", (double)s->failures },
	};
	size_t i;

	if (!s->prof)
		return 0;
	for (i = 0; i < sizeof(m) / sizeof(m[0]) && i < n; i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", m[i].name);
		out[i].value = m[i].v;
	}
	return i;
}

static void sys_fini(struct workload *w)
{
	struct system *s = w->priv;

	if (s->procs)
		for (unsigned i = 0; i < s->prof->nr_daemon; i++) {
			free(s->procs[i].kpages);
			free(s->procs[i].churn_objs);
			free(s->procs[i].gem);
			if (s->procs[i].rng)
				gsl_rng_free(s->procs[i].rng);
		}
	free(s->procs);
	system_profile_free(s->prof);
	s->prof = NULL;
}

/* the profile file */
static void sys_inputs(const struct workload *w, void (*fn)(const char *path, void *arg), void *arg)
{
	const struct system *s = w->priv;

	if (s->prof)
		fn(s->prof->path, arg);
}

const struct workload_ops system_ops = {
	.name = "system",
	.desc = "the base system of a booted machine: kernel memory at boot, daemons (a [system] profile)",
	.params = system_params,
	.priv_size = sizeof(struct system),
	.measured = false,
	.implicit = true,
	.report = sys_report,
	.start = sys_start,
	.fini = sys_fini,
	.inputs = sys_inputs,
};
