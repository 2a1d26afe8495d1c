// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject.c - the REJECT target (net/ipv4/netfilter/ipt_REJECT.c reject_tg,
 * net/ipv6/netfilter/ip6t_REJECT.c reject_tg6): both send what their
 * struct ipt_reject_info / ip6t_reject_info (u32 with @0) names through
 * nf_send_unreach*() / nf_send_reset*() and return NF_DROP, which is what
 * the reject expression does: the same record (codegen_emit_reject_record())
 * with the `with` value translated to a reject type and code, then NF_DROP.
 */
#include <errno.h>
#include <string.h>
#include "codegen/xt/xt.h"
#include "expr/reject.h"

#define REJECT_NONE	0xff	/* ECHOREPLY or unknown: drop, send nothing */

/* enum ipt_reject_with -> ICMP code (ICMP_*_UNREACH) */
static const int8_t ipt_code[] = {
	[0] = 0,	/* IPT_ICMP_NET_UNREACHABLE: ICMP_NET_UNREACH */
	[1] = 1,	/* IPT_ICMP_HOST_UNREACHABLE */
	[2] = 2,	/* IPT_ICMP_PROT_UNREACHABLE */
	[3] = 3,	/* IPT_ICMP_PORT_UNREACHABLE */
	[4] = -1,	/* IPT_ICMP_ECHOREPLY: "doesn't happen" */
	[5] = 9,	/* IPT_ICMP_NET_PROHIBITED: ICMP_NET_ANO */
	[6] = 10,	/* IPT_ICMP_HOST_PROHIBITED: ICMP_HOST_ANO */
	[7] = -2,	/* IPT_TCP_RESET */
	[8] = 13,	/* IPT_ICMP_ADMIN_PROHIBITED: ICMP_PKT_FILTERED */
};

/* enum ip6t_reject_with -> ICMPv6 code */
static const int8_t ip6t_code[] = {
	[0] = 0,	/* IP6T_ICMP6_NO_ROUTE: ICMPV6_NOROUTE */
	[1] = 1,	/* IP6T_ICMP6_ADM_PROHIBITED */
	[2] = 2,	/* IP6T_ICMP6_NOT_NEIGHBOUR */
	[3] = 3,	/* IP6T_ICMP6_ADDR_UNREACH */
	[4] = 4,	/* IP6T_ICMP6_PORT_UNREACH */
	[5] = -1,	/* IP6T_ICMP6_ECHOREPLY: "doesn't happen" */
	[6] = -2,	/* IP6T_TCP_RESET */
	[7] = 5,	/* IP6T_ICMP6_POLICY_FAIL */
	[8] = 6,	/* IP6T_ICMP6_REJECT_ROUTE */
};

static void reject_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

/* the reject expression's constants: type, code, family, pad */
static void reject_consts(const struct expr_xt *x, uint8_t *dst)
{
	const int8_t *map = x->family == 10 ? ip6t_code : ipt_code;
	size_t n = x->family == 10 ? sizeof(ip6t_code) : sizeof(ipt_code);
	uint32_t with;
	int8_t c;

	memcpy(&with, x->info, sizeof(with));
	c = with < n ? map[with] : -1;
	dst[0] = c == -2 ? REJECT_TCP_RST : c < 0 ? REJECT_NONE : REJECT_ICMP_UNREACH;
	dst[1] = c < 0 ? 0 : (uint8_t)c;
	dst[2] = x->family;
	dst[3] = 0;
}

static void reject_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* nf_send_reset() / nf_send_unreach(); return NF_DROP */
	codegen_emit_reject_record(p, ec);
	codegen_xt_emit_hotdrop(p, ec);
}

const struct codegen_xt_ops codegen_xt_reject4 = {
	.name = "REJECT", .rev = 0, .family = 2, .minlen = 4,
	.const_size = 4, .consts = reject_consts,
	.shape = reject_shape, .emit = reject_emit,
};

const struct codegen_xt_ops codegen_xt_reject6 = {
	.name = "REJECT", .rev = 0, .family = 10, .minlen = 4,
	.const_size = 4, .consts = reject_consts,
	.shape = reject_shape, .emit = reject_emit,
};
