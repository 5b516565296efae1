/* policy.c - the registry of allocator policies and the switch plumbing.
 * Policies are found by name in an explicit table (no self-registration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/policy.h"

extern const struct mm_policy_ops vanilla_policy_ops;
extern const struct mm_policy_ops hugealloc_rfc_policy_ops;
extern const struct mm_policy_ops v6_15_policy_ops;
extern const struct mm_policy_ops defrag_mode_policy_ops;
extern const struct mm_policy_ops tao_policy_ops;

const struct mm_policy_ops *const mm_policy_table[] = {
	&vanilla_policy_ops,
	&hugealloc_rfc_policy_ops,
	&v6_15_policy_ops,
	&defrag_mode_policy_ops,
	&tao_policy_ops,
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

/* The hooks a policy may leave NULL, each taken from the base then.  A
 * hook added to struct mm_policy_ops is added here too (test_policy
 * checks that a resolved table has no NULL hook). */
#define MM_POLICY_HOOKS(X) \
	X(policy_zones) X(boot_pageblock_migratetype) X(fallbacks) X(can_steal_fallback) X(free_one_page_migratetype) \
	X(zone_free_pages) X(watermark_area_ok) X(wmark_gap) X(reclaim_order) X(compact_order) \
	X(compaction_suitable_free_pages) X(isolate_free_page_free_pages) X(suitable_migration_source) \
	X(suitable_migration_target) X(compact_finished) X(compaction_wmark) X(compaction_capture) \
	X(wakeup_kswapd_wakes_kcompactd) X(bdev_mapping_gfp)

/* fill what o leaves unset from the resolved base b */
static void policy_inherit(struct mm_policy_ops *o, const struct mm_policy_ops *b)
{
#define INHERIT(h) if (!o->h) o->h = b->h;
	MM_POLICY_HOOKS(INHERIT)
#undef INHERIT
}

/* a policy's table with its chain of bases folded in; features add up */
static void policy_resolve(const struct mm_policy_ops *ops, struct mm_policy_ops *out)
{
	struct mm_policy_ops base;

	if (ops->base)
		policy_resolve(ops->base, &base);
	else
		base = mm_v6_2_ops;
	*out = *ops;
	out->features |= base.features;
	policy_inherit(out, &base);
}

/* the kernel's own functions, present unless a feature compiles them out */
static void policy_compile(struct mm_policy *p)
{
	struct mm_policy_ops *o = &p->ops;
	bool highatomic = !(o->features & MMF_NO_HIGHATOMIC);

	policy_inherit(o, p->base);
	o->reserve_highatomic_pageblock = highatomic ? mm_v6_2_ops.reserve_highatomic_pageblock : NULL;
	o->unreserve_highatomic_pageblock = highatomic ? mm_v6_2_ops.unreserve_highatomic_pageblock : NULL;
	o->boost_watermark = o->features & MMF_NO_WATERMARK_BOOST ? NULL : mm_v6_2_ops.boost_watermark;
}

int mm_policy_create(const char *name, struct mm_policy **out, char *err, size_t errlen)
{
	const struct mm_policy_ops *ops = mm_policy_find(name);

	if (!ops) {
		snprintf(err, errlen, "unknown policy '%s' (valid: %s)", name, mm_policy_names());
		return -1;
	}
	return mm_policy_create_ops(ops, out, err, errlen);
}

int mm_policy_create_ops(const struct mm_policy_ops *ops, struct mm_policy **out, char *err, size_t errlen)
{
	struct mm_policy *p = calloc(1, sizeof(*p));

	if (!p || (ops->priv_size && !(p->priv = calloc(1, ops->priv_size)))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	policy_resolve(ops, &p->ops);
	if (ops->base)
		policy_resolve(ops->base, &p->base_ops);
	else
		p->base_ops = mm_v6_2_ops;
	p->base = &p->base_ops;
	policy_compile(p);
	/* every switch starts at its documented default, the table with it */
	if (param_set_defaults(ops->params, p->priv, err, errlen) || mm_policy_validate(p, err, errlen)) {
		mm_policy_destroy(p);
		return -1;
	}
	*out = p;
	return 0;
}

int mm_policy_set(struct mm_policy *p, const char *key, const char *value, char *err, size_t errlen)
{
	const struct param *d = param_find(p->ops.params, key);
	char names[1024];

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
	if (p->ops.validate && p->ops.validate(p, err, errlen))
		return -1;
	policy_compile(p);
	return 0;
}

bool mm_policy_is_base(const struct mm_policy *p)
{
	if (p->ops.features != p->base_ops.features)
		return false;
#define SAME(h) if (p->ops.h != p->base_ops.h) return false;
	MM_POLICY_HOOKS(SAME)
#undef SAME
	return true;
}

void mm_policy_attach(struct mm_policy *p, struct pglist_data *pgdat)
{
	p->pgdat = pgdat;
	if (p->ops.attach)
		p->ops.attach(p);
	policy_compile(p);
}

void mm_policy_destroy(struct mm_policy *p)
{
	if (!p)
		return;
	free(p->priv);
	free(p);
}
