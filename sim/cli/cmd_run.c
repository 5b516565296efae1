/* cmd_run.c - mmsim run: simulate one scenario into one database file. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run.h"
#include "results.h"

int run_build_scenario(const char *path, char *const *sets, int nr_sets, const char *policy,
                       const char *seed, struct scenario **out)
{
	struct scenario *s = scenario_new();
	char err[1536];
	int rc;

	*out = NULL;
	rc = scenario_load_file(s, path, err, sizeof(err));
	if (rc) {
		error("%s", err);
		scenario_free(s);
		return rc == -2 ? EXIT_NOINPUT : EXIT_CONFIG;
	}
	for (int i = 0; i < nr_sets; i++)
		if (scenario_set(s, sets[i], err, sizeof(err)))
			goto bad;
	if (policy && scenario_set_key(s, "policy.name", policy, "--policy", err, sizeof(err)))
		goto bad;
	if (seed && scenario_set_key(s, "run.seed", seed, "--seed", err, sizeof(err)))
		goto bad;
	if (scenario_resolve(s, err, sizeof(err)))
		goto bad;
	*out = s;
	return EXIT_OK;
bad:
	error("%s", err);
	scenario_free(s);
	return EXIT_CONFIG;
}

/* ------------------------------------------------------------ manifests */

long manifest_count(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int ch, last = '\n';

	if (!f)
		return -1;
	while ((ch = getc(f)) != EOF) {
		if (ch == '\n')
			n++;
		last = ch;
	}
	if (last != '\n')
		n++;
	fclose(f);
	return n;
}

int manifest_read(const char *path, unsigned long index, struct manifest_line *l, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fields[68], *save = NULL, *dir, *tmp;
	size_t cap = 0;
	ssize_t len = -1;
	int nf = 0;

	memset(l, 0, sizeof(*l));
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -2;
	}
	for (unsigned long i = 0; i < index; i++)
		if ((len = getline(&line, &cap, f)) < 0)
			break;
	fclose(f);
	if (index < 1 || len < 0) {
		free(line);
		snprintf(err, errlen, "%s: no line %lu", path, index);
		return -1;
	}
	if (len && line[len - 1] == '\n')
		line[--len] = 0;
	for (char *t = strtok_r(line, "\t", &save); t && nf < 68; t = strtok_r(NULL, "\t", &save))
		fields[nf++] = t;
	if (nf < 3 || nf > 3 + 64) {
		free(line);
		snprintf(err, errlen, "%s:%lu: not SCENARIO<TAB>OUTPUT<TAB>SEED[<TAB>KEY=VALUE]...", path, index);
		return -1;
	}
	l->buf = line;
	l->scenario = fields[0];
	l->out = fields[1];
	l->seed = fields[2];
	for (int i = 3; i < nf; i++)
		l->sets[l->nr_sets++] = fields[i];
	tmp = strdup(path);
	dir = tmp ? dirname(tmp) : ".";
	l->out_path = malloc(strlen(dir) + strlen(l->out) + 2);
	if (!l->out_path) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	if (l->out[0] == '/')
		strcpy(l->out_path, l->out);
	else
		sprintf(l->out_path, "%s/%s", dir, l->out);
	free(tmp);
	return 0;
}

void manifest_line_free(struct manifest_line *l)
{
	free(l->buf);
	free(l->out_path);
	memset(l, 0, sizeof(*l));
}

/* ------------------------------------------------------------ the verb */

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim run SCENARIO [--set KEY=VALUE]... [--seed N] [--policy NAME] -o RUN.db\n"
	        "                 [--check-every N]\n"
	        "       mmsim run SCENARIO [--set KEY=VALUE]... [--seed N] [--policy NAME] --dump-config\n"
	        "       mmsim run --manifest FILE --index N [--check-every N]\n\n"
	        "Simulate the machine and workloads of a scenario file (docs/scenario.md) and\n"
	        "store the run in a new SQLite database: the resolved scenario, the vmstat\n"
	        "counters over the measured window, the workloads' metrics, time series,\n"
	        "pageblock censuses.  The file appears only when the run is complete.\n\n"
	        "  -o, --output FILE     the run's database (must not be left half-written: it is\n"
	        "                        written under a temporary name and renamed at the end)\n"
	        "  --set SECTION.KEY=V   override a key of the scenario (repeatable); also vm.KEY,\n"
	        "                        transparent_hugepage.KEY, POLICY.SWITCH, WORKLOAD.PARAM\n"
	        "  --seed N              [run] seed\n"
	        "  --policy NAME         [policy] name\n"
	        "  --dump-config         print the resolved scenario and exit\n"
	        "  --manifest FILE       run line N of a sweep manifest (see mmsim sweep) ...\n"
	        "  --index N             ... this line, from 1\n"
	        "  --check-every N       run the invariant checker every N allocator operations\n\n"
	        "Scenario keys and defaults:\n");
	scenario_print_keys(f);
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "dump-config", no_argument, NULL, 'D' },
		{ "manifest", required_argument, NULL, 'M' },
		{ "index", required_argument, NULL, 'I' },
		{ "check-every", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *sets[MAX_SETS];
	int nr_sets = 0, c, rc, dump = 0;
	const char *out = NULL, *seed = NULL, *policy = NULL, *manifest = NULL, *index_arg = NULL;
	struct run_opts ro = { 0 };
	struct manifest_line ml = { 0 };
	struct scenario *s;
	unsigned long index = 0;
	char err[1536], sweep_id[40];

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 's': seed = optarg; break;
		case 'p': policy = optarg; break;
		case 'D': dump = 1; break;
		case 'M': manifest = optarg; break;
		case 'I': index_arg = optarg; break;
		case 'S':
			if (add_set(sets, &nr_sets, optarg))
				return EXIT_USAGE;
			break;
		case 'C':
			if (parse_ulong(optarg, &ro.check_every)) {
				error("--check-every: '%s' is not a number", optarg);
				return EXIT_CONFIG;
			}
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}

	if (manifest || index_arg) {
		if (!manifest || !index_arg || optind != argc || out || nr_sets || seed || policy) {
			error("--manifest FILE --index N takes no scenario, -o, --set, --seed or --policy "
			      "(the manifest line has them)");
			return EXIT_USAGE;
		}
		if (parse_ulong(index_arg, &index) || index < 1) {
			error("--index: '%s' is not a line number (from 1)", index_arg);
			return EXIT_USAGE;
		}
		rc = manifest_read(manifest, index, &ml, err, sizeof(err));
		if (rc) {
			error("%s", err);
			return rc == -2 ? EXIT_NOINPUT : EXIT_CONFIG;
		}
		rc = run_build_scenario(ml.scenario, ml.sets, ml.nr_sets, NULL, ml.seed, &s);
		if (!rc && (rc = sweep_check_line(manifest, index, scenario_hash(s))))
			scenario_free(s);       /* another binary, an edited scenario */
		if (rc) {
			manifest_line_free(&ml);
			return rc;
		}
		results_set_sweep_line(index);  /* merged once, whatever reruns */
		/* the sweep's id: the manifest's content and its identity
		 * (sweep.id beside it: the binary and every line's resolved
		 * scenario hash, file contents included), so that every line
		 * of one sweep, wherever it runs, carries the same id, and two
		 * sweeps of one manifest on an edited scenario do not */
		{
			char idpath[PATH_MAX + 16], *copy = strdup(manifest);
			const char *paths[2] = { manifest, idpath };
			char *all = NULL;
			size_t len = 0;

			snprintf(idpath, sizeof(idpath), "%s/sweep.id", copy ? dirname(copy) : ".");
			free(copy);
			for (int k = 0; k < 2; k++) {
				FILE *f = fopen(paths[k], "r");
				char *text = NULL, *n;
				size_t cap = 0;
				ssize_t got = f ? getdelim(&text, &cap, 0, f) : -1;
				if (f)
					fclose(f);
				if (got > 0 && (n = realloc(all, len + (size_t)got + 1))) {
					all = n;
					memcpy(all + len, text, (size_t)got);
					len += (size_t)got;
					all[len] = 0;
				}
				free(text);
			}
			scenario_fnv1a(all ? all : "", sweep_id);
			free(all);
		}
		ro.out = ml.out_path;
		ro.sweep_id = sweep_id;
		rc = run_scenario(s, &ro);
		scenario_free(s);
		manifest_line_free(&ml);
		return rc;
	}

	if (optind + 1 != argc) {
		if (optind == argc)
			error("run: no scenario file given");
		else
			error("run: one scenario file, not '%s' too", argv[optind + 1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!dump && !out) {
		error("run: no output file (-o RUN.db)");
		return EXIT_USAGE;
	}
	rc = run_build_scenario(argv[optind], sets, nr_sets, policy, seed, &s);
	if (rc)
		return rc;
	if (dump) {
		fputs(scenario_text(s), stdout);
		scenario_free(s);
		return EXIT_OK;
	}
	ro.out = out;
	rc = run_scenario(s, &ro);
	scenario_free(s);
	return rc;
}
