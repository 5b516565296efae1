/* gfp.c - the parser for gfp masks written as text. */
#include <stdio.h>
#include <string.h>
#include "mmsim/gfp.h"
#include "mmsim/mmzone.h"

static const struct { const char *name; gfp_t v; } gfp_names[] = {
#define G(x) { #x, x }
	G(GFP_ATOMIC), G(GFP_KERNEL), G(GFP_KERNEL_ACCOUNT), G(GFP_NOWAIT), G(GFP_NOIO),
	G(GFP_NOFS), G(GFP_USER), G(GFP_DMA), G(GFP_DMA32), G(GFP_HIGHUSER),
	G(GFP_HIGHUSER_MOVABLE), G(GFP_TRANSHUGE_LIGHT), G(GFP_TRANSHUGE),
	G(__GFP_DMA), G(__GFP_HIGHMEM), G(__GFP_DMA32), G(__GFP_MOVABLE), G(__GFP_RECLAIMABLE),
	G(__GFP_HIGH), G(__GFP_IO), G(__GFP_FS), G(__GFP_ZERO), G(__GFP_ATOMIC),
	G(__GFP_DIRECT_RECLAIM), G(__GFP_KSWAPD_RECLAIM), G(__GFP_RECLAIM), G(__GFP_WRITE),
	G(__GFP_NOWARN), G(__GFP_RETRY_MAYFAIL), G(__GFP_NOFAIL), G(__GFP_NORETRY),
	G(__GFP_MEMALLOC), G(__GFP_COMP), G(__GFP_NOMEMALLOC), G(__GFP_HARDWALL),
	G(__GFP_THISNODE), G(__GFP_ACCOUNT),
#undef G
};

int gfp_parse(const char *s, gfp_t *out, char *err, unsigned errlen)
{
	gfp_t v = 0;
	const char *p = s;

	if (!*s) {
		snprintf(err, errlen, "empty gfp mask");
		return -1;
	}
	while (*p) {
		size_t n = strcspn(p, "|");
		size_t i;
		for (i = 0; i < sizeof(gfp_names) / sizeof(gfp_names[0]); i++)
			if (strlen(gfp_names[i].name) == n && !strncmp(p, gfp_names[i].name, n))
				break;
		if (i == sizeof(gfp_names) / sizeof(gfp_names[0])) {
			snprintf(err, errlen, "unknown gfp flag '%.*s'", (int)n, p);
			return -1;
		}
		v |= gfp_names[i].v;
		p += n;
		if (*p == '|')
			p++;
	}
	*out = v;
	return 0;
}
