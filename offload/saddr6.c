// SPDX-License-Identifier: GPL-2.0-only
/*
 * saddr6.c - the source address of an ICMPv6 error about a packet that
 * was not addressed to us.
 *
 * icmp6_send() takes the rejected packet's destination when that is one
 * of ours; otherwise, unless the route back to its source has a preferred
 * source (icmpv6_rt_has_prefsrc()), it selects "a more meaningful saddr
 * from input if": ipv6_dev_get_saddr() with the packet's input device in
 * place of the output device. So a packet forwarded from a1 and rejected
 * is answered from a1's address even when the answer leaves through a0,
 * where routing alone would pick a0's. nfbpfd sends through a raw socket,
 * whose routing picks the output device's, so it makes the kernel's choice
 * here and gives it as the IPV6_PKTINFO source.
 *
 * offload_saddr6_select() is the kernel's ranking (RFC 6724 as addrconf.c
 * has it: same address, scope, not deprecated, the outgoing (here: input)
 * interface, label, not a 6bone ORCHID mismatch, longest matching prefix,
 * not optimistic) over the namespace's addresses in dump order, ties
 * going to the earlier one. Not modelled: mobile IPv6 home addresses,
 * temporary (privacy) address preference, use_optimistic, and VRF (l3mdev)
 * domains.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "offload/offload.h"

#define SCOPE_LINKLOCAL	0x02
#define SCOPE_SITELOCAL	0x05
#define SCOPE_GLOBAL	0x0e
#define LABEL_DEFAULT	0xffffffffu
#define MAX_CANDS	1024	/* addresses considered; the rest are not */
#define MAX_LABELS	64

enum { T_ANY = 1, T_MCAST = 2, T_LOOPBACK = 4, T_V4 = 8 };

/* __ipv6_addr_type(): the kinds that matter here, and the scope */
static int addr_kind(const uint8_t *a, int *scope)
{
	static const uint8_t zero[12];

	*scope = SCOPE_GLOBAL;
	if (a[0] == 0xff) {
		*scope = a[1] & 0x0f;
		return T_MCAST;
	}
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) {
		*scope = SCOPE_LINKLOCAL;
		return 0;
	}
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0) {
		*scope = SCOPE_SITELOCAL;
		return 0;
	}
	if (!memcmp(a, zero, 12)) {
		uint32_t last = (uint32_t)a[12] << 24 | a[13] << 16 | a[14] << 8 | a[15];

		if (!last)
			return T_ANY;
		if (last == 1) {
			*scope = SCOPE_LINKLOCAL;
			return T_LOOPBACK;
		}
		return T_V4;	/* IPv4-compatible */
	}
	if (!memcmp(a, zero, 10) && a[10] == 0xff && a[11] == 0xff)
		return T_V4;	/* IPv4-mapped */
	return 0;
}

/* ipv6_addr_diff(): the number of leading bits @a and @b share */
static int common_bits(const uint8_t *a, const uint8_t *b)
{
	int i, n = 0;

	for (i = 0; i < 16; i++) {
		uint8_t x = a[i] ^ b[i];

		if (!x) {
			n += 8;
			continue;
		}
		while (!(x & 0x80)) {
			x <<= 1;
			n++;
		}
		return n;
	}
	return 128;
}

static bool prefix_eq(const uint8_t *a, const uint8_t *p, int plen)
{
	return plen <= 0 || common_bits(a, p) >= plen;
}

/* ipv6_addr_label(): the first entry of the table (longest prefixes
 * first, device-specific ones before the others) that matches */
static uint32_t label_of(const struct saddr6_label *lb, size_t nl,
			 const uint8_t *a, uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < nl; i++)
		if ((!lb[i].ifindex || lb[i].ifindex == ifindex) &&
		    prefix_eq(a, lb[i].prefix, lb[i].plen))
			return lb[i].label;
	return LABEL_DEFAULT;
}

/* 2001:10::/28 */
static bool orchid(const uint8_t *a)
{
	return a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 &&
	       (a[3] & 0xf0) == 0x10;
}

#define NRULES 8

/* the score of @c under each rule after "is a candidate"
 * (ipv6_get_saddr_eval(), IPV6_SADDR_RULE_LOCAL onwards) */
static void score(const struct saddr6_cand *c, const struct saddr6_label *lb,
		  size_t nl, const uint8_t *daddr, int dscope,
		  uint32_t dst_ifindex, uint32_t dlabel, int *s)
{
	int scope, kind = addr_kind(c->addr, &scope);
	int pfx = common_bits(c->addr, daddr);

	s[0] = !memcmp(c->addr, daddr, 16);
	s[1] = scope >= dscope ? -scope : scope - 128;
	s[2] = (kind & (T_LOOPBACK | T_V4)) ||
	       !(c->flags & (IFA_F_DEPRECATED | IFA_F_OPTIMISTIC));
	s[3] = !dst_ifindex || dst_ifindex == c->ifindex;
	s[4] = label_of(lb, nl, c->addr, c->ifindex) == dlabel;
	s[5] = orchid(c->addr) == orchid(daddr);
	s[6] = pfx > c->plen ? c->plen : pfx;
	s[7] = !(c->flags & IFA_F_OPTIMISTIC);
}

int offload_saddr6_select(const struct saddr6_cand *c, size_t n,
			  const struct saddr6_label *lb, size_t nl,
			  const uint8_t *daddr, uint32_t dst_ifindex,
			  uint8_t *out)
{
	int dscope, best_s[NRULES], s[NRULES], i;
	uint32_t dlabel;
	bool only_dev;
	size_t k, best = n;

	if (addr_kind(daddr, &dscope) & T_ANY)
		return -EADDRNOTAVAIL;
	dlabel = label_of(lb, nl, daddr, dst_ifindex);
	/* a multicast or link-scope destination: the device's own only */
	only_dev = dst_ifindex && ((addr_kind(daddr, &dscope) & T_MCAST) ||
				   dscope <= SCOPE_LINKLOCAL);
	for (k = 0; k < n; k++) {
		int scope, kind = addr_kind(c[k].addr, &scope);

		/* tentative (unless optimistic), anycast, multicast, :: */
		if (((c[k].flags & IFA_F_TENTATIVE) &&
		     !(c[k].flags & IFA_F_OPTIMISTIC)) ||
		    (kind & (T_ANY | T_MCAST)))
			continue;
		if (only_dev && c[k].ifindex != dst_ifindex)
			continue;
		score(&c[k], lb, nl, daddr, dscope, dst_ifindex, dlabel, s);
		if (best == n) {
			best = k;
			memcpy(best_s, s, sizeof(s));
			continue;
		}
		for (i = 0; i < NRULES; i++) {
			if (s[i] < best_s[i])
				break;
			if (s[i] > best_s[i]) {
				best = k;
				memcpy(best_s, s, sizeof(s));
				break;
			}
		}
	}
	if (best == n)
		return -EADDRNOTAVAIL;
	memcpy(out, c[best].addr, 16);
	return 0;
}

/* ---- the namespace's routes, addresses and labels (rtnetlink) ---- */

struct dump {
	struct saddr6_cand *c;
	size_t n;
	struct saddr6_label lb[MAX_LABELS];
	size_t nl;
	bool prefsrc;
};

static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct dump *d = data;
	const struct nlattr *a;
	const void *addr = NULL;
	uint32_t flags;

	if (nlh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != AF_INET6 ||
	    d->n >= MAX_CANDS)
		return MNL_CB_OK;
	flags = ifa->ifa_flags;
	mnl_attr_for_each(a, nlh, sizeof(*ifa)) {
		if (mnl_attr_get_type(a) == IFA_ADDRESS &&
		    mnl_attr_get_payload_len(a) == 16)
			addr = mnl_attr_get_payload(a);
		else if (mnl_attr_get_type(a) == IFA_LOCAL &&
			 mnl_attr_get_payload_len(a) == 16)
			addr = mnl_attr_get_payload(a);
		else if (mnl_attr_get_type(a) == IFA_FLAGS &&
			 mnl_attr_get_payload_len(a) == 4)
			flags = mnl_attr_get_u32(a);
	}
	if (!addr)
		return MNL_CB_OK;
	memcpy(d->c[d->n].addr, addr, 16);
	d->c[d->n].ifindex = ifa->ifa_index;
	d->c[d->n].plen = ifa->ifa_prefixlen;
	d->c[d->n].flags = flags;
	d->n++;
	return MNL_CB_OK;
}

static int label_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrlblmsg *m = mnl_nlmsg_get_payload(nlh);
	struct dump *d = data;
	const struct nlattr *a;
	struct saddr6_label l = { .plen = m->ifal_prefixlen,
				  .ifindex = m->ifal_index };
	int have = 0;

	if (nlh->nlmsg_type != RTM_NEWADDRLABEL || d->nl >= MAX_LABELS)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*m)) {
		if (mnl_attr_get_type(a) == IFAL_ADDRESS &&
		    mnl_attr_get_payload_len(a) == 16) {
			memcpy(l.prefix, mnl_attr_get_payload(a), 16);
			have |= 1;
		} else if (mnl_attr_get_type(a) == IFAL_LABEL &&
			   mnl_attr_get_payload_len(a) == 4) {
			l.label = mnl_attr_get_u32(a);
			have |= 2;
		}
	}
	if (have == 3)
		d->lb[d->nl++] = l;
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	struct dump *d = data;
	const struct nlattr *a;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*rtm))
		if (mnl_attr_get_type(a) == RTA_PREFSRC)
			d->prefsrc = true;
	return MNL_CB_OK;
}

/* send @nlh on @fd and run @cb over the answers until done or error */
static int query(int fd, struct nlmsghdr *nlh, mnl_cb_t cb, struct dump *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t seq = nlh->nlmsg_seq;
	int n, ret;

	if (send(fd, nlh, nlh->nlmsg_len, 0) < 0)
		return -errno;
	do {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, (size_t)n, seq, 0, cb, d);
	} while (ret > 0 && (nlh->nlmsg_flags & NLM_F_DUMP));
	return ret < 0 ? -errno : 0;
}

int offload_saddr6_pick(int rtnl, const uint8_t *daddr, uint32_t in_ifindex,
			uint8_t *out)
{
	char buf[256];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct dump d = { 0 };
	int ret;

	if (rtnl < 0 || !in_ifindex)
		return 0;
	/* icmpv6_rt_has_prefsrc(): the route's own preferred source wins */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET6;
	rtm->rtm_dst_len = 128;
	rtm->rtm_flags = RTM_F_FIB_MATCH;
	mnl_attr_put(nlh, RTA_DST, 16, daddr);
	if (query(rtnl, nlh, route_cb, &d) < 0 || d.prefsrc)
		return 0;
	/* the address label table */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETADDRLABEL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 2;
	((struct ifaddrlblmsg *)mnl_nlmsg_put_extra_header(
		nlh, sizeof(struct ifaddrlblmsg)))->ifal_family = AF_INET6;
	if (query(rtnl, nlh, label_cb, &d) < 0)
		d.nl = 0;
	/* the addresses */
	d.c = calloc(MAX_CANDS, sizeof(*d.c));
	if (!d.c)
		return -ENOMEM;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 3;
	((struct ifaddrmsg *)mnl_nlmsg_put_extra_header(
		nlh, sizeof(struct ifaddrmsg)))->ifa_family = AF_INET6;
	ret = query(rtnl, nlh, addr_cb, &d);
	if (!ret)
		ret = offload_saddr6_select(d.c, d.n, d.lb, d.nl, daddr,
					    in_ifindex, out) ? 0 : 1;
	free(d.c);
	return ret;
}
