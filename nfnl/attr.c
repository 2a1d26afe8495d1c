// SPDX-License-Identifier: GPL-2.0-only
/*
 * attr.c - attribute policy validation and message building.
 *
 * Every attribute a client sends goes through nfnl_attr_parse() before
 * anything reads it; the rules follow the kernel's lib/nlattr.c in its
 * liberal (nla_parse_deprecated) mode, which nfnetlink uses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>

#include "nfnl.h"

static const uint8_t exact_len[] = {
	[ATTR_U8] = 1, [ATTR_U16] = 2, [ATTR_U32] = 4, [ATTR_U64] = 8,
};

static int validate_one(const struct nlattr *a, const struct attr_policy *pt,
			struct extack *ext)
{
	int alen = a->nla_len - NLA_HDRLEN;
	const char *data = (const char *)a + NLA_HDRLEN;

	switch (pt->kind) {
	case ATTR_REJECT:
		extack_set(ext, "Attribute not allowed", a);
		return -EINVAL;
	case ATTR_U8:
	case ATTR_U16:
	case ATTR_U32:
	case ATTR_U64:
		if (alen < exact_len[pt->kind])
			goto out_range;
		return 0;
	case ATTR_STRING:
		if (pt->len) {
			int l = alen;

			if (l > 0 && data[l - 1] == '\0')
				l--;
			if (l > pt->len)
				goto out_range;
		}
		return 0;
	case ATTR_NUL_STRING: {
		int minlen = alen;

		if (pt->len && minlen > pt->len + 1)
			minlen = pt->len + 1;
		if (!minlen || !memchr(data, '\0', minlen)) {
			extack_set(ext, "Attribute failed policy validation", a);
			return -EINVAL;
		}
		return 0;
	}
	case ATTR_BINARY:
		if (pt->len && alen > pt->len)
			goto out_range;
		return 0;
	case ATTR_MINLEN:
		if (alen < pt->len)
			goto out_range;
		return 0;
	case ATTR_NESTED:
		if (alen == 0)
			return 0;
		if (alen < NLA_HDRLEN)
			goto out_range;
		return 0;
	default:
		return 0;
	}
out_range:
	extack_set(ext, "Attribute failed policy validation", a);
	return -ERANGE;
}

int nfnl_attr_parse(const void *buf, size_t len, int maxtype,
		    const struct attr_policy *policy,
		    const struct nlattr **tb, struct extack *ext)
{
	const char *p = buf;
	int err;

	memset(tb, 0, sizeof(*tb) * (maxtype + 1));
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		uint16_t type = a->nla_type & NLA_TYPE_MASK;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			break;	/* the kernel stops, then reports leftovers */
		if (type && type <= maxtype) {
			err = validate_one(a, &policy[type], ext);
			if (err)
				return err;
			tb[type] = a;
		}
		step = NLA_ALIGN(a->nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	/* nla_parse_deprecated only warns about trailing bytes */
	return 0;
}

int nfnl_attr_parse_nested(const struct nlattr *nest, int maxtype,
			   const struct attr_policy *policy,
			   const struct nlattr **tb, struct extack *ext)
{
	return nfnl_attr_parse((const char *)nest + NLA_HDRLEN,
			       nest->nla_len - NLA_HDRLEN, maxtype, policy, tb,
			       ext);
}

static size_t attr_strlen(const struct nlattr *a)
{
	const char *s = (const char *)a + NLA_HDRLEN;
	size_t alen = a->nla_len - NLA_HDRLEN;
	const char *nul = memchr(s, '\0', alen);

	return nul ? (size_t)(nul - s) : alen;
}

int nfnl_attr_strcmp(const struct nlattr *a, const char *s)
{
	size_t al = attr_strlen(a), sl = strlen(s);
	int d = memcmp((const char *)a + NLA_HDRLEN, s, al < sl ? al : sl);

	if (d)
		return d;
	return al == sl ? 0 : (al < sl ? -1 : 1);
}

char *nfnl_attr_strdup(const struct nlattr *a)
{
	size_t l = attr_strlen(a);
	char *s = malloc(l + 1);

	if (!s)
		return NULL;
	memcpy(s, (const char *)a + NLA_HDRLEN, l);
	s[l] = '\0';
	return s;
}

size_t nfnl_attr_strlcpy(char *dst, const struct nlattr *a, size_t size)
{
	size_t l = attr_strlen(a);

	if (l >= size)
		l = size - 1;
	memcpy(dst, (const char *)a + NLA_HDRLEN, l);
	dst[l] = '\0';
	return l;
}

uint8_t nfnl_attr_u8(const struct nlattr *a)
{
	return *((const uint8_t *)a + NLA_HDRLEN);
}

uint16_t nfnl_attr_be16(const struct nlattr *a)
{
	uint16_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return be16toh(v);
}

uint32_t nfnl_attr_be32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return be32toh(v);
}

uint64_t nfnl_attr_be64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return be64toh(v);
}

int nfnl_attr_udata(const struct nlattr *a, struct userdata *ud)
{
	uint32_t l = a->nla_len - NLA_HDRLEN;

	ud->len = 0;
	ud->data = NULL;
	if (!l)
		return 0;
	ud->data = malloc(l);
	if (!ud->data)
		return -ENOMEM;
	memcpy(ud->data, (const char *)a + NLA_HDRLEN, l);
	ud->len = l;
	return 0;
}

void nfnl_buf_init(struct nfnl_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void nfnl_buf_fini(struct nfnl_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

bool nfnl_buf_reserve(struct nfnl_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

size_t nfnl_msg_start(struct nfnl_buf *b, uint16_t type, uint16_t flags,
		      uint32_t seq, uint32_t portid, uint8_t family,
		      uint16_t res_id)
{
	size_t off = b->len;
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;

	if (!nfnl_buf_reserve(b, hl))
		return off;
	nlh = (struct nlmsghdr *)(b->data + b->len);
	memset(nlh, 0, hl);
	nlh->nlmsg_len = hl;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = portid;
	nfg = (struct nfgenmsg *)((char *)nlh + NLMSG_HDRLEN);
	nfg->nfgen_family = family;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htobe16(res_id);
	b->len += hl;
	return off;
}

void nfnl_msg_end(struct nfnl_buf *b, size_t off)
{
	if (b->err)
		return;
	((struct nlmsghdr *)(b->data + off))->nlmsg_len = b->len - off;
}

void nfnl_msg_cancel(struct nfnl_buf *b, size_t off)
{
	if (off <= b->len)
		b->len = off;
}

void nfnl_put(struct nfnl_buf *b, uint16_t type, const void *data, size_t len)
{
	size_t tot = NLA_ALIGN(NLA_HDRLEN + len);
	struct nlattr *a;

	if (!nfnl_buf_reserve(b, tot))
		return;
	a = (struct nlattr *)(b->data + b->len);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, tot - NLA_HDRLEN - len);
	b->len += tot;
}

void nfnl_put_str(struct nfnl_buf *b, uint16_t type, const char *s)
{
	nfnl_put(b, type, s, strlen(s) + 1);
}

void nfnl_put_be16(struct nfnl_buf *b, uint16_t type, uint16_t v)
{
	v = htobe16(v);
	nfnl_put(b, type, &v, sizeof(v));
}

void nfnl_put_be32(struct nfnl_buf *b, uint16_t type, uint32_t v)
{
	v = htobe32(v);
	nfnl_put(b, type, &v, sizeof(v));
}

void nfnl_put_be64(struct nfnl_buf *b, uint16_t type, uint64_t v)
{
	v = htobe64(v);
	nfnl_put(b, type, &v, sizeof(v));
}

void nfnl_put_u8(struct nfnl_buf *b, uint16_t type, uint8_t v)
{
	nfnl_put(b, type, &v, sizeof(v));
}

size_t nfnl_nest_start(struct nfnl_buf *b, uint16_t type)
{
	size_t off = b->len;

	nfnl_put(b, type, NULL, 0);	/* nla_nest_start_noflag(), as nf_tables */
	return off;
}

void nfnl_nest_end(struct nfnl_buf *b, size_t off)
{
	struct nlattr *a;

	if (b->err)
		return;
	a = (struct nlattr *)(b->data + off);
	a->nla_len = b->len - off;
}

void nfnl_put_udata(struct nfnl_buf *b, uint16_t type, const struct userdata *ud)
{
	if (ud->len)
		nfnl_put(b, type, ud->data, ud->len);
}
