/* stress_boot_order.c - boot frees memory to the tail of the free lists.
 *
 * v6.2 releases boot memory through __free_pages_core(), which calls
 * __free_pages_ok(page, order, FPI_TO_TAIL | FPI_SKIP_KASAN_POISON)
 * ("Bypass PCP and place fresh pages right to the tail", since v5.10,
 * commit 7fef431be9c9).  __free_pages_memory() walks each range upwards in
 * naturally aligned chunks, so after boot every free list is in ascending
 * pfn order and the allocator hands out the lowest free pages of a list
 * first.  The model does the same: free_boot_range() (sim/mm/mm_init.c)
 * walks each zone's managed range upwards in aligned chunks and frees each
 * with free_boot_page() (sim/mm/page_alloc.c), i.e. __free_one_page(...,
 * FPI_TO_TAIL).
 *
 * This test pins that behaviour, for every policy: every free list is
 * ascending after boot (the invariant checker cannot see list order), and
 * the first huge pages of a fresh 2G guest come from the bottom of DMA32.
 * Freed to the head instead (FPI_NONE), the lists of order 9 and 10 come
 * out descending and the first pageblocks handed out are the highest: both
 * tests fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "stress_common.h"

/* Every free list of every populated zone is in ascending pfn order;
 * returns false with the first offence described in msg. */
static bool lists_ascending(const struct machine *m, char *msg, size_t len)
{
	const struct pglist_data *pgdat = &m->pgdat;

	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		for (int o = 0; o < MAX_ORDER; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				uint32_t head = z->free_area[o].free_list[mt];
				uint32_t prev = PFN_NONE;

				for (uint32_t e = pgdat->mem_map[head].next; e != head;
				     prev = e, e = pgdat->mem_map[e].next)
					if (prev != PFN_NONE && e < prev) {
						snprintf(msg, len, "zone %s order %d %s list: pfn %#x follows %#x",
						         z->name, o, migratetype_names[mt], e, prev);
						return false;
					}
			}
	}
	return true;
}

static void test_boot_lists_ascending(void **state)
{
	static const uint64_t rams[] = { 512ull << 20, 2ull << 30, 4ull << 30 };
	const struct mm_policy_ops *ops = *state;

	for (size_t i = 0; i < sizeof(rams) / sizeof(rams[0]); i++) {
		struct machine m;
		char msg[160];
		bool ok;

		machine_boot_or_fail(&m, ops->name, rams[i], 4);
		ok = lists_ascending(&m, msg, sizeof(msg));
		machine_destroy(&m);
		if (!ok)
			fail_msg("%s %lluM after boot: %s (v6.2 frees boot memory with FPI_TO_TAIL: "
			         "ascending)", ops->name, (unsigned long long)(rams[i] >> 20), msg);
	}
}

/* The consequence: the first huge pages of a freshly booted 2G guest come
 * from the bottom of DMA32.  Vanilla takes the order-9 boot leftover at pfn
 * 13824 and then splits the lowest order-10 chunk (pfn 14336); hygiene
 * claims the first order-10 chunk of its FREE list (pfns 14336 and 14848).
 * Either way both lie below pfn 15360 (boot memory freed to the head of
 * the lists gives 515072 and up).  TAO's THPs come from ZONE_NOSPLIT, at
 * the top of memory: from the bottom of that zone then (its first two
 * MAX_ORDER_NR_PAGES). */
static void test_first_pageblocks_from_the_bottom(void **state)
{
	const struct mm_policy_ops *ops = *state;
	struct mm_ctx ctx = { .cpu = 0 };
	struct machine m;
	struct page *thp[2];
	unsigned long pfn[2], bottom[2];

	machine_boot_or_fail(&m, ops->name, 2ull << 30, 4);
	for (int i = 0; i < 2; i++) {
		const struct zone *z;

		thp[i] = alloc_pages(&m.pgdat, &ctx, GFP_TRANSHUGE_LIGHT, pageblock_order);
		assert_non_null(thp[i]);
		pfn[i] = page_to_pfn(&m.pgdat, thp[i]);
		z = page_zone(&m.pgdat, thp[i]);
		bottom[i] = z->idx > ZONE_MOVABLE ? z->managed_start_pfn + 2 * MAX_ORDER_NR_PAGES : 15360;
	}
	for (int i = 1; i >= 0; i--)
		__free_pages(&m.pgdat, &ctx, thp[i], pageblock_order);
	machine_destroy(&m);
	print_message("%s: first THPs at pfn %lu and %lu\n", ops->name, pfn[0], pfn[1]);
	for (int i = 0; i < 2; i++)
		if (pfn[i] >= bottom[i])
			fail_msg("%s: THP %d at pfn %lu; v6.2 hands out the lowest pageblocks of "
			         "its zone first (below %lu)", ops->name, i, pfn[i], bottom[i]);
}

int main(void)
{
	struct CMUnitTest tests[32];
	static char names[32][64];
	size_t n = 0;

	for (int i = 0; mm_policy_table[i] && n + 2 <= 32; i++) {
		snprintf(names[n], sizeof(names[n]), "%s/boot_lists_ascending", mm_policy_table[i]->name);
		tests[n] = (struct CMUnitTest){ names[n], test_boot_lists_ascending, NULL, NULL,
		                                (void *)mm_policy_table[i] };
		n++;
		snprintf(names[n], sizeof(names[n]), "%s/first_pageblocks_from_the_bottom",
		         mm_policy_table[i]->name);
		tests[n] = (struct CMUnitTest){ names[n], test_first_pageblocks_from_the_bottom, NULL, NULL,
		                                (void *)mm_policy_table[i] };
		n++;
	}
	return _cmocka_run_group_tests("stress_boot_order", tests, n, NULL, NULL);
}
