// SPDX-License-Identifier: GPL-2.0-only
/* expr_lookup.c - refused, with a message naming the expression. */
#include "tests/codegen/model.h"

Test(expr_lookup, refused)
{
	struct table tb = { .family = 2 };
	struct chain c = { .table = &tb };
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_lookup *l = tm_add(&rb, EXPR_LOOKUP, sizeof(*l));
	struct rule r = { .dlen = rb.len, .nexprs = 1, .exprs = (void *)rb.buf };

	l->sreg = 4;
	cr_assert_eq(dataplane_rule_check(&c, &r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "expression 'lookup' is not supported by the nfbpf dataplane yet");
}
