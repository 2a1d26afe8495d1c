// SPDX-License-Identifier: GPL-2.0-only
/*
 * log_format.c - the log line formatter against lines the kernel printed
 * (nf_log_syslog, kernel 6.18, captured with nft `log` rules in scratch
 * netns and dmesg): each record below is rebuilt from one such line's
 * packet, and must format to that line byte for byte.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "codegen/codegen.h"
#include "offload/offload.h"
#include "expr/log.h"

static struct codegen_log_rec rec;
static char line[1100];

static const uint8_t mac_vb[14] = {
	0x32, 0x14, 0x67, 0xd0, 0xfb, 0x12,	/* dst */
	0xc2, 0x4f, 0x7a, 0xbc, 0xe9, 0x10,	/* src */
	0x08, 0x00,
};

/* a packet that came in on veth "vb" (ethernet) or goes out on it */
static void dev(bool in, uint16_t ethertype)
{
	memset(&rec, 0, sizeof(rec));
	rec.level = 4;
	if (in) {
		strcpy(rec.in, "vb");
		rec.pktflags = PKT_HAS_IN | PKT_LL | PKT_L4PROTO;
		rec.has_dev = 1;
		rec.dev_type = 1;
		rec.hard_header_len = 14;
		rec.mac_hdr_len = 14;
		memcpy(rec.mac, mac_vb, 14);
		rec.mac[12] = ethertype >> 8;
		rec.mac[13] = ethertype & 0xff;
	} else {
		strcpy(rec.out, "vb");
		rec.pktflags = PKT_HAS_OUT | PKT_L4PROTO;
	}
}

static uint8_t *ip4(uint16_t totlen, uint16_t id, uint16_t fo, uint8_t proto,
		    uint8_t s, uint8_t d, uint8_t optlen)
{
	uint8_t *b = rec.data;

	rec.pf = 2;
	b[0] = 0x40 | (5 + optlen / 4);
	b[2] = totlen >> 8; b[3] = totlen & 0xff;
	b[4] = id >> 8; b[5] = id & 0xff;
	b[6] = fo >> 8; b[7] = fo & 0xff;
	b[8] = 64;
	b[9] = proto;
	b[12] = 10; b[13] = 9; b[14] = 0; b[15] = s;
	b[16] = 10; b[17] = 9; b[18] = 0; b[19] = d;
	rec.len = rec.caplen = totlen;
	return b + 20 + optlen;
}

static uint8_t *ip6(uint16_t paylen, uint32_t flowlbl, uint8_t nexthdr,
		    uint8_t s, uint8_t d)
{
	uint8_t *b = rec.data;

	rec.pf = 10;
	b[0] = 0x60;
	b[1] = (flowlbl >> 16) & 0x0f; b[2] = flowlbl >> 8; b[3] = flowlbl;
	b[4] = paylen >> 8; b[5] = paylen & 0xff;
	b[6] = nexthdr;
	b[7] = 64;
	b[8] = 0xfd; b[23] = s;
	b[24] = 0xfd; b[39] = d;
	rec.len = rec.caplen = 40 + paylen;
	return b + 40;
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

static void is(const char *prefix, const char *want)
{
	size_t n = offload_log_format(&rec, prefix, line, sizeof(line));

	cr_assert_str_eq(line, want);
	cr_assert_eq(n, strlen(want));
}

Test(log_format, icmp_echo_in_with_mac)
{
	uint8_t *l4;

	dev(true, 0x0800);
	l4 = ip4(36, 1435, 0x4000, 1, 1, 2, 0);
	l4[0] = 8;
	put16(l4 + 4, 4660);
	put16(l4 + 6, 1);
	is("KIN4 ", "KIN4 IN=vb OUT= MAC=32:14:67:d0:fb:12:c2:4f:7a:bc:e9:10:08:00 "
	   "SRC=10.9.0.1 DST=10.9.0.2 LEN=36 TOS=0x00 PREC=0x00 TTL=64 ID=1435 "
	   "DF PROTO=ICMP TYPE=8 CODE=0 ID=4660 SEQ=1 ");
}

Test(log_format, icmp_echo_reply_out)
{
	uint8_t *l4;

	dev(false, 0);
	l4 = ip4(36, 39104, 0, 1, 2, 1, 0);
	put16(l4 + 4, 4660);
	put16(l4 + 6, 1);
	is("KOUT4 ", "KOUT4 IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=36 TOS=0x00 "
	   "PREC=0x00 TTL=64 ID=39104 PROTO=ICMP TYPE=0 CODE=0 ID=4660 SEQ=1 ");
}

Test(log_format, icmpv6_echo_in_and_reply_out_without_prefix)
{
	uint8_t *l4;

	dev(true, 0x86dd);
	rec.level = 6;
	l4 = ip6(16, 698355, 58, 1, 2);
	l4[0] = 128;
	put16(l4 + 4, 4660);
	put16(l4 + 6, 1);
	is("KIN6 ", "KIN6 IN=vb OUT= MAC=32:14:67:d0:fb:12:c2:4f:7a:bc:e9:10:86:dd "
	   "SRC=fd00:0000:0000:0000:0000:0000:0000:0001 "
	   "DST=fd00:0000:0000:0000:0000:0000:0000:0002 LEN=56 TC=0 HOPLIMIT=64 "
	   "FLOWLBL=698355 PROTO=ICMPv6 TYPE=128 CODE=0 ID=4660 SEQ=1 ");
	dev(false, 0);
	l4 = ip6(16, 380147, 58, 2, 1);
	l4[0] = 129;
	put16(l4 + 4, 4660);
	put16(l4 + 6, 1);
	is("", "IN= OUT=vb SRC=fd00:0000:0000:0000:0000:0000:0000:0002 "
	   "DST=fd00:0000:0000:0000:0000:0000:0000:0001 LEN=56 TC=0 HOPLIMIT=64 "
	   "FLOWLBL=380147 PROTO=ICMPv6 TYPE=129 CODE=0 ID=4660 SEQ=1 ");
}

Test(log_format, udp_with_mac_decode)
{
	uint8_t *l4;

	dev(true, 0x0800);
	rec.logflags = LOG_F_MACDECODE;
	l4 = ip4(33, 20859, 0x4000, 17, 1, 2, 0);
	put16(l4, 45154);
	put16(l4 + 2, 9998);
	put16(l4 + 4, 13);
	is("KUDPE ", "KUDPE IN=vb OUT= MACSRC=c2:4f:7a:bc:e9:10 "
	   "MACDST=32:14:67:d0:fb:12 MACPROTO=0800 SRC=10.9.0.1 DST=10.9.0.2 "
	   "LEN=33 TOS=0x00 PREC=0x00 TTL=64 ID=20859 DF PROTO=UDP SPT=45154 "
	   "DPT=9998 LEN=13 ");
}

static const uint8_t syn_opts4[20] = {
	0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0xf0, 0x45, 0xe0, 0xbc,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x0a,
};

static void syn(uint8_t *l4, uint16_t sport, uint32_t seq, uint16_t win,
		const uint8_t *opts)
{
	put16(l4, sport);
	put16(l4 + 2, 7777);
	put32(l4 + 4, seq);
	l4[12] = 10 << 4;
	l4[13] = 0x02;
	put16(l4 + 14, win);
	memcpy(l4 + 20, opts, 20);
}

Test(log_format, tcp_syn_sequence_options_ether)
{
	static const uint8_t syn_opts6[20] = {
		0x02, 0x04, 0x05, 0xa0, 0x04, 0x02, 0x08, 0x0a, 0x3a, 0x90,
		0x40, 0x54, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x0a,
	};

	dev(true, 0x0800);
	rec.logflags = LOG_F_MASK & ~LOG_F_UID;
	syn(ip4(60, 26631, 0x4000, 6, 1, 2, 0), 34844, 1203011832, 64240, syn_opts4);
	is("KTCP ", "KTCP IN=vb OUT= MACSRC=c2:4f:7a:bc:e9:10 MACDST=32:14:67:d0:fb:12 "
	   "MACPROTO=0800 SRC=10.9.0.1 DST=10.9.0.2 LEN=60 TOS=0x00 PREC=0x00 "
	   "TTL=64 ID=26631 DF PROTO=TCP SPT=34844 DPT=7777 SEQ=1203011832 ACK=0 "
	   "WINDOW=64240 RES=0x00 SYN URGP=0 "
	   "OPT (020405B40402080AF045E0BC000000000103030A) ");
	dev(true, 0x86dd);
	rec.logflags = LOG_F_MASK & ~LOG_F_UID;
	syn(ip6(40, 286419, 6, 1, 2), 33514, 2692746988u, 64800, syn_opts6);
	is("KTCP ", "KTCP IN=vb OUT= MACSRC=c2:4f:7a:bc:e9:10 MACDST=32:14:67:d0:fb:12 "
	   "MACPROTO=86dd SRC=fd00:0000:0000:0000:0000:0000:0000:0001 "
	   "DST=fd00:0000:0000:0000:0000:0000:0000:0002 LEN=80 TC=0 HOPLIMIT=64 "
	   "FLOWLBL=286419 PROTO=TCP SPT=33514 DPT=7777 SEQ=2692746988 ACK=0 "
	   "WINDOW=64800 RES=0x00 SYN URGP=0 "
	   "OPT (020405A00402080A3A904054000000000103030A) ");
}

Test(log_format, tcp_without_flags)
{
	dev(true, 0x0800);
	syn(ip4(60, 36109, 0x4000, 6, 1, 2, 0), 60376, 1, 64240, syn_opts4);
	put16(rec.data + 22, 7778);
	is("KTCPD ", "KTCPD IN=vb OUT= MAC=32:14:67:d0:fb:12:c2:4f:7a:bc:e9:10:08:00 "
	   "SRC=10.9.0.1 DST=10.9.0.2 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=36109 "
	   "DF PROTO=TCP SPT=60376 DPT=7778 WINDOW=64240 RES=0x00 SYN URGP=0 ");
}

Test(log_format, ip_options_and_mark)
{
	uint8_t *l4;

	dev(true, 0x0800);
	rec.logflags = LOG_F_IPOPT;
	l4 = ip4(37, 4120, 0x4000, 17, 1, 2, 4);
	memcpy(rec.data + 20, "\x01\x01\x01\x00", 4);
	put16(l4, 45917);
	put16(l4 + 2, 9998);
	put16(l4 + 4, 13);
	is("ipopt: ", "ipopt: IN=vb OUT= MAC=32:14:67:d0:fb:12:c2:4f:7a:bc:e9:10:08:00 "
	   "SRC=10.9.0.1 DST=10.9.0.2 LEN=37 TOS=0x00 PREC=0x00 TTL=64 ID=4120 DF "
	   "OPT (01010100) PROTO=UDP SPT=45917 DPT=9998 LEN=13 ");
	dev(false, 0);
	rec.mark = 0x2a;
	l4 = ip4(33, 50322, 0x4000, 17, 2, 1, 0);
	put16(l4, 42845);
	put16(l4 + 2, 9996);
	put16(l4 + 4, 13);
	is("mark: ", "mark: IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=33 TOS=0x00 "
	   "PREC=0x00 TTL=64 ID=50322 DF PROTO=UDP SPT=42845 DPT=9996 LEN=13 "
	   "MARK=0x2a ");
}

Test(log_format, truncated_headers)
{
	dev(false, 0);
	ip4(24, 1, 0, 6, 2, 1, 0);	/* 4 bytes of TCP */
	is("", "IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=24 TOS=0x00 PREC=0x00 "
	   "TTL=64 ID=1 PROTO=TCP INCOMPLETE [4 bytes] ");
	rec.len = rec.caplen = 10;
	is("", "IN= OUT=vb TRUNCATED");
}

Test(log_format, line_buffer_truncates_like_nf_log_buf)
{
	uint8_t *h;
	size_t n;
	int i;

	/* 58 fragment headers with ip options: "OPT ( FRAG:0 ID:00000000 ) "
	 * each, far beyond the 1020 bytes of nf_log_buf: the line stops at
	 * 1019 bytes with KERN_SOH and the level, 1017 without */
	dev(false, 0);
	rec.logflags = LOG_F_IPOPT;
	h = ip6(58 * 8, 0, 44, 2, 1);
	for (i = 0; i < 58; i++)
		h[8 * i] = i < 57 ? 44 : 59;
	n = offload_log_format(&rec, "", line, sizeof(line));
	cr_assert_eq(n, 1017);
	cr_assert_eq(strlen(line), 1017);
	cr_assert_null(strstr(line, "PROTO="));
	/* whole headers, then as much of the last add() as vsnprintf() could
	 * write before the buffer was full */
	cr_assert_str_eq(line + 1017 - 19, "OPT ( FRAG:0 ID:000");
}

Test(log_format, icmp_unreachable_with_the_inner_packet)
{
	uint8_t *l4, *in;

	dev(false, 0);
	l4 = ip4(61, 33684, 0, 1, 2, 1, 0);
	rec.data[1] = 0xc0;		/* TOS: internetwork control */
	l4[0] = 3;
	l4[1] = 3;
	in = l4 + 8;			/* the datagram in error */
	in[0] = 0x45;
	put16(in + 2, 33);
	put16(in + 4, 49415);
	put16(in + 6, 0x4000);
	in[8] = 64;
	in[9] = 17;
	memcpy(in + 12, "\x0a\x09\x00\x01\x0a\x09\x00\x02", 8);
	put16(in + 20, 48899);
	put16(in + 22, 9990);
	put16(in + 24, 13);
	is("unreach4: ", "unreach4: IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=61 "
	   "TOS=0x00 PREC=0xC0 TTL=64 ID=33684 PROTO=ICMP TYPE=3 CODE=3 "
	   "[SRC=10.9.0.1 DST=10.9.0.2 LEN=33 TOS=0x00 PREC=0x00 TTL=64 "
	   "ID=49415 DF PROTO=UDP SPT=48899 DPT=9990 LEN=13 ] ");
}

Test(log_format, icmpv6_unreachable_with_the_inner_packet)
{
	uint8_t *l4, *in;

	dev(false, 0);
	rec.logflags = LOG_F_MASK;	/* flags all: no socket, no UID */
	l4 = ip6(61, 32675, 58, 2, 1);	/* 8 + 53 */
	l4[0] = 1;
	l4[1] = 4;
	in = l4 + 8;
	in[0] = 0x60;
	in[1] = (465046 >> 16) & 0xf;
	put16(in + 2, 465046 & 0xffff);
	put16(in + 4, 13);
	in[6] = 17;
	in[7] = 64;
	in[8] = 0xfd; in[23] = 1;
	in[24] = 0xfd; in[39] = 2;
	put16(in + 40, 47418);
	put16(in + 42, 9999);
	put16(in + 44, 13);
	is("unreach6: ", "unreach6: IN= OUT=vb "
	   "SRC=fd00:0000:0000:0000:0000:0000:0000:0002 "
	   "DST=fd00:0000:0000:0000:0000:0000:0000:0001 LEN=101 TC=0 HOPLIMIT=64 "
	   "FLOWLBL=32675 PROTO=ICMPv6 TYPE=1 CODE=4 "
	   "[SRC=fd00:0000:0000:0000:0000:0000:0000:0001 "
	   "DST=fd00:0000:0000:0000:0000:0000:0000:0002 LEN=53 TC=0 HOPLIMIT=64 "
	   "FLOWLBL=465046 PROTO=UDP SPT=47418 DPT=9999 LEN=13 ] ");
}

Test(log_format, socket_owner_with_skuid_only)
{
	uint8_t *l4;

	dev(false, 0);
	rec.has_uid = 1;
	rec.uid = 65534;
	rec.gid = 65533;
	l4 = ip4(33, 54077, 0x4000, 17, 2, 1, 0);
	put16(l4, 34384);
	put16(l4 + 2, 9995);
	put16(l4 + 4, 13);
	is("uid: ", "uid: IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=33 TOS=0x00 "
	   "PREC=0x00 TTL=64 ID=54077 DF PROTO=UDP SPT=34384 DPT=9995 LEN=13 ");
	rec.logflags = LOG_F_UID;
	is("uid: ", "uid: IN= OUT=vb SRC=10.9.0.2 DST=10.9.0.1 LEN=33 TOS=0x00 "
	   "PREC=0x00 TTL=64 ID=54077 DF PROTO=UDP SPT=34384 DPT=9995 LEN=13 "
	   "UID=65534 GID=65533 ");
}

/*
 * The netdev, arp and bridge families (tests/e2e/log_l2.sh's lines):
 * bridge br0 02:00:00:00:0c:fe with ports pa (peer 02:00:00:00:0c:01,
 * 10.11.0.1) and pb (peer 02:00:00:00:0c:02, 10.11.0.2).
 */
static const uint8_t mac_a[6] = { 2, 0, 0, 0, 0x0c, 0x01 };
static const uint8_t mac_b[6] = { 2, 0, 0, 0, 0x0c, 0x02 };
static const uint8_t mac_br[6] = { 2, 0, 0, 0, 0x0c, 0xfe };
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* a frame of ethertype @proto at a tc hook: @in/@out the names, skb->dev
 * ethernet, the mac header @dst @src (none: NULL @dst), @nhoff bytes of
 * link layer header before the network header in skb->data */
static void l2(uint8_t pf, const char *in, const char *out, uint16_t proto,
	       const uint8_t *dst, const uint8_t *src, uint16_t nhoff)
{
	memset(&rec, 0, sizeof(rec));
	rec.level = 4;
	rec.pf = pf;
	strcpy(rec.in, in);
	strcpy(rec.out, out);
	rec.protocol = htobe16(proto);
	rec.has_dev = 1;
	rec.dev_type = 1;
	rec.hard_header_len = 14;
	rec.nhoff = nhoff;
	rec.pktflags = in[0] ? PKT_HAS_IN : PKT_HAS_OUT;
	if (dst) {
		rec.pktflags |= PKT_LL;
		rec.mac_hdr_len = 14;
		memcpy(rec.mac, dst, 6);
		memcpy(rec.mac + 6, src, 6);
		put16(rec.mac + 12, proto);
	}
}

/* an ethernet/IPv4 ARP message at the network header; @len: skb->len */
static void arp_msg(uint16_t op, const uint8_t *sha, uint8_t spa,
		    const uint8_t *tha, uint8_t tpa, uint32_t caplen)
{
	uint8_t *b = rec.data;

	put16(b, 1);
	put16(b + 2, 0x0800);
	b[4] = 6;
	b[5] = 4;
	put16(b + 6, op);
	memcpy(b + 8, sha, 6);
	b[14] = 10; b[15] = 11; b[16] = 0; b[17] = spa;
	if (tha)
		memcpy(b + 18, tha, 6);
	b[24] = 10; b[25] = 11; b[26] = 0; b[27] = tpa;
	rec.caplen = caplen;
	rec.len = rec.nhoff + caplen;
}

Test(log_format, arp_input_with_mac_decode)
{
	l2(3, "br0", "", 0x0806, bcast, mac_a, 0);
	rec.logflags = LOG_F_MACDECODE;
	arp_msg(1, mac_a, 1, NULL, 254, 28);
	is("ain: ", "ain: IN=br0 OUT= MACSRC=02:00:00:00:0c:01 "
	   "MACDST=ff:ff:ff:ff:ff:ff MACPROTO=0806 ARP HTYPE=1 PTYPE=0x0800 "
	   "OPCODE=1 MACSRC=02:00:00:00:0c:01 IPSRC=10.11.0.1 "
	   "MACDST=00:00:00:00:00:00 IPDST=10.11.0.254");
	/* without flags ether: no link layer part at all (no MAC=) */
	rec.logflags = 0;
	is("ain: ", "ain: IN=br0 OUT= ARP HTYPE=1 PTYPE=0x0800 OPCODE=1 "
	   "MACSRC=02:00:00:00:0c:01 IPSRC=10.11.0.1 "
	   "MACDST=00:00:00:00:00:00 IPDST=10.11.0.254");
}

Test(log_format, arp_output_before_the_mac_header_is_set)
{
	/* arp_xmit(): skb->data is the ethernet header dev_hard_header()
	 * pushed, the mac header not set: flags ether print nothing */
	l2(3, "", "br0", 0x0806, NULL, NULL, 14);
	rec.logflags = LOG_F_MACDECODE;
	rec.level = 7;
	arp_msg(2, mac_br, 254, mac_a, 1, 28);
	is("aout: ", "aout: IN= OUT=br0 ARP HTYPE=1 PTYPE=0x0800 OPCODE=2 "
	   "MACSRC=02:00:00:00:0c:fe IPSRC=10.11.0.254 "
	   "MACDST=02:00:00:00:0c:01 IPDST=10.11.0.1");
}

Test(log_format, arp_incomplete_counts_from_skb_data)
{
	/* 8 header bytes and 10 of payload: INCOMPLETE [skb->len - 8] */
	l2(7, "pa", "", 0x0806, bcast, mac_a, 0);
	arp_msg(1, mac_a, 1, NULL, 254, 18);
	is("bpre: ", "bpre: IN=pa OUT= ARP HTYPE=1 PTYPE=0x0800 OPCODE=1 "
	   "INCOMPLETE [10 bytes]");
	/* the same at arp output (the ethernet header in skb->len too) */
	l2(3, "", "br0", 0x0806, NULL, NULL, 14);
	arp_msg(1, mac_a, 1, NULL, 254, 18);
	is("aout: ", "aout: IN= OUT=br0 ARP HTYPE=1 PTYPE=0x0800 OPCODE=1 "
	   "INCOMPLETE [24 bytes]");
	/* not ethernet/IPv4: the header only */
	rec.data[5] = 16;
	is("aout: ", "aout: IN= OUT=br0 ARP HTYPE=1 PTYPE=0x0800 OPCODE=1");
}

Test(log_format, bridge_arp_by_skb_protocol)
{
	/* bridge and netdev: nf_log_netdev_packet() picks the arp format
	 * by skb->protocol; forward: flags ether decode skb->dev's header */
	l2(7, "pa", "pb", 0x0806, bcast, mac_a, 0);
	rec.logflags = LOG_F_MACDECODE | LOG_F_TCPSEQ | LOG_F_TCPOPT |
		       LOG_F_IPOPT | LOG_F_UID;
	rec.level = 6;
	arp_msg(1, mac_a, 1, NULL, 2, 28);
	is("bfwd: ", "bfwd: IN=pa OUT=pb MACSRC=02:00:00:00:0c:01 "
	   "MACDST=ff:ff:ff:ff:ff:ff MACPROTO=0806 ARP HTYPE=1 PTYPE=0x0800 "
	   "OPCODE=1 MACSRC=02:00:00:00:0c:01 IPSRC=10.11.0.1 "
	   "MACDST=00:00:00:00:00:00 IPDST=10.11.0.2");
}

Test(log_format, unknown_ethertype_mac_header)
{
	static const uint8_t x[46] = { 'x' };

	/* nf_log_unknown_packet(): dump_mac_header() alone */
	l2(7, "pa", "", 0x88b5, mac_b, mac_a, 0);
	memcpy(rec.data, x, sizeof(x));
	rec.len = rec.caplen = sizeof(x);
	is("bpre: ", "bpre: IN=pa OUT= MAC=02:00:00:00:0c:02:02:00:00:00:0c:01:88:b5 ");
	rec.logflags = LOG_F_MACDECODE;
	is("nin: ", "nin: IN=pa OUT= MACSRC=02:00:00:00:0c:01 "
	   "MACDST=02:00:00:00:0c:02 MACPROTO=88b5 ");
	/* postrouting: no input device, dump_mac_header() all the same */
	l2(7, "", "pb", 0x88b5, mac_b, mac_a, 0);
	rec.logflags = LOG_F_MACDECODE;
	is("bpost: ", "bpost: IN= OUT=pb MACSRC=02:00:00:00:0c:01 "
	   "MACDST=02:00:00:00:0c:02 MACPROTO=88b5 ");
}

#define PF_L2 5
Test(log_format, netdev_ipv4_input_and_egress)
{
	uint8_t *l4;

	/* ingress: the input device's mac header, then IPv4 */
	l2(5, "pa", "", 0x0800, mac_b, mac_a, 0);
	l4 = ip4(48, 57448, 0x4000, 17, 1, 2, 0);
	rec.pf = PF_L2;
	rec.data[12] = 10; rec.data[13] = 11;
	rec.data[16] = 10; rec.data[17] = 11;
	put16(l4, 40101);
	put16(l4 + 2, 7101);
	put16(l4 + 4, 28);
	is("nin4: ", "nin4: IN=pa OUT= MAC=02:00:00:00:0c:02:02:00:00:00:0c:01:08:00 "
	   "SRC=10.11.0.1 DST=10.11.0.2 LEN=48 TOS=0x00 PREC=0x00 TTL=64 "
	   "ID=57448 DF PROTO=UDP SPT=40101 DPT=7101 LEN=28 ");
	/* egress: no input device; the IPv4 header 14 bytes into skb->data:
	 * dump_ipv4_packet()'s `!iphoff` is false there, so neither the
	 * ICMP error's inner packet nor MARK= is printed */
	l2(5, "", "pa", 0x0800, mac_a, mac_b, 14);
	l4 = ip4(76, 51107, 0, 1, 2, 1, 0);
	rec.pf = PF_L2;
	rec.data[1] = 0xc0;
	rec.data[12] = 10; rec.data[13] = 11;
	rec.data[16] = 10; rec.data[17] = 11;
	rec.len += 14;
	rec.mark = 0x2a;
	rec.level = 6;
	l4[0] = 3;
	l4[1] = 3;
	is("neg: ", "neg: IN= OUT=pa SRC=10.11.0.2 DST=10.11.0.1 LEN=76 TOS=0x00 "
	   "PREC=0xC0 TTL=64 ID=51107 PROTO=ICMP TYPE=3 CODE=3 ");
}

#undef PF_L2
#define PF_L2 7
Test(log_format, bridge_postrouting_physin)
{
	uint8_t *l4;

	l2(7, "", "pb", 0x0800, mac_b, mac_a, 0);
	l4 = ip4(48, 57448, 0x4000, 17, 1, 2, 0);
	rec.pf = PF_L2;
	rec.data[12] = 10; rec.data[13] = 11;
	rec.data[16] = 10; rec.data[17] = 11;
	put16(l4, 40101);
	put16(l4 + 2, 7101);
	put16(l4 + 4, 28);
	strcpy(rec.physin, "pa");
	rec.br_opts = LOG_BROPT_NF_CALL_IPTABLES;
	is("bpost: ", "bpost: IN= OUT=pb PHYSIN=pa SRC=10.11.0.1 DST=10.11.0.2 "
	   "LEN=48 TOS=0x00 PREC=0x00 TTL=64 ID=57448 DF PROTO=UDP SPT=40101 "
	   "DPT=7101 LEN=28 ");
	/* br_netfilter off for IPv4 (only IPv6 on): no PHYSIN */
	rec.br_opts = LOG_BROPT_NF_CALL_IP6TABLES;
	is("bpost: ", "bpost: IN= OUT=pb SRC=10.11.0.1 DST=10.11.0.2 "
	   "LEN=48 TOS=0x00 PREC=0x00 TTL=64 ID=57448 DF PROTO=UDP SPT=40101 "
	   "DPT=7101 LEN=28 ");
	/* (from br_nf_pre_routing()'s source, not a captured line) a VLAN
	 * tag: IS_IP() is false; is_vlan_ip() needs filter-vlan-tagged */
	rec.vlan_all = 5u << 16 | htobe16(0x8100);
	rec.br_opts = LOG_BROPT_NF_CALL_IPTABLES;
	is("bpost: ", "bpost: IN= OUT=pb SRC=10.11.0.1 DST=10.11.0.2 "
	   "LEN=48 TOS=0x00 PREC=0x00 TTL=64 ID=57448 DF PROTO=UDP SPT=40101 "
	   "DPT=7101 LEN=28 ");
	rec.br_opts |= LOG_BR_FILTER_VLAN;
	is("bpost: ", "bpost: IN= OUT=pb PHYSIN=pa SRC=10.11.0.1 DST=10.11.0.2 "
	   "LEN=48 TOS=0x00 PREC=0x00 TTL=64 ID=57448 DF PROTO=UDP SPT=40101 "
	   "DPT=7101 LEN=28 ");
}

/*
 * ebtables' log watcher (ebt_log_packet(), rec.ebt): lines the kernel
 * printed in tests/e2e/log_l2.sh (ebtables-nft --log rules), same frames
 */
static void ebt(const char *in, const char *out, uint16_t proto,
		const uint8_t *dst, const uint8_t *src, uint8_t bits)
{
	l2(7, in, out, proto, dst, src, 0);
	rec.ebt = 1;
	rec.level = 6;
	rec.logflags = bits;
}

/* an IPv6 header fd00::1 -> fd00::2, first byte @b0, next header @nh,
 * then @n payload bytes from @pl */
static void ebt_ip6(uint8_t b0, uint8_t nh, const uint8_t *pl, uint32_t n)
{
	memset(rec.data, 0, 40);
	rec.data[0] = b0;
	rec.data[4] = n >> 8;
	rec.data[5] = n & 0xff;
	rec.data[6] = nh;
	rec.data[7] = 64;
	rec.data[8] = 0xfd; rec.data[23] = 1;
	rec.data[24] = 0xfd; rec.data[39] = 2;
	memcpy(rec.data + 40, pl, n);
	rec.len = rec.caplen = 40 + n;
}

#define EB6 "IN=pa OUT=pb MAC source = 02:00:00:00:0c:01 MAC dest = " \
	"02:00:00:00:0c:02 proto = 0x86dd IPv6 SRC=fd00:0000:0000:0000:0000:" \
	"0000:0000:0001 IPv6 DST=fd00:0000:0000:0000:0000:0000:0000:0002, "

Test(log_format, ebt_ipv4_ports_and_mac_only)
{
	uint8_t *l4;

	ebt("pa", "pb", 0x0800, mac_b, mac_a, 0x0b);
	l4 = ip4(48, 1, 0x4000, 17, 1, 2, 0);
	rec.data[12] = 10; rec.data[13] = 11; rec.data[16] = 10; rec.data[17] = 11;
	put16(l4, 40101);
	put16(l4 + 2, 7101);
	is("T ebfwd:", "T ebfwd: IN=pa OUT=pb MAC source = 02:00:00:00:0c:01 "
	   "MAC dest = 02:00:00:00:0c:02 proto = 0x0800 IP SRC=10.11.0.1 "
	   "IP DST=10.11.0.2, IP tos=0x00, IP proto=17 SPT=40101 DPT=7101");
	/* without --log-ip: the ethernet header alone */
	rec.logflags = 0x02;
	is("T ebin:", "T ebin: IN=pa OUT=pb MAC source = 02:00:00:00:0c:01 "
	   "MAC dest = 02:00:00:00:0c:02 proto = 0x0800");
}

Test(log_format, ebt_arp_payload_and_incomplete)
{
	ebt("pa", "", 0x0806, bcast, mac_a, 0x02);
	arp_msg(1, mac_a, 1, NULL, 254, 28);
	is("T ebin:", "T ebin: IN=pa OUT= MAC source = 02:00:00:00:0c:01 MAC "
	   "dest = ff:ff:ff:ff:ff:ff proto = 0x0806 ARP HTYPE=1, PTYPE=0x0800, "
	   "OPCODE=1 ARP MAC SRC=02:00:00:00:0c:01 ARP IP SRC=10.11.0.1 ARP "
	   "MAC DST=00:00:00:00:00:00 ARP IP DST=10.11.0.254");
	arp_msg(1, mac_a, 1, NULL, 254, 18);
	is("T ebin:", "T ebin: IN=pa OUT= MAC source = 02:00:00:00:0c:01 MAC "
	   "dest = ff:ff:ff:ff:ff:ff proto = 0x0806 ARP HTYPE=1, PTYPE=0x0800, "
	   "OPCODE=1 INCOMPLETE ARP payload");
}

Test(log_format, ebt_ipv6_skip_exthdr)
{
	uint8_t pl[128] = { 0 };
	int i;

	/* hop-by-hop (8), destination options (16), UDP; traffic class 0xb8 */
	ebt("pa", "pb", 0x86dd, mac_b, mac_a, 0x0b);
	pl[0] = 60; pl[8] = 17; pl[9] = 1;
	put16(pl + 24, 40201); put16(pl + 26, 7201);
	ebt_ip6(0x6b, 0, pl, 36);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0xB, Next Header=0 SPT=40201 DPT=7201");
	/* AH: (2 + 4) * 4 bytes, then TCP */
	memset(pl, 0, sizeof(pl));
	pl[0] = 6; pl[1] = 4;
	put16(pl + 24, 40202); put16(pl + 26, 7202);
	ebt_ip6(0x60, 51, pl, 44);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=51 SPT=40202 DPT=7202");
	/* a later fragment: the walk stops at its header, next header 44 */
	memset(pl, 0, sizeof(pl));
	pl[0] = 17; put16(pl + 2, 8 << 3 | 1);
	put16(pl + 8, 40201); put16(pl + 10, 7201);
	ebt_ip6(0x60, 44, pl, 20);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=44");
	/* the first fragment: on to UDP */
	put16(pl + 2, 1);
	ebt_ip6(0x60, 44, pl, 20);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=44 SPT=40201 DPT=7201");
	/* NEXTHDR_NONE; hop-by-hop then ESP (no extension header, no ports) */
	ebt_ip6(0x60, 59, pl, 8);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=59");
	memset(pl, 0, sizeof(pl));
	pl[0] = 50;
	ebt_ip6(0x60, 0, pl, 24);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=0");
	/* 12 destination options headers, then UDP: no limit */
	memset(pl, 0, sizeof(pl));
	for (i = 0; i < 12; i++)
		pl[8 * i] = i < 11 ? 60 : 17;
	put16(pl + 96, 40201); put16(pl + 98, 7201);
	ebt_ip6(0x60, 60, pl, 108);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=60 SPT=40201 DPT=7201");
	/* UDP cut short; without --log-ip6 the ethernet header alone */
	ebt_ip6(0x60, 17, pl, 2);
	is("T ebfwd:", "T ebfwd: " EB6 "IPv6 priority=0x0, Next Header=17 INCOMPLETE TCP/UDP header");
	rec.logflags = 0;
	is("T ebfwd6", "T ebfwd6 IN=pa OUT=pb MAC source = 02:00:00:00:0c:01 "
	   "MAC dest = 02:00:00:00:0c:02 proto = 0x86dd");
}
