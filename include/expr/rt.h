/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_RT_H
#define NFBPF_EXPR_RT_H
#include "expr.h"

/* NFT_RT_* (uapi, stable numbers) */
#define RT_CLASSID	0
#define RT_NEXTHOP4	1
#define RT_NEXTHOP6	2
#define RT_TCPMSS	3
#define RT_XFRM		4

/**
 * struct expr_rt - a fact of the packet's route, skb_dst() (nft_rt.c)
 * @key: RT_* (NFTA_RT_KEY)
 * @dreg: destination register slot
 * @len: bytes stored: 4 (classid, nexthop4), 16 (nexthop6), 2 (tcpmss),
 *	 1 (xfrm)
 */
struct expr_rt {
	uint8_t key;
	uint8_t dreg;
	uint8_t len;
};
#endif
