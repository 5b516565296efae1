/* run.h - mmsim run: one resolved scenario simulated by the library's run
 * driver (<mmsim/run.h>), its results written to one database file (the
 * sweep runs it once per child process, since SimGrid can be initialised
 * once per process).  (Building a scenario from the command line's
 * overrides, and sweep manifests: <mmsim/experiment.h>.) */
#ifndef MMSIM_CLI_RUN_H
#define MMSIM_CLI_RUN_H

#include <stdbool.h>
#include <sysexits.h>
#include "mmsim/scenario.h"

struct run_opts {
	const char *out;                /* the run's database file */
	const char *sweep_id;           /* NULL outside a sweep */
	unsigned long check_every;      /* debug_vm: check the state every N operations (0: never) */
	bool quiet;                     /* no summary line on stderr */
};

/* Boot, run and record a resolved scenario.  Everything goes through
 * results.h in one transaction: on any failure the results are aborted
 * and nothing is left at o->out.  A run whose workload failed (make
 * died, nothing built) is stored with status 'failed' and returns
 * EX_OK.  Returns the exit code (EX_OK,
 * EX_SOFTWARE for a failed simulation or a broken invariant,
 * EX_CANTCREAT when the output cannot be written), after printing the
 * message.  A failure after the engine has started ends the process with
 * that code (_exit): SimGrid cannot be torn down or started again. */
int run_scenario(const struct scenario *s, const struct run_opts *o);

#endif
