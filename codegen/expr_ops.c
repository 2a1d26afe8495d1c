// SPDX-License-Identifier: GPL-2.0-only
/* expr_ops.c - the codegen ops of every expression type. */
#include "codegen/codegen.h"

const struct codegen_expr_ops *const codegen_expr_ops[__EXPR_MAX] = {
	[EXPR_IMMEDIATE]	= &codegen_expr_immediate,
	[EXPR_CMP]		= &codegen_expr_cmp,
	[EXPR_PAYLOAD]		= &codegen_expr_payload,
	[EXPR_META]		= &codegen_expr_meta,
	[EXPR_COUNTER]		= &codegen_expr_counter,
	[EXPR_BITWISE]		= &codegen_expr_bitwise,
	[EXPR_LOOKUP]		= &codegen_expr_lookup,
	[EXPR_RANGE]		= &codegen_expr_range,
	[EXPR_BYTEORDER]	= &codegen_expr_byteorder,
	[EXPR_CT]		= &codegen_expr_ct,
	[EXPR_EXTHDR]		= &codegen_expr_exthdr,
	[EXPR_LOG]		= &codegen_expr_log,
	[EXPR_NUMGEN]		= &codegen_expr_numgen,
	[EXPR_HASH]		= &codegen_expr_hash,
	[EXPR_OBJREF]		= &codegen_expr_objref,
	[EXPR_MATCH]		= &codegen_expr_match,
	[EXPR_TARGET]		= &codegen_expr_target,
	[EXPR_LIMIT]		= &codegen_expr_limit,
	[EXPR_QUOTA]		= &codegen_expr_quota,
	[EXPR_REJECT]		= &codegen_expr_reject,
	[EXPR_FWD]		= &codegen_expr_fwd,
	[EXPR_DUP]		= &codegen_expr_dup,
	[EXPR_DYNSET]		= &codegen_expr_dynset,
	[EXPR_FIB]		= &codegen_expr_fib,
	[EXPR_RT]		= &codegen_expr_rt,
	[EXPR_CONNLIMIT]	= &codegen_expr_connlimit,
};
