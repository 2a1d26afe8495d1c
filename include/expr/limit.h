/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_LIMIT_H
#define NFBPF_EXPR_LIMIT_H
#include "expr.h"

/**
 * struct expr_limit - token bucket (nft_limit.c): break while over the rate
 * @rate: NFTA_LIMIT_RATE, never 0
 * @nsecs: NFTA_LIMIT_UNIT in nanoseconds (the unit of @rate)
 * @tokens_max: bucket size in nanoseconds of credit
 * @cost: packets: nanoseconds of credit one packet takes (@nsecs / @rate);
 *	  bytes: 0, the cost is @nsecs * skb->len / @rate per packet
 * @burst: NFTA_LIMIT_BURST as the kernel keeps it (packets: 0 becomes 5)
 * @bytes: NFT_LIMIT_PKT_BYTES (else NFT_LIMIT_PKTS)
 * @invert: NFT_LIMIT_F_INV: break while under the rate instead
 * @slot: dataplane state slot of the bucket, assigned at commit (0 = none
 *	  yet); the bucket lives as long as the rule, shared by all CPUs
 */
struct expr_limit {
	uint64_t rate;
	uint64_t nsecs;
	uint64_t tokens_max;
	uint64_t cost;
	uint32_t burst;
	bool bytes;
	bool invert;
	uint32_t slot;
};
#endif
