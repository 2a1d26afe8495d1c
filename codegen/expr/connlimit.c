// SPDX-License-Identifier: GPL-2.0-only
/*
 * connlimit.c - "ct count" (nft_connlimit.c) on the BPF dataplane: not yet.
 *
 * The kernel keeps one list of connections per instance (a rule's, a set
 * element's) and, on every packet, nf_conncount_add_skb() checks the
 * stored tuples against the live conntrack table (nf_conntrack_find_get()),
 * drops the gone and closed ones (TCP CLOSE/TIME_WAIT), adds the packet's
 * unconfirmed connection and compares the count with the limit. A
 * netfilter BPF program cannot call the conntrack lookup kfuncs (XDP and tc
 * only), so the dataplane refuses the expression at commit rather than
 * count differently.
 *
 * What 6.18.44 does, measured with real connections (tests/dataplane
 * c10-c12 --kernel-only, and by hand): nf_conncount_add_skb() takes the
 * packet's nf_conn (not a template) or, without one, the tuple of its
 * headers (nf_ct_get_tuplepr(), failure: -ENOENT, the rule drops) and
 * the conntrack found for it. A confirmed and ASSURED conntrack: -EEXIST,
 * the list is only collected (nf_conncount_gc_list(): not within the
 * jiffy of the last collection). A confirmed one not yet assured (a
 * loopback connection at input, a one-way or young UDP flow): the list
 * is scanned (a duplicate tuple ends the scan, nothing added). Else the
 * scan runs unless within the jiffy of the last one and fewer than 64
 * entries were added since; it drops entries whose conntrack is gone
 * (only when this CPU added them or they are 2 jiffies old) or in TCP
 * CLOSE/TIME_WAIT, and stops after 64 such; then the tuple is appended.
 * The count is compared after that.
 *
 * Doing it in BPF: the stored entries can keep their nf_conn pointer
 * beside the tuple and zone, and a gone conntrack be told by reading the
 * object (SLAB_TYPESAFE_BY_RCU: still an nf_conn) with
 * bpf_probe_read_kernel(): same original tuple, confirmed, not dying,
 * refcount not 0. What that cannot see is another live conntrack with
 * the stored tuple (in either direction), nor the conntrack of a packet
 * that has none attached.
 */
#include <errno.h>

#include "codegen/codegen.h"
#include "expr/connlimit.h"

static int connlimit_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	err->msg = "ct count (connlimit) is not supported by the nfbpf dataplane yet: its connection lists need the live conntrack table";
	return -EOPNOTSUPP;
}

static uint32_t connlimit_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void connlimit_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_connlimit *c = expr_priv(e);
	uint8_t invert = c->invert;

	codegen_key_put(k, &invert, 1);
}

static void connlimit_consts(const struct expr *e, uint8_t *dst,
			     const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* never reached: connlimit_check() refuses every rule holding one */
static void connlimit_emit(struct codegen_prog *p, const struct expr *e,
			   const struct codegen_expr_ctx *ec)
{
	(void)p;
	(void)e;
	(void)ec;
}

const struct codegen_expr_ops codegen_expr_connlimit = {
	.name = "connlimit",
	.check = connlimit_check,
	.const_size = connlimit_const_size,
	.shape = connlimit_shape,
	.consts = connlimit_consts,
	.emit = connlimit_emit,
};
