// SPDX-License-Identifier: GPL-2.0-only
/*
 * fib.c - the fib expression's address type lookup for IPv4
 * (nft_fib4_eval_type(): inet_dev_addr_type() of the packet's source or
 * destination, restricted to the input or output device with iif/oif).
 *
 * No helper or kfunc of a netfilter program reaches the FIB, so the
 * lookup reads nfbpfd's copy of the namespace's routes (offload/routes.c,
 * struct codegen_fib4_key in codegen.h). Served: `fib saddr|daddr
 * [. iif|. oif] type` in ip tables. Refused with a message: the route
 * lookups (results oif and oifname, which go through policy routing) and
 * the ip6, inet and netdev families (IPv6 address types come from a full
 * IPv6 route lookup, not mirrored).
 */
#include <errno.h>
#include <stdio.h>
#include <linux/rtnetlink.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/fib.h"

#define NFPROTO_IPV4_	2
#define IPV4_HDR_LEN	20
#define IPV4_SADDR_OFF	12
#define IPV4_DADDR_OFF	16

static int fib_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_fib *f = expr_priv(e);

	if (f->result != FIB_RESULT_ADDRTYPE) {
		snprintf(err->buf, sizeof(err->buf),
			 "fib ... %s (a route lookup) is not supported by the nfbpf dataplane yet",
			 f->result == FIB_RESULT_OIF ? "oif" : "oifname");
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (f->family != NFPROTO_IPV4_) {
		err->msg = "fib ... type is supported by the nfbpf dataplane in ip tables only (IPv6 address types are not mirrored)";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(f->dreg, 4)) {
		err->msg = "fib: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t fib_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void fib_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_fib *f = expr_priv(e);

	codegen_key_put(k, &f->result, 4);
	codegen_key_put(k, &f->flags, 4);
	codegen_key_put(k, &f->dreg, 1);
	codegen_key_put(k, &f->family, 1);
}

static void fib_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* codegen_emit_addr_type: see codegen.h */
void codegen_emit_addr_type(struct codegen_prog *p,
			    const struct codegen_expr_ctx *ec, int16_t addr,
			    int dev)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_out = codegen_label_new(p), l_table = codegen_label_new(p);
	int16_t key = SHAPE_BUF_OFF;

	if (env->fib4_fd < 0) {
		/* no route mirror in this namespace (dp_routes_new() failed) */
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* if pkt.nhc_len < 20 goto break (no IPv4 header) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, IPV4_HDR_LEN, 0), ec->l_break);
	/* r9 = the address (network order) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, (int16_t)(ST_NHC_OFF + addr)));
	/* r2 = BROADCAST; if zeronet or limited broadcast goto out */
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_BROADCAST));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xff));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_out);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R9, -1, 0), l_out);
	/* r2 = MULTICAST; if 224.0.0.0/4 goto out */
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_MULTICAST));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xf0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xe0, 0), l_out);
	/* key = { 64, table, addr } on the shape frame's buffer */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, FIB4_KEY_BITS));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R9,
				     (int16_t)(key + offsetof(struct codegen_fib4_key, addr))));
	/* scratch = net->ipv4.fib_has_custom_rules */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(net_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R4, env->off.net_fib_custom);
	/* key.table = custom rules ? LOCAL : MERGED */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_MOV64_IMM(R2, FIB4_TABLE_MERGED));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_table);
	codegen_emit(p, INSN_MOV64_IMM(R2, FIB4_TABLE_LOCAL));
	codegen_label_bind(p, l_table);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R2,
				     (int16_t)(key + offsetof(struct codegen_fib4_key, table))));
	/* r0 = lookup(fib4, &key) */
	codegen_emit_ld_map(p, R1, env->fib4_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, key));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	/* r2 = UNICAST; if no route goto out */
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_UNICAST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_out);
	if (dev) {
		/* if route's device != pkt.iif/oif goto out (unicast) */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
					     offsetof(struct codegen_fib4_val, oif)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, dev == CODEGEN_ADDR_TYPE_IIF ?
					     PKT_OFF(iif) : PKT_OFF(oif)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_out);
	}
	/* r2 = route type */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0,
				     offsetof(struct codegen_fib4_val, type)));
	codegen_label_bind(p, l_out);
}

/* regs[dreg] = the address type (nft_fib4_eval_type()) */
static void fib_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_fib *f = expr_priv(e);

	codegen_emit_addr_type(p, ec, f->flags & FIB_F_DADDR ? IPV4_DADDR_OFF :
							      IPV4_SADDR_OFF,
			       f->flags & FIB_F_IIF ? CODEGEN_ADDR_TYPE_IIF :
			       f->flags & FIB_F_OIF ? CODEGEN_ADDR_TYPE_OIF : 0);
	/* regs[dreg] = r2 */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, REG_OFF(f->dreg)));
}

const struct codegen_expr_ops codegen_expr_fib = {
	.name = "fib",
	.check = fib_check,
	.const_size = fib_const_size,
	.shape = fib_shape,
	.consts = fib_consts,
	.emit = fib_emit,
};
