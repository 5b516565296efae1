/* outfile.h - the command line's name for <mmsim/outfile.h> (the file
 * writer moved to sim/experiment/, which writes a sweep's files). */
#include "mmsim/outfile.h"
