/* debug_vm.h - the model's CONFIG_DEBUG_VM.
 *
 * VM_BUG_ON(cond) dumps and aborts when MMSIM_DEBUG_VM is defined (Debug
 * builds and the sanitizer build); otherwise the expression is still
 * type-checked but never evaluated.  check_pgdat() walks the whole state;
 * the rules it enforces are listed in debug_vm.c and docs/model.md.
 */
#ifndef MMSIM_DEBUG_VM_H
#define MMSIM_DEBUG_VM_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/mmzone.h"

void mm_bug(const char *file, int line, const char *cond) __attribute__((noreturn));

#ifdef MMSIM_DEBUG_VM
#define VM_BUG_ON(cond) do { if (__builtin_expect(!!(cond), 0)) mm_bug(__FILE__, __LINE__, #cond); } while (0)
#else
#define VM_BUG_ON(cond) do { if (0) { (void)sizeof(!!(cond)); } } while (0)
#endif

/* Walk the node; returns the number of violations found, printing the first
 * few to stderr (prefixed with what), with the page or block involved. */
unsigned long check_pgdat(const struct pglist_data *pgdat, const char *what);

/* Free buddies on a list other than the type of a block they cover (an
 * isolated block excepted): a violation under 6.10's freelist hygiene
 * (MMF_FREELIST_HYGIENE), which check_pgdat() reports; for the other
 * policies only this count, of what their v6.2 free path leaves (stale
 * pcp types, merged buddies of two types).  Linear in the free buddies. */
unsigned long freelist_type_mismatches(const struct pglist_data *pgdat);

/* As above, but on a violation print the zone state and abort (BUG()). */
void check_pgdat_or_die(const struct pglist_data *pgdat, const char *what);

/* Called by every allocator entry point: runs check_pgdat_or_die() every
 * pgdat->debug_check_interval operations. */
static inline void debug_vm_tick(struct pglist_data *pgdat, const char *what)
{
	if (pgdat->debug_check_interval &&
	    ++pgdat->debug_ops % pgdat->debug_check_interval == 0)
		check_pgdat_or_die(pgdat, what);
}

void dump_page(const struct pglist_data *pgdat, unsigned long pfn, const char *reason);

#endif
