// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nfnl.c - the control plane without sockets: netlink messages in
 * through nfnl_rcv(), replies checked byte by byte where the kernel's
 * answer is known.
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
#include "ruleset_api.h"

/* the daemon's multicast hooks: no listeners in these tests */
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
static char buf[65536];

static void setup(void)
{
	memset(&cl, 0, sizeof(cl));
	cl.net = ruleset_net_alloc();
	cl.portid = 1234;
	cl.privileged = true;
	cl.nlflags = CLIENT_F_EXT_ACK;
	strcpy(cl.comm, "test");
}

static void teardown(void)
{
	nfnl_out_fini(&cl.out);
	ruleset_net_free(cl.net);
}

static struct nlmsghdr *put_msg(char *p, uint16_t type, uint16_t flags,
				uint8_t family, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(p);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = family;
	nfg->res_id = htobe16(NFNL_SUBSYS_NFTABLES);
	return nlh;
}

/* batch - begin, @n messages built by @fill, end; returns its length */
static size_t batch(void (*fill)(char **p, uint32_t *seq))
{
	char *p = buf;
	uint32_t seq = 1;
	struct nlmsghdr *nlh;

	nlh = put_msg(p, NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC, seq++);
	p += nlh->nlmsg_len;
	fill(&p, &seq);
	nlh = put_msg(p, NFNL_MSG_BATCH_END, 0, AF_UNSPEC, seq++);
	p += nlh->nlmsg_len;
	return p - buf;
}

static void add_table(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE,
				       NLM_F_CREATE | NLM_F_ACK, NFPROTO_IPV4, (*seq)++);

	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	*p += nlh->nlmsg_len;
}

static void add_table_twice_excl(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh;

	add_table(p, seq);
	nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE,
		      NLM_F_CREATE | NLM_F_EXCL, NFPROTO_IPV4, (*seq)++);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	*p += nlh->nlmsg_len;
}

/* first_error - error code of the n-th NLMSG_ERROR in the output */
static int nth_error(int n, uint32_t *seq)
{
	size_t off = 0;

	while (off < cl.out.buf.len) {
		struct nlmsghdr *nlh = (void *)(cl.out.buf.data + off);

		if (nlh->nlmsg_type == NLMSG_ERROR && n-- == 0) {
			if (seq)
				*seq = nlh->nlmsg_seq;
			return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 1;
}

TestSuite(nfnl, .init = setup, .fini = teardown);

Test(nfnl, batch_commit_bumps_genid_and_acks)
{
	size_t len = batch(add_table);
	uint32_t seq;

	nfnl_rcv(&cl, buf, len);
	cr_assert_eq(nth_error(0, &seq), 0);
	cr_assert_eq(seq, 2);
	cr_assert_eq(cl.net->base_seq, 2);
	cr_assert_not_null(ruleset_table_lookup(cl.net, "t", NFPROTO_IPV4,
						genmask_cur(cl.net)));
}

Test(nfnl, failed_batch_changes_nothing)
{
	size_t len = batch(add_table_twice_excl);
	uint32_t seq;

	nfnl_rcv(&cl, buf, len);
	/* the ack of message 2 (NLM_F_ACK) and the EEXIST of message 3 */
	cr_assert_eq(nth_error(0, &seq), 0);
	cr_assert_eq(seq, 2);
	cr_assert_eq(nth_error(1, &seq), -EEXIST);
	cr_assert_eq(seq, 3);
	cr_assert_eq(cl.net->base_seq, 1);
	cr_assert(list_empty(&cl.net->tables));
}

Test(nfnl, genid_mismatch_is_erestart)
{
	size_t len = batch(add_table);
	struct nlmsghdr *begin = (void *)buf;

	/* BATCH_BEGIN attributes go after the nfgenmsg: rebuild with GENID */
	memmove(buf + begin->nlmsg_len + 8, buf + begin->nlmsg_len,
		len - begin->nlmsg_len);
	mnl_attr_put_u32(begin, NFNL_BATCH_GENID, htobe32(77));
	len += 8;
	nfnl_rcv(&cl, buf, len);
	cr_assert_eq(nth_error(0, NULL), -ERESTART);
	cr_assert(list_empty(&cl.net->tables));
}

Test(nfnl, unprivileged_gets_eperm)
{
	size_t len = batch(add_table);

	cl.privileged = false;
	nfnl_rcv(&cl, buf, len);
	cr_assert_eq(nth_error(0, NULL), -EPERM);
	cr_assert(list_empty(&cl.net->tables));
}

Test(nfnl, truncated_and_garbage_input_is_survived)
{
	size_t len = batch(add_table), cut;

	for (cut = 0; cut < len; cut++) {
		char copy[4096];

		memcpy(copy, buf, cut);
		nfnl_rcv(&cl, copy, cut);
	}
	memset(buf, 0xff, 512);
	nfnl_rcv(&cl, buf, 512);
	cr_assert(list_empty(&cl.net->tables));
}

/* ---- sets ---------------------------------------------------------------- */

static void put_set(char **p, uint32_t *seq, const char *name, uint32_t flags,
		    uint32_t id, uint16_t nlflags)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWSET,
				       NLM_F_CREATE | nlflags, NFPROTO_IPV4, (*seq)++);

	mnl_attr_put_strz(nlh, NFTA_SET_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_NAME, name);
	mnl_attr_put_u32(nlh, NFTA_SET_FLAGS, htobe32(flags));
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_TYPE, htobe32(7));	/* ipv4_addr */
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_LEN, htobe32(4));
	mnl_attr_put_u32(nlh, NFTA_SET_ID, htobe32(id));
	*p += nlh->nlmsg_len;
}

static void put_elem(char **p, uint32_t *seq, const char *set, uint32_t key,
		     uint16_t nlflags)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWSETELEM,
				       NLM_F_CREATE | nlflags, NFPROTO_IPV4, (*seq)++);
	struct nlattr *elems, *elem, *k;

	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, set);
	elems = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	elem = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	k = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY);
	mnl_attr_put(nlh, NFTA_DATA_VALUE, sizeof(key), &key);
	mnl_attr_nest_end(nlh, k);
	mnl_attr_nest_end(nlh, elem);
	mnl_attr_nest_end(nlh, elems);
	*p += nlh->nlmsg_len;
}

static void two_anon_sets(char **p, uint32_t *seq)
{
	add_table(p, seq);
	put_set(p, seq, "__set%d", NFT_SET_ANONYMOUS | NFT_SET_CONSTANT, 1, 0);
	put_set(p, seq, "__set%d", NFT_SET_ANONYMOUS | NFT_SET_CONSTANT, 2, 0);
	put_set(p, seq, "s", 0, 3, 0);
	put_elem(p, seq, "s", 0x01010101, 0);
	put_elem(p, seq, "s", 0x01010101, 0);	/* same element again: no error */
}

Test(nfnl, anonymous_set_names_and_duplicate_elements)
{
	struct table *t;
	struct set *s;

	nfnl_rcv(&cl, buf, batch(two_anon_sets));
	cr_assert_eq(nth_error(1, NULL), 1, "no error expected");
	t = ruleset_table_lookup(cl.net, "t", NFPROTO_IPV4, genmask_cur(cl.net));
	cr_assert_not_null(t);
	/* unbound anonymous sets do not outlive the commit */
	cr_assert_null(ruleset_set_lookup(t, "__set0", genmask_cur(cl.net)));
	s = ruleset_set_lookup(t, "s", genmask_cur(cl.net));
	cr_assert_not_null(s);
	cr_assert_eq(s->nelems, 1);
}

static void dup_elem_excl(char **p, uint32_t *seq)
{
	add_table(p, seq);
	put_set(p, seq, "s", 0, 3, 0);
	put_elem(p, seq, "s", 0x01010101, 0);
	put_elem(p, seq, "s", 0x01010101, NLM_F_EXCL);
}

Test(nfnl, create_existing_element_is_eexist_and_aborts)
{
	uint32_t seq;

	nfnl_rcv(&cl, buf, batch(dup_elem_excl));
	cr_assert_eq(nth_error(1, &seq), -EEXIST);
	cr_assert_eq(seq, 5);
	cr_assert(list_empty(&cl.net->tables));
}

/* a netdev base chain on devices x, y, z; then @devs added or deleted */
static const char *chain_devs[4];
static uint16_t chain_msg;

static void put_hook_devs(struct nlmsghdr *nlh, const char *const *devs)
{
	struct nlattr *hook = mnl_attr_nest_start(nlh, NFTA_CHAIN_HOOK), *nest;
	int i;

	mnl_attr_put_u32(nlh, NFTA_HOOK_HOOKNUM, htobe32(0));
	mnl_attr_put_u32(nlh, NFTA_HOOK_PRIORITY, htobe32(0));
	nest = mnl_attr_nest_start(nlh, NFTA_HOOK_DEVS);
	for (i = 0; devs[i]; i++)
		mnl_attr_put_strz(nlh, NFTA_DEVICE_NAME, devs[i]);
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_nest_end(nlh, hook);
}

static void netdev_chain(char **p, uint32_t *seq)
{
	static const char *const xyz[] = { "x", "y", "z", NULL };
	struct nlmsghdr *nlh;

	nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE,
		      NLM_F_CREATE, NFPROTO_NETDEV, (*seq)++);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	*p += nlh->nlmsg_len;
	nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWCHAIN,
		      NLM_F_CREATE, NFPROTO_NETDEV, (*seq)++);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, "c");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_TYPE, "filter");
	put_hook_devs(nlh, xyz);
	*p += nlh->nlmsg_len;
}

static void chain_devs_msg(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | chain_msg,
				       chain_msg == NFT_MSG_NEWCHAIN ? NLM_F_CREATE : 0,
				       NFPROTO_NETDEV, (*seq)++);

	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, "c");
	put_hook_devs(nlh, chain_devs);
	*p += nlh->nlmsg_len;
}

/* the devices of netdev t c, joined by ',' */
static const char *devs_of_c(void)
{
	static char s[64];
	struct table *t = ruleset_table_lookup(cl.net, "t", NFPROTO_NETDEV,
					       genmask_cur(cl.net));
	struct chain *c = t ? ruleset_chain_lookup(t, "c", genmask_cur(cl.net)) : NULL;
	uint32_t i;

	cr_assert_not_null(c);
	s[0] = 0;
	for (i = 0; i < c->base->ndevs; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, c->base->devs[i]);
	}
	return s;
}

/* nf_tables_updchain() adds devices, nft_delchain_hook() deletes them */
Test(nfnl, netdev_chain_devices_added_and_deleted)
{
	nfnl_rcv(&cl, buf, batch(netdev_chain));
	cr_assert_eq(nth_error(0, NULL), 1, "no error");
	cr_assert_str_eq(devs_of_c(), "x,y,z");
	chain_msg = NFT_MSG_DELCHAIN;
	chain_devs[0] = "y";
	chain_devs[1] = NULL;
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(chain_devs_msg));
	cr_assert_eq(nth_error(0, NULL), 1, "no error");
	cr_assert_str_eq(devs_of_c(), "x,z");
	chain_devs[0] = "nosuch";
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(chain_devs_msg));
	cr_assert_eq(nth_error(0, NULL), -ENOENT);
	cr_assert_str_eq(devs_of_c(), "x,z");
	chain_msg = NFT_MSG_NEWCHAIN;
	chain_devs[0] = "z";
	chain_devs[1] = "w";
	chain_devs[2] = NULL;
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(chain_devs_msg));
	cr_assert_eq(nth_error(0, NULL), 1, "no error");
	cr_assert_str_eq(devs_of_c(), "x,z,w");
	chain_msg = NFT_MSG_DELCHAIN;
	chain_devs[0] = "x";
	chain_devs[1] = "z";
	chain_devs[2] = "w";
	chain_devs[3] = NULL;
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(chain_devs_msg));
	cr_assert_eq(nth_error(0, NULL), 1, "no error");
	cr_assert_str_eq(devs_of_c(), "", "the chain stays, with no device");
}

static void add_owned_table(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE,
				       NLM_F_CREATE | NLM_F_ACK, NFPROTO_IPV4, (*seq)++);

	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, "t");
	mnl_attr_put_u32(nlh, NFTA_TABLE_FLAGS, htobe32(NFT_TABLE_F_OWNER));
	*p += nlh->nlmsg_len;
}

static void add_chain(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWCHAIN,
				       NLM_F_CREATE | NLM_F_ACK, NFPROTO_IPV4, (*seq)++);

	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, "c");
	*p += nlh->nlmsg_len;
}

/* nft_table_lookup(): another port's owned table is EPERM, not ENOENT */
Test(nfnl, owned_table_is_eperm_for_other_ports)
{
	nfnl_rcv(&cl, buf, batch(add_owned_table));
	cr_assert_eq(nth_error(0, NULL), 0);
	nfnl_out_fini(&cl.out);
	cl.portid = 4321;
	nfnl_rcv(&cl, buf, batch(add_chain));
	cr_assert_eq(nth_error(0, NULL), -EPERM);
	nfnl_out_fini(&cl.out);
	cl.portid = 1234;
	nfnl_rcv(&cl, buf, batch(add_chain));
	cr_assert_eq(nth_error(0, NULL), 0);
}

static void add_flowtable(char **p, uint32_t *seq)
{
	struct nlmsghdr *nlh = put_msg(*p, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWFLOWTABLE,
				       NLM_F_CREATE | NLM_F_ACK, NFPROTO_IPV4, (*seq)++);
	struct nlattr *hook;

	mnl_attr_put_strz(nlh, NFTA_FLOWTABLE_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_FLOWTABLE_NAME, "f");
	hook = mnl_attr_nest_start(nlh, NFTA_FLOWTABLE_HOOK);
	mnl_attr_put_u32(nlh, NFTA_FLOWTABLE_HOOK_NUM, htobe32(NF_NETDEV_INGRESS));
	mnl_attr_put_u32(nlh, NFTA_FLOWTABLE_HOOK_PRIORITY, 0);
	mnl_attr_nest_end(nlh, hook);
	*p += nlh->nlmsg_len;
}

/* the reference kernel has no flowtable type: ENOENT, after the handle */
Test(nfnl, flowtable_is_enoent_and_takes_a_handle)
{
	struct table *t;

	nfnl_rcv(&cl, buf, batch(add_table));
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(add_flowtable));
	cr_assert_eq(nth_error(0, NULL), -ENOENT);
	nfnl_out_fini(&cl.out);
	nfnl_rcv(&cl, buf, batch(add_chain));
	cr_assert_eq(nth_error(0, NULL), 0);
	t = ruleset_table_lookup(cl.net, "t", NFPROTO_IPV4, genmask_cur(cl.net));
	cr_assert_not_null(t);
	cr_assert_eq(t->hgenerator, 2, "handle 1 went to the failed flowtable");
}
