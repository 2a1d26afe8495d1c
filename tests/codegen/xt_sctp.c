// SPDX-License-Identifier: GPL-2.0-only
/*
 * xt_sctp.c - the xt sctp match's translation (codegen/xt/sctp.c): what it
 * refuses, the constants it keeps (ports, chunkmap bits 0-255, flag_info),
 * and what changes its shape (match type, flag count, inversions, chunkmap
 * bits above 255 that make "all" false), not the values.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define INFO_SIZE	292

static struct expr_xt *mk(uint32_t flags, uint32_t inv, uint32_t type, int32_t fc)
{
	struct expr_xt *x = calloc(1, sizeof(*x) + INFO_SIZE);

	cr_assert(x);
	strcpy(x->name, "sctp");
	x->len = INFO_SIZE;
	memcpy(x->info + 264, &type, 4);
	memcpy(x->info + 280, &fc, 4);
	memcpy(x->info + 284, &flags, 4);
	memcpy(x->info + 288, &inv, 4);
	return x;
}

static size_t shape(const struct expr_xt *x, uint8_t *out)
{
	struct codegen_key k = { 0 };
	size_t n;

	codegen_xt_shape(&codegen_xt_sctp, x, &k);
	cr_assert_eq(k.err, 0);
	n = k.len;
	memcpy(out, k.b, n);
	free(k.b);
	return n;
}

static const struct codegen_xt_ops *const ops[] = { &codegen_xt_sctp };

Test(xt_sctp, found_for_rev0_full_info)
{
	struct expr_xt *x = mk(4, 0, 1, 0);

	cr_assert_eq(codegen_xt_find(ops, 1, x), &codegen_xt_sctp);
	x->len = INFO_SIZE - 1;
	cr_assert_null(codegen_xt_find(ops, 1, x));
	x->len = INFO_SIZE;
	x->rev = 1;
	cr_assert_null(codegen_xt_find(ops, 1, x));
	free(x);
}

Test(xt_sctp, refuses_odd_match_type_and_flag_count)
{
	struct dp_error err = { 0 };
	struct expr_xt *x;

	x = mk(4, 0, 3, 0);	/* ANY|ALL: the kernel's switch matches none */
	cr_assert_eq(codegen_xt_sctp.check(x, &err), -EOPNOTSUPP);
	cr_assert(strstr(err.msg, "sctp"));
	free(x);
	x = mk(1, 0, 3, 0);	/* no --chunk-types: the type is not read */
	cr_assert_eq(codegen_xt_sctp.check(x, &err), 0);
	free(x);
	x = mk(4, 0, 4, 5);
	cr_assert_eq(codegen_xt_sctp.check(x, &err), -EOPNOTSUPP);
	free(x);
	x = mk(4, 0, 4, -1);
	cr_assert_eq(codegen_xt_sctp.check(x, &err), -EOPNOTSUPP);
	free(x);
	x = mk(7, 7, 2, 4);
	cr_assert_eq(codegen_xt_sctp.check(x, &err), 0);
	free(x);
}

Test(xt_sctp, consts_layout)
{
	struct expr_xt *x = mk(7, 0, 1, 2);
	uint8_t c[64];
	uint32_t i;

	for (i = 0; i < 8; i++)
		x->info[i] = 0x10 + i;
	for (i = 0; i < 256; i++)
		x->info[8 + i] = i;
	for (i = 0; i < 12; i++)
		x->info[268 + i] = 0xa0 + i;
	cr_assert_eq(codegen_xt_const_size(&codegen_xt_sctp, x), 52);
	codegen_xt_consts(&codegen_xt_sctp, x, c);
	for (i = 0; i < 8; i++)
		cr_assert_eq(c[i], 0x10 + i);
	for (i = 0; i < 32; i++)
		cr_assert_eq(c[8 + i], i);
	for (i = 0; i < 12; i++)
		cr_assert_eq(c[40 + i], 0xa0 + i);
	free(x);
}

Test(xt_sctp, shape_follows_code_not_values)
{
	struct expr_xt *a = mk(4, 0, 1, 1), *b = mk(4, 0, 1, 1);
	uint8_t sa[128], sb[128];
	size_t na, nb;

	/* other ports, chunk types, flags: same shape */
	b->info[0] = 9;
	b->info[8] = 0xff;
	b->info[268] = 3;
	na = shape(a, sa);
	nb = shape(b, sb);
	cr_assert(na == nb && !memcmp(sa, sb, na));
	free(b);
	/* the match type, the flag count, the inversion: another */
	b = mk(4, 0, 2, 1);
	nb = shape(b, sb);
	cr_assert(na != nb || memcmp(sa, sb, na));
	free(b);
	b = mk(4, 0, 1, 2);
	nb = shape(b, sb);
	cr_assert(na != nb || memcmp(sa, sb, na));
	free(b);
	b = mk(4, 4, 1, 1);
	nb = shape(b, sb);
	cr_assert(na != nb || memcmp(sa, sb, na));
	free(b);
	free(a);
	/* a chunkmap bit above 255 with "all": another */
	a = mk(4, 0, 2, 0);
	b = mk(4, 0, 2, 0);
	b->info[8 + 32] = 1;
	na = shape(a, sa);
	nb = shape(b, sb);
	cr_assert(na != nb || memcmp(sa, sb, na));
	free(a);
	free(b);
}
