/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_QUOTA_H
#define NFBPF_EXPR_QUOTA_H
#include "expr.h"

/**
 * struct expr_quota - byte quota (nft_quota.c): break once it is used up
 * @quota: NFTA_QUOTA_BYTES, at most INT64_MAX
 * @consumed: NFTA_QUOTA_CONSUMED, the bytes already used when the rule is
 *	      created; dumps show the dataplane's live count instead
 * @invert: NFT_QUOTA_F_INV ("quota over"): break until it is used up
 * @slot: dataplane state slot of the consumed bytes, assigned at commit
 *	  (0 = none yet); it lives as long as the rule, shared by all CPUs
 */
struct expr_quota {
	uint64_t quota;
	uint64_t consumed;
	bool invert;
	uint32_t slot;
};
#endif
