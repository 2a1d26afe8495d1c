/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_CT_H
#define NFBPF_EXPR_CT_H
#include "expr.h"

/* NFT_CT_* keys (uapi linux/netfilter/nf_tables.h, stable numbers) */
enum {
	CT_STATE, CT_DIRECTION, CT_STATUS, CT_MARK, CT_SECMARK, CT_EXPIRATION,
	CT_HELPER, CT_L3PROTOCOL, CT_SRC, CT_DST, CT_PROTOCOL, CT_PROTO_SRC,
	CT_PROTO_DST, CT_LABELS, CT_PKTS, CT_BYTES, CT_AVGPKT, CT_ZONE,
	CT_EVENTMASK, CT_SRC_IP, CT_DST_IP, CT_SRC_IP6, CT_DST_IP6, CT_ID,
	__CT_KEY_MAX
};

#define CT_DIR_NONE	2	/* IP_CT_DIR_MAX: no direction given */

/**
 * struct expr_ct - read a conntrack key into a register (or set it)
 * @key: NFT_CT_* key
 * @dir: IP_CT_DIR_ORIGINAL (0), IP_CT_DIR_REPLY (1) or CT_DIR_NONE
 * @is_set: true for the ct-set form (sreg), else get (dreg)
 * @reg: destination (get) or source (set) slot
 * @len: register bytes of the key, as the kernel computes it
 */
struct expr_ct {
	uint32_t key;
	uint8_t dir;
	bool is_set;
	uint8_t reg;
	uint32_t len;
};
#endif
