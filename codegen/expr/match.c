// SPDX-License-Identifier: GPL-2.0-only
/*
 * match.c - the xtables "match" expression (nft_compat.c nft_match_eval):
 * each supported extension has its own translation (codegen/xt/); any
 * other extension is refused at commit, naming it, never skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codegen/xt/xt.h"

static const struct codegen_xt_ops *const xt_matches[] = {
	&codegen_xt_comment, &codegen_xt_tcp, &codegen_xt_udp,
	&codegen_xt_udplite, &codegen_xt_icmp, &codegen_xt_icmp6,
	&codegen_xt_multiport, &codegen_xt_mark, &codegen_xt_iprange,
	&codegen_xt_length, &codegen_xt_pkttype, &codegen_xt_ttl,
	&codegen_xt_hl, &codegen_xt_dscp, &codegen_xt_tos, &codegen_xt_state,
	&codegen_xt_conntrack1, &codegen_xt_conntrack2, &codegen_xt_conntrack3,
	&codegen_xt_mac, &codegen_xt_u32,
	&codegen_xt_addrtype, &codegen_xt_recent0, &codegen_xt_recent1,
	&codegen_xt_hashlimit1, &codegen_xt_hashlimit2, &codegen_xt_hashlimit3,
	&codegen_xt_ebt_ip, &codegen_xt_ebt_vlan, &codegen_xt_ebt_arp,
	&codegen_xt_ebt_mark_m, &codegen_xt_ebt_ip6, &codegen_xt_ebt_stp,
	&codegen_xt_ebt_802_3,
	&codegen_xt_esp, &codegen_xt_ipcomp, &codegen_xt_ah4, &codegen_xt_ah6,
	&codegen_xt_rt6, &codegen_xt_hbh6, &codegen_xt_dst6,
	&codegen_xt_owner,
	&codegen_xt_connmark, &codegen_xt_connlabel, &codegen_xt_helper,
	&codegen_xt_connbytes, &codegen_xt_statistic, &codegen_xt_quota,
	&codegen_xt_time, &codegen_xt_cpu, &codegen_xt_ecn4, &codegen_xt_ecn6,
	&codegen_xt_tcpmss, &codegen_xt_cgroup0, &codegen_xt_cgroup2,
	&codegen_xt_mh, &codegen_xt_dccp, &codegen_xt_sctp, &codegen_xt_realm,
	&codegen_xt_connlimit,
	&codegen_xt_string, &codegen_xt_frag6, &codegen_xt_eui64,
	&codegen_xt_ipv6header,
};

/* xt_ops - the translation of @x, NULL if none */
static const struct codegen_xt_ops *xt_ops(const struct expr_xt *x)
{
	return codegen_xt_find(xt_matches, sizeof(xt_matches) / sizeof(xt_matches[0]), x);
}

static int match_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_xt *x = expr_priv(e);
	const struct codegen_xt_ops *o = xt_ops(x);

	if (!o) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt match '%s' revision %u is not supported by the nfbpf dataplane yet",
			 x->name, x->rev);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return o->check ? o->check(x, err) : 0;
}

static uint32_t match_const_size(const struct expr *e)
{
	const struct expr_xt *x = expr_priv(e);

	return codegen_xt_const_size(xt_ops(x), x);
}

static void match_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_xt *x = expr_priv(e);

	codegen_xt_shape(xt_ops(x), x, k);
}

static void match_consts(const struct expr *e, uint8_t *dst,
			 const struct codegen_consts_ctx *cc)
{
	const struct expr_xt *x = expr_priv(e);

	(void)cc;
	codegen_xt_consts(xt_ops(x), x, dst);
}

static bool match_reads_ct(const struct expr *e)
{
	return xt_ops(expr_priv(e))->reads_ct;
}

static bool match_reads_acct(const struct expr *e)
{
	return xt_ops(expr_priv(e))->reads_acct;
}

/* the state slot of a match with state (x->dp_aux), NULL for others */
static uint32_t *match_state_slot(struct expr *e)
{
	struct expr_xt *x = expr_priv(e);
	const struct codegen_xt_ops *o = xt_ops(x);

	return o && o->state_init ? &x->dp_aux : NULL;
}

static uint64_t match_state_init(const struct expr *e, uint64_t now)
{
	const struct expr_xt *x = expr_priv(e);

	return xt_ops(x)->state_init(x, now);
}

static void match_emit(struct codegen_prog *p, const struct expr *e,
		       const struct codegen_expr_ctx *ec)
{
	const struct expr_xt *x = expr_priv(e);

	xt_ops(x)->emit(p, x, ec);
}

const struct codegen_expr_ops codegen_expr_match = {
	.name = "match",
	.check = match_check,
	.const_size = match_const_size,
	.shape = match_shape,
	.consts = match_consts,
	.emit = match_emit,
	.reads_ct = match_reads_ct,
	.reads_acct = match_reads_acct,
	.state_slot = match_state_slot,
	.state_init = match_state_init,
};
