// SPDX-License-Identifier: GPL-2.0-only
/*
 * xt_string.c - the automaton of the xt string match
 * (codegen_string_build()) against references written from the kernel's
 * algorithms (lib/ts_kmp.c kmp_find(), lib/ts_bm.c bm_find() and its
 * tables, over one block), on random and chosen patterns and texts; and
 * the kernel ctype's toupper().
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"

#define NONE	UINT32_MAX

/* the automaton over @text: start offset of the first match, else NONE */
static uint32_t dfa_find(const struct codegen_string_table *t,
			 const uint8_t *text, uint32_t len)
{
	uint32_t q = 0, i;

	for (i = 0; i < len; i++) {
		q = t->delta[((q << 8) | text[i]) & STRING_DELTA_MASK];
		if (q == t->patlen)
			return i + 1 - t->patlen;
	}
	return NONE;
}

static uint8_t up(uint8_t c, bool icase)
{
	return icase ? codegen_kernel_toupper(c) : c;
}

/* kmp_find() over one block */
static uint32_t ref_kmp(const uint8_t *pattern, uint32_t m, const uint8_t *text,
			uint32_t len, bool icase)
{
	uint32_t pi[STRING_PATLEN_MAX], k, q, i;
	uint8_t p[STRING_PATLEN_MAX];

	for (i = 0; i < m; i++)
		p[i] = up(pattern[i], icase);
	pi[0] = 0;
	for (k = 0, q = 1; q < m; q++) {
		while (k > 0 && p[k] != p[q])
			k = pi[k - 1];
		if (p[k] == p[q])
			k++;
		pi[q] = k;
	}
	for (q = 0, i = 0; i < len; i++) {
		while (q > 0 && p[q] != up(text[i], icase))
			q = pi[q - 1];
		if (p[q] == up(text[i], icase))
			q++;
		if (q == m)
			return i + 1 - m;
	}
	return NONE;
}

static int subpattern(const uint8_t *p, int i, int j, int g)
{
	int x = i + g - 1, y = j + g - 1, ret = 0;

	while (p[x--] == p[y--]) {
		if (y < 0) {
			ret = 1;
			break;
		}
		if (--g == 0) {
			ret = p[i - 1] != p[j - 1];
			break;
		}
	}
	return ret;
}

/* bm_find() over one block, with compute_prefix_tbl()'s tables */
static uint32_t ref_bm(const uint8_t *pattern, int m, const uint8_t *text,
		       int len, bool icase)
{
	unsigned int bad[256], good[STRING_PATLEN_MAX];
	uint8_t p[STRING_PATLEN_MAX];
	int i, j, g, shift = m - 1;

	for (i = 0; i < m; i++)
		p[i] = up(pattern[i], icase);
	for (i = 0; i < 256; i++)
		bad[i] = m;
	for (i = 0; i < m - 1; i++) {
		bad[p[i]] = m - 1 - i;
		if (icase) {
			uint8_t c = p[i];	/* kernel tolower() */

			if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7))
				c += 'a' - 'A';
			bad[c] = m - 1 - i;
		}
	}
	good[0] = 1;
	for (i = 1; i < m; i++)
		good[i] = m;
	for (i = m - 1, g = 1; i > 0; g++, i--)
		for (j = i - 1; j >= 1 - g; j--)
			if (subpattern(p, i, j, g)) {
				good[g] = m - j - g;
				break;
			}
	while (shift < len) {
		for (i = 0; i < m; i++)
			if (up(text[shift - i], icase) != p[m - 1 - i])
				break;
		if (i == m)
			return shift + 1 - m;
		j = shift - i + (int)bad[text[shift - i]];
		shift = j > shift + (int)good[i] ? j : shift + (int)good[i];
	}
	return NONE;
}

Test(xt_string, kernel_toupper_is_latin1)
{
	cr_assert_eq(codegen_kernel_toupper('a'), 'A');
	cr_assert_eq(codegen_kernel_toupper('z'), 'Z');
	cr_assert_eq(codegen_kernel_toupper('A'), 'A');
	cr_assert_eq(codegen_kernel_toupper('@'), '@');
	cr_assert_eq(codegen_kernel_toupper(0xe9), 0xc9);
	cr_assert_eq(codegen_kernel_toupper(0xdf), 0xbf);
	cr_assert_eq(codegen_kernel_toupper(0xff), 0xdf);
	cr_assert_eq(codegen_kernel_toupper(0xf7), 0xf7);
	cr_assert_eq(codegen_kernel_toupper(0xc0), 0xc0);
}

Test(xt_string, automaton_is_kmp_and_bm_in_one_block)
{
	static struct codegen_string_table t;
	uint8_t pat[STRING_PATLEN_MAX], text[300];
	unsigned int seed = 1, n, mism = 0;

	for (n = 0; n < 20000; n++) {
		uint32_t m = 1 + rand_r(&seed) % (n % 4 ? 6 : 40);
		uint32_t len = rand_r(&seed) % 300, i, alpha = 2 + n % 5;
		bool icase = n % 3 == 0, bad = false;
		uint32_t d, k, b;

		/* small alphabets (repetitions), letters of both cases */
		for (i = 0; i < m; i++)
			pat[i] = "aAbB\xe9\xc9zZ"[rand_r(&seed) % alpha];
		for (i = 0; i < len; i++)
			text[i] = "aAbB\xe9\xc9zZ"[rand_r(&seed) % alpha];
		if (len > m && n % 2) {	/* plant it */
			uint32_t at = rand_r(&seed) % (len - m);

			memcpy(text + at, pat, m);
		}
		codegen_string_build(&t, pat, m, icase);
		d = dfa_find(&t, text, len);
		k = ref_kmp(pat, m, text, len, icase);
		b = ref_bm(pat, m, text, len, icase);
		cr_assert_eq(d, k, "kmp: pattern len %u text len %u icase %d", m, len, icase);
		for (i = 0; i + 1 < m; i++)
			bad |= icase && (up(pat[i], 1) == 0xbf || up(pat[i], 1) == 0xdf);
		if (!bad)
			cr_assert_eq(d, b, "bm: pattern len %u text len %u icase %d", m, len, icase);
		mism += d != b;
	}
	cr_assert_eq(mism, 0);
}

Test(xt_string, bm_icase_misses_what_toupper_folds_past_tolower)
{
	static struct codegen_string_table t;
	/* pattern "\xdf" + "a" upper-cased is "\xbf" "A"; the text's 0xdf
	 * has toupper() 0xbf but no bad character entry: bm skips it */
	const uint8_t pat[] = { 0xdf, 'a' }, text[] = { 'x', 0xdf, 'a' };

	codegen_string_build(&t, pat, 2, true);
	cr_assert_eq(dfa_find(&t, text, 3), 1);
	cr_assert_eq(ref_kmp(pat, 2, text, 3, true), 1);
	cr_assert_eq(ref_bm(pat, 2, text, 3, true), NONE);
}

Test(xt_string, keys_differ_by_case_and_pattern)
{
	const uint8_t a[] = "abc", b[] = "abd";

	cr_assert_neq(codegen_string_key(a, 3, false), codegen_string_key(a, 3, true));
	cr_assert_neq(codegen_string_key(a, 3, false), codegen_string_key(b, 3, false));
	cr_assert_neq(codegen_string_key(a, 2, false), codegen_string_key(a, 3, false));
	cr_assert_eq(codegen_string_key(a, 3, true), codegen_string_key(a, 3, true));
}
