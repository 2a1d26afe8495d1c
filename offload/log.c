// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - the userspace half of the log expression: the ring buffer each
 * namespace's programs fill with struct codegen_log_rec, the prefix table
 * (prefixes are rule constants: a rule names its prefix by index), and the
 * formatter that prints a record as nf_log_syslog (net/netfilter/
 * nf_log_syslog.c) prints the packet: same fields, same order, same
 * truncation of its 1020-byte line buffer.
 *
 * NFLOG records (log group, xt NFLOG) share the ring: they go as struct
 * dp_nflog to the daemon's nfnetlink_log (nfnl/ulog.c); the programs make
 * them only for the groups set in the namespace's bound-groups map.
 *
 * One epoll fd (dataplane_log_fd()) gathers every namespace's ring
 * buffer, so the daemon polls one descriptor for all of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <endian.h>
#include <sys/epoll.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane.h"
#include "ruleset.h"
#include "codegen/codegen.h"
#include "offload/offload.h"
#include "expr/log.h"

#define LOG_RING_SIZE	(1024 * 1024)	/* bytes per namespace: 16 NFLOG
					 * records of a whole 64 KiB packet */
#define PREFIX_MAX	(1u << 20)	/* distinct prefixes per namespace */

/**
 * struct dp_log - log state of one namespace's dataplane
 * @map_fd: BPF_MAP_TYPE_RINGBUF the programs write
 * @nflog_fd: ARRAY of one NFLOG_GROUPS-bit value: the groups NFLOG rules
 *	      log to (those with an nfnetlink_log instance)
 * @rb: libbpf consumer of @map_fd
 * @net: the namespace
 * @init_net: the namespace is the host's first (nf_log_allowed())
 * @prefixes: interned prefixes, id = index + 1; never freed before @dp_log
 * @nprefixes: count
 * @cap: allocated entries of @prefixes
 * @index: open-addressing hash of ids (0 = empty), @icap slots
 * @sink: where the current consume delivers records
 * @sink_arg: its argument
 */
struct dp_log {
	int map_fd;
	int nflog_fd;
	struct ring_buffer *rb;
	struct net *net;
	bool init_net;
	char **prefixes;
	uint32_t nprefixes, cap;
	uint32_t *index, icap;
	void (*sink)(void *arg, const struct codegen_log_rec *rec,
		     const char *prefix, bool allowed);
	void *sink_arg;
};

static int log_epfd = -1;

int dataplane_log_fd(void)
{
	if (log_epfd < 0) {
		log_epfd = epoll_create1(EPOLL_CLOEXEC);
		if (log_epfd < 0)
			return -errno;
	}
	return log_epfd;
}

static bool all_netns(void)
{
	char c = '0';
	int fd = open("/proc/sys/net/netfilter/nf_log_all_netns",
		      O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c != '0';
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct dp_log *lg = ctx;
	const struct codegen_log_rec *rec = data;
	const char *prefix = "";

	if (size < LOG_NFLOG_HDR || !lg->sink)
		return 0;
	if (rec->nflog ? size < LOG_NFLOG_HDR + rec->caplen : size < sizeof(*rec))
		return 0;
	if (rec->prefix_id && rec->prefix_id <= lg->nprefixes)
		prefix = lg->prefixes[rec->prefix_id - 1];
	lg->sink(lg->sink_arg, rec, prefix, lg->init_net || all_netns());
	return 0;
}

struct net *dp_log_net(const struct dp_log *lg)
{
	return lg->net;
}

int dp_log_nflog_sync(struct dp_log *lg, const uint8_t *bound)
{
	static const uint8_t none[NFLOG_GROUPS / 8];
	uint32_t key = 0;

	if (bpf_map_update_elem(lg->nflog_fd, &key, bound ? bound : none, BPF_ANY))
		return -errno;
	return 0;
}

struct dp_log *dp_log_new(int ns_fd, struct net *net, int *map_fd,
			  int *nflog_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct dp_log *lg = calloc(1, sizeof(*lg));
	struct stat a, b;
	int epfd = dataplane_log_fd();

	if (!lg || epfd < 0)
		goto out_free;
	lg->net = net;
	lg->init_net = ns_fd >= 0 && !fstat(ns_fd, &a) &&
		       !stat("/proc/1/ns/net", &b) &&
		       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	lg->nflog_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_nflog", 4,
				      NFLOG_GROUPS / 8, 1, NULL);
	if (lg->nflog_fd < 0)
		goto out_free;
	lg->map_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "nfbpf_log", 0, 0,
				    LOG_RING_SIZE, NULL);
	if (lg->map_fd < 0)
		goto out_close_nflog;
	lg->rb = ring_buffer__new(lg->map_fd, on_record, lg, NULL);
	if (!lg->rb)
		goto out_close;
	ev.data.ptr = lg;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(lg->rb), &ev))
		goto out_rb;
	*map_fd = lg->map_fd;
	*nflog_fd = lg->nflog_fd;
	return lg;

out_rb:
	ring_buffer__free(lg->rb);
out_close:
	close(lg->map_fd);
out_close_nflog:
	close(lg->nflog_fd);
out_free:
	free(lg);
	return NULL;
}

void dp_log_free(struct dp_log *lg)
{
	uint32_t i;

	if (!lg)
		return;
	if (log_epfd >= 0)
		epoll_ctl(log_epfd, EPOLL_CTL_DEL, ring_buffer__epoll_fd(lg->rb),
			  NULL);
	ring_buffer__free(lg->rb);
	close(lg->map_fd);
	close(lg->nflog_fd);
	for (i = 0; i < lg->nprefixes; i++)
		free(lg->prefixes[i]);
	free(lg->prefixes);
	free(lg->index);
	free(lg);
}

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int index_grow(struct dp_log *lg)
{
	uint32_t n = lg->icap ? lg->icap * 2 : 64, i;
	uint32_t *idx = calloc(n, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < lg->nprefixes; i++) {
		uint32_t h = str_hash(lg->prefixes[i]) & (n - 1);

		while (idx[h])
			h = (h + 1) & (n - 1);
		idx[h] = i + 1;
	}
	free(lg->index);
	lg->index = idx;
	lg->icap = n;
	return 0;
}

/* prefix_id - the id of @s, interned on first use; 0 on ENOMEM/ENOSPC */
static uint32_t prefix_id(struct dp_log *lg, const char *s, int *err)
{
	uint32_t h;
	char *dup;

	if (2 * (lg->nprefixes + 1) > lg->icap && (*err = index_grow(lg)))
		return 0;
	for (h = str_hash(s) & (lg->icap - 1); lg->index[h];
	     h = (h + 1) & (lg->icap - 1))
		if (!strcmp(lg->prefixes[lg->index[h] - 1], s))
			return lg->index[h];
	if (lg->nprefixes == PREFIX_MAX) {
		*err = -ENOSPC;
		return 0;
	}
	if (lg->nprefixes == lg->cap) {
		uint32_t n = lg->cap ? lg->cap * 2 : 16;
		char **v = realloc(lg->prefixes, n * sizeof(*v));

		if (!v) {
			*err = -ENOMEM;
			return 0;
		}
		lg->prefixes = v;
		lg->cap = n;
	}
	dup = strdup(s);
	if (!dup) {
		*err = -ENOMEM;
		return 0;
	}
	lg->prefixes[lg->nprefixes++] = dup;
	lg->index[h] = lg->nprefixes;
	return lg->nprefixes;
}

int dp_log_rule(struct dp_log *lg, struct rule *rule)
{
	struct expr *e;
	int err = 0;

	rule_for_each_expr(e, rule) {
		const struct codegen_expr_ops *ops = e->type < __EXPR_MAX ?
						     codegen_expr_ops[e->type] : NULL;
		const char *prefix;
		uint32_t *id;

		if (!ops || !ops->log_prefix || !(id = ops->log_prefix(e, &prefix)))
			continue;
		*id = prefix_id(lg, prefix, &err);
		if (!*id)
			return err;
	}
	return 0;
}

int dp_log_add_ring(struct dp_log *lg, int map_fd,
		    int (*fn)(void *ctx, void *data, size_t size), void *ctx)
{
	return ring_buffer__add(lg->rb, map_fd, fn, ctx);
}

int dp_log_consume(struct dp_log *lg,
		   void (*fn)(void *arg, const struct codegen_log_rec *rec,
			      const char *prefix, bool allowed),
		   void *arg)
{
	int n;

	lg->sink = fn;
	lg->sink_arg = arg;
	n = ring_buffer__consume(lg->rb);
	lg->sink = NULL;
	return n;
}

/* ---- the line: nf_log_syslog's format ---- */

#define LBUF_SIZE	(1024 - sizeof(unsigned int))	/* S_SIZE */

/* struct lbuf - nf_log_buf: adds stop for good once the buffer is full */
struct lbuf {
	unsigned int count;
	char buf[LBUF_SIZE + 1];
};

__attribute__((format(printf, 2, 3)))
static void add(struct lbuf *m, const char *f, ...)
{
	va_list args;
	int len;

	if (m->count < LBUF_SIZE) {
		va_start(args, f);
		len = vsnprintf(m->buf + m->count, LBUF_SIZE - m->count, f, args);
		va_end(args);
		if (len >= 0 && m->count + len < LBUF_SIZE) {
			m->count += len;
			return;
		}
	}
	m->count = LBUF_SIZE;
}

/*
 * struct pkt - the copied packet, as skb_header_pointer() sees it: offsets
 * count from skb->data at the hook, @nhoff bytes before the network header
 * where @d starts (netdev egress, arp output: the link layer header)
 */
struct pkt {
	const struct codegen_log_rec *rec;
	const uint8_t *d;
	uint32_t caplen;
	uint32_t len;
	uint32_t nhoff;
};

static const uint8_t *hdr(const struct pkt *p, uint32_t off, uint32_t len)
{
	if (off < p->nhoff)
		return NULL;
	off -= p->nhoff;
	if (off > p->caplen || len > p->caplen - off)
		return NULL;
	return p->d + off;
}

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static void add_mac(struct lbuf *m, const uint8_t *a)
{
	add(m, "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void add_ip4(struct lbuf *m, const uint8_t *a)
{
	add(m, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
}

/* %pI6: eight groups of four lower-case hex digits */
static void add_ip6(struct lbuf *m, const uint8_t *a)
{
	int i;

	for (i = 0; i < 16; i += 2)
		add(m, "%s%02x%02x", i ? ":" : "", a[i], a[i + 1]);
}

#define ARPHRD_ETHER	1
#define NF_IPPROTO_TCP	6
#define NF_IPPROTO_UDP	17
#define NF_IPPROTO_UDPLITE 136
#define NF_IPPROTO_ICMP	1
#define NF_IPPROTO_ICMPV6 58
#define NF_IPPROTO_AH	51
#define NF_IPPROTO_ESP	50
#define IP_CE		0x8000
#define IP_DF		0x4000
#define IP_MF		0x2000
#define IP_OFFSET	0x1fff

/* nf_log_dump_tcp_header(): 1 = stop the line here */
static int dump_tcp(struct lbuf *m, const struct pkt *p, int fragment,
		    uint32_t off, unsigned int flags)
{
	const uint8_t *th;
	unsigned int doff;

	add(m, "PROTO=TCP ");
	if (fragment)
		return 0;
	th = hdr(p, off, 20);
	if (!th) {
		add(m, "INCOMPLETE [%u bytes] ", p->len - off);
		return 1;
	}
	add(m, "SPT=%u DPT=%u ", be16(th), be16(th + 2));
	if (flags & LOG_F_TCPSEQ)
		add(m, "SEQ=%u ACK=%u ", be32(th + 4), be32(th + 8));
	add(m, "WINDOW=%u ", be16(th + 14));
	add(m, "RES=0x%02x ", (th[12] & 0x0e) << 2);
	if (th[12] & 0x01)
		add(m, "AE ");
	if (th[13] & 0x80)
		add(m, "CWR ");
	if (th[13] & 0x40)
		add(m, "ECE ");
	if (th[13] & 0x20)
		add(m, "URG ");
	if (th[13] & 0x10)
		add(m, "ACK ");
	if (th[13] & 0x08)
		add(m, "PSH ");
	if (th[13] & 0x04)
		add(m, "RST ");
	if (th[13] & 0x02)
		add(m, "SYN ");
	if (th[13] & 0x01)
		add(m, "FIN ");
	add(m, "URGP=%u ", be16(th + 18));
	doff = (th[12] >> 4) * 4u;
	if ((flags & LOG_F_TCPOPT) && doff > 20) {
		const uint8_t *op = hdr(p, off + 20, doff - 20);
		unsigned int i;

		if (!op) {
			add(m, "OPT (TRUNCATED)");
			return 1;
		}
		add(m, "OPT (");
		for (i = 0; i < doff - 20; i++)
			add(m, "%02X", op[i]);
		add(m, ") ");
	}
	return 0;
}

/* nf_log_dump_udp_header() */
static int dump_udp(struct lbuf *m, const struct pkt *p, uint8_t proto,
		    int fragment, uint32_t off)
{
	const uint8_t *uh;

	add(m, proto == NF_IPPROTO_UDP ? "PROTO=UDP " : "PROTO=UDPLITE ");
	if (fragment)
		return 0;
	uh = hdr(p, off, 8);
	if (!uh) {
		add(m, "INCOMPLETE [%u bytes] ", p->len - off);
		return 1;
	}
	add(m, "SPT=%u DPT=%u LEN=%u ", be16(uh), be16(uh + 2), be16(uh + 4));
	return 0;
}

/* dump_ipv4_packet() */
static void dump_ipv4(struct lbuf *m, const struct pkt *p, unsigned int flags,
		      uint32_t iphoff)
{
	static const uint8_t required_len[19] = {
		[0] = 4, [3] = 28, [4] = 28, [5] = 28, [8] = 4, [11] = 28,
		[12] = 28, [13] = 20, [14] = 20, [17] = 12, [18] = 12,
	};
	const uint8_t *ih = hdr(p, iphoff, 20);
	unsigned int ihl, totlen, fo;
	uint8_t proto;

	if (!ih) {
		add(m, "TRUNCATED");
		return;
	}
	ihl = (ih[0] & 0xf) * 4u;
	fo = be16(ih + 6);
	proto = ih[9];
	add(m, "SRC=");
	add_ip4(m, ih + 12);
	add(m, " DST=");
	add_ip4(m, ih + 16);
	add(m, " ");
	totlen = be16(ih + 2);
	if (!totlen)	/* iph_totlen(): BIG TCP GSO packets */
		totlen = p->len - p->nhoff;
	add(m, "LEN=%u TOS=0x%02X PREC=0x%02X TTL=%u ID=%u ", totlen,
	    ih[1] & 0x1e, ih[1] & 0xe0, ih[8], be16(ih + 4));
	if (fo & IP_CE)
		add(m, "CE ");
	if (fo & IP_DF)
		add(m, "DF ");
	if (fo & IP_MF)
		add(m, "MF ");
	if (fo & IP_OFFSET)
		add(m, "FRAG:%u ", fo & IP_OFFSET);
	if ((flags & LOG_F_IPOPT) && ihl > 20) {
		const uint8_t *op = hdr(p, iphoff + 20, ihl - 20);
		unsigned int i;

		if (!op) {
			add(m, "TRUNCATED");
			return;
		}
		add(m, "OPT (");
		for (i = 0; i < ihl - 20; i++)
			add(m, "%02X", op[i]);
		add(m, ") ");
	}
	switch (proto) {
	case NF_IPPROTO_TCP:
		if (dump_tcp(m, p, fo & IP_OFFSET, iphoff + ihl, flags))
			return;
		break;
	case NF_IPPROTO_UDP:
	case NF_IPPROTO_UDPLITE:
		if (dump_udp(m, p, proto, fo & IP_OFFSET, iphoff + ihl))
			return;
		break;
	case NF_IPPROTO_ICMP: {
		const uint8_t *ich;
		uint32_t rest = p->len - iphoff - ihl;

		add(m, "PROTO=ICMP ");
		if (fo & IP_OFFSET)
			break;
		ich = hdr(p, iphoff + ihl, 8);
		if (!ich) {
			add(m, "INCOMPLETE [%u bytes] ", rest);
			break;
		}
		add(m, "TYPE=%u CODE=%u ", ich[0], ich[1]);
		if (ich[0] <= 18 && required_len[ich[0]] &&
		    rest < required_len[ich[0]]) {
			add(m, "INCOMPLETE [%u bytes] ", rest);
			break;
		}
		switch (ich[0]) {
		case 0:		/* echo reply */
		case 8:		/* echo */
			add(m, "ID=%u SEQ=%u ", be16(ich + 4), be16(ich + 6));
			break;
		case 12:	/* parameter problem */
			add(m, "PARAMETER=%u ", ich[4]);
			break;
		case 5:		/* redirect */
			add(m, "GATEWAY=");
			add_ip4(m, ich + 4);
			add(m, " ");
			/* fallthrough */
		case 3:		/* destination unreachable */
		case 4:		/* source quench */
		case 11:	/* time exceeded */
			if (!iphoff) {	/* only recurse once */
				add(m, "[");
				dump_ipv4(m, p, flags, iphoff + ihl + 8);
				add(m, "] ");
			}
			if (ich[0] == 3 && ich[1] == 4)	/* frag needed */
				add(m, "MTU=%u ", be16(ich + 6));
		}
		break;
	}
	case NF_IPPROTO_AH: {
		const uint8_t *ah;

		if (fo & IP_OFFSET)
			break;
		add(m, "PROTO=AH ");
		ah = hdr(p, iphoff + ihl, 12);
		if (!ah) {
			add(m, "INCOMPLETE [%u bytes] ", p->len - iphoff - ihl);
			break;
		}
		add(m, "SPI=0x%x ", be32(ah + 4));
		break;
	}
	case NF_IPPROTO_ESP: {
		const uint8_t *eh;

		add(m, "PROTO=ESP ");
		if (fo & IP_OFFSET)
			break;
		eh = hdr(p, iphoff + ihl, 8);
		if (!eh) {
			add(m, "INCOMPLETE [%u bytes] ", p->len - iphoff - ihl);
			break;
		}
		add(m, "SPI=0x%x ", be32(eh));
		break;
	}
	default:
		add(m, "PROTO=%u ", proto);
	}
	if ((flags & LOG_F_UID) && !iphoff && p->rec->has_uid)
		add(m, "UID=%u GID=%u ", p->rec->uid, p->rec->gid);
	if (!iphoff && p->rec->mark)
		add(m, "MARK=0x%x ", p->rec->mark);
}

/* nf_ip6_ext_hdr() */
static bool ip6_ext(uint8_t h)
{
	return h == 0 || h == 43 || h == 44 || h == 50 || h == 51 || h == 59 ||
	       h == 60;
}

/* dump_ipv6_packet() */
static void dump_ipv6(struct lbuf *m, const struct pkt *p, unsigned int flags,
		      uint32_t ip6hoff, int recurse)
{
	const uint8_t *ih = hdr(p, ip6hoff, 40);
	unsigned int hdrlen = 0, ptr;
	uint32_t w;
	int fragment = 0;
	uint8_t cur;

	if (!ih) {
		add(m, "TRUNCATED");
		return;
	}
	add(m, "SRC=");
	add_ip6(m, ih + 8);
	add(m, " DST=");
	add_ip6(m, ih + 24);
	add(m, " ");
	w = be32(ih);
	add(m, "LEN=%u TC=%u HOPLIMIT=%u FLOWLBL=%u ", be16(ih + 4) + 40u,
	    (w & 0x0ff00000) >> 20, ih[7], w & 0x000fffff);
	ptr = ip6hoff + 40;
	cur = ih[6];
	while (cur != 59 && ip6_ext(cur)) {
		const uint8_t *hp = hdr(p, ptr, 8);

		if (!hp) {
			add(m, "TRUNCATED");
			return;
		}
		if (flags & LOG_F_IPOPT)
			add(m, "OPT ( ");
		switch (cur) {
		case 44:	/* fragment */
			add(m, "FRAG:");
			add(m, "%u ", be16(hp + 2) & 0xfff8);
			if (hp[3] & 0x01)
				add(m, "INCOMPLETE ");
			add(m, "ID:%08x ", be32(hp + 4));
			if (be16(hp + 2) & 0xfff8)
				fragment = 1;
			hdrlen = 8;
			break;
		case 60:	/* destination options */
		case 43:	/* routing */
		case 0:		/* hop-by-hop */
			if (fragment) {
				if (flags & LOG_F_IPOPT)
					add(m, ")");
				return;
			}
			hdrlen = (hp[1] + 1u) << 3;
			break;
		case 51:	/* AH */
			if (flags & LOG_F_IPOPT) {
				const uint8_t *ah;

				add(m, "AH ");
				if (fragment) {
					add(m, ")");
					return;
				}
				ah = hdr(p, ptr, 12);
				if (!ah) {
					add(m, "INCOMPLETE [%u bytes] )", p->len - ptr);
					return;
				}
				add(m, "SPI=0x%x ", be32(ah + 4));
			}
			hdrlen = (hp[1] + 2u) << 2;
			break;
		case 50:	/* ESP */
			if (flags & LOG_F_IPOPT) {
				const uint8_t *eh;

				add(m, "ESP ");
				if (fragment) {
					add(m, ")");
					return;
				}
				eh = hdr(p, ptr, 8);
				if (!eh) {
					add(m, "INCOMPLETE [%u bytes] )", p->len - ptr);
					return;
				}
				add(m, "SPI=0x%x )", be32(eh));
			}
			return;
		default:
			add(m, "Unknown Ext Hdr %u", cur);
			return;
		}
		if (flags & LOG_F_IPOPT)
			add(m, ") ");
		cur = hp[0];
		ptr += hdrlen;
	}
	switch (cur) {
	case NF_IPPROTO_TCP:
		if (dump_tcp(m, p, fragment, ptr, flags))
			return;
		break;
	case NF_IPPROTO_UDP:
	case NF_IPPROTO_UDPLITE:
		if (dump_udp(m, p, cur, fragment, ptr))
			return;
		break;
	case NF_IPPROTO_ICMPV6: {
		const uint8_t *ic;

		add(m, "PROTO=ICMPv6 ");
		if (fragment)
			break;
		ic = hdr(p, ptr, 8);
		if (!ic) {
			add(m, "INCOMPLETE [%u bytes] ", p->len - ptr);
			return;
		}
		add(m, "TYPE=%u CODE=%u ", ic[0], ic[1]);
		switch (ic[0]) {
		case 128:	/* echo request */
		case 129:	/* echo reply */
			add(m, "ID=%u SEQ=%u ", be16(ic + 4), be16(ic + 6));
			break;
		case 130:	/* MLD query, report, done */
		case 131:
		case 132:
			break;
		case 4:		/* parameter problem */
			add(m, "POINTER=%08x ", be32(ic + 4));
			/* fallthrough */
		case 1:		/* destination unreachable */
		case 2:		/* packet too big */
		case 3:		/* time exceeded */
			if (recurse) {
				add(m, "[");
				dump_ipv6(m, p, flags, ptr + 8, 0);
				add(m, "] ");
			}
			if (ic[0] == 2)
				add(m, "MTU=%u ", be32(ic + 4));
		}
		break;
	}
	default:
		add(m, "PROTO=%u ", cur);
	}
	if ((flags & LOG_F_UID) && recurse && p->rec->has_uid)
		add(m, "UID=%u GID=%u ", p->rec->uid, p->rec->gid);
	if (recurse && p->rec->mark)
		add(m, "MARK=0x%x ", p->rec->mark);
}

/* the ethernet header decoded (NF_LOG_MACDECODE on an ARPHRD_ETHER
 * skb->dev), if the mac header is set and holds one */
static void mac_decode(struct lbuf *m, const struct codegen_log_rec *rec)
{
	if (!(rec->pktflags & PKT_LL) || rec->mac_hdr_len < 14)
		return;
	add(m, "MACSRC=");
	add_mac(m, rec->mac + 6);
	add(m, " MACDST=");
	add_mac(m, rec->mac);
	add(m, " ");
	if (rec->vlan_all)	/* nf_log_dump_vlan() */
		add(m, "VPROTO=%04x VID=%u ",
		    be16toh((uint16_t)(rec->vlan_all & 0xffff)),
		    rec->vlan_all >> 16);
	add(m, "MACPROTO=%04x ", be16(rec->mac + 12));
}

/* dump_mac_header(): skb->dev is the input device at the hooks with one;
 * in tc programs (netdev, bridge: nf_log_unknown_packet() calls it with
 * no input device too) it is what the record holds as the device */
static void dump_mac(struct lbuf *m, const struct codegen_log_rec *rec)
{
	bool ll = rec->pktflags & PKT_LL;
	unsigned int i, n;

	if ((rec->logflags & LOG_F_MACDECODE) && rec->dev_type == ARPHRD_ETHER) {
		mac_decode(m, rec);
		return;
	}
	add(m, "MAC=");
	if (rec->hard_header_len && ll) {
		n = rec->hard_header_len < LOG_REC_MAC ? rec->hard_header_len :
							 LOG_REC_MAC;
		add(m, "%02x", rec->mac[0]);
		for (i = 1; i < n; i++)
			add(m, ":%02x", rec->mac[i]);
	}
	add(m, " ");
}

/* dump_arp_packet(): the ARP header at @p->nhoff */
static void dump_arp(struct lbuf *m, const struct pkt *p)
{
	const struct codegen_log_rec *rec = p->rec;
	const uint8_t *ah = hdr(p, p->nhoff, 8), *ap;

	if (!ah) {
		add(m, "TRUNCATED");
		return;
	}
	if ((rec->logflags & LOG_F_MACDECODE) && rec->has_dev &&
	    rec->dev_type == ARPHRD_ETHER)
		mac_decode(m, rec);
	add(m, "ARP HTYPE=%d PTYPE=0x%04x OPCODE=%d", be16(ah), be16(ah + 2),
	    be16(ah + 6));
	/* the payload of ethernet/IPv4 ARP only: hardware type 1, address
	 * lengths 6 and 4 */
	if (be16(ah) != ARPHRD_ETHER || ah[4] != 6 || ah[5] != 4)
		return;
	ap = hdr(p, p->nhoff + 8, 20);
	if (!ap) {
		/* the kernel's count: skb->len less the ARP header alone */
		add(m, " INCOMPLETE [%u bytes]", p->len - 8);
		return;
	}
	add(m, " MACSRC=");
	add_mac(m, ap);
	add(m, " IPSRC=");
	add_ip4(m, ap + 6);
	add(m, " MACDST=");
	add_mac(m, ap + 10);
	add(m, " IPDST=");
	add_ip4(m, ap + 16);
}

#define NF_PROTO_ARP	3
#define NF_PROTO_NETDEV	5
#define NF_PROTO_BRIDGE	7
#define ETH_P_IP_	0x0800
#define ETH_P_IPV6_	0x86dd
#define ETH_P_ARP_	0x0806
#define ETH_P_RARP_	0x8035

/* nf_log_netdev_packet() (netdev and bridge): by skb->protocol */
static void dump_l2(struct lbuf *m, const struct pkt *p)
{
	const struct codegen_log_rec *rec = p->rec;
	bool in = rec->in[0] && rec->has_dev;

	switch (be16toh(rec->protocol)) {
	case ETH_P_IP_:		/* nf_log_ip_packet() */
		if (in)
			dump_mac(m, rec);
		dump_ipv4(m, p, rec->logflags, p->nhoff);
		break;
	case ETH_P_IPV6_:	/* nf_log_ip6_packet() */
		if (in)
			dump_mac(m, rec);
		dump_ipv6(m, p, rec->logflags, p->nhoff, 1);
		break;
	case ETH_P_ARP_:	/* nf_log_arp_packet() */
	case ETH_P_RARP_:
		dump_arp(m, p);
		break;
	default:		/* nf_log_unknown_packet() */
		if (rec->has_dev)
			dump_mac(m, rec);
	}
}

#define ETH_P_8021Q_	0x8100
#define ETH_P_PPP_SES_	0x8864
#define PPP_IP_		0x21
#define PPP_IPV6_	0x57

/*
 * brnf_took - did br_nf_pre_routing() take this frame (and give it the
 * physindev PHYSIN= prints)? IPv6 first, then IPv4: untagged by
 * skb->protocol; in a VLAN (a tag in skb->vlan_all, or in the frame:
 * skb->protocol 802.1Q, the inner type 2 bytes into the network header)
 * only with bridge-nf-filter-vlan-tagged; in PPPoE session frames (the
 * PPP protocol 6 bytes in) only with bridge-nf-filter-pppoe-tagged; and
 * each with its bridge-nf-call-ip(6)tables or the bridge's option
 */
static bool brnf_took(const struct pkt *p)
{
	const struct codegen_log_rec *rec = p->rec;
	uint16_t proto = be16toh(rec->protocol), vproto = 0, pproto = 0;
	bool tagged = rec->vlan_all != 0;
	const uint8_t *b;

	if (tagged)
		vproto = proto;
	else if (proto == ETH_P_8021Q_ && (b = hdr(p, p->nhoff + 2, 2)))
		vproto = be16(b);
	if (!(rec->br_opts & LOG_BR_FILTER_VLAN))
		vproto = 0;
	if (proto == ETH_P_PPP_SES_ && (rec->br_opts & LOG_BR_FILTER_PPPOE) &&
	    (b = hdr(p, p->nhoff + 6, 2)))
		pproto = be16(b);
	if ((!tagged && proto == ETH_P_IPV6_) || vproto == ETH_P_IPV6_ ||
	    pproto == PPP_IPV6_)
		return rec->br_opts & LOG_BROPT_NF_CALL_IP6TABLES;
	if (!(rec->br_opts & LOG_BROPT_NF_CALL_IPTABLES))
		return false;
	return (!tagged && proto == ETH_P_IP_) || vproto == ETH_P_IP_ ||
	       pproto == PPP_IP_;
}

/* ebt_log.c print_ports(): the two ports of TCP, UDP, UDP-Lite, SCTP and
 * DCCP at @off */
static void ebt_ports(struct lbuf *m, const struct pkt *p, uint8_t proto,
		      uint32_t off)
{
	const uint8_t *pp;

	if (proto != NF_IPPROTO_TCP && proto != NF_IPPROTO_UDP &&
	    proto != NF_IPPROTO_UDPLITE && proto != 132 && proto != 33)
		return;
	pp = hdr(p, p->nhoff + off, 4);
	if (!pp) {
		add(m, " INCOMPLETE TCP/UDP header");
		return;
	}
	add(m, " SPT=%u DPT=%u", be16(pp), be16(pp + 2));
}

/*
 * ipv6_skip_exthdr() from @off with next header @nh: the offset of the
 * first header that is no extension header (ESP is none), -1 at
 * NEXTHDR_NONE or a header past the copy; a fragment header that is not
 * the first fragment stops the walk there, next header 44
 */
static long ebt_skip_exthdr(const struct pkt *p, uint32_t off, uint8_t *nh)
{
	uint8_t h = *nh;

	while (h == 0 || h == 43 || h == 44 || h == 51 || h == 59 || h == 60) {
		const uint8_t *hp;
		uint32_t len;

		if (h == 59)
			return -1;
		hp = hdr(p, p->nhoff + off, 2);
		if (!hp)
			return -1;
		if (h == 44) {
			const uint8_t *fo = hdr(p, p->nhoff + off + 2, 2);

			if (!fo)
				return -1;
			if (be16(fo) & ~7)
				break;
			len = 8;
		} else if (h == NF_IPPROTO_AH) {
			len = (hp[1] + 2u) << 2;
		} else {
			len = (hp[1] + 1u) << 3;
		}
		h = hp[0];
		off += len;
	}
	*nh = h;
	return off;
}

#define EBT_LOG_IP	0x01
#define EBT_LOG_ARP	0x02
#define EBT_LOG_IP6	0x08

/* ebt_log_packet(): the ethernet header (eth_hdr()), then by its type
 * and the watcher's bitmask the IPv4, IPv6 or ARP header at skb->data */
static void ebt_format(struct lbuf *m, const struct pkt *p, const char *prefix)
{
	const struct codegen_log_rec *rec = p->rec;
	uint16_t proto = be16(rec->mac + 12);
	const uint8_t *h;

	add(m, "\001%c%s IN=%s OUT=%s MAC source = ", '0' + rec->level, prefix,
	    rec->in, rec->out);
	add_mac(m, rec->mac + 6);
	add(m, " MAC dest = ");
	add_mac(m, rec->mac);
	add(m, " proto = 0x%04x", proto);
	if ((rec->logflags & EBT_LOG_IP) && proto == ETH_P_IP_) {
		h = hdr(p, p->nhoff, 20);
		if (!h) {
			add(m, " INCOMPLETE IP header");
			return;
		}
		add(m, " IP SRC=");
		add_ip4(m, h + 12);
		add(m, " IP DST=");
		add_ip4(m, h + 16);
		add(m, ", IP tos=0x%02X, IP proto=%d", h[1], h[9]);
		ebt_ports(m, p, h[9], (h[0] & 0xfu) * 4);
		return;
	}
	if ((rec->logflags & EBT_LOG_IP6) && proto == ETH_P_IPV6_) {
		uint8_t nh;
		long off;

		h = hdr(p, p->nhoff, 40);
		if (!h) {
			add(m, " INCOMPLETE IPv6 header");
			return;
		}
		add(m, " IPv6 SRC=");
		add_ip6(m, h + 8);
		add(m, " IPv6 DST=");
		add_ip6(m, h + 24);
		/* ipv6hdr.priority: the low nibble of the first byte */
		add(m, ", IPv6 priority=0x%01X, Next Header=%d", h[0] & 0xf, h[6]);
		nh = h[6];
		off = ebt_skip_exthdr(p, 40, &nh);
		if (off >= 0)
			ebt_ports(m, p, nh, (uint32_t)off);
		return;
	}
	if ((rec->logflags & EBT_LOG_ARP) &&
	    (proto == ETH_P_ARP_ || proto == ETH_P_RARP_)) {
		h = hdr(p, p->nhoff, 8);
		if (!h) {
			add(m, " INCOMPLETE ARP header");
			return;
		}
		add(m, " ARP HTYPE=%d, PTYPE=0x%04x, OPCODE=%d", be16(h),
		    be16(h + 2), be16(h + 6));
		if (be16(h) != ARPHRD_ETHER || h[4] != 6 || h[5] != 4)
			return;
		h = hdr(p, p->nhoff + 8, 20);
		if (!h) {
			add(m, " INCOMPLETE ARP payload");
			return;
		}
		add(m, " ARP MAC SRC=");
		add_mac(m, h);
		add(m, " ARP IP SRC=");
		add_ip4(m, h + 6);
		add(m, " ARP MAC DST=");
		add_mac(m, h + 10);
		add(m, " ARP IP DST=");
		add_ip4(m, h + 16);
	}
}

size_t offload_log_format(const struct codegen_log_rec *rec, const char *prefix,
			  char *line, size_t size)
{
	struct lbuf m = { 0 };
	struct pkt p = {
		.rec = rec, .d = rec->data, .len = rec->len, .nhoff = rec->nhoff,
		.caplen = rec->caplen < LOG_REC_DATA ? rec->caplen : LOG_REC_DATA,
	};

	if (rec->ebt) {
		ebt_format(&m, &p, prefix);
		m.buf[m.count] = '\0';
		return (size_t)snprintf(line, size, "%s", m.buf + 2);
	}

	/* nf_log_dump_packet_common(): KERN_SOH, level, prefix, devices;
	 * br_netfilter's physindev where it differs from the input device:
	 * a forwarded IPv4/IPv6 frame br_nf_pre_routing() took (its
	 * bridge-nf-call-iptables/ip6tables or the bridge's option on) */
	add(&m, "\001%c%sIN=%s OUT=%s ", '0' + rec->level, prefix, rec->in,
	    rec->out);
	if (rec->pf == NF_PROTO_BRIDGE && rec->physin[0] &&
	    strncmp(rec->physin, rec->in, sizeof(rec->in)) && brnf_took(&p))
		add(&m, "PHYSIN=%.16s ", rec->physin);
	switch (rec->pf) {
	case NF_PROTO_ARP:	/* nf_log_arp_packet() */
		dump_arp(&m, &p);
		break;
	case NF_PROTO_NETDEV:
	case NF_PROTO_BRIDGE:
		dump_l2(&m, &p);
		break;
	default:
		if (rec->pktflags & PKT_HAS_IN && rec->has_dev)
			dump_mac(&m, rec);
		if (rec->pf == 10)
			dump_ipv6(&m, &p, rec->logflags, p.nhoff, 1);
		else
			dump_ipv4(&m, &p, rec->logflags, p.nhoff);
	}
	m.buf[m.count] = '\0';
	/* the line printk stores: without KERN_SOH and the level */
	return (size_t)snprintf(line, size, "%s", m.buf + 2);
}

/* ---- the namespaces' records, as lines and NFLOG packets ---- */

struct poll_ctx {
	void (*emit)(void *arg, int level, const char *line);
	void (*nflog)(void *arg, struct net *net, const struct dp_nflog *pkt);
	void *arg;
	struct net *net;
	int n;
};

#define ARPHRD_LOOPBACK	772

/* nflog_pkt - the NFLOG record @rec as nfnetlink_log reads the skb */
static void nflog_pkt(const struct codegen_log_rec *rec, const char *prefix,
		      struct dp_nflog *pkt)
{
	bool ll = rec->has_dev && (rec->pktflags & PKT_LL);

	memset(pkt, 0, sizeof(*pkt));
	pkt->group = rec->group;
	pkt->qthreshold = rec->qthreshold;
	pkt->pf = rec->pf;
	pkt->hook = rec->hook;
	pkt->protocol = rec->protocol;
	pkt->mark = rec->mark;
	pkt->iif = rec->pktflags & PKT_HAS_IN ? rec->iif : 0;
	pkt->oif = rec->pktflags & PKT_HAS_OUT ? rec->oif : 0;
	if (rec->pf == NF_PROTO_BRIDGE) {
		/* a bridge hook's devices (0: none), not the tc hook's */
		pkt->iif = rec->iif;
		pkt->oif = rec->oif;
		pkt->br_iif = rec->br_iif;
		pkt->br_oif = rec->br_oif;
	}
	if (pkt->iif && ll) {
		pkt->has_hw = true;
		pkt->hwtype = rec->dev_type;
		pkt->hwlen = rec->hard_header_len;
		pkt->hwheader = rec->hard_header_len <= LOG_REC_MAC ? rec->mac : NULL;
		/* dev_parse_header(): eth_header_parse() gives the source */
		if ((rec->dev_type == ARPHRD_ETHER ||
		     rec->dev_type == ARPHRD_LOOPBACK) && rec->mac_hdr_len > 0) {
			pkt->hwaddr = rec->mac + 6;
			pkt->hwaddr_len = 6;
		}
	}
	/* nfulnl_put_bridge(): netdev and bridge; the mac header set and
	 * not empty (PKT_LL) is what the record tells */
	if ((rec->pf == NF_PROTO_NETDEV || rec->pf == NF_PROTO_BRIDGE) &&
	    (rec->pktflags & PKT_LL) && rec->mac_hdr_len > 0) {
		pkt->has_l2 = true;
		pkt->vlan_all = rec->vlan_all;
		pkt->l2len = (uint16_t)rec->mac_hdr_len;
		pkt->l2hdr = rec->mac_hdr_len <= LOG_REC_MAC ? rec->mac : NULL;
	}
	pkt->tstamp_ns = rec->tstamp;
	if (!pkt->tstamp_ns) {
		/* the time of day of CLOCK_TAI's rec->tai_ns */
		struct timespec tai, real;

		clock_gettime(CLOCK_TAI, &tai);
		clock_gettime(CLOCK_REALTIME, &real);
		pkt->tstamp_ns = rec->tai_ns -
				 ((uint64_t)tai.tv_sec * 1000000000u + tai.tv_nsec) +
				 ((uint64_t)real.tv_sec * 1000000000u + real.tv_nsec);
	}
	pkt->has_uid = rec->has_uid;
	pkt->uid = rec->uid;
	pkt->gid = rec->gid;
	pkt->len = rec->len;
	pkt->caplen = rec->caplen;
	pkt->data = rec->data;
	pkt->prefix = prefix;
}

/* offload_in_netns() callback: bridge-nf-call-iptables/ip6tables and
 * bridge-nf-filter-vlan/pppoe-tagged of this netns as LOG_BROPT_NF_CALL_*
 * and LOG_BR_FILTER_* bits (br_netfilter's per-netns switches) */
static int read_nf_call(void *arg)
{
	static const char *const path[4] = {
		"/proc/sys/net/bridge/bridge-nf-call-iptables",
		"/proc/sys/net/bridge/bridge-nf-call-ip6tables",
		"/proc/sys/net/bridge/bridge-nf-filter-vlan-tagged",
		"/proc/sys/net/bridge/bridge-nf-filter-pppoe-tagged",
	};
	static const uint32_t bit[4] = {
		LOG_BROPT_NF_CALL_IPTABLES, LOG_BROPT_NF_CALL_IP6TABLES,
		LOG_BR_FILTER_VLAN, LOG_BR_FILTER_PPPOE,
	};
	uint32_t *opts = arg;
	int i;

	for (i = 0; i < 4; i++) {
		char c = '0';
		int fd = open(path[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (read(fd, &c, 1) == 1 && c != '0')
			*opts |= bit[i];
		close(fd);
	}
	return 0;
}

static void emit_record(void *arg, const struct codegen_log_rec *rec,
			const char *prefix, bool allowed)
{
	struct poll_ctx *pc = arg;
	char line[LBUF_SIZE + 1];
	struct codegen_log_rec copy;

	if (rec->nflog) {
		struct dp_nflog pkt;

		if (!pc->nflog)
			return;
		nflog_pkt(rec, prefix, &pkt);
		pc->nflog(pc->arg, pc->net, &pkt);
		pc->n++;
		return;
	}
	if (!allowed)	/* nf_log_allowed(): host netns or nf_log_all_netns */
		return;
	if (rec->pf == NF_PROTO_BRIDGE && rec->physin[0] && pc->net) {
		/* PHYSIN= also depends on the netns' br_netfilter switches */
		memcpy(&copy, rec, sizeof(copy));
		offload_in_netns(pc->net->ns_fd, read_nf_call, &copy.br_opts);
		rec = &copy;
	}
	offload_log_format(rec, prefix, line, sizeof(line));
	pc->emit(pc->arg, rec->level, line);
	pc->n++;
}

int dataplane_log_poll(void (*emit)(void *arg, int level, const char *line),
		       void (*nflog)(void *arg, struct net *net,
				     const struct dp_nflog *pkt),
		       void *arg)
{
	struct epoll_event evs[16];
	struct poll_ctx pc = { .emit = emit, .nflog = nflog, .arg = arg };
	int i, n, epfd = dataplane_log_fd();

	if (epfd < 0)
		return epfd;
	n = epoll_wait(epfd, evs, 16, 0);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		pc.net = dp_log_net(evs[i].data.ptr);
		dp_log_consume(evs[i].data.ptr, emit_record, &pc);
	}
	return pc.n;
}
