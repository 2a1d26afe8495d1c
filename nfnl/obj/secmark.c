// SPDX-License-Identifier: GPL-2.0-only
/*
 * secmark.c - secmark objects (nft_secmark_obj_type). The kernel turns the
 * context into a secid with security_secctx_to_secid(); without a security
 * module that maps contexts it gets secid 0 and answers ENOENT, so no
 * secmark object can exist. nfbpfd cannot ask the LSM, so where one is
 * active it refuses instead of guessing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "nfnl_obj.h"

#define SECMARK_CTX_MAXLEN	4096	/* NFT_SECMARK_CTX_MAXLEN */

static const struct attr_policy secmark_policy[NFTA_SECMARK_MAX + 1] = {
	[NFTA_SECMARK_CTX] = { .kind = ATTR_STRING, .len = SECMARK_CTX_MAXLEN },
};

/* lsm_maps_contexts - is a security module that maps contexts active? */
static bool lsm_maps_contexts(void)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/kernel/security/lsm", "re");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "selinux") || strstr(buf, "smack") ||
	       strstr(buf, "apparmor");
}

static int secmark_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			 const struct nlattr **tb)
{
	(void)d;
	if (!tb[NFTA_SECMARK_CTX])
		return -EINVAL;
	if (lsm_maps_contexts()) {
		extack_set(ctx->ext, "nfbpfd: secmark objects are not supported "
			   "with an active security module yet", NULL);
		return -EOPNOTSUPP;
	}
	return -ENOENT;	/* nft_secmark_compute_secid(): secid 0 */
}

static void secmark_dump(struct nfnl_buf *b, const union obj_data *d)
{
	(void)b;
	(void)d;	/* never reached: no secmark object is ever created */
}

const struct nfnl_obj_ops nfnl_obj_secmark = {
	.type = NFT_OBJECT_SECMARK,
	.name = "secmark",
	.maxattr = NFTA_SECMARK_MAX,
	.policy = secmark_policy,
	.parse = secmark_parse,
	.dump = secmark_dump,
};
