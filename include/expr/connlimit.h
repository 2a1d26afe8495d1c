/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_CONNLIMIT_H
#define NFBPF_EXPR_CONNLIMIT_H
#include "expr.h"

/**
 * struct expr_connlimit - connection count (nft_connlimit.c, "ct count"):
 * break while the count of the expression's connection list is over
 * @limit (under, with @invert)
 * @limit: NFTA_CONNLIMIT_COUNT
 * @invert: NFT_CONNLIMIT_F_INV ("ct count over"): break while not over
 * @slot: dataplane state slot holding the id of the instance's list,
 *	  assigned at commit (0 = none yet)
 *
 * The kernel gives every instance (a rule's, a set element's) a list of
 * its own (nf_conncount_list), started empty; the model holds only the
 * configuration, which is all a dump shows.
 */
struct expr_connlimit {
	uint32_t limit;
	bool invert;
	uint32_t slot;
};
#endif
