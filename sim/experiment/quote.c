/* quote.c - text written into gnuplot and sh source (quote.h). */
#include "mmsim/quote.h"

void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\'')
			fputs("'.\"'\".'", f);  /* close, "'", reopen */
		else if (ch < ' ' || ch == 0x7f)
			fputc(' ', f);
		else
			fputc(ch, f);
	}
	fputc('\'', f);
}

void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}
