// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_hash.c - jhash of registers by test run, checked against jhash()
 * written out here in C (lib/jhash semantics), for lengths around the
 * 12-byte block boundary; symhash is refused.
 */
#include "tests/codegen/model.h"
#include "expr/hash.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[128];
static uint32_t plen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 1 /* inet */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	/* a 64-byte UDP datagram with patterned payload */
	tm_ip4(pkt, 17, 1000, 53, 0);
	plen = 64;
	pkt[3] = 64;
	for (uint32_t i = 28; i < plen; i++)
		pkt[i] = (uint8_t)(i * 37);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_hash, .init = setup, .fini = teardown);

static uint32_t rol32(uint32_t w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

/* the reference: Bob Jenkins' lookup3 hashlittle as the kernel's jhash() */
static uint32_t ref_jhash(const uint8_t *k, uint32_t len, uint32_t seed)
{
	uint32_t a, b, c, w[3];

	a = b = c = 0xdeadbeef + len + seed;
	while (len > 12) {
		memcpy(w, k, 12);
		a += w[0]; b += w[1]; c += w[2];
		a -= c; a ^= rol32(c, 4); c += b;
		b -= a; b ^= rol32(a, 6); a += c;
		c -= b; c ^= rol32(b, 8); b += a;
		a -= c; a ^= rol32(c, 16); c += b;
		b -= a; b ^= rol32(a, 19); a += c;
		c -= b; c ^= rol32(b, 4); b += a;
		len -= 12;
		k += 12;
	}
	if (!len)
		return c;
	for (uint32_t i = 0; i < len; i++) {
		uint32_t v = (uint32_t)k[i] << (8 * (i % 4));

		if (i < 4)
			a += v;
		else if (i < 8)
			b += v;
		else
			c += v;
	}
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

/*
 * rule: payload @nh,0,len*8 -> r4; jhash(r4, len, seed) mod m offset o
 * -> r20 (slot 8); cmp eq want; drop. Does the packet match want?
 */
static bool hash_is(uint32_t len, uint32_t seed, uint32_t mod, uint32_t off,
		    uint32_t want)
{
	struct tm_rb rb = { 0 };
	struct expr_hash *h;
	struct rule *r;
	int v;

	tm_payload(&rb, PAYLOAD_NH, 0, len, 4);
	h = tm_add(&rb, EXPR_HASH, sizeof(*h));
	h->type = HASH_JENKINS;
	h->sreg = 4;
	h->dreg = 19;
	h->len = (uint8_t)len;
	h->seed = seed;
	h->modulus = mod;
	h->offset = off;
	tm_cmp(&rb, 19, CMP_EQ, &want, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	v = tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
	tm_rule_del(r);
	tm_commit_ok(&net);
	return v == NF_DROP;
}

static uint32_t scale(uint32_t h, uint32_t mod, uint32_t off)
{
	return (uint32_t)(((uint64_t)h * mod) >> 32) + off;
}

Test(expr_hash, jhash_matches_the_reference_at_every_block_boundary)
{
	static const uint32_t lens[] = { 1, 4, 11, 12, 13, 24, 25, 36, 48 };
	uint32_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint32_t seed = 0x9e3779b9u * (i + 1);
		uint32_t want = scale(ref_jhash(pkt, lens[i], seed), 1000003, 0);

		cr_assert(hash_is(lens[i], seed, 1000003, 0, want),
			  "len %u: jhash differs from the reference", lens[i]);
		cr_assert_not(hash_is(lens[i], seed, 1000003, 0, want + 1));
	}
}

Test(expr_hash, modulus_and_offset_up_to_the_top_of_u32)
{
	uint32_t h = ref_jhash(pkt, 20, 7);

	cr_assert(hash_is(20, 7, 1000, 4294966296u, scale(h, 1000, 4294966296u)));
	cr_assert(hash_is(20, 7, 0xffffffffu, 0, scale(h, 0xffffffffu, 0)));
	cr_assert(hash_is(20, 7, 1, 5, 5));
}

Test(expr_hash, symhash_is_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_hash *h = tm_add(&rb, EXPR_HASH, sizeof(*h));
	struct rule *r;

	h->type = HASH_SYM;
	h->dreg = 4;
	h->modulus = 2;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "symhash is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}
