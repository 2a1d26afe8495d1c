// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_fwd.c - NFTA_FWD_* and NFTA_DUP_* through the policy and the init
 * checks of nft_fwd_netdev and nft_dup_netdev (netdev family types), with
 * the kernel's errors, and their dumps.
 */
#include <errno.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "expr/fwd.h"
#include "expr/dup.h"

#define NETDEV	5

Test(nfnl_fwd, device_form_parse_and_dump)
{
	struct expr_fwd f;

	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG32_00);
	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), NETDEV), 0);
	cr_assert_not(f.neigh);
	/* dumped by the 128-bit name when aligned (nft_dump_register) */
	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG_1);
	ta_dump_is(EXPR_FWD, &f);
}

Test(nfnl_fwd, neigh_form_parse_and_dump)
{
	struct expr_fwd f;

	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG32_00);
	ta_put32(NFTA_FWD_SREG_ADDR, NFT_REG32_01);
	ta_put32(NFTA_FWD_NFPROTO, 2);
	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), NETDEV), 0);
	cr_assert(f.neigh);
	cr_assert_eq(f.nfproto, 2);
	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG_1);
	ta_put32(NFTA_FWD_SREG_ADDR, NFT_REG32_01);
	ta_put32(NFTA_FWD_NFPROTO, 2);
	ta_dump_is(EXPR_FWD, &f);
}

Test(nfnl_fwd, errors_as_the_kernel)
{
	struct expr_fwd f;

	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), NETDEV), -EOPNOTSUPP,
		     "no device register: nft_fwd_select_ops()");
	ta_put32(NFTA_FWD_SREG_ADDR, NFT_REG32_01);
	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), NETDEV), -EINVAL);
	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG32_00);
	ta_put32(NFTA_FWD_SREG_ADDR, NFT_REG32_01);
	ta_put32(NFTA_FWD_NFPROTO, 7);
	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), NETDEV), -EOPNOTSUPP);
	ta_put32(NFTA_FWD_SREG_DEV, NFT_REG32_00);
	cr_assert_eq(ta_parse_family(EXPR_FWD, &f, sizeof(f), 2), -ENOENT,
		     "a netdev family type");
}

Test(nfnl_dup, parse_dump_and_other_families)
{
	struct expr_dup d;

	ta_put32(NFTA_DUP_SREG_DEV, NFT_REG32_02);
	cr_assert_eq(ta_parse_family(EXPR_DUP, &d, sizeof(d), NETDEV), 0);
	ta_put32(NFTA_DUP_SREG_DEV, NFT_REG32_02);
	ta_dump_is(EXPR_DUP, &d);
	cr_assert_eq(ta_parse_family(EXPR_DUP, &d, sizeof(d), NETDEV), -EINVAL);
	ta_put32(NFTA_DUP_SREG_DEV, NFT_REG32_02);
	cr_assert_eq(ta_parse_family(EXPR_DUP, &d, sizeof(d), 2), -EOPNOTSUPP,
		     "ip dup (to an address) is another type, not supported");
}
