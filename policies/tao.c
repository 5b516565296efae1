/* tao.c - TAO, "THP Allocator Optimizations" (Yu Zhao, [LSF/MM/BPF TOPIC]
 * posting of 2024-02-29, <20240229183436.4110845-1-yuzhao@google.com>),
 * its chapter one "THP zones: the use cases of policy zones" (-2- of the
 * thread): policy (virtual) zones overlaid on the physical ones.
 * ZONE_NOSPLIT serves only requests of at least its order (its free pages
 * are never split below it), ZONE_NOMERGE only requests of exactly its
 * order (its free pages never merge above it); both are carved at boot,
 * kernelcore= style, by the parameters nosplit=X,Y and nomerge=X,Y (X a
 * size or a percentage of memory, Y the order).  Only movable user
 * requests of those orders (THP faults) may enter them, falling back to
 * the physical zones; small requests never do, so the rest of memory is
 * the small-page partition, which reclaims and then OOM-kills on its own.
 *
 * On the project's v6.2 base (the posting is against mm-unstable of
 * February 2024): policies/README.md, "tao", says what the posting gives,
 * what the model does and leaves out, and the switches.  The mechanisms
 * themselves are the kernel's and live in sim/mm (find_virt_zones() in
 * mm_init.c, zone_is_suitable(), gfp_order_zone() and zone_can_frag() in
 * internal.h, zone->max_order in __free_one_page()); with no policy zone
 * they decide as v6.2 does.  This file is the boot command line. */
#include <stdio.h>
#include "internal.h"
#include "policies.h"

struct tao {
	int nosplit_percent;            /* nosplit=X%,Y: X */
	int nosplit_order;              /* nosplit=X,Y: Y */
	int nomerge_percent;            /* nomerge=X%,Y: X */
	int nomerge_order;              /* nomerge=X,Y: Y */
	bool kswapd;                    /* the backport's ALLOC_KSWAPD for policy-zone requests */
};

static const struct param tao_params[] = {
	{ "nosplit_percent", PARAM_INT, "percent of memory", 0, 100, "25",
	  "the boot parameter nosplit=X,Y's X as X%: ZONE_NOSPLIT's size, a share of all memory, rounded up "
	  "to MAX_ORDER_NR_PAGES and carved from the top of the highest physical zone (0: no such zone; the "
	  "posting gives no default, 25 is the model's)", PARAM_AT(struct tao, nosplit_percent) },
	{ "nosplit_order", PARAM_INT, NULL, 2, 9, "9",
	  "nosplit=X,Y's Y: ZONE_NOSPLIT serves requests of this order and above only (2..MAX_ORDER in the "
	  "kernel, at most pageblock_order or the zone is dropped; 9 = HPAGE_PMD_ORDER, the THP)",
	  PARAM_AT(struct tao, nosplit_order) },
	{ "nomerge_percent", PARAM_INT, "percent of memory", 0, 100, "0",
	  "the boot parameter nomerge=X,Y's X as X%: ZONE_NOMERGE's size, carved above ZONE_NOSPLIT (0: no such "
	  "zone)", PARAM_AT(struct tao, nomerge_percent) },
	{ "nomerge_order", PARAM_INT, NULL, 2, 9, "9",
	  "nomerge=X,Y's Y: ZONE_NOMERGE serves requests of exactly this order, and its free pages merge no "
	  "higher (must be above nosplit_order when nomerge_percent is set)",
	  PARAM_AT(struct tao, nomerge_order) },
	{ "kswapd", PARAM_BOOL, NULL, 0, 0, "yes",
	  "gfp_to_alloc_flags() of android15-6.6's TAO backport: a request for the policy zones that cannot "
	  "reclaim directly (a THP fault under defrag=madvise without madvise) wakes kswapd all the same; "
	  "no: only __GFP_KSWAPD_RECLAIM wakes it, as in v6.2", PARAM_AT(struct tao, kswapd) },
	{ NULL },
};

static inline const struct tao *T(const struct mm_policy *p)
{
	return p->priv;
}

/* the command line: nosplit=X%,Y and nomerge=X%,Y */
static bool tao_policy_zones(const struct mm_policy *p, struct virt_zone_param vz[2])
{
	const struct tao *t = T(p);

	vz[0] = (struct virt_zone_param){ .percent = (unsigned)t->nosplit_percent,
	                                  .order = (unsigned)t->nosplit_order };
	vz[1] = (struct virt_zone_param){ .percent = (unsigned)t->nomerge_percent,
	                                  .order = t->nomerge_percent ? (unsigned)t->nomerge_order : 0 };
	return true;
}

static int tao_validate(struct mm_policy *p, char *err, size_t errlen)
{
	const struct tao *t = T(p);

	/* find_virt_zones() drops both zones, with a warning, for these;
	 * the model refuses them instead */
	if (t->nosplit_percent + t->nomerge_percent > 100) {
		snprintf(err, errlen, "policy %s: nosplit_percent + nomerge_percent is %d, more than all memory",
		         p->ops.name, t->nosplit_percent + t->nomerge_percent);
		return -1;
	}
	if (t->nomerge_percent && t->nomerge_order <= t->nosplit_order) {
		snprintf(err, errlen, "policy %s: nomerge_order %d must be above nosplit_order %d "
		         "(the kernel drops both zones)", p->ops.name, t->nomerge_order, t->nosplit_order);
		return -1;
	}
	/* the base (v6.2) declares no feature */
	p->ops.features = t->kswapd ? MMF_POLICY_ZONE_WAKES_KSWAPD : 0;
	return 0;
}

const struct mm_policy_ops tao_policy_ops = {
	.name = "tao",
	.desc = "v6.2 with TAO's policy zones (Yu Zhao, 2024): ZONE_NOSPLIT (THP and above only, no split "
	        "below its order) and ZONE_NOMERGE carved at boot; small pages never enter them",
	.params = tao_params,
	.priv_size = sizeof(struct tao),
	.validate = tao_validate,
	.policy_zones = tao_policy_zones,
};
