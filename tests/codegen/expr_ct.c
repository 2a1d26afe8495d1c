// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_ct.c - conntrack keys by test run, where a packet has no conntrack
 * entry (skb->_nfct == 0): ct state reads "invalid", every other key ends
 * the rule (NFT_BREAK), as in nft_ct_get_eval(). Tracked packets are in
 * tests/offload/packet.c.
 */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_ct, 1 /* inet */, NF_ACCEPT);

/* rule: ct key -> r8; cmp op v; drop. Returns the verdict for pkt. */
static int ct_verdict(uint32_t key, uint8_t dir, uint32_t klen, uint8_t op,
		      const void *v, uint32_t len)
{
	struct tm_rb rb = { 0 };
	struct rule *r;
	int ret;

	tm_ct(&rb, key, dir, 8, klen);
	tm_cmp(&rb, 8, op, v, len);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	ret = tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
	tm_rule_del(r);
	tm_commit_ok(&net);
	return ret;
}

Test(expr_ct, untracked_packet_state_is_invalid)
{
	uint32_t invalid = 1, established = 2, new = 8;

	cr_assert_eq(ct_verdict(CT_STATE, CT_DIR_NONE, 4, CMP_EQ, &invalid, 4), NF_DROP);
	cr_assert_eq(ct_verdict(CT_STATE, CT_DIR_NONE, 4, CMP_EQ, &established, 4),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_STATE, CT_DIR_NONE, 4, CMP_EQ, &new, 4), NF_ACCEPT);
}

Test(expr_ct, keys_of_a_missing_entry_break_the_rule)
{
	/* even "!= anything" does not match: the rule stops at the ct load */
	uint32_t one = 1;
	uint8_t ip[4] = { 10, 0, 0, 1 }, port[2] = { 0, 53 };

	cr_assert_eq(ct_verdict(CT_DIRECTION, CT_DIR_NONE, 1, CMP_NEQ, &one, 1),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_STATUS, CT_DIR_NONE, 4, CMP_NEQ, &one, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_MARK, CT_DIR_NONE, 4, CMP_NEQ, &one, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_L3PROTOCOL, CT_DIR_NONE, 1, CMP_NEQ, &one, 1),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_SRC_IP, 0, 4, CMP_NEQ, ip, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_PROTO_DST, 1, 2, CMP_NEQ, port, 2), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_SECMARK, CT_DIR_NONE, 4, CMP_NEQ, &one, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_ZONE, CT_DIR_NONE, 2, CMP_NEQ, &one, 2), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_ZONE, 1, 2, CMP_NEQ, &one, 2), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_EXPIRATION, CT_DIR_NONE, 4, CMP_NEQ, &one, 4),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_LABELS, CT_DIR_NONE, 16, CMP_NEQ, &one, 4),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_HELPER, CT_DIR_NONE, 16, CMP_NEQ, &one, 4),
		     NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_PKTS, CT_DIR_NONE, 8, CMP_NEQ, &one, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_BYTES, 0, 8, CMP_NEQ, &one, 4), NF_ACCEPT);
	cr_assert_eq(ct_verdict(CT_AVGPKT, 1, 8, CMP_NEQ, &one, 4), NF_ACCEPT);
}

Test(expr_ct, unserved_keys_and_set_forms_are_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct rule *r;

	tm_ct(&rb, CT_ID, CT_DIR_NONE, 8, 4);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "ct 'id' is a siphash under a random key the kernel keeps to itself (nf_ct_get_id()): a BPF program cannot compute it (not supported by nfbpf)");
	free(r->exprs);
	free(r);

	memset(&rb, 0, sizeof(rb));
	tm_ct(&rb, CT_MARK, CT_DIR_NONE, 8, 4)->is_set = true;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "ct set 'mark' is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}
