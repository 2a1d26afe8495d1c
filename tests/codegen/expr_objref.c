// SPDX-License-Identifier: GPL-2.0-only
/* expr_objref.c - the dataplane refuses objref, naming it, in both forms. */
#include "tests/codegen/model.h"
#include "object.h"
#include "expr/objref.h"

static struct net net;
static struct table *t;
static struct chain *base;

static void setup(void)
{
	tm_net_init(&net, -1);
	t = tm_table(&net, "t", 2);
	base = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
}

TestSuite(expr_objref, .init = setup);

static void refused(struct tm_rb *rb)
{
	struct dp_error err = { 0 };
	struct rule *r = tm_rule_new(base, rb);

	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_not_null(err.msg);
	cr_assert(strstr(err.msg, "'objref'"), "got \"%s\"", err.msg);
	free(r->exprs);
	free(r);
}

Test(expr_objref, named_object_refused)
{
	struct object obj = { .name = "c", .type = 1 /* NFT_OBJECT_COUNTER */ };
	struct tm_rb rb = { 0 };
	struct expr_objref *o;

	o = tm_add(&rb, EXPR_OBJREF, sizeof(*o));
	o->obj = &obj;
	refused(&rb);
}

Test(expr_objref, object_map_refused_after_other_expressions)
{
	struct set *m = tm_set(t, "m", 0x40 /* NFT_SET_OBJECT */, 4);
	struct tm_rb rb = { 0 };
	struct expr_objref *o;

	tm_payload(&rb, 1, 12, 4, 4);
	o = tm_add(&rb, EXPR_OBJREF, sizeof(*o));
	o->set = m;
	o->sreg = 4;
	refused(&rb);
}
