/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfnl_xt.h - the kernel's xtables registry, asked (nfnl/xt_probe.c).
 *
 * Whether an xtables match or target is accepted depends on the
 * extension's size, its table, hook and protocol restrictions and on its
 * own checkentry() code: properties of the running kernel that no table
 * in nfbpfd could reproduce exactly. So nfbpfd asks the kernel itself: it
 * submits the one expression, in a rule of the same family, table name,
 * chain hook/type and NFTA_RULE_COMPAT, to the kernel's nf_tables in a
 * private network namespace of its own, in a batch without BATCH_END
 * (which the kernel validates and aborts, as for `nft -c`), inside a
 * dormant table (no hook is registered). Answers are cached.
 */
#ifndef NFBPF_NFNL_XT_H
#define NFBPF_NFNL_XT_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct nfnl_xt_query - one match/target expression in its rule's context
 * @family: NFPROTO_* of the table
 * @table: table name
 * @base: the chain is a base chain that the probe can reproduce
 * @hooknum: its hook
 * @prio: its priority
 * @type: its type ("filter", "nat", "route")
 * @compat: payload of the rule's NFTA_RULE_COMPAT, as sent (the kernel
 *	     parses it in the expression's init, after the lookup), or NULL
 * @compat_len: its length
 * @target: a target (else a match)
 * @name: extension name
 * @rev: revision
 * @info: NFTA_*_INFO payload
 * @len: its length
 */
struct nfnl_xt_query {
	uint8_t family;
	const char *table;
	bool base;
	uint32_t hooknum;
	int32_t prio;
	const char *type;
	const void *compat;
	uint32_t compat_len;
	bool target;
	const char *name;
	uint32_t rev;
	const void *info;
	uint32_t len;
};

/**
 * nfnl_xt_check - would the kernel accept this expression?
 * @q: the query
 *
 * Return: 0, or the kernel's -errno for the rule (-ENOENT unknown
 * extension or revision, -EINVAL wrong size/table/hook/protocol or
 * refused by the extension's checkentry, ...). -ECOMM if the kernel
 * could not be asked (no permission to create a network namespace, no
 * answer within 5 s), -ENOMEM.
 */
int nfnl_xt_check(const struct nfnl_xt_query *q);

/**
 * nfnl_xt_prefetch - ask the kernel about many queries at once
 * @qs: queries (duplicates and cached ones are skipped)
 * @n: count
 *
 * One kernel batch per up to 128 queries, so one RCU grace period (the
 * abort's) for all of them instead of one each: called on a client's
 * batch before its messages are handled, so that nfnl_xt_check() then
 * finds the answers. Purely a cache fill: a query it misses or gets
 * wrong only costs a probe of its own later.
 *
 * Return: 0, or -errno if the kernel could not be asked.
 */
int nfnl_xt_prefetch(const struct nfnl_xt_query *qs, size_t n);

/** nfnl_xt_stats - probes sent to the kernel and cache hits so far */
void nfnl_xt_stats(uint64_t *probes, uint64_t *hits);

#endif
