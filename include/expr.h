/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expr.h - the model of one rule expression, shared by every layer.
 *
 * A rule's expressions live back to back in one allocation, as in the
 * kernel's nft_rule: each is a struct expr header followed by the private
 * data of its type (include/expr/X.h). Walk them with expr_first() /
 * expr_next() / expr_end().
 *
 * Registers in the model are the kernel's internal 32-bit slot numbers:
 * REG_VERDICT (0) is the verdict register, REG_DATA_FIRST..REG_DATA_END-1
 * are the 16 data slots (NFT_REG32_00..15; NFT_REG_1 == slot 4). A value of
 * len bytes in slot r spans slots r .. r + DIV_ROUND_UP(len, 4) - 1.
 */
#ifndef NFBPF_EXPR_H
#define NFBPF_EXPR_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * enum expr_type - model expression types (not the wire names)
 *
 * Each layer has one ops array indexed by this enum and fills every slot.
 */
enum expr_type {
	EXPR_IMMEDIATE,
	EXPR_CMP,
	EXPR_PAYLOAD,
	EXPR_META,
	EXPR_COUNTER,
	EXPR_BITWISE,
	EXPR_LOOKUP,
	EXPR_RANGE,
	EXPR_BYTEORDER,
	EXPR_CT,
	EXPR_EXTHDR,
	EXPR_LOG,
	EXPR_NUMGEN,
	EXPR_HASH,
	EXPR_OBJREF,
	EXPR_MATCH,
	EXPR_TARGET,
	EXPR_LIMIT,
	EXPR_QUOTA,
	EXPR_REJECT,
	EXPR_FWD,
	EXPR_DUP,
	EXPR_DYNSET,
	EXPR_FIB,
	EXPR_RT,
	EXPR_CONNLIMIT,
	__EXPR_MAX
};

#define REG_VERDICT	0
#define REG_DATA_FIRST	4
#define REG_DATA_END	20	/* exclusive: slots 4..19 */
#define REG_BYTES	((REG_DATA_END) * 4)	/* 80: kernel struct nft_regs */

#define DATA_VALUE_MAXLEN	64	/* NFT_DATA_VALUE_MAXLEN */

struct chain;
struct set;

/**
 * struct data_value - a constant (cmp data, mask, immediate value, key)
 * @len: number of meaningful bytes in @v (1..DATA_VALUE_MAXLEN)
 * @v: the bytes, in the order they appear in the packet/register
 */
struct data_value {
	uint32_t len;
	uint8_t v[DATA_VALUE_MAXLEN];
};

/**
 * struct verdict - a verdict constant
 * @code: NF_ACCEPT, NF_DROP, NFT_CONTINUE, NFT_BREAK, NFT_JUMP, NFT_GOTO,
 *	  NFT_RETURN (the kernel's numeric values)
 * @chain: for NFT_JUMP/NFT_GOTO, the target chain; the expression holds a
 *	   reference on it (chain->use) for as long as it lives
 */
struct verdict {
	int32_t code;
	struct chain *chain;
};

/**
 * struct expr - header of one expression inside a rule
 * @type: enum expr_type
 * @size: total size of this record (header + private data), 8-aligned
 */
struct expr {
	uint16_t type;
	uint16_t size;
	uint32_t pad;
	uint8_t data[] __attribute__((aligned(8)));
};

static inline void *expr_priv(const struct expr *e)
{
	return (void *)e->data;
}

static inline struct expr *expr_next(const struct expr *e)
{
	return (struct expr *)((char *)e + e->size);
}

#define EXPR_ALIGN(x)	(((x) + 7u) & ~7u)
#define EXPR_SIZE(priv)	EXPR_ALIGN(sizeof(struct expr) + (priv))

#endif /* NFBPF_EXPR_H */
