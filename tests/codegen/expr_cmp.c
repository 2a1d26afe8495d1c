// SPDX-License-Identifier: GPL-2.0-only
/* expr_cmp.c - all six operators, memcmp (big-endian) order, by test run. */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_cmp, 2, NF_ACCEPT);

struct cmp_case {
	uint8_t a[8], b[8];
	uint32_t len;
	uint8_t op;
	bool match;
};

/* one rule per case: reg = a; cmp op b; else-drop marker via counter order */
static void run_cases(const struct cmp_case *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tm_rb rb = { 0 };
		struct rule *r;

		tm_imm(&rb, 4, c[i].a, c[i].len);
		tm_cmp(&rb, 4, c[i].op, c[i].b, c[i].len);
		tm_verdict(&rb, NF_DROP, NULL);
		r = tm_rule(base, &rb);
		tm_commit_ok(&net);
		cr_expect_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen),
			     c[i].match ? NF_DROP : NF_ACCEPT,
			     "case %d (op %u len %u)", i, c[i].op, c[i].len);
		tm_rule_del(r);
		tm_commit_ok(&net);
	}
}

Test(expr_cmp, eq_neq)
{
	static const struct cmp_case c[] = {
		{ { 1, 2 }, { 1, 2 }, 2, CMP_EQ, true },
		{ { 1, 2 }, { 1, 3 }, 2, CMP_EQ, false },
		{ { 1, 2, 3, 4, 5, 6 }, { 1, 2, 3, 4, 5, 6 }, 6, CMP_EQ, true },
		{ { 1, 2, 3, 4, 5, 6 }, { 1, 2, 3, 4, 5, 7 }, 6, CMP_EQ, false },
		{ { 1, 2, 3, 4, 5 }, { 1, 2, 3, 4, 5 }, 5, CMP_NEQ, false },
		{ { 1, 2, 3, 4, 5 }, { 0, 2, 3, 4, 5 }, 5, CMP_NEQ, true },
		{ { 9 }, { 9 }, 1, CMP_EQ, true },
		{ { 9 }, { 8 }, 1, CMP_NEQ, true },
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

Test(expr_cmp, ordered_big_endian)
{
	static const struct cmp_case c[] = {
		/* 0x0100 > 0x00ff in network order (a little endian compare
		 * would say 0x0001 < 0xff00) */
		{ { 1, 0 }, { 0, 0xff }, 2, CMP_GT, true },
		{ { 1, 0 }, { 0, 0xff }, 2, CMP_LT, false },
		{ { 1, 0 }, { 1, 0 }, 2, CMP_GT, false },
		{ { 1, 0 }, { 1, 0 }, 2, CMP_GTE, true },
		{ { 1, 0 }, { 1, 0 }, 2, CMP_LTE, true },
		{ { 1, 0 }, { 1, 0 }, 2, CMP_LT, false },
		{ { 0, 0xff }, { 1, 0 }, 2, CMP_LT, true },
		{ { 0, 0xff }, { 1, 0 }, 2, CMP_LTE, true },
		{ { 0, 0xff }, { 1, 0 }, 2, CMP_GTE, false },
		/* 6 bytes: decided in the last 2-byte chunk */
		{ { 10, 0, 0, 1, 0, 2 }, { 10, 0, 0, 1, 0, 1 }, 6, CMP_GT, true },
		{ { 10, 0, 0, 1, 0, 2 }, { 10, 0, 0, 1, 0, 1 }, 6, CMP_LTE, false },
		/* 5 bytes: first chunk decides */
		{ { 0x7f, 0xff, 0xff, 0xff, 0xff }, { 0x80, 0, 0, 0, 0 }, 5, CMP_LT, true },
		/* 4 bytes: 10.0.0.1 < 192.168.0.1 */
		{ { 10, 0, 0, 1 }, { 192, 168, 0, 1 }, 4, CMP_LT, true },
		{ { 10, 0, 0, 1 }, { 192, 168, 0, 1 }, 4, CMP_GTE, false },
		{ { 200 }, { 100 }, 1, CMP_GT, true },
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

Test(expr_cmp, same_shape_loads_no_program)
{
	struct dp_stats before, after;
	struct tm_rb rb = { 0 };
	uint8_t a[2] = { 1, 2 }, b[2] = { 3, 4 };

	tm_imm(&rb, 4, a, 2);
	tm_cmp(&rb, 4, CMP_EQ, a, 2);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &before);
	/* same shape, other constants and verdict */
	tm_imm(&rb, 4, b, 2);
	tm_cmp(&rb, 4, CMP_EQ, a, 2);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &after);
	cr_assert_eq(after.progs_loaded, before.progs_loaded);
	cr_assert_eq(after.shapes, before.shapes);
	cr_assert_eq(after.rule_entries, before.rule_entries + 1);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
}
