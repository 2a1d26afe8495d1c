/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_META_H
#define NFBPF_EXPR_META_H
#include "expr.h"

/**
 * struct expr_meta - load packet metadata into a register (or set it)
 * @key: the kernel's NFT_META_* key number (a stable uapi value)
 * @is_set: true for the meta-set form
 * @dreg: destination slot (get form)
 * @sreg: source slot (set form)
 * @family: the table's NFPROTO_* (the set form runs only where the
 *	    program can write the packet: tc programs)
 * @len: bytes the key occupies in a register (as the kernel computes it)
 */
struct expr_meta {
	uint32_t key;
	bool is_set;
	uint8_t dreg;
	uint8_t sreg;
	uint8_t family;
	uint32_t len;
};
#endif
