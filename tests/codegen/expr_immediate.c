// SPDX-License-Identifier: GPL-2.0-only
/* expr_immediate.c - verdicts and the jump stack, by BPF_PROG_TEST_RUN. */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_immediate, 2 /* ip */, NF_ACCEPT);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

Test(expr_immediate, empty_chain_policy)
{
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	base->base->policy = NF_DROP;
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, accept_drop)
{
	struct tm_rb rb = { 0 };

	base->base->policy = NF_DROP;
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);

	base->base->policy = NF_ACCEPT;
	tm_verdict(&rb, NF_DROP, NULL);
	struct rule *r = tm_rule_new(base, &rb);
	list_add(&r->list, &base->rules);	/* insert first */
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, continue_and_break)
{
	struct tm_rb rb = { 0 };

	tm_verdict(&rb, NFT_CONTINUE, NULL);
	tm_rule(base, &rb);
	tm_verdict(&rb, NFT_BREAK, NULL);
	tm_verdict(&rb, NF_ACCEPT, NULL);	/* not reached: break ends the rule */
	tm_rule(base, &rb);
	tm_verdict(&rb, NFT_CONTINUE, NULL);
	tm_verdict(&rb, NF_DROP, NULL);		/* reached: continue goes on */
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, jump_return_goto)
{
	struct chain *a = tm_chain(t, "a", -1, 0, 0);
	struct chain *b = tm_chain(t, "b", -1, 0, 0);
	struct tm_rb rb = { 0 };

	/* base: jump a; drop.  a: goto b.  b: return.  => drop after return */
	tm_verdict(&rb, NFT_JUMP, a);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_verdict(&rb, NFT_GOTO, b);
	tm_rule(a, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);	/* skipped: goto does not come back */
	tm_rule(a, &rb);
	tm_verdict(&rb, NFT_RETURN, NULL);
	tm_rule(b, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);	/* skipped: after return */
	tm_rule(b, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, end_of_user_chain_returns)
{
	struct chain *a = tm_chain(t, "a", -1, 0, 0);
	struct tm_rb rb = { 0 };

	base->base->policy = NF_DROP;
	tm_verdict(&rb, NFT_JUMP, a);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_verdict(&rb, NFT_CONTINUE, NULL);
	tm_rule(a, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
}

Test(expr_immediate, goto_from_base_ends_in_policy)
{
	struct chain *a = tm_chain(t, "a", -1, 0, 0);
	struct tm_rb rb = { 0 };

	base->base->policy = NF_DROP;
	tm_verdict(&rb, NFT_GOTO, a);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);	/* not reached: goto */
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, jump_stack_depth_16)
{
	struct chain *c[17];
	struct tm_rb rb = { 0 };
	char name[8];
	int i;

	/* base jumps c0, c_i jumps c_i+1: 16 nested jumps fit, the 17th drops */
	for (i = 0; i < 17; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		c[i] = tm_chain(t, name, -1, 0, 0);
	}
	tm_verdict(&rb, NFT_JUMP, c[0]);
	tm_rule(base, &rb);
	for (i = 0; i < 15; i++) {
		tm_verdict(&rb, NFT_JUMP, c[i + 1]);
		tm_rule(c[i], &rb);
	}
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT, "16 levels: policy accept");

	tm_verdict(&rb, NFT_JUMP, c[16]);
	tm_rule(c[15], &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP, "17th jump overflows the stack: drop");
}

Test(expr_immediate, data_into_register)
{
	struct tm_rb rb = { 0 };
	uint8_t v[6] = { 1, 2, 3, 4, 5, 6 };

	tm_imm(&rb, 8, v, 6);
	tm_cmp(&rb, 8, CMP_EQ, v, 6);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, refuses_queue_verdict)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct rule *r;

	tm_verdict(&rb, 3 /* NF_QUEUE */, NULL);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "verdict 3 is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}

Test(expr_immediate, return_in_base_chain_is_policy)
{
	struct tm_rb rb = { 0 };

	base->base->policy = NF_DROP;
	tm_verdict(&rb, NFT_RETURN, NULL);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_immediate, two_base_chains_share_a_user_chain)
{
	struct chain *in = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
	struct chain *u = tm_chain(t, "u", -1, 0, 0);
	struct tm_rb rb = { 0 };
	uint8_t eth[160];
	uint32_t n;

	tm_verdict(&rb, NFT_JUMP, u);
	tm_rule(base, &rb);
	tm_verdict(&rb, NFT_JUMP, u);
	tm_rule(in, &rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(u, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
	memset(eth, 0, 14);
	eth[12] = 0x08;
	n = 14 + tm_ip4(eth + 14, 17, 1000, 53, 0);
	cr_assert_eq(tm_run(&net, in, 2, HOOK_IN, eth, n), NF_DROP);
}
