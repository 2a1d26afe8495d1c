/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_PAYLOAD_H
#define NFBPF_EXPR_PAYLOAD_H
#include "expr.h"

/** enum payload_base - header a payload offset is relative to */
enum payload_base { PAYLOAD_LL, PAYLOAD_NH, PAYLOAD_TH, PAYLOAD_INNER };

/**
 * struct expr_payload - load packet bytes into a register (or write them)
 * @base: enum payload_base
 * @offset: byte offset from the start of @base
 * @len: number of bytes (1..DATA_VALUE_MAXLEN)
 * @dreg: destination slot (load form, @is_set false)
 * @is_set: true for the payload-set form (mangling)
 * @sreg: source slot (set form)
 * @csum_type: checksum to fix up (set form), NFT_PAYLOAD_CSUM_*
 * @csum_offset: offset of the checksum field (set form)
 * @csum_flags: NFT_PAYLOAD_L4CSUM_PSEUDOHDR (set form)
 */
struct expr_payload {
	uint8_t base;
	uint32_t offset;
	uint32_t len;
	uint8_t dreg;
	bool is_set;
	uint8_t sreg;
	uint32_t csum_type;
	uint32_t csum_offset;
	uint32_t csum_flags;
};
/*
 * payload_kernel_fast - would the kernel run @pl through
 * nft_payload_fast_eval()? (a network or transport header load of 1, 2 or
 * 4 bytes at an offset aligned to its length, nft_payload_select_ops)
 */
static inline bool payload_kernel_fast(const struct expr_payload *pl)
{
	return !pl->is_set &&
	       (pl->base == PAYLOAD_NH || pl->base == PAYLOAD_TH) &&
	       (pl->len == 1 || pl->len == 2 || pl->len == 4) &&
	       pl->offset % pl->len == 0;
}
#endif
