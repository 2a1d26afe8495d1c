/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_NUMGEN_H
#define NFBPF_EXPR_NUMGEN_H
#include "expr.h"

enum { NUMGEN_INC, NUMGEN_RANDOM };	/* NFT_NG_INCREMENTAL, NFT_NG_RANDOM */

/**
 * struct expr_numgen - a number in [offset, offset + modulus) (nft_numgen.c)
 * @type: NUMGEN_INC (round robin) or NUMGEN_RANDOM
 * @dreg: destination slot
 * @modulus: how many numbers
 * @offset: the first
 * @slot: dataplane state slot of the incremental counter (offload's)
 */
struct expr_numgen {
	uint32_t type;
	uint8_t dreg;
	uint32_t modulus;
	uint32_t offset;
	uint32_t slot;
};
#endif
