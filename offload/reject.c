// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject.c - the userspace half of the reject expression and the xt REJECT
 * target: build the TCP reset or ICMP/ICMPv6 error the kernel's nf_reject
 * code would send (net/ipv4/netfilter/nf_reject_ipv4.c, net/ipv6/netfilter/
 * nf_reject_ipv6.c, icmp_send(), icmp6_send()) and send it from the
 * namespace of the rejected packet.
 *
 * Design. A BPF_PROG_TYPE_NETFILTER program can only return a verdict: it
 * cannot allocate and transmit a packet. So the program returns NF_DROP
 * (the verdict never depends on the daemon) and pushes one struct
 * codegen_reject_rec into the namespace's reject ring buffer, as the log
 * expression pushes its records: the hook, pf, devices, mark, the reject
 * type and code, skb->len and the first REJECT_REC_DATA bytes from the
 * network header (the longest quote an ICMPv6 error carries). nfbpfd
 * consumes the ring from its event loop, checks what the kernel checks
 * (no RST for a RST, no ICMP error about an ICMP error, a non-first
 * fragment, a broadcast or multicast), builds the transport part of the
 * reply (offload_reject_build(), a pure function the unit tests check
 * against replies captured from the kernel) and sends it through raw
 * sockets opened once in that namespace, so the reply takes the OUTPUT
 * path as ip_local_out()/ip6_local_out() would: the namespace's routes,
 * OUTPUT hooks (nfbpf's own included), TTL/hop limit from the route or
 * sysctl, IP ID from the kernel.
 *
 * What differs from the kernel:
 * - the reply leaves asynchronously, microseconds after the drop, from
 *   the daemon's event loop; if the ring buffer (REJECT_RING_SIZE) is full
 *   or nfbpfd is not running, the packet is still dropped but not answered;
 * - checksums of the rejected packet are verified as the kernel does
 *   (nf_ip_checksum()/nf_ip6_checksum() for CHECKSUM_NONE/COMPLETE, from
 *   skb->ip_summed in the record), but only when the record holds the
 *   whole packet (up to REJECT_REC_DATA bytes); a longer one counts as
 *   good;
 * - the reply is not attached to the rejected packet's conntrack entry
 *   (nf_ct_attach()), so the kernel's conntrack tracks it as a packet of
 *   its own: a RST of a first packet is INVALID to it (no entry made), an
 *   ICMP error about one too (its entry was never confirmed), and a RST or
 *   ICMP error about a packet of a confirmed entry is looked up in that
 *   entry (the RST counts in its counters and moves its TCP state as a
 *   received RST would, where the kernel's nf_ct_set_closing() just sets
 *   CLOSE). nfbpf's own walker does not see that: while nfbpfd sends a
 *   reply, the walker shows it the copy of the rejected packet's nf_conn
 *   that the program put in the record, with ctinfo IP_CT_RELATED(_REPLY),
 *   as the kernel's OUTPUT and POSTROUTING rules see theirs (struct
 *   codegen_reject_ct); a reply to ourselves, back in over loopback
 *   without its socket, is known in PREROUTING and INPUT by its bytes
 *   (the last reply sent; one whose softirq runs after the next reply
 *   was sent shows the kernel conntrack's view). What the kernel's
 *   conntrack itself does with the reply stays different: measured on a
 *   confirmed TCP entry, the kernel's RST leaves it CLOSE (nf_ct_set_
 *   closing()) with its counters as they were, nfbpfd's RST also moves it
 *   to CLOSE (in window) but counts in its reply direction (packets +1,
 *   bytes +40 with nf_conntrack_acct); first packets leave no entry either
 *   way;
 * - the ICMP rate limits follow the kernel's per-peer token bucket for
 *   the types in the namespace's icmp_ratemask / icmp/ratemask (6 at
 *   once, then one per icmp_ratelimit / icmp/ratelimit ms, not scaled by
 *   the route's prefix length for IPv6), in a table of PEERS slots; the
 *   host-wide icmp_msgs_per_sec bucket is not shared with the kernel's;
 *   replies to the host itself (OUTPUT) are not limited, as loopback is
 *   not;
 * - IPv4 options are echoed into ICMP errors as __ip_options_echo() makes
 *   them from IPCB(skb)->opt (the options compiled on receipt, which the
 *   record carries), given to the socket with IP_RETOPTS, whose
 *   ip_options_compile() and ip_options_build() then fill the RR and TS
 *   slots and route by a source route's first hop as icmp_send() does; a
 *   timestamp option whose prespecified address does not fit keeps a
 *   pointer past its end (the socket form refuses it, the echo copies
 *   it), and one whose overflow count the receipt made 15 says 14 (the
 *   socket form refuses 15): the same length, one byte apart;
 *   fwmark_reflect and
 *   icmp_errors_use_inbound_ifaddr are not applied (the reply has mark 0,
 *   a forwarded packet's error the routing's source address);
 * - "is the destination local/broadcast" is decided from the addresses,
 *   pkt_type, an RTM_GETROUTE of the destination (IPv4) and the kernel's
 *   refusal of a foreign source, not from skb_rtable(skb)->rt_flags.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "codegen/codegen.h"
#include "offload/offload.h"
#include "expr/reject.h"

#define REJECT_RING_SIZE	(256 * 1024)	/* ~140 records per namespace */

#define NFPROTO_IPV4_	2
#define NFPROTO_IPV6_	10
#define HOOK_LOCAL_OUT		3
#define PACKET_HOST_		0
#define ICMP_DEST_UNREACH_	3
#define ICMPV6_DEST_UNREACH_	1

#define IP_CT_RELATED_		1
#define IP_CT_IS_REPLY_		3
#define IP_CT_RELATED_REPLY_	4
#ifndef SO_COOKIE
#define SO_COOKIE		57
#endif

#define XRLIM_BURST		6	/* XRLIM_BURST_FACTOR */
#define XRLIM_TIMEOUT_MS	1000	/* icmp_ratelimit, icmpv6 ratelimit */
#define PEERS			256	/* rate-limit slots per namespace */

/**
 * struct reject_peer - one rate-limited destination (inet_peer rate_*)
 * @pf: 0 = free slot
 * @addr: the peer (the rejected packet's source)
 * @tokens: ms of credit
 * @last: ms timestamp of the last update
 */
struct reject_peer {
	uint8_t pf;
	uint8_t addr[16];
	uint64_t tokens, last;
};

/**
 * struct dp_reject - reject state of one namespace's dataplane
 * @map_fd: BPF_MAP_TYPE_RINGBUF the programs write
 * @ns_fd: the namespace (owned dup), where the sockets are opened
 * @fd: raw sockets in that namespace, opened on first use: IPv4 TCP
 *	(IP_TRANSPARENT: a RST leaves from the rejected packet's
 *	destination), IPv4 ICMP, IPv6 TCP, IPv6 ICMPv6; -1 = not yet
 * @rtnl: NETLINK_ROUTE socket in that namespace (route type of an address)
 * @open_err: opening them failed once: never retried (-errno)
 * @sysctl: that namespace's icmp_ratemask, icmp_ratelimit, ipv6
 *	    icmp/ratemask, icmp/ratelimit (opened with the sockets; read
 *	    per reply, -1 = absent: the defaults)
 * @peers: ICMP rate limits
 * @sent: replies sent
 * @lost: replies that could not be sent (socket errors)
 * @ct_fd: ARRAY (mmapable), the struct codegen_reject_ct the walker reads
 * @ct: its value, mapped
 * @cookies: @ct->cookie holds the four sockets' cookies
 */
struct dp_reject {
	int map_fd;
	int ns_fd;
	int fd[4];
	int rtnl;
	int open_err;
	int sysctl[4];
	struct reject_peer peers[PEERS];
	uint64_t sent, lost;
	int ct_fd;
	struct codegen_reject_ct *ct;
	bool cookies;
};

enum { SK_TCP4, SK_ICMP4, SK_TCP6, SK_ICMP6 };
enum { RL_MASK4, RL_TIME4, RL_MASK6, RL_TIME6 };

static const char *const sysctl_path[4] = {
	"/proc/sys/net/ipv4/icmp_ratemask",
	"/proc/sys/net/ipv4/icmp_ratelimit",
	"/proc/sys/net/ipv6/icmp/ratemask",
	"/proc/sys/net/ipv6/icmp/ratelimit",
};

/* ---- the reply: pure functions of the record ---- */

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = v >> 8;
	b[1] = v & 0xff;
}

static void put32(uint8_t *b, uint32_t v)
{
	put16(b, v >> 16);
	put16(b + 2, v & 0xffff);
}

static uint32_t csum_add(uint32_t sum, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += be16(b + i);
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* the transport checksum over @r->msg with the pseudo header of @r */
static uint16_t l4_csum(const struct reject_reply *r)
{
	size_t alen = r->pf == NFPROTO_IPV6_ ? 16 : 4;
	uint32_t sum = 0;

	sum = csum_add(sum, r->src, alen);
	sum = csum_add(sum, r->dst, alen);
	sum += r->proto + r->len;
	return csum_fold(csum_add(sum, r->msg, r->len));
}

#define CHECKSUM_UNNECESSARY_	1
#define CHECKSUM_PARTIAL_	3

/* skb_csum_unnecessary() of the rejected packet (unknown: yes) */
static bool csum_unnecessary(const struct codegen_reject_rec *rec)
{
	uint8_t s = rec->csum & 3;

	return !(rec->csum & REJECT_CSUM_KNOWN) || s == CHECKSUM_UNNECESSARY_ ||
	       s == CHECKSUM_PARTIAL_ || (rec->csum & 4);
}

/*
 * nf_reject_verify_csum(): does @proto at @thoff carry a checksum of its
 * whole payload? (UDP: unless its checksum is 0)
 */
static bool verify_csum(const struct codegen_reject_rec *rec, uint32_t thoff,
			uint8_t proto)
{
	switch (proto) {
	case 17:	/* UDP */
		return thoff + 8 > rec->caplen ||
		       rec->data[thoff + 6] || rec->data[thoff + 7];
	case 51:	/* AH */
	case 50:	/* ESP */
	case 132:	/* SCTP */
	case 136:	/* UDP-Lite */
	case 33:	/* DCCP */
	case 47:	/* GRE */
		return false;
	}
	return true;
}

/*
 * nf_ip_checksum() / nf_ip6_checksum() == 0 for the transport part at
 * @thoff: only CHECKSUM_NONE and CHECKSUM_COMPLETE packets are summed (in
 * software here, which is what COMPLETE must agree with); IPv4 sums the
 * whole packet from the IP header, with the pseudo header for TCP and UDP
 * only; IPv6 sums from @thoff with the pseudo header. A packet longer
 * than the record's copy counts as good.
 */
static bool l4_sum_ok(const struct codegen_reject_rec *rec, uint32_t thoff,
		      uint8_t proto)
{
	uint8_t s = rec->csum & 3;
	uint32_t sum = 0, n;

	if (!(rec->csum & REJECT_CSUM_KNOWN) || s == CHECKSUM_UNNECESSARY_ ||
	    s == CHECKSUM_PARTIAL_ || rec->caplen < rec->len || thoff > rec->len)
		return true;
	n = rec->len - thoff;
	if (rec->pf == NFPROTO_IPV6_) {
		sum = csum_add(sum, rec->data + 8, 32);
		sum += (n >> 16) + (n & 0xffff) + proto;
		sum = csum_add(sum, rec->data + thoff, n);
	} else {
		if (proto == 6 || proto == 17) {
			sum = csum_add(sum, rec->data + 12, 8);
			sum += n + proto;
		}
		sum = csum_add(sum, rec->data, rec->len);
	}
	return csum_fold(sum) == 0;
}

/* an IPv4 unicast address a reply may go to or come from */
static bool ip4_unicast(const uint8_t *a)
{
	return a[0] < 224 && !(a[0] == 0);
}

/* ipv6_addr_type(): neither multicast nor unspecified */
static bool ip6_unicast(const uint8_t *a)
{
	static const uint8_t any[16];

	return a[0] != 0xff && memcmp(a, any, 16);
}

static bool ip6_linklocal(const uint8_t *a)
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/*
 * ipv6_skip_exthdr(): the transport offset and protocol of an IPv6 packet
 * (-1: truncated or no next header); *@frag = the fragment offset field
 * & ~7 of a fragment header (non-first fragment: the walk stops there)
 */
static int ip6_skip(const uint8_t *d, uint32_t caplen, uint8_t *proto,
		    uint16_t *frag)
{
	uint32_t off = 40;
	uint8_t nh = d[6];

	*frag = 0;
	for (;;) {
		uint32_t hlen;

		switch (nh) {
		case 0:		/* hop-by-hop */
		case 43:	/* routing */
		case 60:	/* destination options */
		case 44:	/* fragment */
		case 51:	/* AH */
			break;
		case 59:	/* no next header */
			return -1;
		default:
			*proto = nh;
			return (int)off;
		}
		if (off + 8 > caplen)
			return -1;
		if (nh == 44) {
			*frag = be16(d + off + 2) & ~7u;
			if (*frag) {
				*proto = nh;
				return (int)off;
			}
			hlen = 8;
		} else if (nh == 51) {
			hlen = (d[off + 1] + 2u) << 2;
		} else {
			hlen = (d[off + 1] + 1u) << 3;
		}
		nh = d[off];
		off += hlen;
	}
}

/*
 * nf_reject_ip_tcphdr_put() / nf_reject_ip6_tcphdr_put(): the RST for the
 * TCP header @th of a segment with @plen bytes from the TCP header on
 */
static void tcp_rst(struct reject_reply *r, const uint8_t *th, uint32_t plen)
{
	uint8_t *t = r->msg;
	uint32_t doff = (th[12] >> 4) * 4u;

	memset(t, 0, 20);
	memcpy(t, th + 2, 2);		/* source = their dest */
	memcpy(t + 2, th, 2);		/* dest = their source */
	t[12] = 5 << 4;
	if (th[13] & 0x10) {		/* ACK: seq = their ack_seq */
		memcpy(t + 4, th + 8, 4);
		t[13] = 0x04;
	} else {			/* ack what they sent, RST|ACK */
		put32(t + 8, be32(th + 4) + !!(th[13] & 0x02) +
			     !!(th[13] & 0x01) + plen - doff);
		t[13] = 0x14;
	}
	r->len = 20;
	r->proto = 6;
	put16(t + 16, l4_csum(r));
}

/* icmp_send()'s error message: type, code, unused, then the quote */
static void icmp_err(struct reject_reply *r, uint8_t type, uint8_t code,
		     const struct codegen_reject_rec *rec, uint32_t quote)
{
	uint32_t n = rec->caplen < quote ? rec->caplen : quote;

	memset(r->msg, 0, 8);
	r->msg[0] = type;
	r->msg[1] = code;
	memcpy(r->msg + 8, rec->data, n);
	r->len = (uint16_t)(8 + n);
}

/* nft_reject_icmp_code() / nft_reject_icmpv6_code() */
static uint8_t icmpx_code(uint8_t pf, uint8_t code)
{
	static const uint8_t v4[] = { 0, 3, 1, 13 };	/* net, port, host, filtered */
	static const uint8_t v6[] = { 0, 4, 3, 1 };	/* noroute, port, addr, adm */

	if (code > REJECT_ICMPX_MAX)
		return 0;
	return pf == NFPROTO_IPV6_ ? v6[code] : v4[code];
}

/* is ICMP type @t an error (icmp_pointers[].error), or unknown? */
static bool icmp4_error(uint8_t t)
{
	return t > 18 || t == 3 || t == 4 || t == 5 || t == 11 || t == 12;
}

#define IPOPT_END_	0
#define IPOPT_TS_PRESPEC_	3
#define SOPT_OPTLEN	0	/* struct codegen_reject_rec ipopt[] */
#define SOPT_SRR	1
#define SOPT_RR		2
#define SOPT_TS		3
#define SOPT_FLAGS	4
#define SOPT_CIPSO	6
#define SOPT_STRICT	0x01
#define SOPT_RR_ADDR	0x08
#define SOPT_TS_TIME	0x10
#define SOPT_TS_ADDR	0x20

/*
 * offload_reject_ipopt_echo: see offload.h. The echo (dopt) as the kernel
 * builds it, written in the socket form: a source route option [type,
 * len, 4, faddr, reversed route...] (the kernel's [type, len, 4, reversed
 * route..., daddr] with faddr, its first hop, in dopt->faddr), an RR or TS
 * pointer as it was before ip_options_compile() moves it past the slots
 * ip_options_build() fills.
 */
int offload_reject_ipopt_echo(const uint8_t *iph, uint32_t hlen,
			      const uint8_t *sopt, uint8_t *opts)
{
	uint32_t n = 0, optlen;
	int soffset, doffset;

	if (!sopt[SOPT_OPTLEN])
		return 0;
	/* an option must lie inside the header we have */
#define FITS(off) ((off) + 2u <= hlen && (off) + iph[(off) + 1] <= hlen)
	if (sopt[SOPT_RR]) {
		uint32_t o = sopt[SOPT_RR];

		if (!FITS(o))
			return -EINVAL;
		optlen = iph[o + 1];
		soffset = iph[o + 2];
		/* dptr[2] = soffset + 4 and rr_needaddr if there is room:
		 * the socket form keeps soffset, compile adds the 4 */
		if ((sopt[SOPT_FLAGS] & SOPT_RR_ADDR) && soffset <= (int)optlen &&
		    soffset + 3 > (int)optlen)
			return -EINVAL;
		memcpy(opts + n, iph + o, optlen);
		n += optlen;
	}
	if (sopt[SOPT_TS]) {
		uint32_t o = sopt[SOPT_TS];

		if (!FITS(o))
			return -EINVAL;
		optlen = iph[o + 1];
		soffset = iph[o + 2];
		memcpy(opts + n, iph + o, optlen);
		if (soffset <= (int)optlen) {
			int s = soffset;

			if (sopt[SOPT_FLAGS] & SOPT_TS_ADDR) {
				if (s + 3 > (int)optlen)
					return -EINVAL;
				s += 4;
			}
			if ((sopt[SOPT_FLAGS] & SOPT_TS_TIME) &&
			    s + 3 > (int)optlen)
				return -EINVAL;
			/* the socket form keeps the pointer: compile takes
			 * the same slots (a prespecified address's time only
			 * if it is not RTN_UNICAST, as the echo), but refuses
			 * a prespecified pair that does not fit, which the
			 * echo just copies: point past the end then */
			if ((iph[o + 3] & 0xf) == IPOPT_TS_PRESPEC_ &&
			    soffset + 7 > (int)optlen)
				opts[n + 2] = (uint8_t)(optlen + 1);
		} else if ((iph[o + 3] & 0xf) != IPOPT_TS_PRESPEC_ &&
			   (iph[o + 3] >> 4) == 15) {
			/* an overflow count of 15 (the receipt's increment)
			 * is refused by the socket form: 14 goes out */
			opts[n + 3] = (uint8_t)((iph[o + 3] & 0xf) | 0xe0);
		}
		n += optlen;
	}
	if (sopt[SOPT_SRR]) {
		const uint8_t *st = iph + sopt[SOPT_SRR];
		uint8_t faddr[4];

		if (!FITS(sopt[SOPT_SRR]))
			return -EINVAL;
		optlen = st[1];
		soffset = st[2];
		doffset = 0;
		if (soffset > (int)optlen)
			soffset = (int)optlen + 1;
		soffset -= 4;
		if (soffset > 3) {
			memcpy(faddr, st + soffset - 1, 4);
			/* dopt: the hops back at [doffset - 1]; the socket
			 * form has faddr at [3] and so each hop 4 later */
			for (soffset -= 4, doffset = 4; soffset > 3;
			     soffset -= 4, doffset += 4)
				memcpy(opts + n + doffset + 3, st + soffset - 1, 4);
			/* RFC 1812: a route back through the source itself */
			if (!memcmp(iph + 12, st + soffset + 3, 4))
				doffset -= 4;
		}
		if (doffset > 3) {
			opts[n] = st[0];
			opts[n + 1] = (uint8_t)(doffset + 3);
			opts[n + 2] = 4;
			memcpy(opts + n + 3, faddr, 4);
			n += (uint32_t)doffset + 3;
		}
	}
	if (sopt[SOPT_CIPSO]) {
		uint32_t o = sopt[SOPT_CIPSO];

		if (!FITS(o))
			return -EINVAL;
		memcpy(opts + n, iph + o, iph[o + 1]);
		n += iph[o + 1];
	}
#undef FITS
	while (n & 3)
		opts[n++] = IPOPT_END_;
	return n > 40 ? -EINVAL : (int)n;
}

static int build4(const struct codegen_reject_rec *rec, uint8_t type,
		  uint8_t code, struct reject_reply *r)
{
	const uint8_t *ih = rec->data;
	uint32_t ihl;
	bool first;
	int n;

	if (rec->caplen < 20 || (ih[0] >> 4) != 4)
		return 0;
	ihl = (ih[0] & 0xf) * 4u;
	if (ihl < 20 || ihl > rec->caplen)
		return 0;
	first = !(be16(ih + 6) & 0x1fff);
	r->pf = NFPROTO_IPV4_;
	memcpy(r->src, ih + 16, 4);	/* their destination */
	memcpy(r->dst, ih + 12, 4);	/* their source */
	/* skb_rtable()->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST) */
	if (!ip4_unicast(ih + 16) || !memcmp(ih + 16, "\xff\xff\xff\xff", 4) ||
	    !ip4_unicast(ih + 12))
		return 0;
	if (type == REJECT_TCP_RST) {
		/* nf_reject_ip_tcphdr_get(): first fragment, TCP, not a RST */
		if (!first || ih[9] != 6 || rec->caplen < ihl + 20 ||
		    (rec->data[ihl + 13] & 0x04) || rec->len < ihl + 20 ||
		    !l4_sum_ok(rec, ihl, 6))
			return 0;
		r->src_fixed = true;
		r->tos = 0;
		tcp_rst(r, rec->data + ihl, rec->len - ihl);
		return 1;
	}
	/* nf_send_unreach(), icmp_send() */
	if (!first)
		return 0;
	if (!csum_unnecessary(rec) && verify_csum(rec, ihl, ih[9]) &&
	    !l4_sum_ok(rec, ihl, ih[9]))
		return 0;
	if ((rec->pktflags & PKT_PKTTYPE) && rec->pkttype != PACKET_HOST_)
		return 0;
	if (ih[9] == 1 && (rec->caplen < ihl + 1 || icmp4_error(rec->data[ihl])))
		return 0;
	/* __ip_options_echo() of the options compiled on receipt: failing,
	 * icmp_send() sends nothing */
	n = offload_reject_ipopt_echo(ih, ihl, rec->ipopt, r->opts);
	if (n < 0)
		return 0;
	r->optlen = (uint8_t)n;
	r->proto = 1;
	r->tos = (ih[1] & 0x1e) | 0xc0;	/* IPTOS_PREC_INTERNETCONTROL */
	r->src_fixed = false;
	/* 576 - iphdr - options - icmphdr bytes of the datagram at most */
	icmp_err(r, ICMP_DEST_UNREACH_, code, rec, 576 - 20 - (uint32_t)n - 8);
	put16(r->msg + 2, csum_fold(csum_add(0, r->msg, r->len)));
	return 1;
}

static int build6(const struct codegen_reject_rec *rec, uint8_t type,
		  uint8_t code, struct reject_reply *r)
{
	const uint8_t *ih = rec->data;
	uint16_t frag;
	uint8_t proto = 0;
	int thoff;

	if (rec->caplen < 40 || (ih[0] >> 4) != 6)
		return 0;
	r->pf = NFPROTO_IPV6_;
	memcpy(r->src, ih + 24, 16);
	memcpy(r->dst, ih + 8, 16);
	/* a link-local peer or source: the reply stays on the packet's link */
	r->scope = ip6_linklocal(r->dst) || ip6_linklocal(r->src) ?
		   (rec->iif ? rec->iif : rec->oif) : 0;
	r->iif = rec->iif;
	thoff = ip6_skip(ih, rec->caplen, &proto, &frag);
	if (type == REJECT_TCP_RST) {
		/* nf_send_reset6(): both addresses unicast */
		if (!ip6_unicast(ih + 8) || !ip6_unicast(ih + 24))
			return 0;
		/* nf_reject_ip6_tcphdr_get() */
		if (thoff < 0 || (uint32_t)thoff >= rec->len || frag ||
		    proto != 6 || rec->caplen < (uint32_t)thoff + 20 ||
		    rec->len < (uint32_t)thoff + 20 ||
		    (rec->data[thoff + 13] & 0x04) ||
		    !l4_sum_ok(rec, (uint32_t)thoff, 6))
			return 0;
		r->src_fixed = true;
		tcp_rst(r, rec->data + thoff, rec->len - thoff);
		return 1;
	}
	/* reject6_csum_ok() */
	if (!csum_unnecessary(rec) &&
	    (thoff < 0 || (uint32_t)thoff >= rec->len || frag ||
	     (verify_csum(rec, (uint32_t)thoff, proto) &&
	      !l4_sum_ok(rec, (uint32_t)thoff, proto))))
		return 0;
	/* icmp6_send(): no error to a multicast or non-host packet, from an
	 * unspecified or multicast source, about an ICMPv6 error */
	if (ih[24] == 0xff ||
	    ((rec->pktflags & PKT_PKTTYPE) && rec->pkttype != PACKET_HOST_))
		return 0;
	if (!ip6_unicast(ih + 8))
		return 0;
	if (thoff >= 0 && proto == 58 &&
	    ((uint32_t)thoff >= rec->caplen || !(rec->data[thoff] & 0x80)))
		return 0;
	r->proto = 58;
	r->tos = 0;
	r->src_fixed = false;
	/* IPV6_MIN_MTU - ipv6hdr - icmp6hdr bytes at most */
	icmp_err(r, ICMPV6_DEST_UNREACH_, code, rec, 1280 - 40 - 8);
	put16(r->msg + 2, l4_csum(r));
	return 1;
}

int offload_reject_build(const struct codegen_reject_rec *rec,
			 struct reject_reply *r)
{
	uint8_t type = rec->type, code = rec->code;

	memset(r, 0, offsetof(struct reject_reply, msg));
	if (rec->caplen > REJECT_REC_DATA)
		return 0;
	if (rec->pf != NFPROTO_IPV4_ && rec->pf != NFPROTO_IPV6_)
		return 0;
	switch (type) {
	case REJECT_ICMPX_UNREACH:
		/* the ip and ip6 reject types do not handle icmpx */
		if (rec->family == NFPROTO_IPV4_ || rec->family == NFPROTO_IPV6_)
			return 0;
		code = icmpx_code(rec->pf, code);
		type = REJECT_ICMP_UNREACH;
		break;
	case REJECT_ICMP_UNREACH:
	case REJECT_TCP_RST:
		break;
	default:
		return 0;
	}
	return rec->pf == NFPROTO_IPV4_ ? build4(rec, type, code, r) :
					  build6(rec, type, code, r);
}

/* ---- rate limit: inet_peer_xrlim_allow() ---- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* the sysctl at @fd as text (""on error) */
static void sysctl_read(int fd, char *buf, size_t size)
{
	ssize_t n = fd >= 0 ? pread(fd, buf, size - 1, 0) : -1;

	buf[n > 0 ? n : 0] = '\0';
}

/* is @type in the bitmap list @s ("0-1,3-127", proc_do_large_bitmap)? */
static bool in_bitmap(const char *s, unsigned int type)
{
	while (*s && *s != '\n') {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			return false;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (type >= a && type <= b)
			return true;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return false;
}

/*
 * icmpv4_mask_allow()/icmpv6_mask_allow() and the per-peer bucket of
 * icmpv4_xrlim_allow()/icmpv6_xrlim_allow(): is this error let out?
 */
static bool xrlim_allow(struct dp_reject *rj, const struct reject_reply *r)
{
	bool v6 = r->pf == NFPROTO_IPV6_;
	uint64_t timeout = XRLIM_TIMEOUT_MS, burst;
	uint32_t h = 2166136261u, i;
	struct reject_peer *p;
	uint64_t now = now_ms(), tok;
	char buf[256];

	sysctl_read(rj->sysctl[v6 ? RL_MASK6 : RL_MASK4], buf, sizeof(buf));
	if (v6 ? buf[0] && !in_bitmap(buf, r->msg[0]) :
		 buf[0] && !(strtoul(buf, NULL, 10) & (1ul << r->msg[0])))
		return true;	/* type not rate limited */
	sysctl_read(rj->sysctl[v6 ? RL_TIME6 : RL_TIME4], buf, sizeof(buf));
	if (buf[0])
		timeout = strtoul(buf, NULL, 10);
	burst = XRLIM_BURST * timeout;

	for (i = 0; i < 16; i++)
		h = (h ^ r->dst[i]) * 16777619u;
	p = &rj->peers[(h ^ r->pf) % PEERS];
	if (p->pf != r->pf || memcmp(p->addr, r->dst, 16)) {
		/* a new peer starts with a full bucket (rate_last 60 s ago) */
		p->pf = r->pf;
		memcpy(p->addr, r->dst, 16);
		p->tokens = burst;
		p->last = now;
	}
	tok = p->tokens + (now - p->last);
	p->last = now;
	if (tok > burst)
		tok = burst;
	if (tok < timeout) {
		p->tokens = tok;
		return false;
	}
	p->tokens = tok - timeout;
	return true;
}

/* ---- sockets in the namespace ---- */

struct open_ctx {
	int fd[4];
	int sysctl[4];
	int rtnl;
};

static int set_int(int fd, int level, int opt, int v)
{
	return setsockopt(fd, level, opt, &v, sizeof(v)) ? -errno : 0;
}

/* a raw socket that never queues what it receives (filter: return 0) */
static int raw_socket(int family, int proto)
{
	static struct sock_filter drop[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog prog = { .len = 1, .filter = drop };
	int fd = socket(family, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, proto);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    set_int(fd, SOL_SOCKET, SO_RCVBUF, 0)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int open_cb(void *arg)
{
	struct open_ctx *oc = arg;
	int err = 0, i;

	for (i = 0; i < 4; i++)
		oc->sysctl[i] = open(sysctl_path[i], O_RDONLY | O_CLOEXEC);
	oc->rtnl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (oc->rtnl < 0)
		return -errno;
	oc->fd[SK_TCP4] = raw_socket(AF_INET, IPPROTO_TCP);
	oc->fd[SK_ICMP4] = raw_socket(AF_INET, IPPROTO_ICMP);
	oc->fd[SK_TCP6] = raw_socket(AF_INET6, IPPROTO_TCP);
	oc->fd[SK_ICMP6] = raw_socket(AF_INET6, IPPROTO_ICMPV6);
	for (i = 0; i < 4; i++)
		if (oc->fd[i] < 0 && !err)
			err = oc->fd[i];
	if (err)
		return err;
	/* RST: any source (its source is their destination), DF and ID 0
	 * (IP_PMTUDISC_DO), flow label 0 (ip6_flow_hdr(ip6h, 0, 0)) */
	err = set_int(oc->fd[SK_TCP4], SOL_IP, IP_TRANSPARENT, 1);
	if (!err)
		err = set_int(oc->fd[SK_TCP4], SOL_IP, IP_MTU_DISCOVER,
			      IP_PMTUDISC_DO);
	if (!err)
		err = set_int(oc->fd[SK_TCP6], SOL_IPV6, IPV6_TRANSPARENT, 1);
	if (!err)
		err = set_int(oc->fd[SK_TCP6], SOL_IPV6, IPV6_AUTOFLOWLABEL, 0);
	/* ICMP: no DF, as the kernel's icmp sockets (IP_PMTUDISC_DONT) */
	if (!err)
		err = set_int(oc->fd[SK_ICMP4], SOL_IP, IP_MTU_DISCOVER,
			      IP_PMTUDISC_DONT);
	return err;
}

static int sockets(struct dp_reject *rj)
{
	struct open_ctx oc = { .fd = { -1, -1, -1, -1 },
			       .sysctl = { -1, -1, -1, -1 }, .rtnl = -1 };
	int err, i;

	if (rj->fd[0] >= 0)
		return 0;
	if (rj->open_err)
		return rj->open_err;
	err = offload_in_netns(rj->ns_fd, open_cb, &oc);
	if (err) {
		for (i = 0; i < 4; i++) {
			if (oc.fd[i] >= 0)
				close(oc.fd[i]);
			if (oc.sysctl[i] >= 0)
				close(oc.sysctl[i]);
		}
		if (oc.rtnl >= 0)
			close(oc.rtnl);
		rj->open_err = err < 0 ? err : -EIO;
		return rj->open_err;
	}
	memcpy(rj->fd, oc.fd, sizeof(rj->fd));
	memcpy(rj->sysctl, oc.sysctl, sizeof(rj->sysctl));
	rj->rtnl = oc.rtnl;
	/* the walker knows our replies by their socket's cookie */
	rj->cookies = true;
	for (i = 0; i < 4; i++) {
		uint64_t cookie = 0;
		socklen_t len = sizeof(cookie);

		if (getsockopt(rj->fd[i], SOL_SOCKET, SO_COOKIE, &cookie, &len) ||
		    !cookie)
			rj->cookies = false;
		rj->ct->cookie[i] = cookie;
	}
	return 0;
}

/* one control message at @buf (aligned); returns its CMSG_SPACE */
static size_t put_cmsg(char *buf, int level, int type, const void *v,
		       size_t len)
{
	struct cmsghdr *c = (struct cmsghdr *)(void *)buf;

	c->cmsg_level = level;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(c), v, len);
	return CMSG_SPACE(len);
}

/*
 * send the reply; the source goes in IP_PKTINFO/IPV6_PKTINFO. An ICMP
 * error leaves from their destination if that is ours (icmp_send():
 * RTCF_LOCAL; icmp6_send(): ipv6_chk_addr()), which the kernel tells us
 * by refusing a foreign source (IPv6: EINVAL; IPv4: the output route
 * lookup's ENETUNREACH); then routing picks it.
 */
static int send_reply(struct dp_reject *rj, const struct reject_reply *r)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct in6_pktinfo)) +
			 CMSG_SPACE(sizeof(int)) + CMSG_SPACE(40)];
		struct cmsghdr align;
	} cb;
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct iovec iov = { .iov_base = (void *)r->msg, .iov_len = r->len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	bool v6 = r->pf == NFPROTO_IPV6_;
	int fd = rj->fd[v6 ? (r->proto == 6 ? SK_TCP6 : SK_ICMP6) :
			     (r->proto == 6 ? SK_TCP4 : SK_ICMP4)];
	uint8_t alt[16];
	int with_src;

	if (v6) {
		memcpy(&sin6.sin6_addr, r->dst, 16);
		sin6.sin6_scope_id = r->scope;
		m.msg_name = &sin6;
		m.msg_namelen = sizeof(sin6);
	} else {
		memcpy(&sin.sin_addr, r->dst, 4);
		m.msg_name = &sin;
		m.msg_namelen = sizeof(sin);
	}
	for (with_src = 1; with_src >= 0; with_src--) {
		size_t clen = 0;

		memset(&cb, 0, sizeof(cb));
		if (with_src && v6) {
			struct in6_pktinfo pi = { .ipi6_ifindex = r->scope };

			memcpy(&pi.ipi6_addr, r->src, 16);
			clen += put_cmsg(cb.buf + clen, SOL_IPV6, IPV6_PKTINFO,
					 &pi, sizeof(pi));
		} else if (v6 && r->proto != 6 &&
			   offload_saddr6_pick(rj->rtnl, r->dst, r->iif,
					       alt) == 1) {
			/* not ours: icmp6_send() selects from the input
			 * device (offload/saddr6.c) */
			struct in6_pktinfo pi = { .ipi6_ifindex = r->scope };

			memcpy(&pi.ipi6_addr, alt, 16);
			clen += put_cmsg(cb.buf + clen, SOL_IPV6, IPV6_PKTINFO,
					 &pi, sizeof(pi));
		} else if (with_src) {
			struct in_pktinfo pi = { .ipi_ifindex = 0 };

			memcpy(&pi.ipi_spec_dst, r->src, 4);
			clen += put_cmsg(cb.buf + clen, SOL_IP, IP_PKTINFO,
					 &pi, sizeof(pi));
		}
		if (!v6 && r->tos) {
			int tos = r->tos;

			clen += put_cmsg(cb.buf + clen, SOL_IP, IP_TOS, &tos,
					 sizeof(tos));
		}
		/* the echoed options (icmp_send(): ip_options_echo()) */
		if (!v6 && r->optlen)
			clen += put_cmsg(cb.buf + clen, SOL_IP, IP_RETOPTS,
					 r->opts, r->optlen);
		m.msg_control = clen ? cb.buf : NULL;
		m.msg_controllen = clen;
		if (sendmsg(fd, &m, MSG_DONTWAIT) >= 0)
			return 0;
		if ((errno != EINVAL && errno != ENETUNREACH) || r->src_fixed ||
		    !with_src)
			return -errno;
	}
	return -EINVAL;
}

static int route_type_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type == RTM_NEWROUTE)
		*(int *)data = rtm->rtm_type;
	return MNL_CB_OK;
}

/*
 * the type of the route to IPv4 @addr in the namespace (RTN_*), or -errno:
 * skb_rtable(skb)->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST) for the
 * rejected packet's destination, which only the routes know (a subnet's
 * broadcast address)
 */
static int route_type4(int fd, const uint8_t *addr)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;
	int type = -ENOENT, n;

	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = 32;
	mnl_attr_put(nlh, RTA_DST, 4, addr);
	if (send(fd, nlh, nlh->nlmsg_len, 0) < 0)
		return -errno;
	/* one answer: the route or an error */
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	if (mnl_cb_run(buf, (size_t)n, 1, 0, route_type_cb, &type) < 0)
		return -errno;
	return type;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct dp_reject *rj = ctx;
	const struct codegen_reject_rec *rec = data;
	struct reject_reply r;

	if (size < sizeof(*rec) || !offload_reject_build(rec, &r))
		return 0;
	/* an ICMP error about a packet of the kernel's own ICMP socket
	 * (icmp_send(): icmp_xmit_lock() finds it taken); a TCP reset is
	 * sent through another socket */
	if ((rec->sk_flags & REJECT_SK_ICMP_CTL) && r.proto != 6)
		return 0;
	if (sockets(rj)) {
		rj->lost++;
		return 0;
	}
	/* IPv4: no reply about a packet to a broadcast or multicast route */
	if (r.pf == NFPROTO_IPV4_) {
		int type = route_type4(rj->rtnl, rec->data + 16);

		if (type == RTN_BROADCAST || type == RTN_MULTICAST)
			return 0;
	}
	/* icmpv4/v6_xrlim_allow(): replies to ourselves are not limited */
	if (r.proto != 6 && rec->hook != HOOK_LOCAL_OUT && !xrlim_allow(rj, &r))
		return 0;
	/* nf_ct_attach(): the walker shows the reply with the rejected
	 * packet's conntrack while we send it (struct codegen_reject_ct) */
	if ((rec->ct_flags & REJECT_CT_COPIED) && rj->cookies) {
		memcpy(rj->ct->conn, rec->ct, sizeof(rj->ct->conn));
		rj->ct->has_ext = !!(rec->ct_flags & REJECT_CT_EXT);
		memcpy(rj->ct->ext, rec->ext, sizeof(rj->ct->ext));
		/* CTINFO2DIR(): the reply goes the other way */
		rj->ct->ctinfo = rec->ctinfo >= IP_CT_IS_REPLY_ ?
				 IP_CT_RELATED_ : IP_CT_RELATED_REPLY_;
		memset(rj->ct->lo_dst, 0, sizeof(rj->ct->lo_dst));
		memcpy(rj->ct->lo_dst, r.dst, r.pf == NFPROTO_IPV6_ ? 16 : 4);
		memcpy(rj->ct->lo_l4, r.msg, sizeof(rj->ct->lo_l4));
		rj->ct->lo_pf = r.pf;
		__atomic_store_n(&rj->ct->active, 1, __ATOMIC_RELEASE);
	} else {
		rj->ct->lo_pf = 0;
	}
	if (send_reply(rj, &r))
		rj->lost++;
	else
		rj->sent++;
	__atomic_store_n(&rj->ct->active, 0, __ATOMIC_RELEASE);
	return 0;
}

struct dp_reject *dp_reject_new(struct dp_log *lg, int ns_fd, int *map_fd,
			       int *ct_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);
	struct dp_reject *rj = calloc(1, sizeof(*rj));
	void *mem;
	int i;

	if (!rj)
		return NULL;
	rj->ct_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_reject_ct", 4,
				   sizeof(struct codegen_reject_ct), 1,
				   &mmapable);
	if (rj->ct_fd < 0)
		goto out_rj;
	mem = mmap(NULL, sizeof(struct codegen_reject_ct),
		   PROT_READ | PROT_WRITE, MAP_SHARED, rj->ct_fd, 0);
	if (mem == MAP_FAILED)
		goto out_ct_fd;
	rj->ct = mem;
	for (i = 0; i < 4; i++)
		rj->fd[i] = rj->sysctl[i] = -1;
	rj->rtnl = -1;
	rj->ns_fd = ns_fd >= 0 ? fcntl(ns_fd, F_DUPFD_CLOEXEC, 3) : -1;
	if (ns_fd >= 0 && rj->ns_fd < 0)
		goto out_free;
	rj->map_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "nfbpf_reject", 0, 0,
				    REJECT_RING_SIZE, NULL);
	if (rj->map_fd < 0)
		goto out_ns;
	if (dp_log_add_ring(lg, rj->map_fd, on_record, rj))
		goto out_map;
	*map_fd = rj->map_fd;
	*ct_fd = rj->ct_fd;
	return rj;

out_map:
	close(rj->map_fd);
out_ns:
	if (rj->ns_fd >= 0)
		close(rj->ns_fd);
out_free:
	munmap(rj->ct, sizeof(*rj->ct));
out_ct_fd:
	close(rj->ct_fd);
out_rj:
	free(rj);
	return NULL;
}

void dp_reject_free(struct dp_reject *rj)
{
	int i;

	if (!rj)
		return;
	for (i = 0; i < 4; i++) {
		if (rj->fd[i] >= 0)
			close(rj->fd[i]);
		if (rj->sysctl[i] >= 0)
			close(rj->sysctl[i]);
	}
	if (rj->rtnl >= 0)
		close(rj->rtnl);
	close(rj->map_fd);
	if (rj->ns_fd >= 0)
		close(rj->ns_fd);
	munmap(rj->ct, sizeof(*rj->ct));
	close(rj->ct_fd);
	free(rj);
}

void dp_reject_stats(const struct dp_reject *rj, uint64_t *sent, uint64_t *lost)
{
	*sent = rj ? rj->sent : 0;
	*lost = rj ? rj->lost : 0;
}
