/* fuzz_scenario.c - the scenario parser's fuzz target: scenario text and
 * --set values in, parse and validate, no simulation.
 *
 * An input is the text of a scenario file, then optionally a NUL byte and
 * --set arguments separated by NUL bytes ("ini text\0vm.swappiness=7\0...").
 * The target loads the text as a file (a memfd read through its
 * /proc/self/fd path by scenario_load_file, the command line's path: the
 * line reader and the file checks included), applies each --set
 * (scenario_set) and resolves the whole (scenario_resolve, which creates the
 * policy and the workloads with their parameters and checks the host
 * bounds), exactly as `mmsim run FILE --set ...` does before it boots a
 * machine.  Every error path must return a message; nothing may crash,
 * hang, leak or trip a sanitizer.
 *
 * It also checks one property: a resolved scenario's canonical text, read
 * back as a scenario file, resolves to the same text (what a run stores
 * must re-read as the same run: `mmsim run` re-reads it for a sweep's
 * resume and for `mmsim show`).
 *
 * Built two ways (tests/CMakeLists.txt): with clang's libFuzzer
 * (-DMMSIM_FUZZ=ON, scripts/fuzz.sh) and, in every build, with the seeded
 * mutation driver fuzz_driver.c for the bounded run in the test suite.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mmsim/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* large inputs only slow the search: scenario files are a few KiB */
#define MAX_INPUT 8192

/* text as a file mmsim reads (a memfd, through its /proc/self/fd path):
 * the path `mmsim run FILE` takes, line reader and file checks included;
 * -1 if the host cannot make one */
static int as_file(const char *text, size_t len, char *path, size_t pathlen)
{
	int fd = memfd_create("fuzz.ini", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

static void check_roundtrip(const struct scenario *s)
{
	struct scenario *again = scenario_new();
	char err[512], path[64];
	const char *text = scenario_text(s);
	int fd = as_file(text, strlen(text), path, sizeof(path));

	if ((fd >= 0 ? scenario_load_file(again, path, err, sizeof(err))
	             : scenario_load_string(again, text, "canonical", err, sizeof(err))) ||
	    scenario_resolve(again, err, sizeof(err))) {
		fprintf(stderr, "fuzz_scenario: the canonical text does not read back: %s\n--- text\n%s---\n",
		        err, text);
		abort();
	}
	if (strcmp(scenario_text(again), text) || strcmp(scenario_hash(again), scenario_hash(s))) {
		fprintf(stderr, "fuzz_scenario: the canonical text reads back as another text\n"
		        "--- first\n%s--- again\n%s---\n", text, scenario_text(again));
		abort();
	}
	if (fd >= 0)
		close(fd);
	scenario_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario *s;
	char err[512], *buf, *p, *end;
	int rc;

	if (size > MAX_INPUT)
		return 0;
	/* a NUL-terminated copy: the text, then the --set arguments */
	buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = 0;
	end = buf + size;

	s = scenario_new();
	err[0] = 0;
	/* the scenario text (up to the first NUL) read as a file, as the
	 * command line reads one */
	{
		char path[64];
		int fd = as_file(buf, strlen(buf), path, sizeof(path));
		rc = fd >= 0 ? scenario_load_file(s, path, err, sizeof(err))
		             : scenario_load_string(s, buf, "fuzz.ini", err, sizeof(err));
		if (fd >= 0)
			close(fd);
	}
	for (p = buf + strlen(buf) + 1; !rc && p < end; p += strlen(p) + 1)
		rc = scenario_set(s, p, err, sizeof(err));
	if (!rc)
		rc = scenario_resolve(s, err, sizeof(err));
	if (rc && !err[0]) {
		fprintf(stderr, "fuzz_scenario: an error without a message\n");
		abort();
	}
	if (!rc) {
		/* the accessors of a resolved scenario */
		const struct scenario_config *c = scenario_config(s);
		size_t n = scenario_nr_params(s);
		for (size_t i = 0; i < n; i++) {
			const char *k, *v;
			scenario_param(s, i, &k, &v);
			if (!k || !v || !*k)
				abort();
		}
		if (strlen(scenario_hash(s)) != 16 || c->nr_workloads > SCENARIO_MAX_WORKLOADS)
			abort();
		check_roundtrip(s);
	}
	scenario_free(s);
	free(buf);
	return 0;
}
