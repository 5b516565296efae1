/* quote.h - the command line's name for <mmsim/quote.h> (moved to
 * sim/experiment/, which quotes the Slurm script's paths). */
#include "mmsim/quote.h"
