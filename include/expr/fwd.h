/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_FWD_H
#define NFBPF_EXPR_FWD_H
#include "expr.h"

/**
 * struct expr_fwd - forward the packet to a device (nft_fwd_netdev.c),
 * netdev family: the packet leaves through it, the chain stops (NF_STOLEN)
 * @sreg_dev: register holding the output ifindex
 * @neigh: the neighbour form (NFTA_FWD_SREG_ADDR: "fwd ip to A device D")
 * @sreg_addr: neigh: register holding the next hop address
 * @nfproto: neigh: NFPROTO_IPV4 or NFPROTO_IPV6
 */
struct expr_fwd {
	uint8_t sreg_dev;
	bool neigh;
	uint8_t sreg_addr;
	uint8_t nfproto;
};
#endif
