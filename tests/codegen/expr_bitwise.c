// SPDX-License-Identifier: GPL-2.0-only
/* expr_bitwise.c - mask/xor and shifts (nft_bitwise semantics). */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_bitwise, 2, NF_ACCEPT);

static int verdict(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

Test(expr_bitwise, mask_xor_prefix)
{
	/* ip daddr & 255.255.0.0 == 10.0.0.0 (daddr 10.0.0.2) */
	uint8_t mask[4] = { 255, 255, 0, 0 }, x[4] = { 0 }, net10[4] = { 10, 0, 0, 0 };
	struct tm_rb rb = { 0 };

	tm_payload(&rb, PAYLOAD_NH, 16, 4, 4);
	tm_bitwise(&rb, 4, 5, 4, mask, x);
	tm_cmp(&rb, 5, CMP_EQ, net10, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(verdict(), NF_DROP);
	pkt[17] = 1;	/* 10.1.0.2 */
	cr_assert_eq(verdict(), NF_ACCEPT);
}

Test(expr_bitwise, xor_and_partial_word)
{
	/* 3 bytes: (a & ff ff 0f) ^ 01 00 00 -> compare; the word's last byte is 0 */
	uint8_t a[4] = { 0x12, 0x34, 0x56, 0x78 }, mask[3] = { 0xff, 0xff, 0x0f };
	uint8_t x[3] = { 0x01, 0, 0 }, want[4] = { 0x13, 0x34, 0x06, 0 };
	struct tm_rb rb = { 0 };

	tm_imm(&rb, 4, a, 4);
	tm_bitwise(&rb, 4, 4, 3, mask, x);
	tm_cmp(&rb, 4, CMP_EQ, want, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(verdict(), NF_DROP);
}

Test(expr_bitwise, shifts_host_words_with_carry)
{
	/* two host-order u32 words 0x80000001, 0x00000003 */
	uint32_t in[2] = { 0x80000001, 0x00000003 };
	uint32_t lsh[2] = { 0x00000002, 0x00000006 };	/* << 1: word0 gets carry from word1? no: */
	uint32_t rsh[2] = { 0x40000000, 0x80000001 };
	struct tm_rb rb = { 0 };

	/* lshift walks from the last word down: dst[1] = src[1] << 1,
	 * carry = src[1] >> 31 = 0; dst[0] = src[0] << 1 | 0 = 0x00000002 */
	tm_imm(&rb, 4, in, 8);
	tm_shift(&rb, 4, 6, 8, BITWISE_LSHIFT, 1);
	tm_cmp(&rb, 6, CMP_EQ, lsh, 8);
	/* rshift walks up: dst[0] = src[0] >> 1 = 0x40000000, carry = src[0] << 31;
	 * dst[1] = carry | src[1] >> 1 = 0x80000001 */
	tm_shift(&rb, 4, 8, 8, BITWISE_RSHIFT, 1);
	tm_cmp(&rb, 8, CMP_EQ, rsh, 8);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(verdict(), NF_DROP);
}
