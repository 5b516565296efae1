/* memory.c - processes' memory (kernel/fork.c, mm/memory.c, mm/rmap.c,
 * exit_mmap): fork's allocations, anonymous faults, swap-in, page tables,
 * the unmapping reclaim does, and exit.
 *
 * A process's anonymous memory is one area of virtual pages; a page-table
 * page is allocated for each 512 virtual pages that get a page, as
 * __pte_alloc does (GFP_KERNEL_ACCOUNT, unmovable), and one for the pgd.
 * New anon pages go to the inactive anon list (v6.2, since 5.9: anon
 * pages start inactive so that they must prove themselves).  The pte's
 * accessed bit is PG_young on the page.
 *
 * File mappings (mm_mmap_file: executables' text, shared libraries) are
 * areas of their own 2 MiB ranges (PMD_FILE): a fault there is
 * do_read_fault() (fault-around, then filemap_fault), their ptes map page
 * cache pages, which rmap.c finds through the file's i_mmap. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/slab.h"

static const enum kmem_cache_id fork_caches[] = {
	TASK_STRUCT_CACHE, MM_STRUCT_CACHE, SIGNAL_CACHE, FILES_CACHE, CRED_CACHE,
	VM_AREA_CACHE, VM_AREA_CACHE, ANON_VMA_CACHE,
};

static struct page *alloc_kernel_page(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                      enum page_owner_kind owner)
{
	struct page *p = alloc_pages(pgdat, ctx, GFP_KERNEL_ACCOUNT, 0);
	if (p)
		p->owner = (uint8_t)owner;
	return p;
}

static bool mm_table_add(struct pglist_data *pgdat, struct mm_struct *mm)
{
	if (pgdat->nr_mms == pgdat->cap_mms) {
		uint32_t cap = pgdat->cap_mms ? pgdat->cap_mms * 2 : 64;
		struct mm_struct **t = realloc(pgdat->mms, cap * sizeof(*t));
		if (!t)
			return false;
		pgdat->mms = t;
		pgdat->cap_mms = cap;
	}
	mm->id = pgdat->nr_mms;
	pgdat->mms[pgdat->nr_mms++] = mm;
	return true;
}

/* free everything but the anonymous pages (exit_mmap's tail, free_task) */
static void mm_free_kernel(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm)
{
	for (unsigned long i = 0; i < (mm->cap_vpages + PTRS_PER_PTE - 1) / PTRS_PER_PTE; i++)
		if (mm->pgtables && mm->pgtables[i]) {
			__free_pages(pgdat, ctx, &pgdat->mem_map[mm->pgtables[i] - 1], 0);
			mod_node_page_state(pgdat, NR_PAGETABLE, -1);
			mm->pgtables[i] = 0;
		}
	if (mm->pgd) {
		__free_pages(pgdat, ctx, &pgdat->mem_map[mm->pgd - 1], 0);
		mod_node_page_state(pgdat, NR_PAGETABLE, -1);
		mm->pgd = 0;
	}
	for (unsigned i = 0; i < KSTACK_PAGES; i++)
		if (mm->kstack[i]) {
			__free_pages(pgdat, ctx, &pgdat->mem_map[mm->kstack[i] - 1], 0);
			mod_node_page_state(pgdat, NR_KERNEL_STACK_KB, -(long)(PAGE_SIZE >> 10));
			mm->kstack[i] = 0;
		}
	for (unsigned i = 0; i < mm->nr_slab_objs; i++)
		if (mm->slab_objs[i] != SLAB_OBJ_NONE)
			kmem_cache_free(pgdat, ctx, fork_caches[i], mm->slab_objs[i]);
	mm->nr_slab_objs = 0;
}

struct mm_struct *mm_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	struct mm_struct *mm = calloc(1, sizeof(*mm));
	struct page *p;

	if (!mm || !mm_table_add(pgdat, mm)) {
		free(mm);
		return NULL;
	}
	ctx->kernel_ns += pgdat->costs.fork_ns;
	/* dup_task_struct, copy_mm, copy_signal, copy_files, vmas */
	for (unsigned i = 0; i < sizeof(fork_caches) / sizeof(fork_caches[0]); i++) {
		mm->slab_objs[i] = kmem_cache_alloc(pgdat, ctx, fork_caches[i], GFP_KERNEL_ACCOUNT, mm->id);
		mm->nr_slab_objs = i + 1;
		if (mm->slab_objs[i] == SLAB_OBJ_NONE)
			goto fail;
	}
	/* alloc_thread_stack_node: a vmalloc'd 16 KiB stack */
	for (unsigned i = 0; i < KSTACK_PAGES; i++) {
		if (!(p = alloc_kernel_page(pgdat, ctx, PGOWN_KSTACK)))
			goto fail;
		mm->kstack[i] = (uint32_t)page_to_pfn(pgdat, p) + 1;
		mod_node_page_state(pgdat, NR_KERNEL_STACK_KB, PAGE_SIZE >> 10);
	}
	if (!(p = alloc_kernel_page(pgdat, ctx, PGOWN_PAGETABLE)))
		goto fail;
	mm->pgd = (uint32_t)page_to_pfn(pgdat, p) + 1;
	mod_node_page_state(pgdat, NR_PAGETABLE, 1);
	return mm;
fail:
	mm_free_kernel(pgdat, ctx, mm);
	pgdat->mms[mm->id] = NULL;
	free(mm);
	return NULL;
}

unsigned long mm_grow(struct mm_struct *mm, unsigned long nr)
{
	unsigned long start = mm->nr_vpages;

	if (start + nr > mm->cap_vpages) {
		unsigned long cap = mm->cap_vpages ? mm->cap_vpages : PTRS_PER_PTE;
		unsigned long old_tables = (mm->cap_vpages + PTRS_PER_PTE - 1) / PTRS_PER_PTE, tables;
		while (cap < start + nr)
			cap *= 2;
		tables = (cap + PTRS_PER_PTE - 1) / PTRS_PER_PTE;
		mm->pte = realloc(mm->pte, cap * sizeof(uint32_t));
		mm->pgtables = realloc(mm->pgtables, tables * sizeof(uint32_t));
		mm->pmd_flags = realloc(mm->pmd_flags, tables);
		mm->pmd_present = realloc(mm->pmd_present, tables * sizeof(uint16_t));
		mm->young = realloc(mm->young, cap / 64 * sizeof(uint64_t));
		mm->present = realloc(mm->present, cap / 64 * sizeof(uint64_t));
		if (!mm->pte || !mm->pgtables || !mm->pmd_flags || !mm->pmd_present || !mm->young || !mm->present)
			abort();
		memset(mm->young + mm->cap_vpages / 64, 0, (cap - mm->cap_vpages) / 64 * sizeof(uint64_t));
		memset(mm->present + mm->cap_vpages / 64, 0, (cap - mm->cap_vpages) / 64 * sizeof(uint64_t));
		memset(mm->pte + mm->cap_vpages, 0, (cap - mm->cap_vpages) * sizeof(uint32_t));
		memset(mm->pgtables + old_tables, 0, (tables - old_tables) * sizeof(uint32_t));
		memset(mm->pmd_flags + old_tables, 0, tables - old_tables);
		memset(mm->pmd_present + old_tables, 0, (tables - old_tables) * sizeof(uint16_t));
		mm->cap_vpages = cap;
	}
	mm->nr_vpages = start + nr;
	return start;
}

unsigned long mm_mmap(struct mm_struct *mm, unsigned long nr)
{
	unsigned long pad = (PTRS_PER_PTE - mm->nr_vpages % PTRS_PER_PTE) % PTRS_PER_PTE;

	if (pad)
		mm_grow(mm, pad);       /* a hole: never touched */
	return mm_grow(mm, nr);
}

void mm_madvise_hugepage(struct mm_struct *mm, unsigned long vpage, unsigned long nr)
{
	unsigned long first = (vpage + PTRS_PER_PTE - 1) / PTRS_PER_PTE;
	unsigned long end = (vpage + nr) / PTRS_PER_PTE;

	for (unsigned long i = first; i < end && i * PTRS_PER_PTE < mm->nr_vpages; i++)
		mm->pmd_flags[i] |= PMD_HUGEPAGE;
}

/* __pte_alloc(): the page table of vpage's 2 MiB range; 0, or -1 when
 * no page could be had */
static int pte_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                     unsigned long vpage)
{
	uint32_t *pt = &mm->pgtables[vpage / PTRS_PER_PTE];
	struct page *p;

	if (*pt)
		return 0;
	if (!(p = alloc_kernel_page(pgdat, ctx, PGOWN_PAGETABLE)))
		return -1;
	*pt = (uint32_t)page_to_pfn(pgdat, p) + 1;
	mod_node_page_state(pgdat, NR_PAGETABLE, 1);
	mm->nr_pgtables++;
	return 0;
}

/* A new anonymous page for vpage: do_anonymous_page() / do_swap_page() */
static struct page *anon_page_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                                    unsigned long vpage)
{
	struct page *p;

	if (pte_alloc(pgdat, ctx, mm, vpage))
		return NULL;
	p = alloc_pages(pgdat, ctx, GFP_HIGHUSER_MOVABLE, 0);
	if (!p)
		return NULL;
	p->owner = PGOWN_ANON;
	p->mapping = mm->id;
	p->index = (uint32_t)vpage;
	p->mapcount = 1;
	SetPageFlag(p, PG_swapbacked);
	SetPageFlag(p, PG_young);
	return p;
}

static void anon_page_map(struct pglist_data *pgdat, struct mm_struct *mm, struct page *p)
{
	unsigned long pfn = page_to_pfn(pgdat, p);

	set_pte(mm, p->index, ENTRY_PRESENT | (uint32_t)pfn);
	p->mapcount = 1;
	mm->rss_anon++;
	mod_node_page_state(pgdat, NR_ANON_MAPPED, 1);
	lruvec_add_page(pgdat, pfn, false);
}

/* ---- file mappings (mm/mmap.c, mm/memory.c's do_read_fault) ---- */

static void file_vma_add(struct mm_struct *mm, struct address_space *as, const struct file_vma *a)
{
	if (mm->nr_file_vmas == mm->cap_file_vmas) {
		unsigned cap = mm->cap_file_vmas ? mm->cap_file_vmas * 2 : 8;
		struct file_vma *n = realloc(mm->file_vmas, cap * sizeof(*n));
		if (!n)
			abort();
		mm->file_vmas = n;
		mm->cap_file_vmas = cap;
	}
	mm->file_vmas[mm->nr_file_vmas++] = *a;
	i_mmap_insert(as, a);
}

unsigned long mm_mmap_file(struct mm_struct *mm, struct address_space *as, unsigned long pgoff,
                           unsigned long nr, unsigned vm_flags)
{
	unsigned long start = mm_mmap(mm, nr), pad;

	/* the next area starts on its own 2 MiB range: a pmd is wholly file
	 * or wholly anonymous (a hole between them is never touched) */
	pad = (PTRS_PER_PTE - mm->nr_vpages % PTRS_PER_PTE) % PTRS_PER_PTE;
	if (pad)
		mm_grow(mm, pad);
	if (!nr)
		return start;
	for (unsigned long i = start / PTRS_PER_PTE; i * PTRS_PER_PTE < start + nr; i++)
		mm->pmd_flags[i] |= PMD_FILE;
	file_vma_add(mm, as, &(struct file_vma){ .mm = mm->id, .ino = as->ino, .vm_flags = vm_flags,
	                                         .start = start, .nr = nr, .pgoff = pgoff });
	return start;
}

static struct file_vma *find_file_vma(struct mm_struct *mm, unsigned long v)
{
	for (unsigned i = 0; i < mm->nr_file_vmas; i++)
		if (v >= mm->file_vmas[i].start && v - mm->file_vmas[i].start < mm->file_vmas[i].nr)
			return &mm->file_vmas[i];
	return NULL;
}

/* do_set_pte() for a page cache page: the pte is young (x86 makes
 * prefaulted ptes young too) */
static void file_pte_map(struct pglist_data *pgdat, struct mm_struct *mm, unsigned long v, unsigned long pfn)
{
	set_pte(mm, v, ENTRY_PRESENT | (uint32_t)pfn);
	mm->young[v / 64] |= 1ull << (v % 64);
	mm->rss_file++;
	page_add_file_rmap(pgdat, &pgdat->mem_map[pfn]);
}

/* do_fault_around(): map the cached pages of the fault_around_bytes (64
 * KiB) window around v that the area and v's page table cover */
#define FAULT_AROUND_PAGES 16
static void do_fault_around(struct pglist_data *pgdat, struct mm_struct *mm, const struct file_vma *a,
                            const struct address_space *as, unsigned long v)
{
	unsigned long s = v & ~(unsigned long)(FAULT_AROUND_PAGES - 1), e = s + FAULT_AROUND_PAGES;

	if (s < a->start)
		s = a->start;
	if (e > a->start + a->nr)
		e = a->start + a->nr;
	for (unsigned long w = s; w < e; w++) {
		unsigned long index = a->pgoff + (w - a->start);
		if (mm->pte[w] || index >= as->size || !entry_present(as->i_pages[index]))
			continue;
		file_pte_map(pgdat, mm, w, entry_pfn(as->i_pages[index]));
	}
}

/* do_read_fault() at v of a file area: fault-around, then filemap_fault()
 * for the page itself if it is not cached (the read-around read, a major
 * fault).  0, or -1 (outside any area or beyond the file: SIGSEGV/SIGBUS;
 * no memory; the task became an OOM victim). */
static int do_read_fault(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                         unsigned long v)
{
	struct file_vma *a = find_file_vma(mm, v);
	struct address_space *as;
	unsigned long index;

	if (!a || !(as = inode_lookup(pgdat, a->ino)) || (index = a->pgoff + (v - a->start)) >= as->size)
		return -1;
	/* the model maps no large page-cache folio (the kernel maps one with
	 * ptes, or a PMD): the file's are split into order-0 pages at its
	 * first fault, and read() of a mapped file makes none (filemap.c) */
	if (as->nr_large_folios)
		filemap_split_folios(pgdat, as, 0, as->size);
	if (pte_alloc(pgdat, ctx, mm, v) || mm->oom_victim)
		return -1;
	count_vm_events(pgdat, PGFAULT, 1);
	ctx->kernel_ns += pgdat->costs.fault_ns;
	do_fault_around(pgdat, mm, a, as, v);
	if (entry_present(mm->pte[v]))
		return 0;
	/* a page read in may be reclaimed by the allocations of the rest of
	 * the window before it is mapped: the kernel retries the fault */
	for (int tries = 0; filemap_fault_read(pgdat, ctx, as, index); tries++)
		if (tries == 2 || mm->oom_victim)
			return -1;
	if (mm->oom_victim)
		return -1;
	count_vm_events(pgdat, PGMAJFAULT, 1);
	/* the allocations may have slept in reclaim, and reclaim may have
	 * unmapped a page fault-around mapped; only v's pte matters here */
	if (!mm->pte[v])
		file_pte_map(pgdat, mm, v, entry_pfn(as->i_pages[index]));
	return entry_present(mm->pte[v]) ? 0 : -1;
}

/* zap_pte_range() of a file pte: the page stays in the page cache; a
 * young pte marks it accessed, as the kernel does for non-anon pages */
static void zap_file_pte(struct pglist_data *pgdat, struct mm_struct *mm, unsigned long v)
{
	unsigned long pfn = entry_pfn(mm->pte[v]);

	if (mm_young_test_clear(mm, v, 1))
		folio_mark_accessed(pgdat, pfn);
	mm->rss_file--;
	page_remove_file_rmap(pgdat, &pgdat->mem_map[pfn]);
}

/* the file areas of [vpage, end) leave the process (and their files'
 * i_mmap); what is left of an area cut by the range stays mapped */
static void unmap_file_vmas(struct pglist_data *pgdat, struct mm_struct *mm, unsigned long vpage,
                            unsigned long end)
{
	for (unsigned i = 0; i < mm->nr_file_vmas;) {
		struct file_vma a = mm->file_vmas[i];
		struct address_space *as = inode_lookup(pgdat, a.ino);

		if (a.start + a.nr <= vpage || a.start >= end) {
			i++;
			continue;
		}
		i_mmap_remove(as, mm->id, a.start);
		for (unsigned j = i + 1; j < mm->nr_file_vmas; j++)
			mm->file_vmas[j - 1] = mm->file_vmas[j];
		mm->nr_file_vmas--;
		if (a.start < vpage)
			file_vma_add(mm, as, &(struct file_vma){ .mm = a.mm, .ino = a.ino, .vm_flags = a.vm_flags,
			                                         .start = a.start, .nr = vpage - a.start,
			                                         .pgoff = a.pgoff });
		if (a.start + a.nr > end)
			file_vma_add(mm, as, &(struct file_vma){ .mm = a.mm, .ino = a.ino, .vm_flags = a.vm_flags,
			                                         .start = end, .nr = a.start + a.nr - end,
			                                         .pgoff = a.pgoff + (end - a.start) });
	}
}

/* ---- transparent huge pages (mm/huge_memory.c) ---- */

/* vma_thp_gfp_mask(): the fault's gfp from transparent_hugepage/defrag;
 * madvised is whether the area is MADV_HUGEPAGE */
gfp_t vma_thp_gfp_mask(const struct pglist_data *pgdat, bool madvised)
{
	switch (pgdat->sysctl.thp_defrag) {
	case THP_DEFRAG_ALWAYS:
		return GFP_TRANSHUGE | (madvised ? 0 : __GFP_NORETRY);
	case THP_DEFRAG_DEFER:
		return GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM;
	case THP_DEFRAG_DEFER_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : __GFP_KSWAPD_RECLAIM);
	case THP_DEFRAG_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : 0);
	default:
		return GFP_TRANSHUGE_LIGHT;
	}
}

/* vma_alloc_folio() (mm/mempolicy.c) under the default memory policy,
 * which prefers the local node.  Without CONFIG_NUMA it is one allocation.
 * With it, a huge page is first asked of the local node alone, without
 * retries (__GFP_THISNODE | __GFP_NORETRY: the slow path's async
 * compaction, and unless that was skipped or deferred one direct reclaim
 * and a second async compaction), and then, if that failed and the mask
 * allows direct reclaim, with the fault's own mask: two slow paths, each
 * counting its compaction stalls, even on a one-node machine. */
struct page *vma_alloc_folio(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp, unsigned order,
                             bool hugepage)
{
	struct page *p;

	if (!pgdat->config_numa || !hugepage)
		return alloc_pages(pgdat, ctx, gfp, order);
	p = alloc_pages(pgdat, ctx, gfp | __GFP_THISNODE | __GFP_NORETRY, order);
	if (!p && (gfp & __GFP_DIRECT_RECLAIM))
		p = alloc_pages(pgdat, ctx, gfp, order);
	return p;
}

/* hugepage_vma_check() for an anonymous fault at this pmd */
static bool thp_fault_allowed(const struct pglist_data *pgdat, const struct mm_struct *mm,
                              unsigned long pmd)
{
	switch (pgdat->sysctl.thp_enabled_mode) {
	case THP_ENABLED_ALWAYS:
		break;
	case THP_ENABLED_MADVISE:
		if (!(mm->pmd_flags[pmd] & PMD_HUGEPAGE))
			return false;
		break;
	default:
		return false;
	}
	/* the pmd is none (no page table yet) and the range is mapped */
	return !mm->pgtables[pmd] && (pmd + 1) * PTRS_PER_PTE <= mm->nr_vpages;
}

/* do_huge_pmd_anonymous_page(): 0 when a THP was mapped, -1 to fall back
 * to small pages */
static int do_huge_pmd_anonymous_page(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                      struct mm_struct *mm, unsigned long pmd)
{
	bool madvised = mm->pmd_flags[pmd] & PMD_HUGEPAGE;
	unsigned long base = pmd * PTRS_PER_PTE, pfn;
	struct page *p, *pt;

	p = vma_alloc_folio(pgdat, ctx, vma_thp_gfp_mask(pgdat, madvised), HPAGE_PMD_ORDER, true);
	if (!p) {
		count_vm_events(pgdat, THP_FAULT_FALLBACK, 1);
		return -1;
	}
	/* pte_alloc_one(): the page table deposited with the huge pmd; v6.2
	 * fails the fault with VM_FAULT_OOM here, counting neither
	 * thp_fault_alloc nor thp_fault_fallback (the model goes on to the
	 * small-page path, whose own allocation then fails the same way) */
	pt = alloc_pages(pgdat, ctx, GFP_KERNEL_ACCOUNT, 0);
	if (!pt) {
		__free_pages(pgdat, ctx, p, HPAGE_PMD_ORDER);
		return -1;
	}
	pt->owner = PGOWN_PAGETABLE;
	mm->pgtables[pmd] = (uint32_t)page_to_pfn(pgdat, pt) + 1;
	mm->nr_pgtables++;
	mod_node_page_state(pgdat, NR_PAGETABLE, 1);
	pfn = page_to_pfn(pgdat, p);
	p->owner = PGOWN_ANON;
	p->mapping = mm->id;
	p->index = (uint32_t)base;
	p->mapcount = 1;
	SetPageFlag(p, PG_swapbacked);
	SetPageFlag(p, PG_young);
	for (unsigned long i = 0; i < PTRS_PER_PTE; i++)
		set_pte(mm, base + i, ENTRY_PRESENT | (uint32_t)(pfn + i));
	mm->pmd_flags[pmd] |= PMD_TRANS_HUGE;
	mm->rss_anon += PTRS_PER_PTE;
	mod_node_page_state(pgdat, NR_ANON_MAPPED, PTRS_PER_PTE);
	mod_node_page_state(pgdat, NR_ANON_THPS, 1);
	lruvec_add_page(pgdat, pfn, false);
	/* clear_huge_page() */
	ctx->kernel_ns += pgdat->costs.fault_ns + PTRS_PER_PTE * pgdat->costs.clear_page_ns;
	count_vm_events(pgdat, PGFAULT, 1);
	count_vm_events(pgdat, THP_FAULT_ALLOC, 1);
	return 0;
}

/* split_huge_page(): the THP at head pfn becomes 512 order-0 anonymous
 * pages, each on the LRU list the THP was on (after it, in order), still
 * mapped by the ptes of its pmd */
void split_huge_page(struct pglist_data *pgdat, unsigned long head)
{
	struct page *h = &pgdat->mem_map[head];
	struct mm_struct *mm = pgdat->mms[h->mapping];
	uint32_t keep = (mm_page_fold_young(pgdat, h), h->flags) & ((1u << PG_active) | (1u << PG_referenced) | (1u << PG_young) |
	                            (1u << PG_swapbacked) | (1u << PG_workingset) | PAGE_ZONE_MASK);
	bool on_lru = PageLRU(h);

	if (on_lru)
		lruvec_del_page(pgdat, head);
	for (unsigned long i = 0; i < PTRS_PER_PTE; i++) {
		struct page *p = h + i;
		p->flags = keep;
		p->owner = PGOWN_ANON;
		p->mapping = h->mapping;
		p->index = h->index + (uint32_t)i;
		p->refcount = 1;
		p->mapcount = 1;
		p->private = 0;
		p->next = p->prev = PFN_NONE;
	}
	for (unsigned long i = 0; on_lru && i < PTRS_PER_PTE; i++)
		lruvec_add_page(pgdat, head + i, false);
	if (mm)
		mm->pmd_flags[h->index / PTRS_PER_PTE] &= (uint8_t)~PMD_TRANS_HUGE;
	mod_node_page_state(pgdat, NR_ANON_THPS, -1);
	count_vm_events(pgdat, THP_SPLIT_PAGE, 1);
}

/* split_huge_pmd() of a partial munmap: the kernel maps the THP with ptes
 * and splits it later (deferred split); the model splits it at once */
static void split_huge_pmd(struct pglist_data *pgdat, struct mm_struct *mm, unsigned long pmd)
{
	split_huge_page(pgdat, entry_pfn(mm->pte[pmd * PTRS_PER_PTE]));
}

/* zap_huge_pmd(): unmap a whole THP and free it (an order-9 buddy) */
static void zap_huge_pmd(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                         unsigned long pmd)
{
	unsigned long base = pmd * PTRS_PER_PTE, head = entry_pfn(mm->pte[base]);

	if (PageLRU(&pgdat->mem_map[head]))
		lruvec_del_page(pgdat, head);
	__free_pages(pgdat, ctx, &pgdat->mem_map[head], HPAGE_PMD_ORDER);
	for (unsigned long i = 0; i < PTRS_PER_PTE; i++)
		set_pte(mm, base + i, 0);
	mm_young_test_clear(mm, base, PTRS_PER_PTE);
	mm->pmd_flags[pmd] &= (uint8_t)~PMD_TRANS_HUGE;
	mm->rss_anon -= PTRS_PER_PTE;
	mod_node_page_state(pgdat, NR_ANON_MAPPED, -(long)PTRS_PER_PTE);
	mod_node_page_state(pgdat, NR_ANON_THPS, -1);
}

/* the first vpage in [v, end) whose pte is not present (end if none):
 * a pmd whose ptes are all present (mm->pmd_present) is skipped whole,
 * the others are read in mm->present, 64 ptes a word, not in the ptes */
static unsigned long present_run_end(const struct mm_struct *mm, unsigned long v, unsigned long end)
{
	while (v < end) {
		uint64_t absent;

		if (mm->pmd_present[v / PTRS_PER_PTE] == PTRS_PER_PTE) {
			v = (v / PTRS_PER_PTE + 1) * PTRS_PER_PTE;
			continue;
		}
		absent = ~mm->present[v / 64] >> (v % 64);
		if (absent) {
			v += (unsigned long)__builtin_ctzll(absent);
			return v < end ? v : end;
		}
		v = (v / 64 + 1) * 64;
	}
	return end;
}

/* set the accessed bits of vpages [s, e), a word at a time */
static void mm_young_set(struct mm_struct *mm, unsigned long s, unsigned long e)
{
	uint64_t *w = mm->young;

	if (s / 64 == (e - 1) / 64) {
		w[s / 64] |= (~0ull >> (64 - (e - s))) << (s % 64);
		return;
	}
	w[s / 64] |= ~0ull << (s % 64);
	for (unsigned long i = s / 64 + 1; i < e / 64; i++)
		w[i] = ~0ull;
	if (e % 64)
		w[e / 64] |= ~0ull >> (64 - e % 64);
}

int mm_access(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
              unsigned long vpage, unsigned long nr, bool write)
{
	(void)write;
	if (pgdat->swap.wb_len)
		swap_writeback_complete(pgdat, false);
	unsigned long end = vpage + nr < mm->nr_vpages ? vpage + nr : mm->nr_vpages;

	for (unsigned long v = vpage; v < end; v++) {
		uint32_t e;
		struct page *p;

		if (mm->oom_victim)
			return -1;
		/* a fully mapped pmd's ptes are not read (mm->pmd_present):
		 * the pte array of a process that has not run for a while is
		 * mostly out of the cache */
		if (mm->pmd_present[v / PTRS_PER_PTE] == PTRS_PER_PTE || entry_present(e = mm->pte[v])) {
			/* a run of present pages: set their ptes' accessed bits
			 * (PG_young, see mm_page_fold_young); nothing here can
			 * make the process an OOM victim */
			unsigned long s = v++;
			v = present_run_end(mm, v, end);
			mm_young_set(mm, s, v);
			v--;
			continue;
		}
		if (mm->pmd_flags[v / PTRS_PER_PTE] & PMD_FILE) {
			if (do_read_fault(pgdat, ctx, mm, v))
				return -1;
			v--;            /* the present run above sets its accessed bits */
			continue;
		}
		if (!e && v % PTRS_PER_PTE == 0 && thp_fault_allowed(pgdat, mm, v / PTRS_PER_PTE)) {
			if (!do_huge_pmd_anonymous_page(pgdat, ctx, mm, v / PTRS_PER_PTE)) {
				v += PTRS_PER_PTE - 1;
				continue;
			}
			if (mm->oom_victim)
				return -1;
		}
		count_vm_events(pgdat, PGFAULT, 1);
		if (entry_nonres(e)) {
			/* a swap cache hit: the page is still being written
			 * out; map it back without I/O (a minor fault) */
			unsigned long pfn = swap_cache_take(pgdat, e & ENTRY_VAL_MASK);
			if (pfn != PFN_NONE) {
				p = &pgdat->mem_map[pfn];
				swap_free(pgdat, ctx, e & ENTRY_VAL_MASK);
				mm->swapents--;
				SetPageFlag(p, PG_young);
				ctx->kernel_ns += pgdat->costs.fault_ns;
				anon_page_map(pgdat, mm, p);
				continue;
			}
		}
		p = anon_page_alloc(pgdat, ctx, mm, v);
		if (!p || mm->oom_victim) {
			if (p) {
				struct mm_ctx c2 = *ctx;
				__free_pages(pgdat, &c2, p, 0);
			}
			return -1;
		}
		if (entry_nonres(e)) {
			/* do_swap_page(): read it back and wait for it */
			uint32_t slot = e & ENTRY_VAL_MASK;
			workingset_refault(pgdat, p, swap_get_shadow(pgdat, slot), false, 1);
			blockdev_io_wait(pgdat, ctx, &pgdat->swap.dev, 1, false);
			if (mm->oom_victim) {
				/* killed while it caught up: the pte and its
				 * slot are the exit's (or the reaper's) */
				struct mm_ctx c2 = *ctx;
				__free_pages(pgdat, &c2, p, 0);
				return -1;
			}
			swap_free(pgdat, ctx, slot);
			mm->swapents--;
			count_vm_events(pgdat, PSWPIN, 1);
			count_vm_events(pgdat, PGPGIN, PAGE_SIZE >> 10);
			count_vm_events(pgdat, PGMAJFAULT, 1);
			ctx->kernel_ns += pgdat->costs.swapin_ns;
		} else {
			ctx->kernel_ns += pgdat->costs.fault_ns;
		}
		anon_page_map(pgdat, mm, p);
	}
	return 0;
}

/* shrink_folio_list's anon path: add_to_swap, try_to_unmap, pageout.
 * The write is queued on the swap device when the reclaimer gets there
 * (issue_delay on from now); the page stays under writeback until it
 * completes (swap_writeback_start). */
bool try_to_swap_out(struct pglist_data *pgdat, unsigned long pfn, double issue_delay)
{
	struct page *p = &pgdat->mem_map[pfn];
	struct mm_struct *mm = pgdat->mms[p->mapping];
	uint32_t slot = get_swap_page(pgdat);

	if (slot == UINT32_MAX)
		return false;
	swap_set_shadow(pgdat, slot, workingset_eviction(pgdat, pfn, 1));
	set_pte(mm, p->index, ENTRY_NONRES | slot);
	mm->young[p->index / 64] &= ~(1ull << (p->index % 64));     /* PG_young is cleared below */
	mm->rss_anon--;
	mm->swapents++;
	mod_node_page_state(pgdat, NR_ANON_MAPPED, -1);
	mod_node_page_state(pgdat, NR_VMSCAN_WRITE, 1);
	count_vm_events(pgdat, PSWPOUT, 1);
	pgdat->swap.fate.written++;
	count_vm_events(pgdat, PGPGOUT, PAGE_SIZE >> 10);
	ClearPageFlag(p, PG_young);
	ClearPageFlag(p, PG_referenced);
	p->mapcount = 0;
	swap_writeback_start(pgdat, pfn, slot,
	                     pgdat_now(pgdat) + issue_delay +
	                     blockdev_io(pgdat, &pgdat->swap.dev, 1, true, issue_delay));
	return true;
}

/* zap_pte_range() over [start, end): a THP mapped by a pmd goes whole
 * (zap_huge_pmd) when the range covers it, and is split first when not */
#define ZAP_PREFETCH 32
static void zap_range(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                      unsigned long start, unsigned long end)
{
	for (unsigned long v = start; v < end; v++) {
		uint32_t e = mm->pte[v];
		unsigned long pmd = v / PTRS_PER_PTE;

		/* prefetch the struct page ZAP_PREFETCH ptes ahead.  Not its
		 * LRU neighbours, which lruvec_del_page writes: a process's
		 * pages sit on the LRU mostly in the order it faulted them, so
		 * they are the pages of the next ptes, prefetched here anyway
		 * (prefetching them too cost 1-2 %, docs/benchmarks.md) */
		if (v + ZAP_PREFETCH < end && entry_present(mm->pte[v + ZAP_PREFETCH]))
			prefetch_pfn(pgdat, entry_pfn(mm->pte[v + ZAP_PREFETCH]));

		if (mm->pmd_flags[pmd] & PMD_TRANS_HUGE) {
			unsigned long base = pmd * PTRS_PER_PTE;
			if (v == base && end - v >= PTRS_PER_PTE) {
				zap_huge_pmd(pgdat, ctx, mm, pmd);
				v += PTRS_PER_PTE - 1;
				continue;
			}
			split_huge_pmd(pgdat, mm, pmd);
			e = mm->pte[v];
		}
		if (mm->pmd_flags[pmd] & PMD_FILE) {
			if (entry_present(e))
				zap_file_pte(pgdat, mm, v);
			set_pte(mm, v, 0);
			continue;
		}
		if (entry_present(e)) {
			unsigned long pfn = entry_pfn(e);
			struct page *p = &pgdat->mem_map[pfn];
			if (PageLRU(p))
				lruvec_del_page(pgdat, pfn);
			if (PageTest(p, PG_writeback)) {
				/* mapped back while its swap write was in
				 * flight: the write holds the page, and its
				 * completion frees it (no slot caches it) */
				p->mapcount = 0;
				p->private = 0;
				SetPageFlag(p, PG_reclaim);
			} else {
				__free_pages(pgdat, ctx, p, 0);
			}
			mm->rss_anon--;
			mod_node_page_state(pgdat, NR_ANON_MAPPED, -1);
		} else if (entry_nonres(e)) {
			swap_free(pgdat, ctx, e & ENTRY_VAL_MASK);
			mm->swapents--;
		}
		set_pte_old(mm, v, e, 0);     /* e is still the pte: nothing above writes it */
		mm->young[v / 64] &= ~(1ull << (v % 64));
	}
}

static void zap_anon(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm)
{
	zap_range(pgdat, ctx, mm, 0, mm->nr_vpages);
}

void mm_unmap(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
              unsigned long vpage, unsigned long nr)
{
	unsigned long end = vpage + nr;

	if (end > mm->nr_vpages)
		end = mm->nr_vpages;
	if (vpage >= end)
		return;
	zap_range(pgdat, ctx, mm, vpage, end);
	if (mm->nr_file_vmas)
		unmap_file_vmas(pgdat, mm, vpage, end);
	/* free_pgtables(): the page tables of wholly unmapped 2 MiB ranges */
	for (unsigned long i = (vpage + PTRS_PER_PTE - 1) / PTRS_PER_PTE; (i + 1) * PTRS_PER_PTE <= end; i++) {
		if (mm->pgtables[i]) {
			__free_pages(pgdat, ctx, &pgdat->mem_map[mm->pgtables[i] - 1], 0);
			mod_node_page_state(pgdat, NR_PAGETABLE, -1);
			mm->pgtables[i] = 0;
			mm->nr_pgtables--;
		}
		mm->pmd_flags[i] = 0;
	}
	/* the top of the address space: give it back (and its partial pmd
	 * flags), so that map/unmap cycles do not grow the area */
	if (end == mm->nr_vpages)
		mm->nr_vpages = vpage;
}

void oom_reap_mm(struct pglist_data *pgdat, struct mm_struct *mm)
{
	struct mm_ctx ctx = { .cpu = 0 };
	mm->oom_victim = true;
	zap_anon(pgdat, &ctx, mm);
}

void mmput(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm)
{
	if (!mm)
		return;
	zap_anon(pgdat, ctx, mm);
	unmap_file_vmas(pgdat, mm, 0, mm->nr_vpages);
	mm_free_kernel(pgdat, ctx, mm);
	pgdat->mms[mm->id] = NULL;
	free(mm->file_vmas);
	free(mm->pte);
	free(mm->pgtables);
	free(mm->pmd_flags);
	free(mm->pmd_present);
	free(mm->young);
	free(mm->present);
	free(mm);
}
