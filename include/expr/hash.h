/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_HASH_H
#define NFBPF_EXPR_HASH_H
#include "expr.h"

enum { HASH_JENKINS, HASH_SYM };	/* NFT_HASH_JENKINS, NFT_HASH_SYM */

/**
 * struct expr_hash - a hash of registers (jhash) or of the flow (symhash)
 * into [offset, offset + modulus) (nft_hash.c)
 * @type: HASH_JENKINS or HASH_SYM
 * @sreg: jhash: source slot
 * @dreg: destination slot
 * @len: jhash: bytes hashed
 * @autogen_seed: the seed was not given: generated (and not dumped)
 * @modulus: range of the result
 * @seed: jhash initval
 * @offset: added to the result
 */
struct expr_hash {
	uint32_t type;
	uint8_t sreg;
	uint8_t dreg;
	uint8_t len;
	bool autogen_seed;
	uint32_t modulus;
	uint32_t seed;
	uint32_t offset;
};
#endif
