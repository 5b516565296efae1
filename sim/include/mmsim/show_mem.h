/* show_mem.h - the node's state in the kernel's text formats.
 *
 * Each writes what the file of the same name would show on a kernel with
 * this state (v6.2 layout; where a later kernel differs the docs say so).
 * Migratetypes print only where the policy can create them: MIGRATE_FREE
 * appears as "Free" (RFC 11/26's name) only for policies that
 * create free blocks.
 */
#ifndef MMSIM_SHOW_MEM_H
#define MMSIM_SHOW_MEM_H

#include <stdio.h>
#include "mmsim/mmzone.h"

void show_pagetypeinfo(FILE *f, const struct pglist_data *pgdat);
void show_buddyinfo(FILE *f, const struct pglist_data *pgdat);
void show_vmstat(FILE *f, const struct pglist_data *pgdat);
void show_zoneinfo(FILE *f, const struct pglist_data *pgdat);
/* mm_page_alloc_extfrag events, summarised (no /proc file: a trace summary) */
void show_extfrag(FILE *f, const struct pglist_data *pgdat);

#endif
