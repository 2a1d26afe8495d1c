/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * attrs.h - for expression tests of the netlink layer (tests/nfnl/expr_X.c):
 * attributes built in a buffer, and the daemon's multicast hooks the core
 * library needs (no listeners here).
 */
#ifndef NFBPF_TESTS_NFNL_ATTRS_H
#define NFBPF_TESTS_NFNL_ATTRS_H

#include <endian.h>
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>

#include "nfnl_expr.h"

void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude,
		    const void *data, size_t len)
{
	(void)net; (void)group; (void)exclude; (void)data; (void)len;
}

bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	(void)net; (void)group;
	return false;
}

/* the attributes put so far: ta_len bytes from ta_buf */
static uint8_t ta_buf[256] __attribute__((aligned(4)));
static size_t ta_len;

static inline void ta_put(uint16_t type, const void *v, uint16_t n)
{
	struct nlattr *a = (struct nlattr *)(ta_buf + ta_len);

	cr_assert_leq(ta_len + NLA_ALIGN(NLA_HDRLEN + n), sizeof(ta_buf));
	/* padding zeroed, as the kernel's nla_put() writes it */
	memset(a, 0, NLA_ALIGN(NLA_HDRLEN + n));
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + n;
	memcpy(a + 1, v, n);
	ta_len += NLA_ALIGN(a->nla_len);
}

static inline void ta_put8(uint16_t type, uint8_t v)
{
	ta_put(type, &v, 1);
}

static inline void ta_put16(uint16_t type, uint16_t v)
{
	v = htobe16(v);
	ta_put(type, &v, 2);
}

/* a string with its NUL */
static inline void ta_puts(uint16_t type, const char *s)
{
	ta_put(type, s, strlen(s) + 1);
}

static inline void ta_put64(uint16_t type, uint64_t v)
{
	v = htobe64(v);
	ta_put(type, &v, 8);
}

static inline void ta_put32(uint16_t type, uint32_t v)
{
	v = htobe32(v);
	ta_put(type, &v, 4);
}

/*
 * ta_parse - the attributes put so far, through @type's policy and
 * ->parse into @priv (@size bytes, zeroed first), as nf_tables_newexpr;
 * starts a new attribute list. Returns the first error. ta_parse_family():
 * in a rule of table family @family (ta_parse(): 0).
 */
static inline int ta_parse_family(enum expr_type type, void *priv, size_t size,
				  uint8_t family)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[type];
	const struct nlattr *tb[32];
	struct nfnl_expr_ctx ctx = { .family = family };
	int err;

	cr_assert_lt(ops->maxattr, 32);
	err = nfnl_attr_parse(ta_buf, ta_len, ops->maxattr, ops->policy, tb, NULL);
	ta_len = 0;
	if (err)
		return err;
	memset(priv, 0, size);
	return ops->parse(&ctx, priv, tb);
}

static inline int ta_parse(enum expr_type type, void *priv, size_t size)
{
	return ta_parse_family(type, priv, size, 0);
}

/*
 * ta_dump_is - does @type's ->dump of @priv give exactly the attributes
 * put so far? Starts a new attribute list.
 */
static inline void ta_dump_is(enum expr_type type, const void *priv)
{
	struct nfnl_buf b;

	nfnl_buf_init(&b);
	nfnl_expr_ops[type]->dump(&b, priv);
	cr_assert_eq(b.err, 0);
	cr_assert_eq(b.len, ta_len, "dump of %zu bytes, want %zu", b.len, ta_len);
	cr_assert_arr_eq(b.data, ta_buf, ta_len);
	nfnl_buf_fini(&b);
	ta_len = 0;
}

#endif
