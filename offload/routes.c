// SPDX-License-Identifier: GPL-2.0-only
/*
 * routes.c - the route mirror of the fib expression.
 *
 * A BPF_PROG_TYPE_NETFILTER program gets only bpf_base_func_proto()'s
 * helpers (net/netfilter/nf_bpf_link.c, bpf_nf_func_proto()): no
 * bpf_fib_lookup(), and no kfunc looks routes or address types up. So
 * nfbpfd keeps, for each namespace it serves, a copy of what fib's
 * address type lookup reads there (inet_dev_addr_type(): the IPv4 local
 * table, merged with main while the namespace has no custom rules) and
 * what its route lookup reads (fib_lookup() without custom rules: the
 * merged tables; per prefix the route type, the nexthop
 * fib_table_lookup() picks and its name, every nexthop's device) in an
 * LPM trie (struct codegen_fib4_key/_val, codegen.h), and the program
 * looks that up.
 *
 * 0. An rtnetlink socket inside the namespace subscribes to IPv4 route,
 *    IPv4 address and link events (the kernel flushes the routes of a
 *    device going down without a route event, so address and link events
 *    count too).
 * 1. At creation and after every batch of events, a second socket dumps
 *    the links (names) and the IPv4 routes; the map is brought to what
 *    the dump says: changed and new prefixes written first, vanished ones
 *    deleted after.
 *
 * The copy lags the kernel: a change reaches the map after its event has
 * woken the daemon and the dump is done (microseconds to milliseconds);
 * packets in that window see the old routes. An event lost to a full
 * socket buffer (ENOBUFS) still causes a dump. Not modelled: VRF devices
 * (l3mdev tables), net.ipv4.conf.*.ignore_routes_with_linkdown.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <bpf/bpf.h>

#include "codegen/codegen.h"
#include "offload/offload.h"

#define FIB4_MAX	(1u << 18)	/* prefixes mirrored per namespace */
#define FIB6_MAX	(1u << 18)	/* IPv6 entries mirrored per namespace */

/**
 * struct dp_route - one prefix of the mirror
 * @key: map key
 * @val: map value
 * @rank: order among routes of one key: table (local first), then metric
 */
struct dp_route {
	struct codegen_fib4_key key;
	struct codegen_fib4_val val;
	uint64_t rank;
};

/** struct dp_route6 - one entry of the IPv6 mirror */
struct dp_route6 {
	struct codegen_fib6_key key;
	struct codegen_fib4_val val;
};

/**
 * struct dp_routes - the route mirror of one namespace
 * @map_fd: the LPM trie (env->fib4_fd)
 * @ev_fd: rtnetlink socket of the namespace's route/address/link events
 * @req_fd: rtnetlink socket for dumps, in the namespace
 * @seq: dump sequence number
 * @map6_fd: the IPv6 LPM trie (env->fib6_fd)
 * @cur: what the map holds, sorted by key
 * @ncur: entries in @cur
 * @cur6: what the IPv6 map holds, sorted by key
 * @ncur6: entries in @cur6
 */
struct dp_routes {
	int map_fd;
	int map6_fd;
	int ev_fd;
	int req_fd;
	uint32_t seq;
	struct dp_route *cur;
	size_t ncur;
	struct dp_route6 *cur6;
	size_t ncur6;
};

static int routes_epfd = -1;

/**
 * struct dp_link - a device's name, for the oifname of a route lookup
 * @ifindex: its index
 * @name: its name
 */
struct dp_link {
	int ifindex;
	char name[16];
};

struct link_vec {
	struct dp_link *v;
	size_t n, cap;
};

int dataplane_routes_fd(void)
{
	return offload_epoll(&routes_epfd);
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct dp_route *)a)->key,
		      &((const struct dp_route *)b)->key,
		      sizeof(struct codegen_fib4_key));
}

static int route_cmp(const void *a, const void *b)
{
	const struct dp_route *x = a, *y = b;
	int c = key_cmp(a, b);

	if (c)
		return c;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

struct route_vec {
	struct dp_route *v;
	size_t n, cap;
};

/* room for one more element of @size in the array *@vp of @n of *@cap
 * (doubling, first @first) */
static int vec_room(void *vp, size_t n, size_t *cap, size_t size,
		    size_t first)
{
	void **v = vp, *nv;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first;
	nv = realloc(*v, c * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

static int vec_add(struct route_vec *rv, const struct dp_route *r)
{
	if (vec_room(&rv->v, rv->n, &rv->cap, sizeof(*rv->v), 64))
		return -ENOMEM;
	rv->v[rv->n++] = *r;
	return 0;
}

/*
 * the answer of __inet_dev_addr_type() for a lookup that finds a route
 * of @type: the error types make fib_table_lookup() fail (unicast)
 */
static uint32_t addr_type(uint8_t type)
{
	switch (type) {
	case RTN_UNICAST:
	case RTN_LOCAL:
	case RTN_BROADCAST:
	case RTN_ANYCAST:
	case RTN_MULTICAST:
		return type;
	}
	return RTN_UNICAST;
}

/* the name of device @ifindex in @lv ("" if unknown) */
static void link_name(const struct link_vec *lv, uint32_t ifindex, char *name)
{
	size_t i;

	memset(name, 0, 16);
	for (i = 0; i < lv->n; i++)
		if ((uint32_t)lv->v[i].ifindex == ifindex) {
			memcpy(name, lv->v[i].name, 16);
			return;
		}
}

/*
 * one RTM_NEWROUTE of the dump into @rv: routes of the local and main
 * tables that a lookup with tos 0 can pick (fib_table_lookup(): aliases
 * with a dscp of their own do not match it; one whose nexthops are all
 * dead is passed over, unless its type is an error type); a route with a
 * tos sets *@tos (route lookups with a DSCP then fail closed)
 */
static int route_parse(const struct nlmsghdr *nh, const struct link_vec *lv,
		       struct route_vec *rv, bool *tos)
{
	const struct rtmsg *rtm = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*rtm));
	const struct rtattr *a;
	uint32_t table = rtm->rtm_table, prio = 0, oif = 0, flags = 0;
	bool dead = rtm->rtm_flags & RTNH_F_DEAD, err_type, multi = false;
	uint32_t nhs[FIB4_NH_MAX] = { 0 }, nnh = 0;
	struct dp_route r;
	uint8_t dst[4] = { 0 };
	int ret;

	if (len < 0 || rtm->rtm_family != AF_INET ||
	    (rtm->rtm_flags & RTM_F_CLONED) || rtm->rtm_dst_len > 32)
		return 0;
	for (a = RTM_RTA(rtm); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case RTA_TABLE:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&table, RTA_DATA(a), 4);
			break;
		case RTA_DST:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(dst, RTA_DATA(a), 4);
			break;
		case RTA_PRIORITY:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&prio, RTA_DATA(a), 4);
			break;
		case RTA_OIF:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&oif, RTA_DATA(a), 4);
			break;
		case RTA_NH_ID:
			/* nexthop objects change without route events */
			flags |= FIB4_F_INEXACT;
			break;
		case RTA_MULTIPATH: {
			const struct rtnexthop *nhp = RTA_DATA(a);
			int left = (int)RTA_PAYLOAD(a);

			/* the first nexthop not dead; dead if all are */
			multi = true;
			dead = true;
			while (left >= (int)sizeof(*nhp) && nhp->rtnh_len >= sizeof(*nhp) &&
			       nhp->rtnh_len <= left) {
				if (nnh < FIB4_NH_MAX)
					nhs[nnh] = (uint32_t)nhp->rtnh_ifindex;
				else
					flags |= FIB4_F_INEXACT;
				nnh++;
				if (!(nhp->rtnh_flags & RTNH_F_DEAD) && dead) {
					oif = (uint32_t)nhp->rtnh_ifindex;
					dead = false;
				}
				left -= RTNH_ALIGN(nhp->rtnh_len);
				nhp = (const void *)((const char *)nhp +
						     RTNH_ALIGN(nhp->rtnh_len));
			}
			break;
		}
		}
	}
	if (table != RT_TABLE_LOCAL && table != RT_TABLE_MAIN)
		return 0;
	if (rtm->rtm_tos) {
		*tos = true;
		return 0;
	}
	if (!multi)
		nhs[0] = oif;
	err_type = addr_type(rtm->rtm_type) != rtm->rtm_type &&
		   rtm->rtm_type != RTN_UNICAST;
	if (dead && !err_type)
		return 0;
	memset(&r, 0, sizeof(r));
	r.key.prefixlen = 32 + rtm->rtm_dst_len;
	memcpy(r.key.addr, dst, 4);
	/* an address beyond the prefix is not in the kernel's key: mask it */
	if (rtm->rtm_dst_len < 32) {
		uint32_t a32, m = rtm->rtm_dst_len ?
			htonl(~0u << (32 - rtm->rtm_dst_len)) : 0;

		memcpy(&a32, r.key.addr, 4);
		a32 &= m;
		memcpy(r.key.addr, &a32, 4);
	}
	r.val.type = addr_type(rtm->rtm_type);
	r.val.oif = dead ? 0 : oif;
	r.val.flags = flags | (err_type ? FIB4_F_ERROR : 0);
	memcpy(r.val.nh, nhs, sizeof(nhs));
	link_name(lv, r.val.oif, r.val.name);
	/* local's aliases come first on a prefix (tb_id descending) */
	r.rank = ((uint64_t)(table == RT_TABLE_LOCAL ? 0 : 1) << 32) | prio;
	r.key.table = FIB4_TABLE_MERGED;
	ret = vec_add(rv, &r);
	if (ret || table != RT_TABLE_LOCAL)
		return ret;
	r.key.table = FIB4_TABLE_LOCAL;
	return vec_add(rv, &r);
}

/*
 * send a dump request of @type for @family and hand each answer of
 * type @want to @cb; -EAGAIN if the dump was interrupted by changes
 */
static int rtnl_dump(struct dp_routes *rt, uint16_t type, uint8_t family,
		     uint16_t want,
		     int (*cb)(const struct nlmsghdr *nh, void *arg), void *arg)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rtm;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = type,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.rtm = { .rtm_family = family },
	};
	static char buf[1 << 16];
	bool done = false, intr = false;
	int ret;

	req.nh.nlmsg_seq = ++rt->seq;
	if (send(rt->req_fd, &req, sizeof(req), 0) < 0)
		return -errno;
	while (!done) {
		ssize_t n = recv(rt->req_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != rt->seq)
				continue;
			if (nh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				return e->error ? e->error : -EIO;
			}
			if (nh->nlmsg_type != want)
				continue;
			ret = cb(nh, arg);
			if (ret)
				return ret;
		}
	}
	return intr ? -EAGAIN : 0;
}

/* one RTM_NEWLINK of the dump into the link_vec @arg */
static int link_parse(const struct nlmsghdr *nh, void *arg)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*ifi));
	struct link_vec *lv = arg;
	const struct rtattr *a;
	struct dp_link l = { .ifindex = ifi->ifi_index };

	if (len < 0)
		return 0;
	for (a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == IFLA_IFNAME) {
			size_t n = RTA_PAYLOAD(a) < 15 ? RTA_PAYLOAD(a) : 15;

			memcpy(l.name, RTA_DATA(a), n);
		}
	if (vec_room(&lv->v, lv->n, &lv->cap, sizeof(*lv->v), 16))
		return -ENOMEM;
	lv->v[lv->n++] = l;
	return 0;
}

struct route_dump_arg {
	const struct link_vec *lv;
	struct route_vec *rv;
	bool tos;
};

static int route_cb(const struct nlmsghdr *nh, void *arg)
{
	struct route_dump_arg *ra = arg;

	return route_parse(nh, ra->lv, ra->rv, &ra->tos);
}

/* dump the namespace's IPv4 routes into @rv (sorted, one per key, the
 * status entry among them); @lv: the links */
static int routes_dump(struct dp_routes *rt, const struct link_vec *lv,
		       struct route_vec *rv)
{
	struct route_dump_arg ra = { .lv = lv, .rv = rv };
	struct dp_route st;
	size_t i, out;
	int ret;

	ret = rtnl_dump(rt, RTM_GETROUTE, AF_INET, RTM_NEWROUTE, route_cb, &ra);
	if (ret)
		return ret;
	/* the status entry: the table id alone (prefix length 32) */
	memset(&st, 0, sizeof(st));
	st.key.prefixlen = 32;
	st.key.table = FIB4_TABLE_STATUS;
	st.val.flags = ra.tos ? FIB4_F_TOS : 0;
	ret = vec_add(rv, &st);
	if (ret)
		return ret;
	/* first by key, then rank: the first of each key is the one used */
	if (rv->n)	/* qsort(NULL, 0) is undefined */
		qsort(rv->v, rv->n, sizeof(*rv->v), route_cmp);
	for (i = 0, out = 0; i < rv->n; i++)
		if (!out || key_cmp(&rv->v[out - 1], &rv->v[i]))
			rv->v[out++] = rv->v[i];
	rv->n = out;
	return rv->n > FIB4_MAX ? -E2BIG : 0;
}

/**
 * struct r6_cand - one IPv6 route (one sibling of a multipath route) as
 * ip6_pol_route_lookup() sees it
 * @table: RT_TABLE_LOCAL or RT_TABLE_MAIN
 * @plen: prefix length
 * @dst: prefix, masked
 * @metric: fib6_metric
 * @seq: position in the dump (the order of the node's route list)
 * @type: RTN_*
 * @dead: its nexthop is dead (rt6_device_match() passes it over)
 * @multi: a sibling of a multipath route
 * @gw: it has a gateway
 * @dev: its nexthop's device
 */
struct r6_cand {
	uint32_t table;
	uint8_t plen;
	uint8_t dst[16];
	uint32_t metric;
	uint32_t seq;
	uint8_t type;
	bool dead;
	bool multi;
	bool gw;
	uint32_t dev;
};

/* does the rtnexthop @mp carry an RTA_GATEWAY? */
static bool rtnh_gw(const struct rtnexthop *mp)
{
	int len = (int)mp->rtnh_len - (int)sizeof(*mp);
	const struct rtattr *a = RTNH_DATA(mp);

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == RTA_GATEWAY)
			return true;
	return false;
}

struct r6_vec {
	struct r6_cand *v;
	size_t n, cap;
	uint32_t seq;
	uint32_t status;	/* FIB6_F_* */
};

static int r6_add(struct r6_vec *cv, const struct r6_cand *c)
{
	if (vec_room(&cv->v, cv->n, &cv->cap, sizeof(*cv->v), 64))
		return -ENOMEM;
	cv->v[cv->n++] = *c;
	return 0;
}

/*
 * one RTM_NEWROUTE of the IPv6 dump into the r6_vec @arg: a candidate
 * per sibling; source-specific routes and nexthop objects only mark the
 * status (route lookups then fail closed)
 */
static int route6_parse(const struct nlmsghdr *nh, void *arg)
{
	const struct rtmsg *rtm = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*rtm));
	struct r6_vec *cv = arg;
	const struct rtnexthop *mp = NULL;
	const struct rtattr *a;
	struct r6_cand c;
	uint32_t table = rtm->rtm_table, oif = 0;
	int mplen = 0, i, ret;

	if (len < 0 || rtm->rtm_family != AF_INET6 ||
	    (rtm->rtm_flags & RTM_F_CLONED) || rtm->rtm_dst_len > 128)
		return 0;
	memset(&c, 0, sizeof(c));
	for (a = RTM_RTA(rtm); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case RTA_TABLE:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&table, RTA_DATA(a), 4);
			break;
		case RTA_DST:
			if (RTA_PAYLOAD(a) >= 16)
				memcpy(c.dst, RTA_DATA(a), 16);
			break;
		case RTA_PRIORITY:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&c.metric, RTA_DATA(a), 4);
			break;
		case RTA_OIF:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&oif, RTA_DATA(a), 4);
			break;
		case RTA_NH_ID:
			cv->status |= FIB6_F_NHOBJ;
			break;
		case RTA_GATEWAY:
			c.gw = true;
			break;
		case RTA_MULTIPATH:
			mp = RTA_DATA(a);
			mplen = (int)RTA_PAYLOAD(a);
			break;
		}
	}
	if (table != RT_TABLE_LOCAL && table != RT_TABLE_MAIN)
		return 0;
	if (rtm->rtm_src_len) {
		cv->status |= FIB6_F_SUBTREES;
		return 0;
	}
	c.table = table;
	c.plen = rtm->rtm_dst_len;
	for (i = c.plen; i < 128; i++)
		c.dst[i / 8] &= (uint8_t)~(0x80 >> (i % 8));
	c.type = rtm->rtm_type;
	if (!mp) {
		c.seq = cv->seq++;
		c.dev = oif;
		c.dead = rtm->rtm_flags & RTNH_F_DEAD;
		return r6_add(cv, &c);
	}
	/* siblings: one candidate each, in order */
	c.multi = true;
	while (mplen >= (int)sizeof(*mp) && mp->rtnh_len >= sizeof(*mp) &&
	       mp->rtnh_len <= mplen) {
		c.seq = cv->seq++;
		c.dev = (uint32_t)mp->rtnh_ifindex;
		c.dead = mp->rtnh_flags & RTNH_F_DEAD;
		c.gw = rtnh_gw(mp);
		ret = r6_add(cv, &c);
		if (ret)
			return ret;
		mplen -= RTNH_ALIGN(mp->rtnh_len);
		mp = (const void *)((const char *)mp + RTNH_ALIGN(mp->rtnh_len));
	}
	return 0;
}

/* the same prefix of the same table? 0 if so */
static int cand_cmp_key(const struct r6_cand *x, const struct r6_cand *y)
{
	return x->table != y->table || x->plen != y->plen ||
	       memcmp(x->dst, y->dst, 16);
}

/* by table, prefix length, prefix, then dump order */
static int cand_cmp(const void *a, const void *b)
{
	const struct r6_cand *x = a, *y = b;
	int d;

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	d = memcmp(x->dst, y->dst, 16);
	if (d)
		return d;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int key6_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct codegen_fib6_key));
}

/*
 * ip6_pol_route_lookup() at one prefix, over its @n routes in list
 * order, for a lookup with output device @oif: rt6_device_match() takes
 * the first route not dead through @oif (RT6_LOOKUP_F_IFACE: none is
 * the null entry, the lookup backtracks); without one, the first route
 * (its source address check only matters when that route is dead).
 * *@inexact: what the mirror cannot answer: a dead first route, a
 * multipath route (fib6_select_path() then hashes the flow with a key
 * of the kernel's). -1: backtrack.
 */
static int r6_select(const struct r6_cand *g, size_t n, uint32_t oif,
		     bool *inexact)
{
	size_t i;

	*inexact = false;
	if (!oif) {
		*inexact = g[0].dead || g[0].multi;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!g[i].dead && g[i].dev == oif)
			return (int)i;
	return -1;
}

struct route6_out {
	struct dp_route6 *v;
	size_t n, cap;
};

/* the entry of candidate @c under table @table into @out */
static int r6_entry(struct route6_out *out, const struct r6_cand *c,
		    uint32_t table, bool inexact, const struct link_vec *lv)
{
	struct dp_route6 e;

	memset(&e, 0, sizeof(e));
	e.key.prefixlen = 32 + c->plen;
	e.key.table = table;
	memcpy(e.key.addr, c->dst, 16);
	e.val.type = c->type;
	e.val.oif = c->dev;
	e.val.flags = (uint32_t)c->plen << FIB6_PLEN_SHIFT;
	if (c->gw)
		e.val.flags |= FIB6_F_GW;
	if (c->dead)
		e.val.flags |= FIB6_F_TYPE_INEXACT;
	if (c->type >= RTN_BLACKHOLE)
		e.val.flags |= FIB4_F_ERROR;
	/* a throw route of the local table sends the lookup on to main
	 * (fib6_rule_lookup()): not modelled */
	if (inexact || (c->type == RTN_THROW && c->table == RT_TABLE_LOCAL))
		e.val.flags |= FIB4_F_INEXACT;
	/* nft_fib6_eval() compares the route's own device only */
	e.val.nh[0] = c->dev;
	link_name(lv, c->dev, e.val.name);
	if (vec_room(&out->v, out->n, &out->cap, sizeof(*out->v), 64))
		return -ENOMEM;
	out->v[out->n++] = e;
	return 0;
}

/* dump the namespace's IPv6 routes into @out (sorted by key) */
static int routes6_dump(struct dp_routes *rt, const struct link_vec *lv,
			struct route6_out *out)
{
	struct r6_vec cv = { 0 };
	struct r6_cand st;
	bool inexact;
	size_t i, j, k;
	int ret, sel;

	ret = rtnl_dump(rt, RTM_GETROUTE, AF_INET6, RTM_NEWROUTE,
			route6_parse, &cv);
	if (ret)
		goto out;
	qsort(cv.v, cv.n, sizeof(*cv.v), cand_cmp);
	for (i = 0; i < cv.n && !ret; i = j) {
		for (j = i + 1; j < cv.n && !cand_cmp_key(&cv.v[i], &cv.v[j]); j++)
			;
		/* without an output device */
		sel = r6_select(&cv.v[i], j - i, 0, &inexact);
		if (sel >= 0)
			ret = r6_entry(out, &cv.v[i + sel], cv.v[i].table,
				       inexact, lv);
		/* with each device one of the routes goes through */
		for (k = i; k < j && !ret; k++) {
			size_t l;

			for (l = i; l < k && cv.v[l].dev != cv.v[k].dev; l++)
				;
			if (l < k || !cv.v[k].dev)
				continue;	/* that device is done */
			sel = r6_select(&cv.v[i], j - i, cv.v[k].dev, &inexact);
			if (sel >= 0)
				ret = r6_entry(out, &cv.v[i + sel],
					       FIB6_TABLE_DEV(cv.v[k].dev, cv.v[i].table),
					       inexact, lv);
		}
	}
	if (ret)
		goto out;
	/* the status entry */
	memset(&st, 0, sizeof(st));
	ret = r6_entry(out, &st, FIB4_TABLE_STATUS, false, lv);
	if (ret)
		goto out;
	out->v[out->n - 1].key.prefixlen = 32;
	out->v[out->n - 1].val.flags = cv.status;
	qsort(out->v, out->n, sizeof(*out->v), key6_cmp);
	ret = out->n > FIB6_MAX ? -E2BIG : 0;
out:
	free(cv.v);
	return ret;
}

/*
 * bring map @map_fd from the @ncur entries at *@cur to the @nn at @nv
 * (arrays of @esz-byte entries sorted by their @ksz-byte key at offset 0,
 * the @vsz-byte value at @voff): changed and new entries first, vanished
 * ones after. @nv becomes *@cur.
 */
static int mirror_apply(int map_fd, void **cur, size_t *ncur, void *nv,
			size_t nn, size_t esz, size_t ksz, size_t voff,
			size_t vsz)
{
	const char *c = *cur, *n = nv;
	size_t i = 0, j = 0;
	int err = 0;

	/* 1. new and changed entries */
	while (j < nn) {
		int d = i < *ncur ? memcmp(c + i * esz, n + j * esz, ksz) : 1;

		if (d < 0) {
			i++;
			continue;
		}
		if (d > 0 || memcmp(c + i * esz + voff, n + j * esz + voff, vsz)) {
			if (bpf_map_update_elem(map_fd, n + j * esz,
						n + j * esz + voff, BPF_ANY) && !err)
				err = -errno;
		}
		if (d == 0)
			i++;
		j++;
	}
	/* 2. vanished entries */
	for (i = 0, j = 0; i < *ncur; i++) {
		while (j < nn && memcmp(n + j * esz, c + i * esz, ksz) < 0)
			j++;
		if (j < nn && !memcmp(n + j * esz, c + i * esz, ksz))
			continue;
		if (bpf_map_delete_elem(map_fd, c + i * esz) &&
		    errno != ENOENT && !err)
			err = -errno;
	}
	free(*cur);
	*cur = nv;
	*ncur = nn;
	return err;
}

/* bring the map to @rv; @rv's array becomes rt->cur */
static int routes_apply(struct dp_routes *rt, struct route_vec *rv)
{
	void *cur = rt->cur;
	int err;

	err = mirror_apply(rt->map_fd, &cur, &rt->ncur, rv->v, rv->n,
			   sizeof(struct dp_route), sizeof(struct codegen_fib4_key),
			   offsetof(struct dp_route, val),
			   sizeof(struct codegen_fib4_val));
	rt->cur = cur;
	rv->v = NULL;
	rv->n = rv->cap = 0;
	return err;
}

/* dump links and routes and apply them; a dump interrupted by changes
 * is tried again */
static int routes_sync(struct dp_routes *rt)
{
	int tries, ret = 0;

	for (tries = 0; tries < 8; tries++) {
		struct link_vec lv = { 0 };
		struct route_vec rv = { 0 };
		struct route6_out r6 = { 0 };

		ret = rtnl_dump(rt, RTM_GETLINK, AF_UNSPEC, RTM_NEWLINK,
				link_parse, &lv);
		if (!ret)
			ret = routes_dump(rt, &lv, &rv);
		if (!ret)
			ret = routes6_dump(rt, &lv, &r6);
		free(lv.v);
		if (!ret) {
			void *cur6 = rt->cur6;

			ret = routes_apply(rt, &rv);
			if (!ret)
				ret = mirror_apply(rt->map6_fd, &cur6, &rt->ncur6,
						   r6.v, r6.n, sizeof(struct dp_route6),
						   sizeof(struct codegen_fib6_key),
						   offsetof(struct dp_route6, val),
						   sizeof(struct codegen_fib4_val));
			else
				free(r6.v);
			rt->cur6 = cur6;
			return ret;
		}
		free(rv.v);
		free(r6.v);
		if (ret != -EAGAIN)
			break;
	}
	return ret;
}

struct dp_routes *dp_routes_new(int ns_fd, int *map_fd, int *map6_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	uint32_t ev_groups = RTMGRP_IPV4_ROUTE | RTMGRP_IPV4_IFADDR | RTMGRP_LINK |
			     RTMGRP_IPV6_ROUTE;
	uint32_t no_groups = 0;
	struct epoll_event ev = { .events = EPOLLIN };
	struct dp_routes *rt = calloc(1, sizeof(*rt));
	int epfd = dataplane_routes_fd(), ret;

	if (!rt)
		return NULL;
	rt->ev_fd = rt->req_fd = -1;
	rt->map_fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "nfbpf_fib4",
				    sizeof(struct codegen_fib4_key),
				    sizeof(struct codegen_fib4_val), FIB4_MAX,
				    &opts);
	rt->map6_fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "nfbpf_fib6",
				     sizeof(struct codegen_fib6_key),
				     sizeof(struct codegen_fib4_val), FIB6_MAX,
				     &opts);
	if (rt->map_fd < 0 || rt->map6_fd < 0)
		goto out_free;
	/* 0. subscribe before the first dump: no change falls in between */
	ret = offload_in_netns(ns_fd, offload_rtnl_socket, &ev_groups);
	if (ret <= 0)
		goto out_free;
	rt->ev_fd = ret;
	ret = offload_in_netns(ns_fd, offload_rtnl_socket, &no_groups);
	if (ret <= 0)
		goto out_free;
	rt->req_fd = ret;
	/* 1. the first copy */
	ret = routes_sync(rt);
	if (ret) {
		fprintf(stderr, "nfbpfd: route mirror: %s\n", strerror(-ret));
		goto out_free;
	}
	ev.data.ptr = rt;
	if (epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, rt->ev_fd, &ev))
		goto out_free;
	*map_fd = rt->map_fd;
	*map6_fd = rt->map6_fd;
	return rt;

out_free:
	if (rt->ev_fd >= 0)
		close(rt->ev_fd);
	if (rt->req_fd >= 0)
		close(rt->req_fd);
	if (rt->map_fd >= 0)
		close(rt->map_fd);
	if (rt->map6_fd >= 0)
		close(rt->map6_fd);
	free(rt->cur);
	free(rt->cur6);
	free(rt);
	return NULL;
}

void dp_routes_free(struct dp_routes *rt)
{
	if (!rt)
		return;
	if (routes_epfd >= 0)
		epoll_ctl(routes_epfd, EPOLL_CTL_DEL, rt->ev_fd, NULL);
	close(rt->ev_fd);
	close(rt->req_fd);
	close(rt->map_fd);
	close(rt->map6_fd);
	free(rt->cur);
	free(rt->cur6);
	free(rt);
}

int dataplane_routes_poll(void)
{
	struct epoll_event evs[16];
	int epfd = dataplane_routes_fd(), n, i, ret;
	char buf[8192];

	if (epfd < 0)
		return epfd;
	n = epoll_wait(epfd, evs, 16, 0);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		struct dp_routes *rt = evs[i].data.ptr;

		/* what changed does not matter: the tables are dumped again
		 * (an overrun, ENOBUFS, loses events, not the dump) */
		while (recv(rt->ev_fd, buf, sizeof(buf), MSG_DONTWAIT) > 0 ||
		       errno == ENOBUFS)
			;
		ret = routes_sync(rt);
		if (ret)
			fprintf(stderr, "nfbpfd: route mirror not updated: %s\n",
				strerror(-ret));
	}
	return n;
}

/*
 * one RTM_NEWRULE of a rule dump: is it one of the rules a namespace
 * starts with (fib4_rules_init(), fib6_rules_net_init(): local at 0,
 * main at 32766, default at 32767 for IPv4), without selectors? If not,
 * set the bool at @arg.
 */
static int rule_parse(const struct nlmsghdr *nh, void *arg)
{
	const struct fib_rule_hdr *frh = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*frh));
	uint32_t prio = 0, table = frh->table;
	const struct rtattr *a;
	bool *custom = arg, odd = false;
	int32_t v;

	if (len < 0)
		return 0;
	for (a = (const struct rtattr *)((const char *)frh + NLMSG_ALIGN(sizeof(*frh)));
	     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case FRA_PRIORITY:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&prio, RTA_DATA(a), 4);
			break;
		case FRA_TABLE:
			if (RTA_PAYLOAD(a) >= 4)
				memcpy(&table, RTA_DATA(a), 4);
			break;
		case FRA_PROTOCOL:
			break;
		case FRA_SUPPRESS_PREFIXLEN:
		case FRA_SUPPRESS_IFGROUP:
			/* -1: not set */
			if (RTA_PAYLOAD(a) < 4)
				odd = true;
			else {
				memcpy(&v, RTA_DATA(a), 4);
				odd |= v != -1;
			}
			break;
		default:
			odd = true;	/* a selector, goto, l3mdev... */
		}
	}
	if (odd || frh->action != FR_ACT_TO_TBL || frh->src_len ||
	    frh->dst_len || frh->tos || (frh->flags & FIB_RULE_INVERT) ||
	    !((prio == 0 && table == RT_TABLE_LOCAL) ||
	      (prio == 32766 && table == RT_TABLE_MAIN) ||
	      (prio == 32767 && table == RT_TABLE_DEFAULT &&
	       frh->family == AF_INET)))
		*custom = true;
	return 0;
}

int dp_routes_rules_check(int ns_fd, bool v4, bool v6, const char **msg)
{
	struct dp_routes tmp = { .req_fd = -1 };
	uint32_t no_groups = 0;
	bool custom4 = false, custom6 = false;
	int ret, tries;

	ret = offload_in_netns(ns_fd, offload_rtnl_socket, &no_groups);
	if (ret <= 0)
		return ret < 0 ? ret : -EIO;
	tmp.req_fd = ret;
	for (tries = 0, ret = -EAGAIN; tries < 8 && ret == -EAGAIN; tries++) {
		custom4 = custom6 = false;
		ret = v4 ? rtnl_dump(&tmp, RTM_GETRULE, AF_INET, RTM_NEWRULE,
				     rule_parse, &custom4) : 0;
		if (!ret && v6)
			ret = rtnl_dump(&tmp, RTM_GETRULE, AF_INET6, RTM_NEWRULE,
					rule_parse, &custom6);
	}
	close(tmp.req_fd);
	if (ret)
		return ret;
	if (custom4 || custom6) {
		*msg = custom4 ?
			"fib route lookups: this namespace has IPv4 policy routing rules other than the default ones, which the nfbpf route mirror does not model" :
			"fib route lookups: this namespace has IPv6 policy routing rules other than the default ones, which the nfbpf route mirror does not model";
		return -EOPNOTSUPP;
	}
	return 0;
}
