// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject_build.c - offload_reject_build() against the replies the kernel
 * sent. reject_ref.h holds packets crafted by reject_capture.py, sent
 * over lo in a scratch netns into the 6.18 kernel's own
 *   table inet t { chain in { type filter hook input priority 0;
 *     tcp dport 1 reject with tcp reset; udp dport 3 reject;
 *     udp dport 5 reject with icmpx type host-unreachable;
 *     udp dport 6 reject with icmpx type admin-prohibited;
 *     udp dport 7 reject with icmp type net-prohibited } }
 * and the replies captured on lo (AF_PACKET): each record below carries
 * one such packet, and the reply built from it must be the kernel's byte
 * for byte from the transport header on (TCP header with checksum, ICMP
 * header with checksum and quote), with the kernel's addresses and TOS.
 * The IP header itself (TTL, ID, DF) is made by the kernel's raw socket
 * path when nfbpfd sends, and is compared by the dataplane suite.
 */
#include <errno.h>
#include <string.h>
#include <criterion/criterion.h>

#include "codegen/codegen.h"
#include "offload/offload.h"
#include "expr/reject.h"
#include "tests/offload/reject_ref.h"

static struct codegen_reject_rec rec;
static struct reject_reply r;

/* a record of @pkt rejected at input of an inet table */
static void mk(const uint8_t *pkt, size_t len, uint8_t pf, uint8_t type,
	       uint8_t code)
{
	memset(&rec, 0, sizeof(rec));
	rec.type = type;
	rec.code = code;
	rec.hook = 1;
	rec.pf = pf;
	rec.family = 1;
	rec.pktflags = PKT_HAS_IN | PKT_PKTTYPE;
	rec.pkttype = 0;
	rec.iif = 1;
	rec.len = (uint32_t)len;
	rec.caplen = (uint16_t)(len < REJECT_REC_DATA ? len : REJECT_REC_DATA);
	memcpy(rec.data, pkt, rec.caplen);
}

static uint32_t sum16(uint32_t s, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

/* does the TCP checksum of the built RST verify (sum of all = 0xffff)? */
static bool tcp_csum_ok(void)
{
	size_t al = r.pf == 10 ? 16 : 4;
	uint32_t s = sum16(sum16(sum16(0, r.src, al), r.dst, al), r.msg, r.len);

	s += 6 + r.len;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

/*
 * the built reply is @out (an IPv4 or IPv6 packet without options). On lo
 * the kernel's RST leaves CHECKSUM_PARTIAL: its checksum field holds the
 * pseudo-header sum only, so for TCP the field is checked by verifying
 * ours and the other 18 bytes are compared.
 */
static void same(const uint8_t *out, size_t len)
{
	size_t hl;
	uint8_t msg[sizeof(r.msg)];

	cr_assert_eq(offload_reject_build(&rec, &r), 1);
	hl = r.pf == 10 ? 40 : (out[0] & 0xf) * 4u;
	cr_assert_eq(r.len, len - hl, "length %u, kernel %zu", r.len, len - hl);
	memcpy(msg, r.msg, r.len);
	if (r.proto == 6) {
		cr_assert(tcp_csum_ok());
		memcpy(msg + 16, out + hl + 16, 2);
	}
	cr_assert_arr_eq(msg, out + hl, len - hl);
	if (r.pf == 10) {
		cr_assert_eq(out[6], r.proto);
		cr_assert_arr_eq(r.src, out + 8, 16);
		cr_assert_arr_eq(r.dst, out + 24, 16);
	} else {
		cr_assert_eq(out[9], r.proto);
		cr_assert_eq(out[1], r.tos, "tos 0x%x, kernel 0x%x", r.tos, out[1]);
		cr_assert_arr_eq(r.src, out + 12, 4);
		cr_assert_arr_eq(r.dst, out + 16, 4);
	}
}

#define MK(n, pf, t, c)	mk(n##_in, sizeof(n##_in), pf, t, c)
#define SAME(n)		same(n##_out, sizeof(n##_out))

Test(reject_build, rst4_syn_acks_seq_plus_one)
{
	MK(rst4_syn, 2, REJECT_TCP_RST, 0);
	SAME(rst4_syn);
	cr_assert(r.src_fixed);
	cr_assert_eq(r.msg[13], 0x14);	/* RST|ACK */
}

Test(reject_build, rst4_ack_takes_their_ack_as_seq)
{
	MK(rst4_ack_data, 2, REJECT_TCP_RST, 0);
	SAME(rst4_ack_data);
	cr_assert_eq(r.msg[13], 0x04);	/* RST only */
}

Test(reject_build, rst4_fin_and_data_count)
{
	MK(rst4_fin_data, 2, REJECT_TCP_RST, 0);
	SAME(rst4_fin_data);
}

Test(reject_build, unreach4_port_quotes_548_bytes_with_tos)
{
	MK(unreach4_port_long, 2, REJECT_ICMP_UNREACH, 3);
	SAME(unreach4_port_long);
	cr_assert_eq(r.len, 8 + 548);
	cr_assert_not(r.src_fixed);
}

Test(reject_build, icmpx_maps_per_family)
{
	MK(unreach4_icmpx_host, 2, REJECT_ICMPX_UNREACH, REJECT_ICMPX_HOST_UNREACH);
	SAME(unreach4_icmpx_host);
	MK(unreach4_icmpx_admin, 2, REJECT_ICMPX_UNREACH, REJECT_ICMPX_ADMIN_PROHIBITED);
	SAME(unreach4_icmpx_admin);
	MK(unreach6_icmpx_host, 10, REJECT_ICMPX_UNREACH, REJECT_ICMPX_HOST_UNREACH);
	SAME(unreach6_icmpx_host);
	MK(unreach6_icmpx_admin, 10, REJECT_ICMPX_UNREACH, REJECT_ICMPX_ADMIN_PROHIBITED);
	SAME(unreach6_icmpx_admin);
}

Test(reject_build, icmp_code_as_given)
{
	MK(unreach4_netprohib, 2, REJECT_ICMP_UNREACH, 9);
	SAME(unreach4_netprohib);
}

Test(reject_build, rst6)
{
	MK(rst6_syn, 10, REJECT_TCP_RST, 0);
	SAME(rst6_syn);
	MK(rst6_ack_data, 10, REJECT_TCP_RST, 0);
	SAME(rst6_ack_data);
}

Test(reject_build, unreach6_port_quotes_1232_bytes)
{
	MK(unreach6_port_long, 10, REJECT_ICMP_UNREACH, 4);
	SAME(unreach6_port_long);
	cr_assert_eq(r.len, 8 + 1232);
}

/* the kernel sent nothing to these (captured: no reply within 0.5 s) */
Test(reject_build, no_rst_for_rst)
{
	MK(none4_rst, 2, REJECT_TCP_RST, 0);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	MK(none6_rst, 10, REJECT_TCP_RST, 0);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}

Test(reject_build, nothing_for_non_first_fragments)
{
	MK(none4_frag, 2, REJECT_ICMP_UNREACH, 3);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	MK(none4_frag, 2, REJECT_TCP_RST, 0);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}

/* icmp_send(): no error about an ICMP error; errors about queries are fine */
Test(reject_build, no_icmp_error_about_an_icmp_error)
{
	uint8_t pkt[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 1, 0, 0,
			    127, 0, 0, 1, 127, 0, 0, 1, 3, 3 };

	mk(pkt, sizeof(pkt), 2, REJECT_ICMP_UNREACH, 3);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.data[20] = 8;	/* echo request */
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
	cr_assert_eq(r.len, 8 + 28);
}

Test(reject_build, no_icmp6_error_about_an_icmp6_error)
{
	uint8_t pkt[48] = { 0x60, 0, 0, 0, 0, 8, 58, 64 };

	pkt[23] = 1;	/* ::1 -> ::1 */
	pkt[39] = 1;
	pkt[40] = 1;	/* destination unreachable */
	mk(pkt, sizeof(pkt), 10, REJECT_ICMP_UNREACH, 4);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.data[40] = 128;	/* echo request */
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
}

Test(reject_build, no_reply_to_broadcast_or_multicast)
{
	uint8_t pkt[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0,
			    10, 0, 0, 1, 224, 0, 0, 1 };

	mk(pkt, sizeof(pkt), 2, REJECT_ICMP_UNREACH, 3);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	memset(rec.data + 16, 0xff, 4);
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.data[16] = 10;
	rec.data[19] = 2;
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
	rec.pkttype = 1;	/* PACKET_BROADCAST: a link-layer broadcast */
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}

/* nft_reject_ipv4/ipv6 only handle their own types: icmpx sends nothing */
Test(reject_build, icmpx_in_ip_table_sends_nothing)
{
	MK(unreach4_icmpx_host, 2, REJECT_ICMPX_UNREACH, REJECT_ICMPX_HOST_UNREACH);
	rec.family = 2;
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}

Test(reject_build, truncated_packets_get_no_rst)
{
	MK(rst4_syn, 2, REJECT_TCP_RST, 0);
	rec.caplen = 30;
	rec.len = 30;
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}

/*
 * nf_ip_checksum()/nf_ip6_checksum(): a CHECKSUM_NONE packet with a bad
 * checksum gets no RST and no ICMP error; one the device vouched for
 * (CHECKSUM_UNNECESSARY) does; a UDP checksum of 0 is not checked
 */
Test(reject_build, bad_checksums_only_when_the_kernel_checks)
{
	MK(rst4_ack_data, 2, REJECT_TCP_RST, 0);
	rec.csum = REJECT_CSUM_KNOWN;	/* CHECKSUM_NONE */
	SAME(rst4_ack_data);
	rec.data[45] ^= 1;	/* the payload */
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.csum = REJECT_CSUM_KNOWN | 1;	/* CHECKSUM_UNNECESSARY */
	cr_assert_eq(offload_reject_build(&rec, &r), 1);

	MK(unreach6_icmpx_host, 10, REJECT_ICMPX_UNREACH, REJECT_ICMPX_HOST_UNREACH);
	rec.csum = REJECT_CSUM_KNOWN;
	SAME(unreach6_icmpx_host);
	rec.data[50] ^= 1;
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.csum = REJECT_CSUM_KNOWN | 4;	/* csum_valid */
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
	MK(rst6_syn, 10, REJECT_TCP_RST, 0);
	rec.csum = REJECT_CSUM_KNOWN;
	rec.data[43] ^= 1;	/* the source port */
	cr_assert_eq(offload_reject_build(&rec, &r), 0);

	MK(unreach4_icmpx_host, 2, REJECT_ICMPX_UNREACH, REJECT_ICMPX_HOST_UNREACH);
	rec.csum = REJECT_CSUM_KNOWN;
	rec.data[30] ^= 1;
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
	rec.data[26] = rec.data[27] = 0;	/* UDP checksum 0: none */
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
}

/* ---- offload_reject_ipopt_echo(): __ip_options_echo() in socket form ---- */

#define SO_RR_ADDR	0x08	/* codegen_reject_rec ipopt[4] bits */
#define SO_TS_TIME	0x10
#define SO_TS_ADDR	0x20

/* an IPv4 header from 10.1.0.2 to 10.1.0.1 with @opts (@n bytes, n % 4 == 0) */
static uint8_t hdr[60];

static uint32_t mkhdr(const uint8_t *opts, uint32_t n)
{
	static const uint8_t base[20] = {
		0x45, 0, 0, 0, 0, 0, 0, 0, 64, 17, 0, 0,
		10, 1, 0, 2, 10, 1, 0, 1,
	};

	memcpy(hdr, base, 20);
	hdr[0] = (uint8_t)(0x40 | (20 + n) / 4);
	memcpy(hdr + 20, opts, n);
	return 20 + n;
}

Test(ipopt_echo, no_options_nothing)
{
	uint8_t sopt[8] = { 0 }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(NULL, 0), sopt, out), 0);
}

Test(ipopt_echo, record_route_with_room_keeps_the_pointer)
{
	/* RR of 2 slots, the first filled on receipt (pointer 4 -> 8) */
	static const uint8_t o[] = { 7, 11, 8, 10, 1, 0, 1, 0, 0, 0, 0, 0 };
	uint8_t sopt[8] = { 12, 0, 20, 0, SO_RR_ADDR }, out[40];
	uint32_t hl = mkhdr(o, sizeof(o));

	cr_assert_eq(offload_reject_ipopt_echo(hdr, hl, sopt, out), 12);
	/* compile moves 8 to 12 and ip_options_build() fills slot 2 */
	cr_assert_arr_eq(out, o, 12);
}

Test(ipopt_echo, record_route_full_is_copied)
{
	static const uint8_t o[] = { 7, 7, 8, 10, 1, 0, 1, 0 };
	uint8_t sopt[8] = { 8, 0, 20, 0, SO_RR_ADDR }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 8), sopt, out), 8);
	cr_assert_arr_eq(out, o, 8);
}

Test(ipopt_echo, record_route_slot_cut_short_fails)
{
	/* length 9: the receipt took slot 1 (4 + 3 <= 9), pointer 8 has
	 * no room for another (8 + 3 > 9): -EINVAL, no ICMP error */
	static const uint8_t o[] = { 7, 9, 8, 10, 1, 0, 1, 0, 0, 0, 0, 0 };
	uint8_t sopt[8] = { 12, 0, 20, 0, SO_RR_ADDR }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 12), sopt, out),
		     -EINVAL);
}

Test(ipopt_echo, timestamp_only_and_record_route_both_echoed)
{
	static const uint8_t o[] = {
		0x44, 8, 9, 0x00, 0, 0, 0, 1,	/* TS, its one slot filled */
		7, 3, 4, 0,			/* RR without slots */
	};
	uint8_t sopt[8] = { 12, 0, 28, 20, SO_TS_TIME }, out[40];

	/* RR first, then TS, as the echo orders them */
	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 12), sopt, out), 12);
	cr_assert_arr_eq(out, o + 8, 3);
	cr_assert_arr_eq(out + 3, o, 8);
	cr_assert_eq(out[11], 0);	/* IPOPT_END padding */
}

Test(ipopt_echo, timestamp_and_address_needs_two_slots)
{
	/* TSANDADDR, 12 bytes: receipt 5 -> 13; echo: 13 > 12, copied */
	static const uint8_t o[] = { 0x44, 12, 13, 0x01, 10, 1, 0, 1, 0, 0, 0, 9 };
	uint8_t sopt[8] = { 12, 0, 0, 20, SO_TS_TIME | SO_TS_ADDR }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 12), sopt, out), 12);
	cr_assert_arr_eq(out, o, 12);
}

Test(ipopt_echo, timestamp_and_address_without_room_fails)
{
	/* TSANDADDR, 16 bytes: receipt 5 -> 13; echo: 13 + 4 + 3 > 16 */
	static const uint8_t o[] = {
		0x44, 16, 13, 0x01, 10, 1, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0,
	};
	uint8_t sopt[8] = { 16, 0, 0, 20, SO_TS_TIME | SO_TS_ADDR }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 16), sopt, out),
		     -EINVAL);
}

Test(ipopt_echo, timestamp_overflow_15_goes_out_as_14)
{
	static const uint8_t o[] = { 0x44, 8, 9, 0xf0, 0, 0, 0, 1 };
	uint8_t sopt[8] = { 8, 0, 0, 20, 0 }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 8), sopt, out), 8);
	cr_assert_eq(out[3], 0xe0);
	cr_assert_arr_eq(out + 4, o + 4, 4);
}

Test(ipopt_echo, prespecified_pair_that_does_not_fit_points_past_the_end)
{
	/* PRESPEC 16 bytes, receipt 5 -> 13 (a local address timed): 13 + 3
	 * <= 16 < 13 + 7; the socket form would refuse pointer 13 */
	static const uint8_t o[] = {
		0x44, 16, 13, 0x03, 10, 1, 0, 1, 0, 0, 0, 9, 10, 1, 0, 2,
	};
	uint8_t sopt[8] = { 16, 0, 0, 20, SO_TS_TIME }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 16), sopt, out), 16);
	cr_assert_eq(out[2], 17);
	cr_assert_arr_eq(out + 3, o + 3, 13);
}

Test(ipopt_echo, loose_source_route_reversed_first_hop_in_front)
{
	/* LSRR via 10.9.0.1, 10.9.0.2, all used (pointer 12 > 11) */
	static const uint8_t o[] = { 0x83, 11, 12, 10, 9, 0, 1, 10, 9, 0, 2, 0 };
	uint8_t sopt[8] = { 12, 20, 0, 0, 0 }, out[40];
	static const uint8_t want[] = {
		0x83, 11, 4, 10, 9, 0, 2, 10, 9, 0, 1, 0,
	};

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 12), sopt, out), 12);
	cr_assert_arr_eq(out, want, 12);
}

Test(ipopt_echo, source_route_through_the_source_is_cut)
{
	/* RFC 1812: the hop before the last is the packet's own source
	 * (10.1.0.2): the reply route leaves it out */
	static const uint8_t o[] = { 0x89, 11, 12, 10, 1, 0, 2, 10, 9, 0, 2, 0 };
	uint8_t sopt[8] = { 12, 20, 0, 0, 0x01 }, out[40];
	static const uint8_t want[] = { 0x89, 7, 4, 10, 9, 0, 2, 0 };

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 12), sopt, out), 8);
	cr_assert_arr_eq(out, want, 8);
}

Test(ipopt_echo, source_route_not_yet_used_is_dropped)
{
	/* pointer 4: no hop taken, nothing to reverse (doffset 0) */
	static const uint8_t o[] = { 0x83, 7, 4, 10, 9, 0, 1, 0 };
	uint8_t sopt[8] = { 8, 20, 0, 0, 0 }, out[40];

	cr_assert_eq(offload_reject_ipopt_echo(hdr, mkhdr(o, 8), sopt, out), 0);
}

Test(reject_build, unreach4_echoes_options_and_quotes_less)
{
	/* UDP to 10.1.0.1:53 with a 2-slot RR (one filled), 600 bytes */
	static const uint8_t o[] = { 7, 11, 8, 10, 1, 0, 1, 0, 0, 0, 0, 0 };
	uint8_t pkt[600] = { 0 };
	uint32_t hl = mkhdr(o, sizeof(o));

	memcpy(pkt, hdr, hl);
	pkt[2] = 600 >> 8;
	pkt[3] = 600 & 0xff;
	pkt[hl + 2] = 0;
	pkt[hl + 3] = 53;
	mk(pkt, sizeof(pkt), 2, REJECT_ICMP_UNREACH, 3);
	rec.ipopt[0] = 12;
	rec.ipopt[2] = 20;
	rec.ipopt[4] = SO_RR_ADDR;
	cr_assert_eq(offload_reject_build(&rec, &r), 1);
	cr_assert_eq(r.optlen, 12);
	cr_assert_arr_eq(r.opts, o, 12);
	/* 576 - 20 - 12 - 8 bytes of the datagram */
	cr_assert_eq(r.len, 8 + 536);
	/* the same packet with no room left in a 9-byte RR: nothing */
	pkt[21] = 9;
	mk(pkt, sizeof(pkt), 2, REJECT_ICMP_UNREACH, 3);
	rec.ipopt[0] = 12;
	rec.ipopt[2] = 20;
	rec.ipopt[4] = SO_RR_ADDR;
	cr_assert_eq(offload_reject_build(&rec, &r), 0);
}
