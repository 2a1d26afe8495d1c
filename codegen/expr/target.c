// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - the xtables "target" expression (nft_compat.c
 * nft_target_eval_xt). Almost every xtables target changes the packet or
 * state (REJECT sends, MARK/DSCP/TCPMSS mangle, CT/NOTRACK touch
 * conntrack, NFQUEUE queues, NFLOG feeds nfnetlink_log), and the kernel
 * refuses the standard target itself. The ones the dataplane can run
 * have a translation in codegen/xt/ (LOG, NFLOG, REJECT, ebtables mark,
 * dnat, snat, log and nflog; MARK and CLASSIFY in arp and bridge tables);
 * every other one is refused at
 * commit, naming the extension, until the dataplane can do what it does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codegen/xt/xt.h"

static const struct codegen_xt_ops *const xt_targets[] = {
	&codegen_xt_log,
	&codegen_xt_nflog,
	&codegen_xt_reject4,
	&codegen_xt_reject6,
	&codegen_xt_ebt_mark,
	&codegen_xt_ebt_dnat,
	&codegen_xt_ebt_snat,
	&codegen_xt_ebt_log,
	&codegen_xt_ebt_nflog,
	&codegen_xt_mark_tg2,
	&codegen_xt_classify,
	&codegen_xt_arpt_mangle,
	&codegen_xt_ebt_redirect,
};

static const struct codegen_xt_ops *xt_ops(const struct expr_xt *x)
{
	return codegen_xt_find(xt_targets, sizeof(xt_targets) / sizeof(xt_targets[0]), x);
}

static int target_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_xt *x = expr_priv(e);
	const struct codegen_xt_ops *o = xt_ops(x);

	if (!o) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt target '%s' is not supported by the nfbpf dataplane yet",
			 x->name);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return o->check ? o->check(x, err) : 0;
}

static uint32_t target_const_size(const struct expr *e)
{
	const struct expr_xt *x = expr_priv(e);

	return codegen_xt_const_size(xt_ops(x), x);
}

static void target_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_xt *x = expr_priv(e);

	codegen_xt_shape(xt_ops(x), x, k);
}

static void target_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_xt *x = expr_priv(e);

	(void)cc;
	codegen_xt_consts(xt_ops(x), x, dst);
}

static void target_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_xt *x = expr_priv(e);

	xt_ops(x)->emit(p, x, ec);
}

static uint32_t *target_log_prefix(struct expr *e, const char **prefix)
{
	struct expr_xt *x = expr_priv(e);
	const struct codegen_xt_ops *o = xt_ops(x);

	return o && o->log_prefix ? o->log_prefix(x, prefix) : NULL;
}

const struct codegen_expr_ops codegen_expr_target = {
	.name = "target",
	.check = target_check,
	.const_size = target_const_size,
	.shape = target_shape,
	.consts = target_consts,
	.emit = target_emit,
	.log_prefix = target_log_prefix,
};
