/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_LOOKUP_H
#define NFBPF_EXPR_LOOKUP_H
#include "expr.h"

/**
 * struct expr_lookup - look sreg up in a set; break on miss (or hit if inverted)
 * @set: the set, bound to this rule (set->use)
 * @sreg: source slot of the key
 * @dreg: destination slot for map data; only meaningful if @has_dreg
 * @has_dreg: map lookup (value or verdict stored in @dreg)
 * @invert: NFT_LOOKUP_F_INV
 */
struct expr_lookup {
	struct set *set;
	uint8_t sreg;
	uint8_t dreg;
	bool has_dreg;
	bool invert;
};
#endif
