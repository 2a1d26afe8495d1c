// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_log.c - the log expression's netlink side against nft_log_init()
 * and nft_log_dump(): every error the kernel returns, the u8 truncation of
 * level and flags, and the exact attributes dumped back.
 */
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "expr/log.h"

static struct expr_log lg;

/* a new attribute list and a zeroed expression */
static void begin(void)
{
	ta_len = 0;
	memset(&lg, 0, sizeof(lg));
}

/* policy check + ->parse, as nf_tables_expr_parse() and ->init() */
static int parse(void)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_LOG];
	const struct nlattr *tb[NFTA_LOG_MAX + 1];
	struct nfnl_expr_ctx ctx = { .family = NFPROTO_IPV4 };
	int err;

	cr_assert_str_eq(ops->name, "log");
	err = nfnl_attr_parse(ta_buf, ta_len, ops->maxattr, ops->policy, tb, NULL);
	if (err)
		return err;
	return ops->parse(&ctx, &lg, tb);
}

/* the dump must be exactly the attributes of @want (built like the input) */
static void dump_is(const void *want, size_t len)
{
	struct nfnl_buf b;

	nfnl_buf_init(&b);
	nfnl_expr_ops[EXPR_LOG]->dump(&b, &lg);
	cr_assert_eq(b.len, len, "dump length %zu, want %zu", b.len, len);
	cr_assert_arr_eq(b.data, want, len);
	nfnl_buf_fini(&b);
}

/* the attributes put so far, to compare a dump with */
static size_t body(char *out)
{
	memcpy(out, ta_buf, ta_len);
	return ta_len;
}

Test(expr_log, defaults_to_warning_level_without_prefix)
{
	char want[256];
	size_t n;

	begin();
	cr_assert_eq(parse(), 0);
	cr_assert_eq(lg.type, LOG_TYPE_SYSLOG);
	cr_assert_eq(lg.level, 4);
	cr_assert_eq(lg.logflags, 0);
	cr_assert_not(lg.has_prefix);
	begin();
	ta_put32(NFTA_LOG_LEVEL, 4);
	n = body(want);
	begin();
	cr_assert_eq(parse(), 0);
	dump_is(want, n);
}

Test(expr_log, prefix_level_flags_round_trip)
{
	char want[256];
	size_t n;

	begin();
	ta_puts(NFTA_LOG_PREFIX, "dropped: ");
	ta_put32(NFTA_LOG_LEVEL, 7);
	ta_put32(NFTA_LOG_FLAGS, 0x2f);
	n = body(want);
	cr_assert_eq(parse(), 0);
	cr_assert_str_eq(lg.prefix, "dropped: ");
	dump_is(want, n);
}

Test(expr_log, empty_prefix_is_dumped_back)
{
	char want[256];
	size_t n;

	begin();
	ta_puts(NFTA_LOG_PREFIX, "");
	ta_put32(NFTA_LOG_LEVEL, 4);
	n = body(want);
	cr_assert_eq(parse(), 0);
	cr_assert(lg.has_prefix);
	dump_is(want, n);
}

Test(expr_log, level_and_flags_ranges)
{
	begin();
	ta_put32(NFTA_LOG_LEVEL, 9);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put32(NFTA_LOG_LEVEL, 8);	/* audit */
	cr_assert_eq(parse(), 0);
	begin();
	ta_put32(NFTA_LOG_FLAGS, 0x10);	/* NF_LOG_NFLOG */
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put32(NFTA_LOG_FLAGS, 0x40);
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_log, level_and_flags_keep_their_low_byte_like_the_kernel)
{
	char want[256];
	size_t n;

	begin();
	ta_put32(NFTA_LOG_LEVEL, 3);
	n = body(want);
	begin();
	ta_put32(NFTA_LOG_LEVEL, 0x103);	/* u8: level 3 */
	ta_put32(NFTA_LOG_FLAGS, 0x100);	/* u8: no flags, not dumped */
	cr_assert_eq(parse(), 0);
	cr_assert_eq(lg.level, 3);
	cr_assert_eq(lg.logflags, 0);
	dump_is(want, n);
	begin();
	ta_put32(NFTA_LOG_LEVEL, 0x109);	/* u8 9: out of range */
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_log, group_excludes_level_and_flags)
{
	begin();
	ta_put16(NFTA_LOG_GROUP, 1);
	ta_put32(NFTA_LOG_LEVEL, 4);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put16(NFTA_LOG_GROUP, 1);
	ta_put32(NFTA_LOG_FLAGS, 1);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	ta_put16(NFTA_LOG_GROUP, 1);
	ta_put32(NFTA_LOG_FLAGS, 0);	/* present is enough */
	cr_assert_eq(parse(), -EINVAL);
}

Test(expr_log, group_snaplen_qthreshold_round_trip)
{
	char want[256];
	size_t n;

	begin();
	ta_puts(NFTA_LOG_PREFIX, "nflog");
	ta_put16(NFTA_LOG_GROUP, 2);
	ta_put32(NFTA_LOG_SNAPLEN, 64);
	ta_put16(NFTA_LOG_QTHRESHOLD, 10);
	n = body(want);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(lg.type, LOG_TYPE_NFLOG);
	cr_assert_eq(lg.group, 2);
	dump_is(want, n);
	/* a zero threshold and a missing snaplen are not dumped */
	begin();
	ta_put16(NFTA_LOG_GROUP, 0);
	n = body(want);
	ta_put16(NFTA_LOG_QTHRESHOLD, 0);
	cr_assert_eq(parse(), 0);
	dump_is(want, n);
}

Test(expr_log, snaplen_and_qthreshold_ignored_for_syslog)
{
	char want[256];
	size_t n;

	begin();
	ta_put32(NFTA_LOG_LEVEL, 5);
	n = body(want);
	ta_put32(NFTA_LOG_SNAPLEN, 100);
	ta_put16(NFTA_LOG_QTHRESHOLD, 3);
	cr_assert_eq(parse(), 0);
	dump_is(want, n);
}

Test(expr_log, prefix_length_and_attribute_sizes)
{
	char p[130];

	memset(p, 'a', sizeof(p));
	p[127] = '\0';			/* 127 characters: accepted */
	begin();
	ta_puts(NFTA_LOG_PREFIX, p);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(strlen(lg.prefix), 127);
	p[127] = 'a';
	p[128] = '\0';			/* 128: NLA_STRING len 127 */
	begin();
	ta_puts(NFTA_LOG_PREFIX, p);
	cr_assert_eq(parse(), -ERANGE);
	begin();
	ta_put(NFTA_LOG_PREFIX, p, 127);	/* no NUL: still 127, accepted */
	cr_assert_eq(parse(), 0);
	cr_assert_eq(strlen(lg.prefix), 127);
	begin();
	ta_put(NFTA_LOG_GROUP, "\x01", 1);	/* NLA_U16 needs 2 bytes */
	cr_assert_eq(parse(), -ERANGE);
	begin();
	ta_put(NFTA_LOG_LEVEL, "\0\0", 2);
	cr_assert_eq(parse(), -ERANGE);
}

Test(expr_log, prefix_stops_at_the_first_nul)
{
	begin();
	ta_put(NFTA_LOG_PREFIX, "ab\0cd", 6);
	cr_assert_eq(parse(), 0);
	cr_assert_str_eq(lg.prefix, "ab");
}
