/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_OBJREF_H
#define NFBPF_EXPR_OBJREF_H
#include "expr.h"

struct object;

/**
 * struct expr_objref - run a stateful object: a named one, or the one a
 * map gives for the key in @sreg (nft_objref.c: nft_objref_ops and
 * nft_objref_map_ops)
 * @obj: the named object (immediate form); holds obj->use; NULL for maps
 * @set: the object map (map form), bound to this rule (set->use); else NULL
 * @sreg: map form: source slot of the key
 */
struct expr_objref {
	struct object *obj;
	struct set *set;
	uint8_t sreg;
};
#endif
