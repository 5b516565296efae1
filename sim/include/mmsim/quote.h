/* quote.h - text from a database, a scenario or the command line written
 * into another language's source: one function per target language, so
 * that no caller escapes by hand.  (HTML: results_html_escape, results.h.) */
#ifndef MMSIM_QUOTE_H
#define MMSIM_QUOTE_H

#include <stdio.h>

/* s as a gnuplot string expression: 'text', where the text has a ' the
 * single-quoted pieces joined by "'" ('it'."'".'s').  gnuplot expands
 * nothing inside single quotes (no backquote command substitution, no
 * backslash escapes, no @macros), and "'" holds neither a backslash nor a
 * backquote, so the expression evaluates to the text.  (gnuplot's own
 * escape, a doubled quote, is recognised only after another character:
 * four quotes in a row are a syntax error in gnuplot 5.4.)  Control
 * characters (a newline would end the command and start another) are
 * written as spaces.  Safe as a value in an assignment, and in a comment
 * line of a script or a data file (the closing quote keeps a trailing
 * backslash from continuing the comment on the next line). */
void gp_quote(FILE *f, const char *s);

/* s as one POSIX sh word: 'text', a ' inside as '\''.  The shell expands
 * nothing inside single quotes; newlines stay as they are. */
void sh_quote(FILE *f, const char *s);

#endif
