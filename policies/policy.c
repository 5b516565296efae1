/* policy.c - the registry of allocator policies and the switch plumbing.
 * Policies are found by name in an explicit table (no self-registration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/policy.h"

extern const struct mm_policy_ops vanilla_policy_ops;
extern const struct mm_policy_ops hugealloc_rfc_policy_ops;

const struct mm_policy_ops *const mm_policy_table[] = {
	&vanilla_policy_ops,
	&hugealloc_rfc_policy_ops,
	NULL,
};

const struct mm_policy_ops *mm_policy_find(const char *name)
{
	for (int i = 0; mm_policy_table[i]; i++) {
		if (!strcmp(mm_policy_table[i]->name, name))
			return mm_policy_table[i];
		for (const char *const *a = mm_policy_table[i]->aliases; a && *a; a++)
			if (!strcmp(*a, name))
				return mm_policy_table[i];
	}
	return NULL;
}

const char *mm_policy_canonical(const char *name)
{
	const struct mm_policy_ops *o = mm_policy_find(name);
	return o ? o->name : name;
}

const char *mm_policy_names(void)
{
	static char buf[256];
	buf[0] = 0;
	for (int i = 0; mm_policy_table[i]; i++) {
		if (i)
			strncat(buf, ", ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, mm_policy_table[i]->name, sizeof(buf) - strlen(buf) - 1);
	}
	return buf;
}

/* Every hook is mandatory but the three that stand for features the RFC
 * deletes; a table that breaks this is a programming error. */
static int policy_table_check(const struct mm_policy_ops *o, char *err, size_t errlen)
{
	const void *mandatory[] = {
		(const void *)o->validate,
		(const void *)o->boot_pageblock_migratetype, (const void *)o->fallbacks,
		(const void *)o->can_steal_fallback, (const void *)o->free_one_page_migratetype,
		(const void *)o->zone_free_pages, (const void *)o->watermark_area_ok,
		(const void *)o->wmark_gap, (const void *)o->reclaim_order,
		(const void *)o->compact_order, (const void *)o->last_resort_fallback,
		(const void *)o->bdev_mapping_gfp, (const void *)o->reclaim_retry_defers_to_compaction,
		(const void *)o->compaction_suitable_free_pages, (const void *)o->isolate_free_page_free_pages,
		(const void *)o->suitable_migration_source, (const void *)o->compact_finished,
		(const void *)o->compaction_wmark, (const void *)o->compaction_capture,
		(const void *)o->compact_retry_costly_limits, (const void *)o->wakeup_kswapd_wakes_kcompactd,
		(const void *)o->kswapd_compaction_suitable, (const void *)o->suitable_migration_target,
		(const void *)o->compact_retry_three_outcomes, (const void *)o->zonelist_suitable_targets_only,
		(const void *)o->direct_compact_nofs_reserves, (const void *)o->fast_find_migrateblock_any_type,
		(const void *)o->compaction_ready_before_zones, (const void *)o->proactive_compact_counts_daemon,
	};
	for (size_t i = 0; i < sizeof(mandatory) / sizeof(mandatory[0]); i++)
		if (!mandatory[i]) {
			snprintf(err, errlen, "policy '%s': mandatory hook %zu missing", o->name, i);
			return -1;
		}
	if (!o->reserve_highatomic_pageblock != !o->unreserve_highatomic_pageblock) {
		snprintf(err, errlen, "policy '%s': highatomic reserve and release come together",
		         o->name);
		return -1;
	}
	return 0;
}

int mm_policy_create(const char *name, struct mm_policy **out, char *err, size_t errlen)
{
	const struct mm_policy_ops *ops = mm_policy_find(name);
	struct mm_policy *p;

	if (!ops) {
		snprintf(err, errlen, "unknown policy '%s' (valid: %s)", name, mm_policy_names());
		return -1;
	}
	if (policy_table_check(ops, err, errlen))
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p || (ops->priv_size && !(p->priv = calloc(1, ops->priv_size)))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->ops = *ops;
	/* every switch starts at its documented default */
	if (param_set_defaults(ops->params, p->priv, err, errlen)) {
		mm_policy_destroy(p);
		return -1;
	}
	*out = p;
	return 0;
}

int mm_policy_set(struct mm_policy *p, const char *key, const char *value, char *err, size_t errlen)
{
	const struct param *d = param_find(p->ops.params, key);
	char names[256];

	if (!d) {
		param_names(p->ops.params, names, sizeof(names));
		snprintf(err, errlen, "policy %s has no switch '%s' (valid: %s)", p->ops.name, key,
		         names[0] ? names : "none");
		return -1;
	}
	return param_set(d, p->priv, value, err, errlen);
}

int mm_policy_validate(struct mm_policy *p, char *err, size_t errlen)
{
	if (p->ops.validate(p, err, errlen))
		return -1;
	return policy_table_check(&p->ops, err, errlen);
}

void mm_policy_destroy(struct mm_policy *p)
{
	if (!p)
		return;
	free(p->priv);
	free(p);
}
