// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_sctp.c - exthdr sctp chunks by test run: the first chunk of a type,
 * padding, zero-length and truncated chunks, the bounds checks of a field
 * load, a walk of many chunks, non-SCTP packets and non-first fragments
 * (IPv4: the fragment's data; IPv6: from skb->data, its thoff being 0).
 */
#include "tests/codegen/model.h"
#include "expr/exthdr.h"

static struct net net;
static struct table *t;
static struct chain *base;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 1 /* inet */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_sctp, .init = setup, .fini = teardown);

/* rule: exthdr sctp (type, offset, len, flags) -> r8; cmp eq v; drop */
static void rule(uint8_t type, uint8_t offset, uint8_t len, uint8_t flags,
		 const void *v)
{
	struct tm_rb rb = { 0 };
	struct expr_exthdr *x = tm_add(&rb, EXPR_EXTHDR, sizeof(*x));

	x->op = EXTHDR_OP_SCTP;
	x->type = type;
	x->offset = offset;
	x->len = len;
	x->flags = flags;
	x->form = EXTHDR_GET;
	x->reg = 8;
	tm_cmp(&rb, 8, CMP_EQ, v, flags & EXTHDR_F_PRESENT ? 1 : len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
}

static void rule_del(void)
{
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
}

/* IPv4 10.0.0.1 -> 10.0.0.2, protocol @proto, fragment offset @frag (8-byte
 * units), the SCTP common header, then @chunks (@clen bytes) */
static uint32_t sctp4(uint8_t *b, uint8_t proto, uint16_t frag,
		      const uint8_t *chunks, uint32_t clen)
{
	uint32_t n = 20 + 12 + clen;

	memset(b, 0, n);
	b[0] = 0x45;
	b[2] = n >> 8;
	b[3] = n & 0xff;
	b[6] = frag >> 8;
	b[7] = frag & 0xff;
	b[8] = 64;
	b[9] = proto;
	b[12] = 10; b[15] = 1;
	b[16] = 10; b[19] = 2;
	b[20] = 0x1f; b[21] = 0x90;	/* 8080 -> 9 */
	b[23] = 9;
	memcpy(b + 32, chunks, clen);
	return n;
}

static int run(const uint8_t *pkt, uint32_t n)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, n);
}

/* DATA (len 17, 3 bytes of padding), INIT (len 20: tag 0x11223344, 7
 * outbound and 5 inbound streams), SACK (len 4) */
static const uint8_t three[] = {
	0, 3, 0, 17, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0xaa, 0, 0, 0,
	1, 0, 0, 20, 0x11, 0x22, 0x33, 0x44, 0, 0, 0x10, 0, 0, 7, 0, 5,
	0xde, 0xad, 0xbe, 0xef,
	3, 0, 0, 4,
};

Test(expr_sctp, presence_walks_padded_chunks)
{
	uint8_t pkt[256], one = 1, zero = 0;
	uint32_t n = sctp4(pkt, 132, 0, three, sizeof(three));

	rule(3 /* sack */, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run(pkt, n), NF_DROP, "sack after the padded data chunk");
	pkt[32 + 3] = 16;	/* data length 16: padding 0, the walk lands in it */
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "misaligned walk misses the sack");
	pkt[32 + 3] = 20;	/* 17..20 pad to the same 20 */
	cr_assert_eq(run(pkt, n), NF_DROP);
	rule_del();
	rule(4 /* heartbeat */, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run(pkt, n), NF_DROP, "absent: 0");
	rule_del();
	rule(0 /* data */, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run(pkt, n), NF_DROP, "the first chunk");
}

Test(expr_sctp, field_loads_of_the_first_chunk_of_a_type)
{
	uint8_t pkt[256], streams[2] = { 0, 5 }, flags = 3;
	uint8_t tag[4] = { 0x11, 0x22, 0x33, 0x44 }, tag2[4] = { 0x55, 0x66, 0x77, 0x88 };
	uint8_t twice[sizeof(three) + 20];
	uint32_t n = sctp4(pkt, 132, 0, three, sizeof(three));

	rule(1 /* init */, 14, 2, 0, streams);	/* num-inbound-streams */
	cr_assert_eq(run(pkt, n), NF_DROP);
	pkt[32 + 20 + 15] = 6;
	cr_assert_eq(run(pkt, n), NF_ACCEPT);
	rule_del();
	rule(0 /* data */, 1, 1, 0, &flags);
	cr_assert_eq(run(pkt, n), NF_DROP, "data flags");
	rule_del();
	/* a second INIT with tag 0x55667788: only the first one counts */
	memcpy(twice, three, sizeof(three));
	memcpy(twice + sizeof(three), three + 20, 20);
	memcpy(twice + sizeof(three) + 4, tag2, 4);
	n = sctp4(pkt, 132, 0, twice, sizeof(twice));
	rule(1, 4, 4, 0, tag2);
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "the second init is not looked at");
	rule_del();
	rule(1, 4, 4, 0, tag);
	cr_assert_eq(run(pkt, n), NF_DROP);
}

Test(expr_sctp, field_load_bounds_break)
{
	uint8_t pkt[256], v4[4] = { 0, 0, 0, 0 }, one = 1;
	uint8_t sack[8] = { 3, 0, 0, 8, 0, 0, 0, 0 };
	uint32_t n;

	/* offset + len > chunk length: no value (break), even for != */
	rule(3, 4, 4, 0, v4);
	n = sctp4(pkt, 132, 0, sack, 8);
	cr_assert_eq(run(pkt, n), NF_DROP, "bytes 4..8 of an 8-byte chunk");
	pkt[32 + 3] = 7;
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "chunk length 7 < 8");
	/* the chunk claims more than the packet has: break */
	pkt[32 + 3] = 12;
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "truncated chunk");
	rule_del();
	/* but it is present */
	rule(3, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run(pkt, n), NF_DROP, "a truncated chunk is present");
}

Test(expr_sctp, zero_length_and_truncated_headers_end_the_walk)
{
	uint8_t pkt[256], zero = 0;
	uint8_t zl[12] = { 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0 };
	uint8_t cut[6] = { 9, 0, 0, 4, 3, 0 };	/* a 2-byte chunk header */
	uint32_t n;

	rule(3, 0, 1, EXTHDR_F_PRESENT, &zero);
	n = sctp4(pkt, 132, 0, zl, sizeof(zl));
	cr_assert_eq(run(pkt, n), NF_DROP, "a zero length ends the walk");
	zl[3] = 4;
	n = sctp4(pkt, 132, 0, zl, sizeof(zl));
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "sack behind a 4-byte chunk");
	n = sctp4(pkt, 132, 0, cut, sizeof(cut));
	cr_assert_eq(run(pkt, n), NF_DROP, "a header cut short is not read");
	n = sctp4(pkt, 132, 0, cut, 0);
	cr_assert_eq(run(pkt, n), NF_DROP, "no chunks at all");
}

Test(expr_sctp, many_chunks_no_step_limit)
{
	/* as many as a test run's page takes */
	static uint8_t chunks[4 * 800 + 4], pkt[20 + 12 + sizeof(chunks)];
	uint8_t one = 1;
	uint32_t i, n;

	for (i = 0; i < 800; i++) {
		chunks[4 * i] = 9;	/* ERROR, 4 bytes */
		chunks[4 * i + 3] = 4;
	}
	chunks[4 * 800] = 14;	/* SHUTDOWN COMPLETE */
	chunks[4 * 800 + 3] = 4;
	rule(14, 0, 1, EXTHDR_F_PRESENT, &one);
	n = sctp4(pkt, 132, 0, chunks, sizeof(chunks));
	cr_assert_eq(run(pkt, n), NF_DROP, "the 801st chunk is found");
	chunks[4 * 800] = 15;
	n = sctp4(pkt, 132, 0, chunks, sizeof(chunks));
	cr_assert_eq(run(pkt, n), NF_ACCEPT);
}

Test(expr_sctp, not_sctp_or_non_first_fragment)
{
	uint8_t pkt[256], one = 1, zero = 0, flags = 3;
	uint32_t n;

	rule(3, 0, 1, EXTHDR_F_PRESENT, &one);
	n = sctp4(pkt, 17, 0, three, sizeof(three));
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "udp");
	/* 6.18 walks a later fragment's data as if it began with the header */
	n = sctp4(pkt, 132, 0x0002, three, sizeof(three));
	cr_assert_eq(run(pkt, n), NF_DROP, "a non-first fragment");
	pkt[32 + 20 + 20] = 4;
	cr_assert_eq(run(pkt, n), NF_ACCEPT);
	pkt[32 + 20 + 20] = 3;
	n = sctp4(pkt, 132, 0x2000, three, sizeof(three));	/* MF */
	cr_assert_eq(run(pkt, n), NF_DROP, "a first fragment");
	rule_del();
	rule(3, 0, 1, EXTHDR_F_PRESENT, &zero);
	n = sctp4(pkt, 17, 0, three, sizeof(three));
	cr_assert_eq(run(pkt, n), NF_DROP, "udp: absent, 0");
	rule_del();
	rule(0, 1, 1, 0, &flags);
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "udp: a load breaks");
}

/* an IPv6 later fragment: thoff 0, so the walk starts 12 bytes into the
 * IPv6 header, in the source address */
Test(expr_sctp, ipv6_later_fragment_walks_from_skb_data)
{
	uint8_t pkt[128] = { 0 }, one = 1;

	rule(3, 0, 1, EXTHDR_F_PRESENT, &one);
	pkt[0] = 0x60;
	pkt[5] = 8 + 16;
	pkt[6] = 44;
	pkt[7] = 64;
	pkt[12] = 3;	/* source address bytes 4..7: a sack chunk of 4 */
	pkt[15] = 4;
	pkt[23] = 1;
	pkt[39] = 2;
	pkt[40] = 132;	/* fragment header: sctp, offset 8, no more */
	pkt[43] = 8;
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, 40 + 8 + 16), NF_DROP);
	pkt[12] = 4;
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, 40 + 8 + 16), NF_ACCEPT);
	pkt[12] = 3;
	pkt[43] = 0;	/* a first fragment: the chunks after its 12 bytes */
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, 40 + 8 + 16), NF_ACCEPT);
	pkt[48 + 12] = 3;
	pkt[48 + 15] = 4;
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, 40 + 8 + 16), NF_DROP);
}
