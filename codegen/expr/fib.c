// SPDX-License-Identifier: GPL-2.0-only
/*
 * fib.c - the fib expression's address type lookup for IPv4
 * (nft_fib4_eval_type(): inet_dev_addr_type() of the packet's source or
 * destination, restricted to the input or output device with iif/oif).
 *
 * No helper or kfunc of a netfilter program reaches the FIB, so the
 * lookup reads nfbpfd's copy of the namespace's routes (offload/routes.c,
 * struct codegen_fib4_key in codegen.h). Served in ip tables: `fib
 * saddr|daddr [. iif|. oif] type`, and the route lookups of
 * nft_fib4_eval() (`fib saddr|daddr [. mark] [. iif] oif|oifname`,
 * `oif exists|missing`: the reverse path filter), with its shortcuts
 * (nft_fib_can_skip(): a socket's receive device, loopback; zeronet
 * sources to broadcast and local multicast). What the mirror cannot
 * answer fails closed: the packet is dropped when the namespace has
 * custom policy rules (net->ipv4.fib_has_custom_rules), when the route
 * found has a nexthop object or more than FIB4_NH_MAX nexthops, or when
 * the packet has a DSCP and routes with a tos exist. IPv6 (ip6 tables,
 * IPv6 packets of inet ones): the route lookups of nft_fib6_eval() and
 * the address type of __nft_fib6_eval_type() from the IPv6 mirror.
 * Refused with a message: the netdev family.
 */
#include <errno.h>
#include <stdio.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/fib.h"

#define NFPROTO_IPV4_	2
#define NFPROTO_INET_	1
#define NFPROTO_IPV6_	10
#define IPV6_HDR_LEN	40
#define IPV6_SADDR_OFF	8
#define IPV6_DADDR_OFF	24
#define IPPROTO_ICMPV6_	58
#define IPV4_HDR_LEN	20
#define IPV4_TOS_OFF	1
#define IPV4_SADDR_OFF	12
#define IPV4_DADDR_OFF	16
#define IFF_LOOPBACK_	0x8
#define PACKET_LOOPBACK_	5
#define TCP_TIME_WAIT_	6
#define TCP_NEW_SYN_RECV_	12

static int fib_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_fib *f = expr_priv(e);

	if (f->family != NFPROTO_IPV4_ && f->family != NFPROTO_IPV6_ &&
	    f->family != NFPROTO_INET_) {
		err->msg = "fib is supported by the nfbpf dataplane in ip, ip6 and inet tables only";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(f->dreg, f->result == FIB_RESULT_OIFNAME &&
				     !(f->flags & FIB_F_PRESENT) ? 16 : 4)) {
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

/*
 * nft_fib_store_result(): regs[dreg] = the device whose ifindex is at
 * (@src + @ioff) and whose name is at (@src + @noff) (a 0 ifindex: none)
 */
static void store_dev(struct codegen_prog *p, const struct expr_fib *f,
		      int src, int16_t ioff, int16_t noff)
{
	uint32_t l_out = codegen_label_new(p);

	if (f->result == FIB_RESULT_OIFNAME) {
		/* only OIF takes the present flag (EINVAL at parse) */
		codegen_emit_copy_to_reg(p, f->dreg, src, noff, 16);
		return;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, src, ioff));
	if (f->flags & FIB_F_PRESENT) {
		/* nft_reg_store8(!!index) */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_out);
		codegen_emit(p, INSN_MOV64_IMM(R1, 1));
		codegen_label_bind(p, l_out);
	}
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(f->dreg)));
}

/* nft_fib_store_result(NULL): 0, or IFNAMSIZ zero bytes for oifname */
static void store_none(struct codegen_prog *p, const struct expr_fib *f)
{
	codegen_emit_reg_zero(p, f->dreg, f->result == FIB_RESULT_OIFNAME ? 16 : 4);
}

/*
 * ipv6_addr_type(addr at r6 + @off) & IPV6_ADDR_LINKLOCAL: fe80::/10, or
 * multicast of link scope (ffx2::/16): goto @l_yes. Clobbers r1, r2.
 */
static void emit_linklocal(struct codegen_prog *p, int16_t off, uint32_t l_yes)
{
	uint32_t l_no = codegen_label_new(p), l_mc = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, off));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, (int16_t)(off + 1)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xff, 0), l_mc);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xfe, 0), l_no);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 0xc0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0x80, 0), l_yes);
	codegen_emit_jmp(p, INSN_JA(0), l_no);
	codegen_label_bind(p, l_mc);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 0x0f));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 2, 0), l_yes);
	codegen_label_bind(p, l_no);
}

/*
 * nft_fib_can_skip() (prerouting and input): a full socket whose receive
 * device is the input device, or no socket and a loopback packet
 * (skb->pkt_type PACKET_LOOPBACK, the raw one: pkt's is meta pkttype's;
 * or an IFF_LOOPBACK input device): goto @l_in; else fall through.
 * Clobbers r0-r5, r9.
 */
static void emit_can_skip(struct codegen_prog *p, const struct codegen_env *env,
			  uint32_t l_in)
{
	uint32_t l_lookup = codegen_label_new(p), l_nosk = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R8, env->off.ctx_state));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R1, env->off.st_hook));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1, 1, 0), l_lookup);
	/* a full socket: its receive device is the input device, or look up */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_sk, l_nosk);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R9, env->off.sk_state);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_TIME_WAIT_, 0), l_nosk);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_NEW_SYN_RECV_, 0), l_nosk);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, env->off.sk_rx_dst_ifindex);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(iif)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_in);
	codegen_emit_jmp(p, INSN_JA(0), l_lookup);
	codegen_label_bind(p, l_nosk);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R8, env->off.ctx_skb));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R1, env->off.skb_pkt_type));
	if (env->off.pkt_type_shift)
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, env->off.pkt_type_shift));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, env->off.pkt_type_mask));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, PACKET_LOOPBACK_, 0), l_in);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(in_dev)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_lookup);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, env->off.dev_flags);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IFF_LOOPBACK_));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_in);
	codegen_label_bind(p, l_lookup);
}

/* fail closed (goto @l_drop) if the namespace's custom-rules flag at
 * @off of struct net is set */
static void emit_custom_rules(struct codegen_prog *p, int16_t off,
			      uint32_t l_drop)
{
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(net_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R4, off);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
}

/* r0 = lookup(@fd, the key on the shape buffer) */
static void emit_lookup(struct codegen_prog *p, int fd)
{
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
}

/*
 * nft_fib4_eval() up to the lookup: r0 = the mirror's entry for the
 * address (0: no route, goto @l_end); fails closed (@l_drop) when the
 * mirror cannot answer
 */
static void emit_lookup4(struct codegen_prog *p, const struct expr_fib *f,
			 const struct codegen_expr_ctx *ec, uint32_t l_in,
			 uint32_t l_drop, uint32_t l_end)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_addr = codegen_label_new(p), l_notos = codegen_label_new(p);
	int16_t key = SHAPE_BUF_OFF;

	/* no IPv4 header: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, IPV4_HDR_LEN, 0), ec->l_break);
	/* a zeronet source to 255.255.255.255 or 224.0.0.0/24: skb->dev,
	 * the input device at these hooks */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, (int16_t)(ST_NHC_OFF + IPV4_SADDR_OFF)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_addr);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, (int16_t)(ST_NHC_OFF + IPV4_DADDR_OFF)));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, -1, 0), l_in);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xffffff));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xe0, 0), l_in);
	codegen_label_bind(p, l_addr);
	/* nothing found until proven otherwise */
	store_none(p, f);
	emit_custom_rules(p, env->off.net_fib_custom, l_drop);
	/* a DSCP while routes with a tos exist: fail closed */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, (int16_t)(ST_NHC_OFF + IPV4_TOS_OFF)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfc));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_notos);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, 32));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(key + 4), FIB4_TABLE_STATUS));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(key + 8), 0));
	emit_lookup(p, env->fib4_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB4_F_TOS));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
	codegen_label_bind(p, l_notos);
	/* r0 = lookup(fib4, { 64, MERGED, daddr or saddr }) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, (int16_t)(ST_NHC_OFF +
		     (f->flags & FIB_F_DADDR ? IPV4_DADDR_OFF : IPV4_SADDR_OFF))));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, FIB4_KEY_BITS));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(key + 4), FIB4_TABLE_MERGED));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, (int16_t)(key + 8)));
	emit_lookup(p, env->fib4_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_end);
}

/*
 * nft_fib6_eval() up to the lookup: r0 = the mirror's entry for the
 * address, the local table's, else main's (0: no route, goto @l_end);
 * fails closed (@l_drop) when the mirror cannot answer
 */
static void emit_lookup6(struct codegen_prog *p, const struct expr_fib *f,
			 const struct codegen_expr_ctx *ec, uint32_t l_in,
			 uint32_t l_drop, uint32_t l_end)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_noskip = codegen_label_new(p), l_ll = codegen_label_new(p);
	uint32_t l_tables = codegen_label_new(p), l_found = codegen_label_new(p);
	int16_t addr = (int16_t)(ST_NHC_OFF + (f->flags & FIB_F_DADDR ?
					       IPV6_DADDR_OFF : IPV6_SADDR_OFF));
	int16_t key = SHAPE_BUF_OFF;
	int i;

	/* no IPv6 header: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, IPV6_HDR_LEN, 0), ec->l_break);
	/* nft_fib_v6_skip_icmpv6(): ICMPv6 from :: to a link-local
	 * destination (DAD, router solicitations): the input device */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, IPPROTO_ICMPV6_, 0), l_noskip);
	for (i = 0; i < 16; i += 8) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6,
					     (int16_t)(ST_NHC_OFF + IPV6_SADDR_OFF + i)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_noskip);
	}
	emit_linklocal(p, (int16_t)(ST_NHC_OFF + IPV6_DADDR_OFF), l_in);
	codegen_label_bind(p, l_noskip);
	/* nothing found until proven otherwise */
	store_none(p, f);
	emit_custom_rules(p, env->off.net_fib6_custom, l_drop);
	/* source-specific routes or nexthop objects: fail closed */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, 32));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(key + 4), FIB4_TABLE_STATUS));
	for (i = 0; i < 16; i += 4)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(key + 8 + i), 0));
	emit_lookup(p, env->fib6_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB6_F_SUBTREES | FIB6_F_NHOBJ));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
	/* key = { 160, table, address }; a link-local address is looked up
	 * with RT6_LOOKUP_F_IFACE and skb->dev (the input device): that
	 * device's tables; r9 = the local table's id, r9 - 1 main's */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, FIB6_KEY_BITS));
	codegen_emit_copy(p, R10, (int16_t)(key + 8), R6, addr, 16, R1);
	emit_linklocal(p, addr, l_ll);
	codegen_emit(p, INSN_MOV64_IMM(R9, FIB6_TABLE_LOCAL));
	codegen_emit_jmp(p, INSN_JA(0), l_tables);
	codegen_label_bind(p, l_ll);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(iif)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R9, 8));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R9, FIB6_TABLE_LOCAL));
	codegen_label_bind(p, l_tables);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R9, (int16_t)(key + 4)));
	emit_lookup(p, env->fib6_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_found);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R9, FIB6_TABLE_LOCAL - FIB6_TABLE_MAIN));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R9, (int16_t)(key + 4)));
	emit_lookup(p, env->fib6_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_end);
	codegen_label_bind(p, l_found);
}

/*
 * regs[dreg] = nft_fib4_eval() or nft_fib6_eval() (@family): the route
 * lookup's output device (oif, oifname, or whether there is one).
 * Register use: r9 = the route found.
 */
static void fib_emit_route(struct codegen_prog *p, const struct expr_fib *f,
			   const struct codegen_expr_ctx *ec, int family)
{
	uint32_t l_in = codegen_label_new(p), l_drop = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_found = codegen_label_new(p);
	int i;

	/* 1. nft_fib_can_skip() */
	emit_can_skip(p, ec->env, l_in);
	/* 2. the lookup */
	if (family == NFPROTO_IPV4_)
		emit_lookup4(p, f, ec, l_in, l_drop, l_end);
	else
		emit_lookup6(p, f, ec, l_in, l_drop, l_end);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* 3. nexthop objects, too many nexthops: fail closed; error types
	 * (RTF_REJECT): the lookup fails; a local route, an anycast one
	 * (IPv6 only: RTF_ANYCAST): nothing */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, FIB4_F_INEXACT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_drop);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB4_F_ERROR));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, type)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, RTN_LOCAL, 0), l_end);
	if (family != NFPROTO_IPV4_)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, RTN_ANYCAST, 0), l_end);
	if (!(f->flags & FIB_F_IIF)) {
		/* 4. the route's device */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, oif)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_end);
		store_dev(p, f, R9, offsetof(struct codegen_fib4_val, oif),
			  offsetof(struct codegen_fib4_val, name));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	} else {
		/* 4. fib_info_nh_uses_dev(), nft_fib6_info_nh_uses_dev():
		 * the input device among the nexthops' */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(iif)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_end);
		for (i = 0; i < FIB4_NH_MAX; i++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, (int16_t)
				     (offsetof(struct codegen_fib4_val, nh) + 4 * i)));
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_found);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_found);
		store_dev(p, f, R6, PKT_OFF(iif), PKT_OFF(iifname));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	}
	/* the input device (nft_in(), skb->dev) */
	codegen_label_bind(p, l_in);
	store_dev(p, f, R6, PKT_OFF(iif), PKT_OFF(iifname));
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	/* fail closed: regs->verdict.code = NF_DROP; stop the rule */
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	codegen_label_bind(p, l_end);
}

/* the route lookup of the table's family; inet: by the packet's
 * (nft_fib_inet_eval(); another one: break) */
static void fib_emit_routes(struct codegen_prog *p, const struct expr_fib *f,
			    const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_v6 = codegen_label_new(p), l_end = codegen_label_new(p);

	if (env->fib4_fd < 0 || env->fib6_fd < 0 || env->off.dev_flags < 0 ||
	    env->off.sk_rx_dst_ifindex < 0 || env->off.skb_sk < 0 ||
	    env->off.sk_state < 0 || env->off.net_fib_custom < 0 ||
	    env->off.net_fib6_custom < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* shapes are shared by every program of the namespace, tc ones
	 * too, but nft_fib_validate() allows no ingress or egress hook
	 * (netdev is refused in fib_check()): in a tc program this code is
	 * never reached, it only has to pass the verifier there (which
	 * refuses unreachable instructions: the break is a test it cannot
	 * decide, nfproto is never 255) */
	if (env->ctx != CODEGEN_CTX_NF) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xff, 0), ec->l_break);
		store_none(p, f);
		return;
	}
	if (f->family != NFPROTO_INET_) {
		fib_emit_route(p, f, ec, f->family);
		return;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NFPROTO_IPV6_, 0), l_v6);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, NFPROTO_IPV4_, 0), ec->l_break);
	fib_emit_route(p, f, ec, NFPROTO_IPV4_);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_v6);
	fib_emit_route(p, f, ec, NFPROTO_IPV6_);
	codegen_label_bind(p, l_end);
}

/* r0 = lookup(fib6, { 160, table r1, the address at r6 + @addr }) */
static void emit_lookup6_in(struct codegen_prog *p, const struct codegen_env *env,
			    int16_t addr)
{
	int16_t key = SHAPE_BUF_OFF;

	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, (int16_t)(key + 4)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, key, FIB6_KEY_BITS));
	codegen_emit_copy(p, R10, (int16_t)(key + 8), R6, addr, 16, R1);
	emit_lookup(p, env->fib6_fd);
}

/* codegen_emit_fib6_route: see codegen.h */
void codegen_emit_fib6_route(struct codegen_prog *p,
			     const struct codegen_expr_ctx *ec, int16_t addr,
			     int16_t dev, int tables, uint32_t l_drop,
			     uint32_t l_none)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_ll = codegen_label_new(p), l_tables = codegen_label_new(p);
	uint32_t l_found = codegen_label_new(p), l_outdev = codegen_label_new(p);
	int i;

	/* custom rules, source-specific routes, nexthop objects: fail closed */
	emit_custom_rules(p, env->off.net_fib6_custom, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_BUF_OFF, 32));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_BUF_OFF + 4, FIB4_TABLE_STATUS));
	for (i = 0; i < 16; i += 4)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, (int16_t)(SHAPE_BUF_OFF + 8 + i), 0));
	emit_lookup(p, env->fib6_fd);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB6_F_SUBTREES | FIB6_F_NHOBJ));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
	/* r9 = the local table's id: the device's (the given one, else
	 * skb->dev: the input device before routing, then the output
	 * device) with CODEGEN_FIB6_DEV, or with CODEGEN_FIB6_FIB for a
	 * link-local address */
	if (tables == CODEGEN_FIB6_FIB)
		emit_linklocal(p, addr, l_ll);
	codegen_emit(p, INSN_MOV64_IMM(R9, FIB6_TABLE_LOCAL));
	if (tables != CODEGEN_FIB6_NODEV) {
		if (tables == CODEGEN_FIB6_FIB) {
			codegen_emit_jmp(p, INSN_JA(0), l_tables);
			codegen_label_bind(p, l_ll);
		}
		if (dev) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, dev));
		} else {
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R8, env->off.ctx_state));
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R1, env->off.st_hook));
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(iif)));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 3, 0), l_outdev);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(oif)));
			codegen_label_bind(p, l_outdev);
		}
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R9, 8));
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R9, FIB6_TABLE_LOCAL));
	}
	codegen_label_bind(p, l_tables);
	/* the local table, then main's; none: @l_none */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	emit_lookup6_in(p, env, addr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_found);
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, FIB6_TABLE_LOCAL - FIB6_TABLE_MAIN));
	emit_lookup6_in(p, env, addr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_none);
	codegen_label_bind(p, l_found);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* a dead first route: which route is taken is not known */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB6_F_TYPE_INEXACT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
}

/* codegen_emit_fib6_has_addr: see codegen.h */
void codegen_emit_fib6_has_addr(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec, int16_t addr,
				int16_t dev, uint32_t l_no)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, dev));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_no);
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 8));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, FIB6_TABLE_LOCAL));
	emit_lookup6_in(p, ec->env, addr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, offsetof(struct codegen_fib4_val, type)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, RTN_LOCAL, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, FIB6_PLEN_SHIFT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 128, 0), l_no);
}

/* codegen_emit_fib6_anycast: see codegen.h */
void codegen_emit_fib6_anycast(struct codegen_prog *p, int16_t addr,
			       uint32_t l_yes)
{
	uint32_t l_no = codegen_label_new(p);
	int i;

	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, offsetof(struct codegen_fib4_val, type)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, RTN_ANYCAST, 0), l_yes);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, FIB6_F_GW));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_no);
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, FIB6_PLEN_SHIFT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R1, 127, 0), l_no);
	/* the address's bits from the prefix length on, 8 at a time: byte
	 * i is masked with 0xff >> (plen - 8i) when plen > 8i */
	for (i = 0; i < 16; i++) {
		uint32_t l_next = codegen_label_new(p), l_full = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, (int16_t)(addr + i)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1, 8 * i, 0), l_full);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R1, 8 * i + 8, 0), l_next);
		codegen_emit(p, INSN_MOV64_IMM(R4, 0xff));
		codegen_emit(p, INSN_MOV64_REG(R5, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R5, 8 * i));
		codegen_emit(p, INSN_ALU64_REG(BPF_RSH, R4, R5));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R2, R4));
		codegen_label_bind(p, l_full);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_no);
		codegen_label_bind(p, l_next);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_yes);
	codegen_label_bind(p, l_no);
}

/*
 * regs[dreg] = __nft_fib6_eval_type() (6.18): RTN_LOCAL if the address
 * is one of the device's (iif/oif: nf_ipv6_chk_addr(), the device's
 * local /128 route); then nf_ip6_route(): no route, a reject route:
 * unreachable, blackhole (-EINVAL), prohibit (-EACCES); an anycast
 * route or the subnet-router anycast address of a route without a
 * gateway (ipv6_anycast_destination()): anycast; a local route (no
 * device given): local; else by ipv6_addr_type(): multicast, unicast or
 * unspec. The stack slot SHAPE_KEY_OFF keeps the local answer.
 */
static void fib_emit_type6(struct codegen_prog *p, const struct expr_fib *f,
			   const struct codegen_expr_ctx *ec)
{
	int16_t addr = (int16_t)(ST_NHC_OFF + (f->flags & FIB_F_DADDR ?
					       IPV6_DADDR_OFF : IPV6_SADDR_OFF));
	int16_t dev = f->flags & FIB_F_IIF ? PKT_OFF(iif) :
		      f->flags & FIB_F_OIF ? PKT_OFF(oif) : 0;
	uint32_t l_drop = codegen_label_new(p), l_store = codegen_label_new(p);
	uint32_t l_nolocal = codegen_label_new(p), l_unreach = codegen_label_new(p);
	uint32_t l_route = codegen_label_new(p), l_anycast = codegen_label_new(p);
	uint32_t l_byflags = codegen_label_new(p);

	/* no IPv6 header: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, IPV6_HDR_LEN, 0), ec->l_break);
	/* 1. ret = the device has the address ? LOCAL : 0 */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, SHAPE_KEY_OFF, 0));
	if (dev) {
		codegen_emit_fib6_has_addr(p, ec, addr, dev, l_nolocal);
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, RTN_LOCAL));
		codegen_label_bind(p, l_nolocal);
	}
	/* 2. the route (r9) */
	codegen_emit_fib6_route(p, ec, addr, dev, CODEGEN_FIB6_FIB, l_drop, l_unreach);
	/* a reject route: its error */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, flags)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, offsetof(struct codegen_fib4_val, type)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB4_F_ERROR));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_route);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_BLACKHOLE));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, RTN_BLACKHOLE, 0), l_store);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_PROHIBIT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, RTN_PROHIBIT, 0), l_store);
	codegen_label_bind(p, l_unreach);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_UNREACHABLE));
	codegen_emit_jmp(p, INSN_JA(0), l_store);
	/* 3. anycast */
	codegen_label_bind(p, l_route);
	codegen_emit_fib6_anycast(p, addr, l_anycast);
	/* 4. a local route without a device: local */
	if (!dev) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, offsetof(struct codegen_fib4_val, type)));
		codegen_emit(p, INSN_MOV64_IMM(R2, RTN_LOCAL));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, RTN_LOCAL, 0), l_store);
	}
	/* 5. the device's local answer, else the address's kind */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, SHAPE_KEY_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_store);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, addr));
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_MULTICAST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xff, 0), l_store);
	/* ::, ::ffff:0:0/96: not unicast; the rest is */
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_UNICAST));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, addr));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_store);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, (int16_t)(addr + 8)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_byflags);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JNE, R1, (int32_t)htonl(0xffff), 0), l_store);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_UNSPEC));
	codegen_emit_jmp(p, INSN_JA(0), l_store);
	codegen_label_bind(p, l_byflags);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, (int16_t)(addr + 12)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_store);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_UNSPEC));
	codegen_emit_jmp(p, INSN_JA(0), l_store);
	codegen_label_bind(p, l_anycast);
	codegen_emit(p, INSN_MOV64_IMM(R2, RTN_ANYCAST));
	codegen_emit_jmp(p, INSN_JA(0), l_store);
	/* fail closed: regs->verdict.code = NF_DROP; stop the rule */
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	codegen_label_bind(p, l_store);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, REG_OFF(f->dreg)));
}

/* regs[dreg] = codegen_emit_addr_type() (nft_fib4_eval_type()) */
static void fib_emit_type4(struct codegen_prog *p, const struct expr_fib *f,
			   const struct codegen_expr_ctx *ec)
{
	codegen_emit_addr_type(p, ec, f->flags & FIB_F_DADDR ? IPV4_DADDR_OFF :
							      IPV4_SADDR_OFF,
			       f->flags & FIB_F_IIF ? CODEGEN_ADDR_TYPE_IIF :
			       f->flags & FIB_F_OIF ? CODEGEN_ADDR_TYPE_OIF : 0);
	/* regs[dreg] = r2 */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, REG_OFF(f->dreg)));
}

/* regs[dreg] = the address type (nft_fib4_eval_type(),
 * __nft_fib6_eval_type(); inet: by the packet's family, another one:
 * break) or the route lookup's device (nft_fib4_eval(), nft_fib6_eval()) */
static void fib_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_fib *f = expr_priv(e);
	uint32_t l_v6 = codegen_label_new(p), l_end = codegen_label_new(p);

	if (f->result != FIB_RESULT_ADDRTYPE) {
		fib_emit_routes(p, f, ec);
		return;
	}
	if (f->family == NFPROTO_IPV4_) {
		fib_emit_type4(p, f, ec);
		return;
	}
	if (ec->env->fib6_fd < 0 || ec->env->off.net_fib6_custom < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	if (ec->env->ctx != CODEGEN_CTX_NF) {
		/* never reached in tc programs (see fib_emit_routes()) */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xff, 0), ec->l_break);
		store_none(p, f);
		return;
	}
	if (f->family == NFPROTO_IPV6_) {
		fib_emit_type6(p, f, ec);
		return;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NFPROTO_IPV6_, 0), l_v6);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, NFPROTO_IPV4_, 0), ec->l_break);
	fib_emit_type4(p, f, ec);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_v6);
	fib_emit_type6(p, f, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_expr_ops codegen_expr_fib = {
	.name = "fib",
	.check = fib_check,
	.const_size = fib_const_size,
	.shape = fib_shape,
	.consts = fib_consts,
	.emit = fib_emit,
};
