/* test_quote.c - the quoting of text for gnuplot and sh
 * (sim/experiment/quote.c, in mmsim_core).  Each hostile string is
 * quoted, read back by the real interpreter (gnuplot's print, sh's printf)
 * in a scratch directory, and must come back as the text (control
 * characters as spaces for gnuplot) with no command run: no file PWNED
 * appears.  gnuplot and sh are required (scripts/install-deps.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "mmsim/quote.h"

static const char *const hostile[] = {
	"v`touch PWNED`",
	"$(touch PWNED)",
	"a'b''c'",
	"'leading quote",
	"''''",
	"a\"b\\\"c",
	"trailing backslash \\",
	"line\nsystem 'touch PWNED'",
	"tab\tcr\r`touch PWNED`\n",
	"'; system 'touch PWNED'; x = '",
	"@macro {x} ${x} %s \\n",
	"",
	"caf\xc3\xa9 \xe2\x80\x94 non-ASCII",
};

static char dir[] = "/tmp/test_quote.XXXXXX";

/* run cmd in dir, its stdout into out */
static void run(const char *cmd, char *out, size_t len)
{
	char full[8192];
	FILE *p;
	size_t n;

	snprintf(full, sizeof(full), "cd %s && %s", dir, cmd);
	p = popen(full, "r");
	assert_non_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	assert_int_equal(pclose(p), 0);
}

static void assert_nothing_ran(void)
{
	char path[256];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/PWNED", dir);
	assert_int_not_equal(stat(path, &sb), 0);
}

static void test_gnuplot(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(*hostile); i++) {
		char path[256], out[4096], want[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/t.gp", dir);
		f = fopen(path, "w");
		assert_non_null(f);
		/* as a value, in a comment line, and printed between markers */
		fputs("# a comment ", f);
		gp_quote(f, hostile[i]);
		fputs("\nx = ", f);
		gp_quote(f, hostile[i]);
		fputs("\nset print '-'\nprint '<'.x.'>'\n", f);
		assert_int_equal(fclose(f), 0);
		run("gnuplot t.gp", out, sizeof(out));

		snprintf(want, sizeof(want), "<%s>\n", hostile[i]);
		for (char *p = want + 1; p[1]; p++)
			if ((unsigned char)*p < ' ')
				*p = ' ';
		assert_string_equal(out, want);
		assert_nothing_ran();
	}
}

static void test_sh(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(*hostile); i++) {
		char cmd[4096], out[4096], want[4096];
		FILE *f = fmemopen(cmd, sizeof(cmd), "w");

		assert_non_null(f);
		fputs("printf '<%s>' ", f);
		sh_quote(f, hostile[i]);
		fputc('\0', f);
		assert_int_equal(fclose(f), 0);
		run(cmd, out, sizeof(out));
		snprintf(want, sizeof(want), "<%s>", hostile[i]);
		assert_string_equal(out, want);
		assert_nothing_ran();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gnuplot),
		cmocka_unit_test(test_sh),
	};
	char cmd[128];
	int rc;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return rc;
}
