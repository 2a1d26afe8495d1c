// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_obj.c - stateful objects through nfnl_rcv(): the kernel's errors
 * for bad object data, use counting, dumps and reset (nf_tables_api.c,
 * nft_counter.c, nft_quota.c, nft_limit.c, nft_ct.c, nft_objref.c).
 */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter.h>

#include "nfnl.h"
#include "nfnl_compat.h"
#include "ruleset_api.h"

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

static struct client cl;
static char buf[16384];
static char *cur;
static uint32_t seq;

static void setup(void)
{
	memset(&cl, 0, sizeof(cl));
	cl.net = ruleset_net_alloc();
	cl.portid = 1234;
	cl.privileged = true;
	cl.nlflags = CLIENT_F_EXT_ACK;
}

static void teardown(void)
{
	nfnl_out_fini(&cl.out);
	ruleset_net_free(cl.net);
}

TestSuite(obj, .init = setup, .fini = teardown);

/* raw_msg - a message of netlink type @type; msg() for nf_tables types */
static struct nlmsghdr *raw_msg(uint16_t type, uint16_t flags, uint8_t family)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(cur);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq++;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = family;
	nfg->res_id = htobe16(NFNL_SUBSYS_NFTABLES);
	return nlh;
}

static struct nlmsghdr *msg(uint8_t type, uint16_t flags, uint8_t family)
{
	return raw_msg((NFNL_SUBSYS_NFTABLES << 8) | type, flags, family);
}

static void done(struct nlmsghdr *nlh)
{
	cur += NLMSG_ALIGN(nlh->nlmsg_len);
}

static void begin(void)
{
	cur = buf;
	seq = 1;
	nfnl_out_fini(&cl.out);
	done(raw_msg(NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC));
}

/* end - close the batch, run it, return the first error (0 if none) */
static int end(void)
{
	size_t off = 0;

	done(raw_msg(NFNL_MSG_BATCH_END, 0, AF_UNSPEC));
	nfnl_rcv(&cl, buf, cur - buf);
	while (off < cl.out.buf.len) {
		struct nlmsghdr *nlh = (void *)(cl.out.buf.data + off);

		if (nlh->nlmsg_type == NLMSG_ERROR &&
		    ((struct nlmsgerr *)NLMSG_DATA(nlh))->error)
			return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

/* ext_msg - the NLMSGERR_ATTR_MSG of the first error, "" if none */
static const char *ext_msg(void)
{
	size_t off = 0;

	while (off < cl.out.buf.len) {
		struct nlmsghdr *nlh = (void *)(cl.out.buf.data + off);
		struct nlmsgerr *e = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type == NLMSG_ERROR && e->error &&
		    (nlh->nlmsg_flags & NLM_F_ACK_TLVS)) {
			const struct nlattr *a;
			size_t hl = NLMSG_HDRLEN + sizeof(*e);

			if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
				hl += e->msg.nlmsg_len - NLMSG_HDRLEN;
			mnl_attr_for_each(a, nlh, hl - NLMSG_HDRLEN)
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
					return mnl_attr_get_str(a);
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return "";
}

static void table(uint8_t family)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWTABLE, NLM_F_CREATE, family);

	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	done(nlh);
}

/* obj_start - NEWOBJ header; the caller fills NFTA_OBJ_DATA, then obj_end() */
static struct nlmsghdr *obj_start(uint8_t family, const char *name,
				  uint32_t type, struct nlattr **data)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWOBJ, NLM_F_CREATE, family);

	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, name);
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(type));
	*data = mnl_attr_nest_start(nlh, NFTA_OBJ_DATA);
	return nlh;
}

static void obj_end(struct nlmsghdr *nlh, struct nlattr *data)
{
	mnl_attr_nest_end(nlh, data);
	done(nlh);
}

static void counter(uint8_t family, const char *name)
{
	struct nlattr *d;
	struct nlmsghdr *nlh = obj_start(family, name, NFT_OBJECT_COUNTER, &d);

	mnl_attr_put_u64(nlh, NFTA_COUNTER_PACKETS, htobe64(3));
	mnl_attr_put_u64(nlh, NFTA_COUNTER_BYTES, htobe64(4));
	obj_end(nlh, d);
}

static struct table *the_table(uint8_t family)
{
	return ruleset_table_lookup(cl.net, "t", family, genmask_cur(cl.net));
}

Test(obj, missing_data_is_einval)
{
	struct nlmsghdr *nlh;

	begin();
	table(NFPROTO_IPV4);
	nlh = msg(NFT_MSG_NEWOBJ, NLM_F_CREATE, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, "c");
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(NFT_OBJECT_COUNTER));
	done(nlh);
	cr_assert_eq(end(), -EINVAL);
	cr_assert(list_empty(&cl.net->tables), "a failed batch changes nothing");
}

Test(obj, unknown_type_is_enoent_unmodelled_is_eopnotsupp)
{
	struct nlmsghdr *nlh;
	struct nlattr *d;

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "x", 99, &d);
	obj_end(nlh, d);
	cr_assert_eq(end(), -ENOENT);

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "x", NFT_OBJECT_CONNLIMIT, &d);
	obj_end(nlh, d);
	cr_assert_eq(end(), -EOPNOTSUPP);
	cr_assert_str_eq(ext_msg(), "nfbpfd: connlimit objects are not supported yet");
}

Test(obj, quota_validation)
{
	struct nlmsghdr *nlh;
	struct nlattr *d;

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "q", NFT_OBJECT_QUOTA, &d);
	obj_end(nlh, d);
	cr_assert_eq(end(), -EINVAL, "NFTA_QUOTA_BYTES is mandatory");

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "q", NFT_OBJECT_QUOTA, &d);
	mnl_attr_put_u64(nlh, NFTA_QUOTA_BYTES, htobe64(100));
	mnl_attr_put_u64(nlh, NFTA_QUOTA_CONSUMED, htobe64(101));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EINVAL, "consumed above the quota");

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "q", NFT_OBJECT_QUOTA, &d);
	mnl_attr_put_u64(nlh, NFTA_QUOTA_BYTES, htobe64(1ull << 63));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EOVERFLOW);

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "q", NFT_OBJECT_QUOTA, &d);
	mnl_attr_put_u64(nlh, NFTA_QUOTA_BYTES, htobe64(100));
	mnl_attr_put_u32(nlh, NFTA_QUOTA_FLAGS, htobe32(NFT_QUOTA_F_DEPLETED));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EINVAL);
}

Test(obj, limit_validation)
{
	struct nlmsghdr *nlh;
	struct nlattr *d;

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "l", NFT_OBJECT_LIMIT, &d);
	mnl_attr_put_u32(nlh, NFTA_LIMIT_TYPE, htobe32(7));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EOPNOTSUPP, "select_ops runs before init");

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "l", NFT_OBJECT_LIMIT, &d);
	mnl_attr_put_u64(nlh, NFTA_LIMIT_RATE, 0);
	mnl_attr_put_u64(nlh, NFTA_LIMIT_UNIT, htobe64(1));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EINVAL, "rate 0");

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "l", NFT_OBJECT_LIMIT, &d);
	mnl_attr_put_u64(nlh, NFTA_LIMIT_RATE, htobe64(1));
	mnl_attr_put_u64(nlh, NFTA_LIMIT_UNIT, htobe64(1ull << 40));
	obj_end(nlh, d);
	cr_assert_eq(end(), -EOVERFLOW, "unit * NSEC_PER_SEC");
}

Test(obj, ct_objects_family_rules)
{
	struct nlmsghdr *nlh;
	struct nlattr *d;

	begin();
	table(NFPROTO_ARP);
	nlh = obj_start(NFPROTO_ARP, "h", NFT_OBJECT_CT_HELPER, &d);
	mnl_attr_put_strz(nlh, NFTA_CT_HELPER_NAME, "ftp");
	mnl_attr_put_u8(nlh, NFTA_CT_HELPER_L4PROTO, 6);
	obj_end(nlh, d);
	cr_assert_eq(end(), -EAFNOSUPPORT);

	begin();
	table(NFPROTO_BRIDGE);
	nlh = obj_start(NFPROTO_BRIDGE, "h", NFT_OBJECT_CT_HELPER, &d);
	mnl_attr_put_strz(nlh, NFTA_CT_HELPER_NAME, "ftp");
	mnl_attr_put_u8(nlh, NFTA_CT_HELPER_L4PROTO, 6);
	obj_end(nlh, d);
	cr_assert_eq(end(), -EPROTO, "no bridge conntrack");

	begin();
	table(NFPROTO_IPV6);
	nlh = obj_start(NFPROTO_IPV6, "h", NFT_OBJECT_CT_HELPER, &d);
	mnl_attr_put_strz(nlh, NFTA_CT_HELPER_NAME, "irc");
	mnl_attr_put_u8(nlh, NFTA_CT_HELPER_L4PROTO, 6);
	obj_end(nlh, d);
	cr_assert_eq(end(), -ENOENT, "irc is an IPv4 helper");

	begin();
	table(NFPROTO_INET);
	nlh = obj_start(NFPROTO_INET, "x", NFT_OBJECT_CT_EXPECT, &d);
	mnl_attr_put_u8(nlh, NFTA_CT_EXPECT_L4PROTO, 6);
	mnl_attr_put_u16(nlh, NFTA_CT_EXPECT_DPORT, htobe16(21));
	mnl_attr_put_u32(nlh, NFTA_CT_EXPECT_TIMEOUT, 1000);
	mnl_attr_put_u8(nlh, NFTA_CT_EXPECT_SIZE, 1);
	obj_end(nlh, d);
	cr_assert_eq(end(), -EAFNOSUPPORT, "an expectation is IPv4 or IPv6");
}

static void map_elem(const char *key_obj)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWSETELEM, NLM_F_CREATE, NFPROTO_IPV4);
	struct nlattr *elems, *elem, *k;
	uint32_t key = 0x01010101;

	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, "m");
	elems = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	elem = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	k = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY);
	mnl_attr_put(nlh, NFTA_DATA_VALUE, sizeof(key), &key);
	mnl_attr_nest_end(nlh, k);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_OBJREF, key_obj);
	mnl_attr_nest_end(nlh, elem);
	mnl_attr_nest_end(nlh, elems);
	done(nlh);
}

static void counter_map(void)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWSET, NLM_F_CREATE, NFPROTO_IPV4);

	mnl_attr_put_strz(nlh, NFTA_SET_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_NAME, "m");
	mnl_attr_put_u32(nlh, NFTA_SET_FLAGS, htobe32(NFT_SET_OBJECT));
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_TYPE, htobe32(7));
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_LEN, htobe32(4));
	mnl_attr_put_u32(nlh, NFTA_SET_OBJ_TYPE, htobe32(NFT_OBJECT_COUNTER));
	mnl_attr_put_u32(nlh, NFTA_SET_ID, htobe32(1));
	done(nlh);
}

static void del_counter(const char *name)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_DELOBJ, 0, NFPROTO_IPV4);

	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, name);
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(NFT_OBJECT_COUNTER));
	done(nlh);
}

Test(obj, map_element_holds_object_delete_is_ebusy)
{
	struct object *c;

	begin();
	table(NFPROTO_IPV4);
	counter(NFPROTO_IPV4, "c");
	counter_map();
	map_elem("c");
	cr_assert_eq(end(), 0);
	c = ruleset_obj_lookup(the_table(NFPROTO_IPV4), "c", NFT_OBJECT_COUNTER,
			       genmask_cur(cl.net));
	cr_assert_not_null(c);
	cr_assert_eq(c->use, 1);
	cr_assert_eq(c->handle, 1, "handles come from the table's counter");

	begin();
	del_counter("c");
	cr_assert_eq(end(), -EBUSY);

	begin();
	map_elem("nope");
	cr_assert_eq(end(), -ENOENT);
	cr_assert_eq(c->use, 1, "the failed batch took no reference");

	/* the map goes, and the object with it, in one batch */
	begin();
	{
		struct nlmsghdr *nlh = msg(NFT_MSG_DELSET, 0, NFPROTO_IPV4);

		mnl_attr_put_strz(nlh, NFTA_SET_TABLE, "t");
		mnl_attr_put_strz(nlh, NFTA_SET_NAME, "m");
		done(nlh);
	}
	del_counter("c");
	cr_assert_eq(end(), 0);
	cr_assert(list_empty(&the_table(NFPROTO_IPV4)->objects));
}

Test(obj, get_dumps_kernel_layout_and_reset_zeroes)
{
	static const uint8_t udata[] = { 0x00, 0x04, 'o', 'n', 'e', 0x00 };
	struct nlmsghdr *nlh, *rep;
	const struct nlattr *a;
	struct nlattr *d;
	uint16_t order[8];
	int n = 0;

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "c", NFT_OBJECT_COUNTER, &d);
	mnl_attr_put_u64(nlh, NFTA_COUNTER_PACKETS, htobe64(5));
	mnl_attr_put_u64(nlh, NFTA_COUNTER_BYTES, htobe64(10));
	mnl_attr_nest_end(nlh, d);
	mnl_attr_put(nlh, NFTA_OBJ_USERDATA, sizeof(udata), udata);
	done(nlh);
	cr_assert_eq(end(), 0);

	nfnl_out_fini(&cl.out);
	cur = buf;
	nlh = msg(NFT_MSG_GETOBJ_RESET, 0, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, "c");
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(NFT_OBJECT_COUNTER));
	nfnl_rcv(&cl, buf, nlh->nlmsg_len);
	rep = (void *)cl.out.buf.data;
	cr_assert_eq(rep->nlmsg_type, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWOBJ);
	mnl_attr_for_each(a, rep, sizeof(struct nfgenmsg))
		if (n < 8)
			order[n++] = mnl_attr_get_type(a);
	/* nf_tables_fill_obj_info() order */
	cr_assert_eq(n, 7);
	cr_assert_eq(order[0], NFTA_OBJ_TABLE);
	cr_assert_eq(order[1], NFTA_OBJ_NAME);
	cr_assert_eq(order[2], NFTA_OBJ_TYPE);
	cr_assert_eq(order[3], NFTA_OBJ_HANDLE);
	cr_assert_eq(order[4], NFTA_OBJ_USE);
	cr_assert_eq(order[5], NFTA_OBJ_DATA);
	cr_assert_eq(order[6], NFTA_OBJ_USERDATA);
	mnl_attr_for_each(a, rep, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) == NFTA_OBJ_USERDATA) {
			cr_assert_eq(mnl_attr_get_payload_len(a), sizeof(udata));
			cr_assert_eq(memcmp(mnl_attr_get_payload(a), udata,
					    sizeof(udata)), 0);
		}
		if (mnl_attr_get_type(a) == NFTA_OBJ_DATA) {
			const struct nlattr *c = mnl_attr_get_payload(a);

			cr_assert_eq(mnl_attr_get_type(c), NFTA_COUNTER_BYTES);
			cr_assert_eq(be64toh(mnl_attr_get_u64(c)), 10, "reported before reset");
		}
	}
	cr_assert_eq(ruleset_obj_lookup(the_table(NFPROTO_IPV4), "c",
					NFT_OBJECT_COUNTER,
					genmask_cur(cl.net))->data.counter.bytes, 0);
}

/* a ct helper object changes the connection: a BPF program cannot */
Test(obj, objref_rule_refused_naming_the_expression)
{
	struct nlmsghdr *nlh;
	struct nlattr *exprs, *e, *data, *d;

	begin();
	table(NFPROTO_IPV4);
	nlh = obj_start(NFPROTO_IPV4, "c", NFT_OBJECT_CT_HELPER, &d);
	mnl_attr_put_strz(nlh, NFTA_CT_HELPER_NAME, "ftp");
	mnl_attr_put_u8(nlh, NFTA_CT_HELPER_L4PROTO, 6);
	obj_end(nlh, d);
	nlh = msg(NFT_MSG_NEWCHAIN, NLM_F_CREATE, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, "ch");
	done(nlh);
	nlh = msg(NFT_MSG_NEWRULE, NLM_F_CREATE | NLM_F_APPEND, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, "ch");
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	e = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, "objref");
	data = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	mnl_attr_put_strz(nlh, NFTA_OBJREF_IMM_NAME, "c");
	mnl_attr_put_u32(nlh, NFTA_OBJREF_IMM_TYPE, htobe32(NFT_OBJECT_CT_HELPER));
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, exprs);
	done(nlh);
	cr_assert_eq(end(), -EOPNOTSUPP);
	cr_assert(strstr(ext_msg(), "'objref'"), "got \"%s\"", ext_msg());
	cr_assert(strstr(ext_msg(), "helper"), "got \"%s\"", ext_msg());
	cr_assert(list_empty(&cl.net->tables));
}

/* rule - a NEWRULE in chain "ch" with one objref built by @fill */
static void objref_rule(void (*fill)(struct nlmsghdr *nlh))
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWRULE, NLM_F_CREATE | NLM_F_APPEND,
				   NFPROTO_IPV4);
	struct nlattr *exprs, *e, *data;

	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, "ch");
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	e = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, "objref");
	data = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	fill(nlh);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, exprs);
	done(nlh);
}

static void chain_ch(void)
{
	struct nlmsghdr *nlh = msg(NFT_MSG_NEWCHAIN, NLM_F_CREATE, NFPROTO_IPV4);

	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, "ch");
	done(nlh);
}

static void imm_missing(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, NFTA_OBJREF_IMM_NAME, "nope");
	mnl_attr_put_u32(nlh, NFTA_OBJREF_IMM_TYPE, htobe32(NFT_OBJECT_COUNTER));
}

static void imm_no_type(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, NFTA_OBJREF_IMM_NAME, "c");
}

static void map_not_object(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, NFTA_OBJREF_SET_SREG, htobe32(NFT_REG_1));
	mnl_attr_put_strz(nlh, NFTA_OBJREF_SET_NAME, "plain");
}

Test(obj, objref_parse_errors_come_before_the_dataplane)
{
	struct nlmsghdr *nlh;

	begin();
	table(NFPROTO_IPV4);
	chain_ch();
	objref_rule(imm_missing);
	cr_assert_eq(end(), -ENOENT, "nft_objref_init(): no such object");

	begin();
	table(NFPROTO_IPV4);
	chain_ch();
	objref_rule(imm_no_type);
	cr_assert_eq(end(), -EOPNOTSUPP, "nft_objref_select_ops()");

	begin();
	table(NFPROTO_IPV4);
	chain_ch();
	nlh = msg(NFT_MSG_NEWSET, NLM_F_CREATE, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_SET_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_NAME, "plain");
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_LEN, htobe32(4));
	mnl_attr_put_u32(nlh, NFTA_SET_ID, htobe32(1));
	done(nlh);
	objref_rule(map_not_object);
	cr_assert_eq(end(), -EINVAL, "the map form needs an object map");
	cr_assert(list_empty(&cl.net->tables));
}

Test(obj, destroy_absent_is_ok_delete_absent_is_enoent)
{
	struct nlmsghdr *nlh;

	begin();
	table(NFPROTO_IPV4);
	nlh = msg(NFT_MSG_DESTROYOBJ, 0, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, "nope");
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(NFT_OBJECT_QUOTA));
	done(nlh);
	cr_assert_eq(end(), 0);

	begin();
	nlh = msg(NFT_MSG_DELOBJ, 0, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_u64(nlh, NFTA_OBJ_HANDLE, htobe64(42));
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htobe32(NFT_OBJECT_QUOTA));
	done(nlh);
	cr_assert_eq(end(), -ENOENT);

	begin();
	nlh = msg(NFT_MSG_DELOBJ, 0, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, "nope");
	done(nlh);
	cr_assert_eq(end(), -EINVAL, "NFTA_OBJ_TYPE is mandatory");
}

static void quota_obj(uint64_t bytes, uint64_t used)
{
	struct nlattr *d;
	struct nlmsghdr *nlh = obj_start(NFPROTO_IPV4, "q", NFT_OBJECT_QUOTA, &d);

	mnl_attr_put_u64(nlh, NFTA_QUOTA_BYTES, htobe64(bytes));
	mnl_attr_put_u64(nlh, NFTA_QUOTA_CONSUMED, htobe64(used));
	obj_end(nlh, d);
}

Test(obj, quota_update_at_commit_only_and_table_flush_takes_objects)
{
	struct object *q;
	struct nlmsghdr *nlh;

	begin();
	table(NFPROTO_IPV4);
	quota_obj(100, 50);
	cr_assert_eq(end(), 0);
	q = ruleset_obj_lookup(the_table(NFPROTO_IPV4), "q", NFT_OBJECT_QUOTA,
			       genmask_cur(cl.net));
	cr_assert_not_null(q);

	/* an update in a failed batch changes nothing */
	begin();
	quota_obj(200, 0);
	del_counter("nope");
	cr_assert_eq(end(), -ENOENT);
	cr_assert_eq(q->data.quota.quota, 100);

	/* nft_quota_obj_update(): the quota changes, what was used stays */
	begin();
	quota_obj(300, 0);
	cr_assert_eq(end(), 0);
	cr_assert_eq(q->data.quota.quota, 300);
	cr_assert_eq(q->data.quota.consumed, 50);
	cr_assert_eq(q->handle, 1, "an update takes no handle");

	begin();
	nlh = msg(NFT_MSG_DELTABLE, 0, NFPROTO_IPV4);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	done(nlh);
	cr_assert_eq(end(), 0);
	cr_assert(list_empty(&cl.net->tables));
}
