// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_reject.c - the reject expression's netlink side against
 * nft_reject_init(), nft_reject_dump() and the hooks of each family's
 * validate (nft_reject_validate(), nft_reject_inet_validate(), netdev;
 * no bridge reject in the reference kernel): every error the kernel returns and the exact attributes dumped.
 */
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "ruleset.h"
#include "expr/reject.h"

static struct expr_reject rj;

/* a new attribute list and a zeroed expression */
static void begin(void)
{
	ta_len = 0;
	memset(&rj, 0, sizeof(rj));
}

/* policy check + ->parse in a chain of @family (base chain at @hook, or
 * a regular chain if @hook < 0) */
static int parse_in(uint8_t family, int hook)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_REJECT];
	const struct nlattr *tb[NFTA_REJECT_MAX + 1];
	struct basechain bc = { .hooknum = hook < 0 ? 0 : (uint32_t)hook };
	struct chain c = { .base = hook < 0 ? NULL : &bc };
	struct nfnl_expr_ctx ctx = { .family = family, .chain = &c };
	int err;

	cr_assert_str_eq(ops->name, "reject");
	err = nfnl_attr_parse(ta_buf, ta_len, ops->maxattr, ops->policy, tb, NULL);
	if (err)
		return err;
	return ops->parse(&ctx, &rj, tb);
}

static int parse(void)
{
	return parse_in(NFPROTO_INET, NF_INET_LOCAL_IN);
}

/* the dump must be exactly the attributes given */
static void dump_is_input(void)
{
	struct nfnl_buf b;

	nfnl_buf_init(&b);
	nfnl_expr_ops[EXPR_REJECT]->dump(&b, &rj);
	cr_assert_eq(b.len, ta_len, "dump length %zu, want %zu", b.len, ta_len);
	cr_assert_arr_eq(b.data, ta_buf, ta_len);
	nfnl_buf_fini(&b);
}

Test(expr_reject, type_is_mandatory)
{
	begin();
	cr_assert_eq(parse(), -EINVAL);
	ta_put8(NFTA_REJECT_ICMP_CODE, 3);
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_reject, unknown_type_is_einval)
{
	begin();
	ta_put32(NFTA_REJECT_TYPE, 3);
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_reject, icmp_types_need_a_code)
{
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMP_UNREACH);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMPX_UNREACH);
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_reject, icmpx_code_at_most_3)
{
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMPX_UNREACH);
	ta_put8(NFTA_REJECT_ICMP_CODE, 4);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMPX_UNREACH);
	ta_put8(NFTA_REJECT_ICMP_CODE, 3);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(rj.type, REJECT_ICMPX_UNREACH);
	cr_assert_eq(rj.icmp_code, REJECT_ICMPX_ADMIN_PROHIBITED);
	dump_is_input();
}

Test(expr_reject, icmp_code_any_u8)
{
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMP_UNREACH);
	ta_put8(NFTA_REJECT_ICMP_CODE, 200);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(rj.icmp_code, 200);
	dump_is_input();
}

Test(expr_reject, tcp_reset_dumps_no_code)
{
	struct expr_reject saved;

	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_TCP_RST);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(rj.type, REJECT_TCP_RST);
	dump_is_input();
	/* a code given with a reset is ignored, and not dumped */
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_TCP_RST);
	ta_put8(NFTA_REJECT_ICMP_CODE, 3);
	cr_assert_eq(parse(), 0);
	saved = rj;
	begin();
	ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_TCP_RST);
	rj = saved;
	dump_is_input();
}

Test(expr_reject, hooks_per_family)
{
	static const struct { uint8_t family; int hook; int err; } c[] = {
		{ NFPROTO_IPV4, NF_INET_PRE_ROUTING, 0 },
		{ NFPROTO_IPV4, NF_INET_LOCAL_IN, 0 },
		{ NFPROTO_IPV4, NF_INET_FORWARD, 0 },
		{ NFPROTO_IPV4, NF_INET_LOCAL_OUT, 0 },
		{ NFPROTO_IPV4, NF_INET_POST_ROUTING, -EOPNOTSUPP },
		{ NFPROTO_IPV6, NF_INET_POST_ROUTING, -EOPNOTSUPP },
		{ NFPROTO_INET, NF_INET_POST_ROUTING, -EOPNOTSUPP },
		{ NFPROTO_INET, NF_INET_INGRESS, 0 },
		{ NFPROTO_IPV4, -1, 0 },
		{ NFPROTO_BRIDGE, 0, -ENOENT },	/* no NFT_BRIDGE_REJECT */
		{ NFPROTO_BRIDGE, -1, -ENOENT },
		{ NFPROTO_NETDEV, 0, 0 },	/* NF_NETDEV_INGRESS */
		{ NFPROTO_NETDEV, 1, -EOPNOTSUPP },	/* NF_NETDEV_EGRESS */
		{ NFPROTO_ARP, -1, -ENOENT },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		begin();
		ta_put32(NFTA_REJECT_TYPE, NFT_REJECT_ICMP_UNREACH);
		ta_put8(NFTA_REJECT_ICMP_CODE, 3);
		cr_assert_eq(parse_in(c[i].family, c[i].hook), c[i].err,
			     "case %zu: family %u hook %d", i, c[i].family,
			     c[i].hook);
	}
}
