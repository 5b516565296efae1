/* fuzz_driver.c - a seeded mutation driver for fuzz_scenario.c, for the
 * builds without libFuzzer (gcc, the test suite's ASan/UBSan build).
 *
 *   fuzz_scenario [-n EXECUTIONS] [-s SEED] [-d DICT] SEED_FILE...
 *
 * Each execution takes one of the seed files (scenarios such as
 * configs/NAME.ini), sometimes with --set arguments after a NUL byte (see
 * fuzz_scenario.c), and applies one to eight random mutations: bit flips,
 * byte insertions and deletions, copies of a range, splices of another
 * seed, tokens of the dictionary (the language's sections, keys and
 * edge values) and numbers at the limits of the parsers' types.  Every
 * tenth mutant that resolves joins the pool, so that later ones start from
 * inputs that pass the parser (what libFuzzer's coverage does better).
 * Same seed, same inputs: a failure reproduces with the same arguments,
 * and an abort (a sanitizer report, with abort_on_error=1) writes the
 * input that caused it to fuzz-crash.bin in the working directory, for
 * `fuzz_scenario_libfuzzer fuzz-crash.bin` or a debugger.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LEN 8192
#define MAX_POOL 4096

struct buf {
	uint8_t *p;
	size_t n;
};

static struct buf pool[MAX_POOL];
static size_t nr_pool, nr_seeds;
static struct buf tokens[512];
static size_t nr_tokens;
static uint64_t rng;
static uint8_t cur[MAX_LEN + 1];        /* the input being run */
static volatile size_t cur_len;

/* xorshift64*: the same sequence on every host */
static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

static void add(struct buf *b, const void *p, size_t n)
{
	b->p = malloc(n ? n : 1);
	if (!b->p)
		abort();
	memcpy(b->p, p, n);
	b->n = n;
}

static int read_file(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");
	uint8_t tmp[MAX_LEN];
	size_t n;

	if (!f)
		return -1;
	n = fread(tmp, 1, sizeof(tmp), f);
	fclose(f);
	add(b, tmp, n);
	return 0;
}

/* libFuzzer's dictionary format: one "token" a line, \xNN and \\ \" escapes */
static void read_dict(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f) {
		fprintf(stderr, "fuzz_scenario: cannot read the dictionary %s\n", path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f) && nr_tokens < sizeof(tokens) / sizeof(tokens[0])) {
		char *q = strchr(line, '"'), out[512];
		size_t n = 0;
		if (!q || line[0] == '#')
			continue;
		for (q++; *q && *q != '"'; q++) {
			if (*q == '\\' && q[1] == 'x' && q[2] && q[3]) {
				char hex[3] = { q[2], q[3], 0 };
				out[n++] = (char)strtol(hex, NULL, 16);
				q += 3;
			} else if (*q == '\\' && q[1]) {
				out[n++] = *++q;
			} else {
				out[n++] = *q;
			}
		}
		add(&tokens[nr_tokens++], out, n);
	}
	fclose(f);
}

static const char *const numbers[] = {
	"0", "1", "-1", "-0", "4294967295", "4294967296", "18446744073709551615",
	"18446744073709551616", "9223372036854775808", "1e308", "1e309", "-1e308",
	"1e-320", "nan", "inf", "0x7fffffff", "16383T", "16384T", "17179869183G", " ", "",
};

static size_t mutate(uint8_t *d, size_t n)
{
	unsigned rounds = 1 + (unsigned)below(8);

	for (unsigned r = 0; r < rounds; r++) {
		size_t at = below(n + 1), len;
		const uint8_t *src;

		switch (below(9)) {
		case 0:         /* flip a bit */
			if (n)
				d[below(n)] ^= (uint8_t)(1u << below(8));
			break;
		case 1:         /* a random byte, often a delimiter */
			if (n < MAX_LEN) {
				static const char delim[] = "[]=,;#.\n\0 -+.eE";
				memmove(d + at + 1, d + at, n - at);
				d[at] = below(2) ? (uint8_t)delim[below(sizeof(delim) - 1)] : (uint8_t)next();
				n++;
			}
			break;
		case 2:         /* delete a range */
			len = below(n - (at < n ? at : n) + 1);
			if (len > 64)
				len = 64;
			if (at < n) {
				memmove(d + at, d + at + len, n - at - len);
				n -= len;
			}
			break;
		case 3:         /* copy a range of the input elsewhere */
			if (n) {
				size_t from = below(n);
				len = 1 + below(n - from < 64 ? n - from : 64);
				if (n + len <= MAX_LEN) {
					uint8_t tmp[64];
					memcpy(tmp, d + from, len);
					memmove(d + at + len, d + at, n - at);
					memcpy(d + at, tmp, len);
					n += len;
				}
			}
			break;
		case 4: case 5: /* a token of the language */
			if (!nr_tokens)
				break;
			{
				struct buf *t = &tokens[below(nr_tokens)];
				src = t->p;
				len = t->n;
			}
			goto insert;
		case 6: case 7: /* a number at a parser's limit, over a value */
		{
			const char *v = numbers[below(sizeof(numbers) / sizeof(numbers[0]))];
			/* find a '=' from a random place, replace the value after it */
			size_t start = below(n), i;
			for (i = start; i < n && d[i] != '='; i++)
				;
			if (i < n) {
				size_t e = i + 1;
				while (e < n && d[e] != '\n' && d[e] != 0)
					e++;
				len = strlen(v);
				if (n - (e - i - 1) + len + 1 <= MAX_LEN) {
					memmove(d + i + 1 + len, d + e, n - e);
					memcpy(d + i + 1, v, len);
					n = n - (e - i - 1) + len;
				}
				break;
			}
			src = (const uint8_t *)v;
			len = strlen(v);
			goto insert;
		}
		case 8:         /* splice a piece of another input */
		{
			struct buf *o = &pool[below(nr_pool)];
			size_t from = below(o->n);
			len = below(o->n - from + 1);
			if (len > 256)
				len = 256;
			src = o->p + from;
			goto insert;
		}
		}
		continue;
insert:
		if (n + len <= MAX_LEN) {
			memmove(d + at + len, d + at, n - at);
			memcpy(d + at, src, len);
			n += len;
		}
	}
	return n;
}

/* does the input pass the parser? (for the pool) */
#include "mmsim/scenario.h"
static int resolves(const uint8_t *d, size_t n)
{
	struct scenario *s = scenario_new();
	char err[256], *b = malloc(n + 1), *p;
	int rc;

	memcpy(b, d, n);
	b[n] = 0;
	rc = scenario_load_string(s, b, "pool", err, sizeof(err));
	for (p = b + strlen(b) + 1; !rc && p < b + n; p += strlen(p) + 1)
		rc = scenario_set(s, p, err, sizeof(err));
	if (!rc)
		rc = scenario_resolve(s, err, sizeof(err));
	scenario_free(s);
	free(b);
	return rc == 0;
}

/* SIGABRT (a sanitizer's report, an assertion): keep the input */
static void save_input(int sig)
{
	int fd = open("fuzz-crash.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, cur, cur_len);
		(void)w;
		close(fd);
	}
	{
		static const char m[] = "fuzz_scenario: the input is in fuzz-crash.bin\n";
		ssize_t w = write(2, m, sizeof(m) - 1);
		(void)w;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	unsigned long execs = 20000, added = 0;
	uint64_t seed = 1;
	const char *dict = NULL;
	uint8_t *d = cur;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:d:")) != -1) {
		switch (opt) {
		case 'n': execs = strtoul(optarg, NULL, 10); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'd': dict = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n EXECUTIONS] [-s SEED] [-d DICT] SEED_FILE...\n", argv[0]);
			return 2;
		}
	}
	for (int i = optind; i < argc && nr_pool < MAX_POOL; i++)
		if (read_file(argv[i], &pool[nr_pool]) == 0)
			nr_pool++;
		else
			fprintf(stderr, "fuzz_scenario: cannot read %s\n", argv[i]);
	if (!nr_pool) {
		fprintf(stderr, "fuzz_scenario: no seed files\n");
		return 2;
	}
	nr_seeds = nr_pool;
	if (dict)
		read_dict(dict);
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	signal(SIGABRT, save_input);

	for (unsigned long i = 0; i < execs; i++) {
		struct buf *b = &pool[below(nr_pool)];
		size_t n = b->n;

		memcpy(d, b->p, n);
		/* sometimes --set arguments: a NUL, then key=value pairs */
		if (below(4) == 0 && n + 1 < MAX_LEN && nr_tokens) {
			d[n++] = 0;
			if (n < MAX_LEN - 64)
				n += (size_t)snprintf((char *)d + n, 64, "%s",
				                      below(2) ? "vm.swappiness=60" : "hygiene.no_fallback=yes");
		}
		n = mutate(d, n);
		cur_len = n;
		LLVMFuzzerTestOneInput(d, n);
		if (i % 10 == 0 && nr_pool < MAX_POOL && resolves(d, n)) {
			add(&pool[nr_pool++], d, n);
			added++;
		}
		if ((i + 1) % 100000 == 0)
			fprintf(stderr, "fuzz_scenario: %lu executions, pool %zu\n", i + 1, nr_pool);
	}
	fprintf(stderr, "fuzz_scenario: %lu executions (seed %llu), %zu seeds, %lu resolving mutants kept; "
	        "no crash\n", execs, (unsigned long long)seed, nr_seeds, added);
	for (size_t i = 0; i < nr_pool; i++)
		free(pool[i].p);
	for (size_t i = 0; i < nr_tokens; i++)
		free(tokens[i].p);
	return 0;
}
