// SPDX-License-Identifier: GPL-2.0-only
/* expr_byteorder.c - element swaps of 2, 4 and 8 bytes. */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_byteorder, 2, NF_ACCEPT);

static void check(uint32_t size, uint32_t len, const uint8_t *in,
		  const uint8_t *out)
{
	struct tm_rb rb = { 0 };

	tm_imm(&rb, 4, in, len);
	tm_byteorder(&rb, 4, 8, 0 /* ntoh */, len, size);
	tm_cmp(&rb, 8, CMP_EQ, out, len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP,
		     "size %u", size);
}

Test(expr_byteorder, size2)
{
	static const uint8_t in[4] = { 1, 2, 3, 4 }, out[4] = { 2, 1, 4, 3 };

	check(2, 4, in, out);
}

Test(expr_byteorder, size4)
{
	static const uint8_t in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t out[8] = { 4, 3, 2, 1, 8, 7, 6, 5 };

	check(4, 8, in, out);
}

Test(expr_byteorder, size8)
{
	static const uint8_t in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t out[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };

	check(8, 8, in, out);
}
