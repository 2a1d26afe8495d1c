// SPDX-License-Identifier: GPL-2.0-only
/*
 * connlimit.c - the connlimit match, revision 1 (xt_connlimit.c
 * connlimit_mt()): struct xt_connlimit_info { union nf_inet_addr mask @0;
 * unsigned int limit @16; u32 flags @20 (XT_CONNLIMIT_INVERT 1,
 * XT_CONNLIMIT_DADDR 2); data pointer @24 }.
 *
 *	key = the masked source (or destination) address and the zone id
 *	connections = nf_conncount_count_skb() on the key's list
 *	    (codegen_emit_conncount(): a key met for the first time counts
 *	    its connection whatever its state, as insert_tree() does)
 *	0: hotdrop; else (connections > limit) ^ invert
 *
 * The kernel keeps one rbtree of lists per rule; here a list is a value
 * of env->cl_fd keyed by the rule's instance id, the address and the
 * zone. The kernel frees a list that became empty only when an insert of
 * another key walks past it or its tree slot collects 8 empty ones (which
 * keys share a slot depends on a random hash seed); here a key's list
 * stays until the rule goes: a packet of an assured connection on an
 * emptied key is hotdropped, as the kernel does while the node lives.
 */
#include <errno.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV4_		2
#define NFPROTO_IPV6_		10
#define XT_CONNLIMIT_INVERT_	1

/* constants: u32 state slot, u32 limit, u32 flags, u8 mask[16] */
#define C_SLOT		0
#define C_LIMIT		4
#define C_FLAGS		8
#define C_MASK		12
#define I_LIMIT		16
#define I_FLAGS		20

static int connlimit_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->family != NFPROTO_IPV4_ && x->family != NFPROTO_IPV6_) {
		err->msg = "xt match 'connlimit' is served in ip and ip6 tables only by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void connlimit_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst + C_SLOT, &x->dp_aux, 4);
	memcpy(dst + C_LIMIT, x->info + I_LIMIT, 4);
	memcpy(dst + C_FLAGS, x->info + I_FLAGS, 4);
	memcpy(dst + C_MASK, x->info, 16);
}

static void connlimit_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->family, 1);
}

static void connlimit_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	const struct codegen_cl_xt xt = {
		.c_mask = C_MASK, .c_flags = C_FLAGS,
		.v6 = x->family == NFPROTO_IPV6_,
	};

	uint32_t l_some = codegen_label_new(p);

	codegen_emit_conncount(p, ec, C_SLOT, &xt);
	/* no connection counted (the kernel's allocation failed): hotdrop */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_some);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_some);
	/* r3 = connections > limit; ^= invert; false: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_LIMIT));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R1, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_FLAGS));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, XT_CONNLIMIT_INVERT_));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), ec->l_break);
}

/* the id naming the rule's lists (codegen_connlimit_id()) */
static uint64_t connlimit_state_init(const struct expr_xt *x, uint64_t now)
{
	(void)x;
	return codegen_connlimit_id(now);
}

const struct codegen_xt_ops codegen_xt_connlimit = {
	.name = "connlimit", .rev = 1, .minlen = 24, .reads_ct = true,
	.state_init = connlimit_state_init, .check = connlimit_check,
	.const_size = 28, .consts = connlimit_consts,
	.shape = connlimit_shape, .emit = connlimit_emit,
};
