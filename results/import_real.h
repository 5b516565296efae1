/* import_real.h - real kernel runs into a results database (mmsim import).
 *
 * A harness series (SERIES/runs/NNNN-LABEL/) or one run directory, in the
 * format of docs/schema.md ("Real runs"), becomes runs of source 'real':
 * the provenance as the run's config and as params real.KEY, the
 * /proc/vmstat counters' deltas, the build's times as metrics, the
 * samples as the time series, the /proc files verbatim as snapshots.
 * A run's run_id is derived from its provenance, so importing the same
 * directory again adds nothing (import_real.c).
 */
#ifndef MMSIM_RESULTS_IMPORT_REAL_H
#define MMSIM_RESULTS_IMPORT_REAL_H

#include <stddef.h>
#include <stdio.h>

/* what went wrong, for the exit code */
enum import_error {
	IMPORT_OK = 0,
	IMPORT_NOINPUT,                  /* a directory or a required file is missing */
	IMPORT_BADINPUT,                 /* a file is malformed (the message names file, line, key) */
	IMPORT_BADOUTPUT,                /* the output exists and is not a results database */
	IMPORT_CANTCREAT,                /* the output cannot be written */
};

struct import_summary {
	unsigned runs;                   /* complete runs read (a status file present) */
	unsigned failed;                 /* of them, runs the harness marked invalid: status 'failed' */
	unsigned added;                  /* runs the database did not hold yet */
	unsigned incomplete;             /* run directories without a status file: skipped */
};

/* Import dir (a series or one run directory) into the results database
 * out (created if missing; an existing one must be of this schema
 * version).  Every complete run is read and checked before anything is
 * written: one bad file imports nothing.  mmsim_version is stored as the
 * runs' mmsim_version (the importer's).  notes (may be NULL) gets a line
 * per run directory skipped.  IMPORT_OK, or the error's kind with a
 * message in err. */
enum import_error results_import_real(const char *dir, const char *out, const char *mmsim_version,
                                      struct import_summary *sum, FILE *notes,
                                      char *err, size_t errlen);

#endif
