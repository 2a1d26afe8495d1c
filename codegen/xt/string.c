// SPDX-License-Identifier: GPL-2.0-only
/*
 * string.c - the string match (xt_string.c string_mt), revision 1:
 * skb_find_text(skb, from, to, conf) != UINT_MAX, xor --invert.
 *
 * struct xt_string_info { u16 from_offset @0, to_offset @2; char
 * algo[16] @4; char pattern[128] @20; u8 patlen @148; u8 flags @149
 * (XT_STRING_FLAG_INVERT 1, _IGNORECASE 2); ts_config *config @152 }.
 *
 * What the kernel computes (net/core/skbuff.c skb_find_text(),
 * skb_seq_read(); lib/ts_kmp.c, lib/ts_bm.c, 6.18):
 *  - the text is handed out in blocks, in stream order from @from: the
 *    skb's linear head, each page fragment, then for each skb of the
 *    frag_list (the root's, then ->next) its head and its fragments
 *    (a frag_list skb's own frag_list is skipped); blocks are fetched
 *    while their start is below @to, and each runs to its end (not cut
 *    at @to): the result counts only if it ends at or before @to
 *    (ret + patlen <= to - from);
 *  - kmp keeps its state across blocks: it finds the first occurrence
 *    of the pattern in the stream [from, min(to, end));
 *  - bm restarts in every block (shift = patlen - 1 per block): it only
 *    finds occurrences inside one block. Its shifts are safe (a bad
 *    character table of the last occurrences, a strong good-suffix
 *    table), so in a block it finds the leftmost occurrence; with
 *    --icase its bad character table holds pattern[i] and
 *    tolower(pattern[i]) of the upper-cased pattern, which misses the
 *    two bytes whose toupper() is not undone by tolower() (0xdf -> 0xbf,
 *    0xff -> 0xdf in the kernel's Latin-1 ctype): such patterns are
 *    refused (bm would skip occurrences that the automaton finds).
 * Both are therefore one automaton over the stream (the KMP automaton of
 * the pattern, ignoring case as toupper(byte) == pattern byte), bm
 * resetting it at block boundaries. The automaton is a table nfbpfd
 * builds (codegen_string_build(), env->string_fd); the walk over the
 * blocks reads the skb's layout with bpf_probe_read_kernel(), as
 * skb_seq_read() does, and the bytes with bpf_dynptr_read().
 *
 * The walk is a bpf_loop callback whose context is the shape frame's
 * [fp-88, fp): the packet dynptr, then the map key and the walk state
 * (C_* below), then a 24-byte buffer; each iteration either moves to the
 * next block or runs the automaton over up to 24 bytes of one block.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define I_FROM		0
#define I_TO		2
#define I_ALGO		4
#define ALGO_LEN	16
#define I_PATTERN	20
#define I_PATLEN	148
#define I_FLAGS		149
#define INFO_SIZE	160

#define F_INVERT	0x01
#define F_ICASE		0x02

/* rule constants: u64 automaton key, u32 from, u32 to */
#define K_KEY		0
#define K_FROM		8
#define K_TO		12
#define K_SIZE		16

/* the loop context, from the shape frame's fp-88 */
#define CTX_OFF		SHAPE_DYNPTR_OFF
#define C_DYNPTR	0	/* the packet view */
#define C_KEY		16	/* u64 automaton key (SHAPE_KEY_OFF) */
#define C_Q		24	/* u32 automaton state */
#define C_POS		28	/* u32 stream offset scanned to */
#define C_END		32	/* u32 min(to, packet length) */
#define C_BEND		36	/* u32 stream offset of the block's end */
#define C_CUR		40	/* u64 skb whose blocks these are (0: none
				 * after the current block) */
#define C_DELTA		48	/* u32 packet offset - stream offset */
#define C_LINNEXT	52	/* u32 packet offset of cur->next's data */
/* the bytes below sit off the 8-byte slot boundary on purpose: the
 * verifier tracks no constant it reads there, so the iterations of the
 * loop converge instead of being walked one by one */
#define C_FLAGS		56	/* u64 holding the four bytes below */
#define C_FIDX		57	/* u8 next fragment of cur, 0xff: in its head */
#define C_NFRAGS	58	/* u8 cur's nr_frags */
#define C_ROOT		59	/* u8 cur is the skb itself */
#define C_FOUND		60	/* u8 result */
#define C_BUF		64	/* 24 bytes */
#define BUF_LEN		24
#define FP(c)		((int16_t)(CTX_OFF + (c)))

#define TBL_DELTA	((int16_t)offsetof(struct codegen_string_table, delta))
#define TBL_PATLEN	((int16_t)offsetof(struct codegen_string_table, patlen))

#define LOOP_MAX	(1u << 20)

uint8_t codegen_kernel_toupper(uint8_t c)
{
	/* islower(): a-z, 0xdf-0xf6, 0xf8-0xff (lib/ctype.c) */
	if ((c >= 'a' && c <= 'z') || (c >= 0xdf && c != 0xf7))
		return c - ('a' - 'A');
	return c;
}

uint64_t codegen_string_key(const uint8_t *pattern, uint32_t patlen, bool icase)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a 64 */
	uint32_t i;

	h ^= icase ? 0x100 | patlen : patlen;
	h *= 0x100000001b3ull;
	for (i = 0; i < patlen; i++) {
		h ^= pattern[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void codegen_string_build(struct codegen_string_table *t, const uint8_t *pattern,
			  uint32_t patlen, bool icase)
{
	uint8_t pat[STRING_PATLEN_MAX];
	uint32_t pi[STRING_PATLEN_MAX];
	uint32_t q, k, c;

	memset(t, 0, sizeof(*t));
	t->patlen = patlen;
	for (q = 0; q < patlen; q++)
		pat[q] = icase ? codegen_kernel_toupper(pattern[q]) : pattern[q];
	/* the prefix function (kmp compute_prefix_tbl()) */
	pi[0] = 0;
	for (k = 0, q = 1; q < patlen; q++) {
		while (k > 0 && pat[k] != pat[q])
			k = pi[k - 1];
		if (pat[k] == pat[q])
			k++;
		pi[q] = k;
	}
	/* kmp_find()'s step from state q on byte c */
	for (q = 0; q < patlen; q++)
		for (c = 0; c < 256; c++) {
			uint8_t b = icase ? codegen_kernel_toupper(c) : c;

			k = q;
			while (k > 0 && pat[k] != b)
				k = pi[k - 1];
			if (pat[k] == b)
				k++;
			t->delta[q * 256 + c] = (uint8_t)k;
		}
}

static bool is_bm(const struct expr_xt *x)
{
	return !strncmp((const char *)x->info + I_ALGO, "bm", ALGO_LEN);
}

static int string_check(const struct expr_xt *x, struct dp_error *err)
{
	const char *algo = (const char *)x->info + I_ALGO;
	uint8_t patlen = x->info[I_PATLEN];
	bool icase = x->info[I_FLAGS] & F_ICASE;
	uint32_t i;

	if (x->family != 2 && x->family != 10) {
		err->msg = "xt match 'string' outside the ip and ip6 families is not supported by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	if (strncmp(algo, "bm", ALGO_LEN) && strncmp(algo, "kmp", ALGO_LEN)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt match 'string' with --algo %.16s is not supported by the nfbpf dataplane",
			 algo);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!patlen || patlen > STRING_PATLEN_MAX) {
		err->msg = "xt match 'string' with an empty pattern is not supported by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	for (i = 0; icase && is_bm(x) && i + 1 < patlen; i++) {
		uint8_t u = codegen_kernel_toupper(x->info[I_PATTERN + i]);

		if (u == 0xbf || u == 0xdf) {
			err->msg = "xt match 'string' --algo bm --icase with bytes 0xbf, 0xdf or 0xff in the pattern is not supported by the nfbpf dataplane (the kernel's bad character table skips matches there)";
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

static void string_consts(const struct expr_xt *x, uint8_t *dst)
{
	uint64_t key = codegen_string_key(x->info + I_PATTERN, x->info[I_PATLEN],
					  x->info[I_FLAGS] & F_ICASE);
	uint16_t from, to;
	uint32_t v;

	memcpy(&from, x->info + I_FROM, 2);
	memcpy(&to, x->info + I_TO, 2);
	memcpy(dst + K_KEY, &key, 8);
	v = from;
	memcpy(dst + K_FROM, &v, 4);
	v = to;
	memcpy(dst + K_TO, &v, 4);
}

static void string_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { is_bm(x), x->info[I_FLAGS] & F_INVERT };

	codegen_key_put(k, v, sizeof(v));
}

/* r0 = the @size bytes at @base + @off (kernel memory; the callback's
 * fp-8 is the buffer); clobbers r1-r3 */
static void emit_kread(struct codegen_prog *p, uint32_t size, int base,
		       int16_t off)
{
	if (off < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, -8, 0));
	codegen_emit(p, INSN_MOV64_REG(R3, base));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, off));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, -8));
	codegen_emit(p, INSN_MOV64_IMM(R2, size));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit(p, INSN_LDX_MEM(size == 8 ? BPF_DW : size == 4 ? BPF_W : BPF_B,
				     R0, R10, -8));
}

/* r9 = skb_shinfo(r7): skb->head + skb->end; clobbers r0-r3 */
static void emit_shinfo(struct codegen_prog *p, const struct codegen_env *env)
{
	emit_kread(p, 8, R7, env->off.skb_head);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	emit_kread(p, 4, R7, env->off.skb_end);
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R0));
}

static void ret(struct codegen_prog *p, int v)
{
	codegen_emit(p, INSN_MOV64_IMM(R0, v));
	codegen_emit(p, INSN_EXIT());
}

/*
 * bpf_loop callback cb(index, ctx): one step of the walk. @arg != NULL:
 * bm (the automaton restarts in each block).
 */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	uint32_t l_stop = codegen_label_new(p), l_bytes = codegen_label_new(p);
	uint32_t l_frags = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t l_list = codegen_label_new(p), l_have = codegen_label_new(p);
	uint32_t l_min = codegen_label_new(p), l_cap = codegen_label_new(p);
	uint32_t l_save = codegen_label_new(p), l_found = codegen_label_new(p);
	uint32_t k;

	/* r6 = ctx; if pos >= end: stop; if pos < bend goto bytes */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_POS));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, C_END));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R1, R2, 0), l_stop);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, C_BEND));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R3, 0), l_bytes);

	/* 1. the next block (skb_seq_read()); bm: the search restarts */
	if (arg)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_Q, 0));
	/* r7 = cur; if !r7: stop (the stream ends); r8 = fidx */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R7, R6, C_CUR));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, 0, 0), l_stop);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R8, R6, C_FIDX));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R8, 0xff, 0), l_frags);
	/* past cur's head: nfrags = skb_shinfo(cur)->nr_frags; fidx = 0 */
	emit_shinfo(p, env);
	emit_kread(p, 1, R9, env->off.shi_nr_frags);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R0, C_NFRAGS));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, C_FIDX, 0));
	ret(p, 0);
	/* frags: if fidx < nfrags: bend += frags[fidx].len; fidx++ */
	codegen_label_bind(p, l_frags);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, C_NFRAGS));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R8, R1, 0), l_next);
	emit_shinfo(p, env);
	if (env->off.shi_frag_len < 0 && !p->err)
		p->err = -EOPNOTSUPP;
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R9, env->off.shi_frag_len));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MUL, R1, env->off.frag_size));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
	emit_kread(p, 4, R9, 0);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R8, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R8, C_FIDX));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_BEND));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_BEND));
	ret(p, 0);
	/* the next skb: the root's frag_list, else cur->next; r9 = the
	 * packet offset of its data (after the root: the stream offset) */
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, C_ROOT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_list);
	emit_shinfo(p, env);
	emit_kread(p, 8, R9, env->off.shi_frag_list);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, C_BEND));
	codegen_emit_jmp(p, INSN_JA(0), l_have);
	codegen_label_bind(p, l_list);
	emit_kread(p, 8, R7, env->off.skb_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, C_LINNEXT));
	codegen_label_bind(p, l_have);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_stop);
	/* cur = next, in its head; delta = r9 - bend */
	codegen_emit(p, INSN_MOV64_REG(R7, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R7, C_CUR));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, C_ROOT, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, C_FIDX, 0xff));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_BEND));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R2, R1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, C_DELTA));
	/* linnext = r9 + next->len; bend += next->len - next->data_len */
	emit_kread(p, 4, R7, env->off.skb_len);
	codegen_emit(p, INSN_MOV64_REG(R8, R0));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R9, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R9, C_LINNEXT));
	emit_kread(p, 4, R7, env->off.skb_data_len);
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R8, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_BEND));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R8));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_BEND));
	ret(p, 0);

	/* 2. bytes [pos, pos + n) of the block: n = min(bend, end) - pos,
	 * at most BUF_LEN (r1 = pos, r2 = end, r3 = bend) */
	codegen_label_bind(p, l_bytes);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R3, R2, 0), l_min);
	codegen_emit(p, INSN_MOV64_REG(R3, R2));
	codegen_label_bind(p, l_min);
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R3, BUF_LEN, 0), l_cap);
	codegen_emit(p, INSN_MOV64_IMM(R3, BUF_LEN));
	codegen_label_bind(p, l_cap);
	codegen_emit(p, INSN_MOV64_REG(R9, R3));
	/* bpf_dynptr_read(buf, n, dynptr, pos + delta, 0); fails: stop */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, C_DELTA));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R4, R1));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, C_BUF));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_stop);
	/* r7 = the automaton; r8 = patlen; r0 = q */
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, C_KEY));
	codegen_emit_ld_map(p, R1, env->string_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_stop);
	codegen_emit(p, INSN_MOV64_REG(R7, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R8, R7, TBL_PATLEN));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R0, R6, C_Q));
	for (k = 0; k < BUF_LEN; k++) {
		/* if n <= k goto save; q = delta[(q << 8 | buf[k]) & mask];
		 * if q == patlen goto found */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R9, k, 0), l_save);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, C_BUF + k));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R0, 8));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R0, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R0, STRING_DELTA_MASK));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R0, R7));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R0, R0, TBL_DELTA));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R0, R8, 0), l_found);
	}
	/* save: q; pos += n; next iteration */
	codegen_label_bind(p, l_save);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, C_Q));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_POS));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R9));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_POS));
	ret(p, 0);
	codegen_label_bind(p, l_found);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, C_FOUND, 1));
	codegen_label_bind(p, l_stop);
	ret(p, 1);
}

/* the callback of @bm in @p (one per kind and program) */
static uint32_t cb_label(struct codegen_prog *p, bool bm)
{
	static const char kind_bm, kind_kmp;
	const void *arg = bm ? &kind_bm : NULL;
	uint32_t i, l;

	(void)kind_kmp;
	for (i = 0; i < p->ndeferred; i++)
		if (p->deferred[i].emit == emit_cb && p->deferred[i].arg == arg)
			return p->deferred[i].label;
	l = codegen_label_new(p);
	codegen_defer_func(p, l, emit_cb, arg);
	return l;
}

static void string_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	bool bm = is_bm(x), inv = x->info[I_FLAGS] & F_INVERT;
	uint32_t l_end = codegen_label_new(p), l_lin = codegen_label_new(p);
	uint32_t l_res = codegen_label_new(p);
	uint32_t l_cb = cb_label(p, bm);
	int16_t c = ec->cbase;

	/* key; q = 0; pos = from; end = min(view length, to) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, c + K_KEY));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP(C_KEY)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FP(C_Q), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, c + K_FROM));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP(C_POS)));
	codegen_emit_view_len(p, ec->env, R2, R3);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, c + K_TO));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R2, R3, 0), l_end);
	codegen_emit(p, INSN_MOV64_REG(R2, R3));
	codegen_label_bind(p, l_end);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R2, FP(C_END)));
	/* the skb's head is the first block; cur = the skb unless it is
	 * linear (nothing after its head) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, PKT_OFF(headlen)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R3, FP(C_BEND)));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_CUR), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(len)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R3, R4, 0), l_lin);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R4, FP(C_CUR)));
	codegen_label_bind(p, l_lin);
	/* delta = linnext = 0; fidx = 0xff, nfrags = 0, root = 1, found =
	 * 0; the buffer zeroed */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_DELTA), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_FLAGS), 0x0100ff00));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_BUF), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_BUF + 8), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_BUF + 16), 0));
	/* from >= end: nothing to search */
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R1, R2, 0), l_res);
	/* the packet view; bpf_loop(LOOP_MAX, cb, fp-88, 0) */
	codegen_emit_dynptr(p, ec->env, R8, FP(C_DYNPTR));
	codegen_emit(p, INSN_MOV32_IMM(R1, LOOP_MAX));
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(C_DYNPTR)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* found ^ invert, else break */
	codegen_label_bind(p, l_res);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, FP(C_FOUND)));
	codegen_emit_jmp(p, INSN_JMP_IMM(inv ? BPF_JNE : BPF_JEQ, R1, 0, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_string = {
	.name = "string", .rev = 1, .minlen = INFO_SIZE,
	.check = string_check, .const_size = K_SIZE,
	.consts = string_consts, .shape = string_shape, .emit = string_emit,
};
