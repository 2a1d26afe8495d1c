/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_DYNSET_H
#define NFBPF_EXPR_DYNSET_H
#include "expr.h"

#define DYNSET_OP_ADD		0	/* NFT_DYNSET_OP_ADD */
#define DYNSET_OP_UPDATE	1	/* NFT_DYNSET_OP_UPDATE */
#define DYNSET_OP_DELETE	2	/* NFT_DYNSET_OP_DELETE */
#define DYNSET_EXPRS_BYTES	128	/* two stateful expression records */

/**
 * struct expr_dynset - add, update or delete the element of a key from the
 * packet path (nft_dynset.c)
 * @set: the set, bound to this rule (set->use)
 * @op: DYNSET_OP_*
 * @sreg_key: source slot of the key
 * @sreg_data: source slot of the data (maps); only if @has_data
 * @has_data: the set is a map
 * @invert: NFT_DYNSET_F_INV: break when the element is there
 * @timeout: jiffies, 0: the set's
 * @nexprs: stateful expressions a new element gets (its own or the set's)
 * @exprs_len: bytes of their records in @exprs
 * @exprs: the records (struct expr), inline
 */
struct expr_dynset {
	struct set *set;
	uint8_t op;
	uint8_t sreg_key;
	uint8_t sreg_data;
	bool has_data;
	bool invert;
	uint64_t timeout;
	uint32_t nexprs;
	uint32_t exprs_len;
	uint8_t exprs[DYNSET_EXPRS_BYTES] __attribute__((aligned(8)));
};
#endif
