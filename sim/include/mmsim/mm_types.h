/* mm_types.h - the memory of processes and files, the LRU lists, swap and
 * the I/O devices behind them (include/linux/mm_types.h, fs.h, swap.h).
 *
 * Page tables and the page cache are arrays of 32-bit entries, indexed by
 * virtual page or file page: an entry is empty, a present page (its pfn),
 * or a non-present marker (a swap slot for anon memory, a shadow entry of
 * an evicted file page).  Reverse mapping needs no search: a page's
 * mapping/index name its owner and slot.
 */
#ifndef MMSIM_MM_TYPES_H
#define MMSIM_MM_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define ENTRY_PRESENT   0x40000000u   /* low 30 bits: pfn */
#define ENTRY_NONRES    0x80000000u   /* low 31 bits: swap slot, or shadow */
#define ENTRY_PFN_MASK  0x3fffffffu
#define ENTRY_VAL_MASK  0x7fffffffu

static inline bool entry_present(uint32_t e) { return (e & ENTRY_PRESENT) && !(e & ENTRY_NONRES); }
static inline bool entry_nonres(uint32_t e)  { return (e & ENTRY_NONRES) != 0; }
static inline uint32_t entry_pfn(uint32_t e) { return e & ENTRY_PFN_MASK; }

/* PTRS_PER_PTE: one page-table page maps 512 pages (2 MiB) */
#define PTRS_PER_PTE 512u
#define KSTACK_PAGES 4u                /* THREAD_SIZE 16 KiB, vmalloc'd */

/* vm_flags of a mapping (include/linux/mm.h's values) */
#define VM_READ   0x1u
#define VM_WRITE  0x2u
#define VM_EXEC   0x4u
#define VM_SHARED 0x8u

/* A file-backed area (a vm_area_struct with vm_file): nr virtual pages of
 * process mm from start map the pages of file ino from pgoff.  The process
 * keeps its areas, the file the same entries in its i_mmap. */
struct file_vma {
	uint32_t mm, ino;
	unsigned vm_flags;
	unsigned long start, nr, pgoff;
};

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};
static inline bool is_file_lru(enum lru_list l)   { return l == LRU_INACTIVE_FILE || l == LRU_ACTIVE_FILE; }
static inline bool is_active_lru(enum lru_list l) { return l == LRU_ACTIVE_ANON || l == LRU_ACTIVE_FILE; }

struct lruvec {
	uint32_t lists[NR_LRU_LISTS];      /* sentinels in the memmap */
	unsigned long anon_cost;           /* lru_note_cost(): IO and rotations */
	unsigned long file_cost;
	unsigned long nonresident_age;     /* workingset clock: evictions + activations */
	unsigned long refaults[2];         /* WORKINGSET_ACTIVATE_* at the last reclaim cycle */
};

/* A process's memory. */
struct mm_struct {
	uint32_t id;                       /* page->mapping of its anon pages */
	uint32_t *pte;                     /* per virtual page */
	unsigned long nr_vpages, cap_vpages;
	uint32_t *pgtables;                /* page-table page per PTRS_PER_PTE vpages (pfn + 1; 0: none) */
	uint8_t *pmd_flags;                /* per PTRS_PER_PTE vpages: PMD_* */
	uint16_t *pmd_present;             /* per PTRS_PER_PTE vpages: how many of its ptes are present
	                                    * (set_pte() keeps it), so that a touch of a fully mapped
	                                    * pmd skips reading its ptes (mm_access) */
	uint64_t *young;                   /* per vpage, one bit: the pte's accessed bit (see mm_page_fold_young) */
	uint64_t *present;                 /* per vpage, one bit: its pte is present (set_pte() keeps it),
	                                    * so that mm_access finds the end of a run of present ptes
	                                    * 64 at a time */
	unsigned long nr_pgtables;
	unsigned long rss_anon;            /* present anon pages */
	unsigned long rss_file;            /* present file ptes (MM_FILEPAGES) */
	struct file_vma *file_vmas;        /* its file mappings (mm_mmap_file) */
	unsigned nr_file_vmas, cap_file_vmas;
	unsigned long swapents;            /* swapped-out pages */
	uint32_t pgd;                      /* the top page-table page */
	uint32_t kstack[KSTACK_PAGES];     /* kernel stack pages */
	uint32_t slab_objs[8];             /* task_struct, mm_struct, vm areas...: slab handles */
	unsigned nr_slab_objs;
	int oom_score_adj;
	bool oom_victim;                   /* killed: the owner stops at its next quantum */
	void *owner;                       /* the engine's process */
};

#define PMD_HUGEPAGE  0x1u              /* VM_HUGEPAGE: madvise(MADV_HUGEPAGE) covers it */
#define PMD_TRANS_HUGE 0x2u             /* mapped by a THP (pmd_trans_huge) */
#define PMD_FILE      0x4u              /* inside a file mapping: faults read the page cache */

/* read()'s readahead state (struct file_ra_state, mm/readahead.c): the
 * current window [start, start + size), of which the last async_size
 * pages are read ahead of the reader; the folio of the window marked
 * PG_readahead (at start + size - async_size, rounded down to the folio),
 * whose read starts the next window; and where the previous read ended
 * (prev_pos, in pages).  Used only with [kernel] large_folios. */
#define RA_NO_MARK UINT32_MAX
struct file_ra_state {
	unsigned long start, size, async_size;
	unsigned long prev_index;          /* prev_pos >> PAGE_SHIFT: the page after the last read;
	                                    * ULONG_MAX: no read yet (prev_pos = -1) */
	uint32_t mark_index, mark_pfn;     /* the PG_readahead folio: its index and head pfn
	                                    * (RA_NO_MARK: none) */
	unsigned order;                    /* the last window's folio order ([kernel]
	                                    * readahead_order = file_ra_state only) */
};

/* A file's page cache (struct address_space with its inode). */
struct address_space {
	uint32_t ino;                      /* page->mapping of its pages */
	uint32_t *i_pages;                 /* per file page */
	uint32_t *xa_nodes;                /* per 64 pages: the xa_node (slab handle) holding their
	                                    * slots, SLAB_OBJ_NONE until one is used; NULL for a
	                                    * one-page file (xa_head holds its entry) */
	unsigned long size;                /* pages */
	unsigned long nrpages;             /* resident pages */
	bool bdev;                         /* block-device cache (filesystem metadata) */
	uint32_t nr_xa_nodes;              /* of them, allocated */
	uint32_t dname;                    /* its name (dcache.h), DNAME_NONE until first opened */
	uint32_t inode;                    /* its in-core inode (a slab handle), or SLAB_OBJ_NONE */
	struct file_vma *i_mmap;           /* the areas mapping it (the kernel's interval tree) */
	unsigned nr_i_mmap, cap_i_mmap;
	const char *name;                  /* a static name, for files looked up by it (executables) */
	/* The readahead state of read().  The kernel keeps it per open file
	 * (file->f_ra); the model keeps it per inode, because each model
	 * file has one reader at a time (a streamer's file, a source file
	 * that a compiler job opens and reads whole), so the two are the
	 * same state. */
	struct file_ra_state ra;
	unsigned long nr_large_folios;     /* its folios of order > 0 (PG_head), so that the split
	                                    * before a mapping or a write costs nothing without them */
};

/* A block device: latency and bandwidth, one queue (FIFO). */
#define BLOCKDEV_LONG_WAIT   0.1        /* seconds: a queue wait counted as long */
#define BLOCKDEV_FAR_AHEAD   0.2        /* seconds: an issue counted as far ahead of the clock */
struct blockdev {
	double latency;                    /* seconds per request */
	double bandwidth;                  /* bytes per second */
	double busy_until;                 /* virtual time the queue drains */
	unsigned long reads, writes;       /* pages */
	/* the queue as its requests saw it, reads [0] and writes [1]
	 * (reported as run metrics) */
	struct blockdev_stats {
		unsigned long requests;
		unsigned long long_waits;  /* queued more than BLOCKDEV_LONG_WAIT */
		double wait_total, wait_max;   /* seconds from issue to the start of the transfer */
	} stats[2];
	unsigned long nr_far_ahead;        /* issued more than BLOCKDEV_FAR_AHEAD past the clock */
};

/* A page under writeback and the virtual time its write completes. */
struct wb_entry {
	uint32_t pfn;
	double done;
};

/* The swap area (swap_info_struct): a stack of free slots. */
struct swap_info {
	unsigned long pages;               /* slots */
	unsigned long inuse;
	uint32_t *free_slots;
	unsigned long nr_free_slots;
	uint32_t *slot_shadow;             /* workingset shadow of the page in the slot */
	uint32_t *slot_page;               /* pfn + 1 of the page still being written to the slot */
	struct wb_entry *wb;               /* writes in flight, in completion order (a ring) */
	unsigned long wb_head, wb_len, wb_cap;
	struct blockdev dev;
	/* what became of the pages reclaim wrote out, over the whole run (a
	 * tally, no /proc counter): written (pswpout's pages); freed by
	 * reclaim once written (in pgsteal_anon); freed because their
	 * process unmapped the slot while the page was in the swap cache,
	 * written or being written (free_swap_and_cache(): in no pgsteal);
	 * mapped back by a fault that found them in the swap cache */
	struct {
		unsigned long written, reclaimed, unmapped, mapped_back;
	} fate;
};

#endif
