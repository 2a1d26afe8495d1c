// SPDX-License-Identifier: GPL-2.0-only
/* registry.c - the model layer's expression ops, indexed by enum expr_type. */
#include "ruleset_expr.h"

extern const struct ruleset_expr_ops ruleset_expr_immediate, ruleset_expr_cmp,
	ruleset_expr_payload, ruleset_expr_meta, ruleset_expr_counter,
	ruleset_expr_bitwise, ruleset_expr_lookup, ruleset_expr_range,
	ruleset_expr_byteorder, ruleset_expr_ct,
	ruleset_expr_exthdr, ruleset_expr_log, ruleset_expr_numgen,
	ruleset_expr_hash, ruleset_expr_objref, ruleset_expr_match,
	ruleset_expr_target,
	ruleset_expr_limit, ruleset_expr_quota, ruleset_expr_reject,
	ruleset_expr_fwd, ruleset_expr_dup, ruleset_expr_dynset,
	ruleset_expr_fib, ruleset_expr_rt, ruleset_expr_connlimit;

const struct ruleset_expr_ops *const ruleset_expr_ops[__EXPR_MAX] = {
	[EXPR_IMMEDIATE] = &ruleset_expr_immediate,
	[EXPR_CMP] = &ruleset_expr_cmp,
	[EXPR_PAYLOAD] = &ruleset_expr_payload,
	[EXPR_META] = &ruleset_expr_meta,
	[EXPR_COUNTER] = &ruleset_expr_counter,
	[EXPR_BITWISE] = &ruleset_expr_bitwise,
	[EXPR_LOOKUP] = &ruleset_expr_lookup,
	[EXPR_RANGE] = &ruleset_expr_range,
	[EXPR_BYTEORDER] = &ruleset_expr_byteorder,
	[EXPR_CT] = &ruleset_expr_ct,
	[EXPR_EXTHDR] = &ruleset_expr_exthdr,
	[EXPR_LOG] = &ruleset_expr_log,
	[EXPR_NUMGEN] = &ruleset_expr_numgen,
	[EXPR_HASH] = &ruleset_expr_hash,
	[EXPR_OBJREF] = &ruleset_expr_objref,
	[EXPR_MATCH] = &ruleset_expr_match,
	[EXPR_TARGET] = &ruleset_expr_target,
	[EXPR_LIMIT] = &ruleset_expr_limit,
	[EXPR_QUOTA] = &ruleset_expr_quota,
	[EXPR_REJECT] = &ruleset_expr_reject,
	[EXPR_FWD] = &ruleset_expr_fwd,
	[EXPR_DUP] = &ruleset_expr_dup,
	[EXPR_DYNSET] = &ruleset_expr_dynset,
	[EXPR_FIB] = &ruleset_expr_fib,
	[EXPR_RT] = &ruleset_expr_rt,
	[EXPR_CONNLIMIT] = &ruleset_expr_connlimit,
};
