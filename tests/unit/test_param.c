/* test_param.c - the typed parameter description (sim/config/param.c):
 * one parser per kind, its range, unit scale and rounding, the message
 * tail that names what was expected; the policy-name alias (mm_policy_find
 * and the scenario); and that a module's table is all that sets its
 * parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "mmsim/param.h"
#include "mmsim/policy.h"
#include "mmsim/scenario.h"

struct owner {
	bool b;
	int i;
	unsigned u;
	unsigned long ul, pages;
	double d, ns, dpages, poll;
	int e;
	char name[8];
	unsigned checked;
};

static const char *const colours[] = { "red", "green", NULL };

static const char *odd_only(const void *owner, const char *value, char *buf, size_t len)
{
	(void)value;
	snprintf(buf, len, "is even (odd values only)");
	return ((const struct owner *)owner)->checked % 2 ? NULL : buf;
}

#define AT(f) PARAM_AT(struct owner, f)
static const struct param table[] = {
	{ "b", PARAM_BOOL, NULL, 0, 0, "yes", "a switch", AT(b) },
	{ "i", PARAM_INT, NULL, -5, 5, "auto", "signed", AT(i), .word = "auto", .word_value = -1 },
	{ "u", PARAM_INT, NULL, 1, 4096, "8", "unsigned", AT(u) },
	{ "ul", PARAM_INT, NULL, 0, 0, "1", "unbounded", AT(ul) },
	{ "d", PARAM_DOUBLE, NULL, 0, 1, "0.5", "a fraction", AT(d), .flags = PARAM_GT_MIN },
	{ "ns", PARAM_DOUBLE, "seconds", 0, 10, "1", "seconds kept as ns", AT(ns), .scale = 1e9 },
	{ "pages", PARAM_PAGES, "bytes", 2 << 20, 4.0 * (1ull << 40), "2M", "pages", AT(pages) },
	{ "dpages", PARAM_PAGES, "bytes", 0, 0, "4K", "pages in a double", AT(dpages) },
	{ "poll", PARAM_DOUBLE, "seconds", 0, 10, "wait", "a word or a number", AT(poll),
	  .flags = PARAM_GT_MIN, .word = "wait", .word_value = 0 },
	{ "e", PARAM_ENUM, NULL, 0, 0, "green", "a choice", AT(e), .choices = colours },
	{ "name", PARAM_STRING, NULL, 0, 0, "abc", "a short name", AT(name) },
	{ "checked", PARAM_INT, NULL, 0, 100, "1", "a rule beyond the range", AT(checked), .check = odd_only },
	{ NULL },
};

static char err[256];

static void set_ok(struct owner *o, const char *key, const char *value)
{
	if (param_set(param_find(table, key), o, value, err, sizeof(err)))
		fail_msg("%s = %s: %s", key, value, err);
}

static void set_bad(struct owner *o, const char *key, const char *value, const char *expected)
{
	err[0] = 0;
	assert_int_equal(param_set(param_find(table, key), o, value, err, sizeof(err)), -1);
	assert_string_equal(err, expected);
}

static void test_defaults_and_lookup(void **state)
{
	struct owner o;
	char names[256];

	(void)state;
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(param_set_defaults(table, &o, err, sizeof(err)), 0);
	assert_true(o.b);
	assert_int_equal(o.i, -1);
	assert_int_equal(o.u, 8);
	assert_int_equal(o.ul, 1);
	assert_true(o.d == 0.5);
	assert_true(o.ns == 1e9);
	assert_int_equal(o.pages, 512);
	assert_true(o.dpages == 1);
	assert_true(o.poll == 0);
	assert_int_equal(o.e, 1);
	assert_string_equal(o.name, "abc");
	assert_null(param_find(table, "nosuch"));
	param_names(table, names, sizeof(names));
	assert_string_equal(names, "b, i, u, ul, d, ns, pages, dpages, poll, e, name, checked");
}

static void test_bool(void **state)
{
	struct owner o = { 0 };
	static const char *const yes[] = { "yes", "y", "true", "1", "on" };
	static const char *const no[] = { "no", "n", "false", "0", "off" };

	(void)state;
	for (int k = 0; k < 5; k++) {
		set_ok(&o, "b", yes[k]);
		assert_true(o.b);
		set_ok(&o, "b", no[k]);
		assert_false(o.b);
	}
	set_bad(&o, "b", "maybe", "'maybe' is not a boolean (yes or no)");
	set_bad(&o, "b", "", "'' is not a boolean (yes or no)");
}

static void test_integers(void **state)
{
	struct owner o = { 0 };

	(void)state;
	set_ok(&o, "i", "-5");
	assert_int_equal(o.i, -5);
	set_ok(&o, "i", "auto");
	assert_int_equal(o.i, -1);
	set_bad(&o, "i", "6", "'6' is not auto or an integer in -5..5");
	set_bad(&o, "i", "-6", "'-6' is not auto or an integer in -5..5");
	set_ok(&o, "u", "4096");
	assert_int_equal(o.u, 4096);
	/* no rounding of integers: 2.5 is refused, so is a suffix */
	set_bad(&o, "u", "2.5", "'2.5' is not an integer in 1..4096");
	set_bad(&o, "u", "0", "'0' is not an integer in 1..4096");
	set_bad(&o, "u", "4097", "'4097' is not an integer in 1..4096");
	set_bad(&o, "u", "4k", "'4k' is not an integer in 1..4096");
	set_bad(&o, "u", "-1", "'-1' is not an integer in 1..4096");
	/* unbounded: the field's type bounds it, exactly */
	set_ok(&o, "ul", "18446744073709551615");
	assert_true(o.ul == 18446744073709551615ul);
	set_ok(&o, "ul", "9007199254740993");     /* not a double: kept exact */
	assert_true(o.ul == 9007199254740993ul);
	set_bad(&o, "ul", "18446744073709551616", "'18446744073709551616' is not a non-negative integer");
	set_bad(&o, "ul", "-1", "'-1' is not a non-negative integer");
	/* a rule beyond the range */
	set_ok(&o, "checked", "3");
	set_bad(&o, "checked", "4", "'4' is even (odd values only)");
}

static void test_doubles(void **state)
{
	struct owner o = { 0 };

	(void)state;
	set_ok(&o, "d", "1");
	assert_true(o.d == 1);
	set_ok(&o, "d", "1e-9");
	assert_true(o.d == 1e-9);
	set_bad(&o, "d", "0", "'0' is not a number in (0, 1]");
	set_bad(&o, "d", "1.5", "'1.5' is not a number in (0, 1]");
	set_bad(&o, "d", "nan", "'nan' is not a number in (0, 1]");
	set_bad(&o, "d", "0.5x", "'0.5x' is not a number in (0, 1]");
	/* strtod's other syntaxes are no decimal number */
	set_bad(&o, "d", "0x0.8", "'0x0.8' is not a number in (0, 1]");
	set_bad(&o, "d", "inf", "'inf' is not a number in (0, 1]");
	set_bad(&o, "ns", "0x1", "'0x1' is not a number of seconds in 0..10");
	/* the unit's scale: seconds in the text, ns in the field */
	set_ok(&o, "ns", "0.25");
	assert_true(o.ns == 0.25 * 1e9);
	set_bad(&o, "ns", "11", "'11' is not a number of seconds in 0..10");
	set_ok(&o, "poll", "wait");
	assert_true(o.poll == 0);
	set_ok(&o, "poll", "0.5");
	assert_true(o.poll == 0.5);
	set_bad(&o, "poll", "0", "'0' is not wait or a number of seconds in (0, 10]");
}

/* the one rounding rule: a size kept in pages rounds up */
static void test_sizes_and_rounding(void **state)
{
	struct owner o = { 0 };

	(void)state;
	set_ok(&o, "dpages", "1");
	assert_true(o.dpages == 1);
	set_ok(&o, "dpages", "4096");
	assert_true(o.dpages == 1);
	set_ok(&o, "dpages", "4097");
	assert_true(o.dpages == 2);
	set_ok(&o, "dpages", "0");
	assert_true(o.dpages == 0);
	set_ok(&o, "pages", "2MiB");
	assert_int_equal(o.pages, 512);
	set_ok(&o, "pages", "2097153");
	assert_int_equal(o.pages, 513);
	set_ok(&o, "pages", "4T");
	assert_int_equal(o.pages, 1ul << 30);
	set_ok(&o, "pages", "3g");
	assert_int_equal(o.pages, 3ul << 18);
	set_bad(&o, "pages", "1M", "'1M' is not a size in 2M..4T (K/M/G/T suffix)");
	set_bad(&o, "pages", "5T", "'5T' is not a size in 2M..4T (K/M/G/T suffix)");
	set_bad(&o, "pages", "12Q", "'12Q' is not a size in 2M..4T (K/M/G/T suffix)");
	set_bad(&o, "dpages", "-2G", "'-2G' is not a size (e.g. 2G, 512M)");
	set_bad(&o, "dpages", "17179869184G", "'17179869184G' is not a size (e.g. 2G, 512M)");
}

static void test_enum_and_string(void **state)
{
	struct owner o = { 0 };

	(void)state;
	set_ok(&o, "e", "red");
	assert_int_equal(o.e, 0);
	set_bad(&o, "e", "blue", "'blue' is not one of red, green");
	set_ok(&o, "name", "1234567");
	assert_string_equal(o.name, "1234567");
	set_bad(&o, "name", "12345678", "'12345678' is not a name of at most 7 characters");
	set_bad(&o, "name", "a\nb", "'a\nb' is not a name of at most 7 characters");
}

/* the RFC policy's former name is an alias wherever a name is read */
static void test_policy_alias(void **state)
{
	struct mm_policy *p;
	struct scenario *s;

	(void)state;
	assert_non_null(mm_policy_find("hugealloc_rfc"));
	assert_ptr_equal(mm_policy_find("hygiene"), mm_policy_find("hugealloc_rfc"));
	assert_string_equal(mm_policy_canonical("hygiene"), "hugealloc_rfc");
	assert_string_equal(mm_policy_canonical("vanilla"), "vanilla");
	assert_string_equal(mm_policy_canonical("tao"), "tao");
	/* the list of valid names gives the names, not the aliases */
	assert_string_equal(mm_policy_names(), "vanilla, hugealloc_rfc, v6_15, defrag_mode, tao");
	assert_int_equal(mm_policy_create("hygiene", &p, err, sizeof(err)), 0);
	assert_string_equal(p->ops.name, "hugealloc_rfc");
	mm_policy_destroy(p);

	/* a scenario in the old spelling resolves to the text of the new */
	s = scenario_new();
	assert_int_equal(scenario_load_string(s, "[policy]\nname = hygiene\n[policy.hygiene]\nno_fallback = no\n"
	                                      "[run]\nduration = 1\n[workload]\nnames = thp_faulter\n",
	                                      "old.ini", err, sizeof(err)), 0);
	assert_int_equal(scenario_set(s, "policy.hygiene.no_watermark_boost=no", err, sizeof(err)), 0);
	assert_int_equal(scenario_resolve(s, err, sizeof(err)), 0);
	assert_string_equal(scenario_config(s)->policy, "hugealloc_rfc");
	assert_non_null(strstr(scenario_text(s), "[policy]\nname = hugealloc_rfc\n\n[policy.hugealloc_rfc]\n"));
	assert_non_null(strstr(scenario_text(s), "no_fallback = no\n"));
	assert_non_null(strstr(scenario_text(s), "no_watermark_boost = no\n"));
	assert_null(strstr(scenario_text(s), "hygiene"));
	scenario_free(s);
}

/* the same key in the old and the new section is one key set twice */
static void test_alias_sections_twice(void **state)
{
	struct scenario *s = scenario_new();

	(void)state;
	assert_int_equal(scenario_load_string(s, "[policy.hygiene]\nno_fallback = no\n"
	                                      "[policy.hugealloc_rfc]\nno_fallback = yes\n",
	                                      "t.ini", err, sizeof(err)), -1);
	assert_string_equal(err, "t.ini:4: [policy.hugealloc_rfc] no_fallback: set twice (first at line 2)");
	scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_lookup),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_sizes_and_rounding),
		cmocka_unit_test(test_enum_and_string),
		cmocka_unit_test(test_policy_alias),
		cmocka_unit_test(test_alias_sections_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
