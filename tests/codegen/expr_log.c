// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_log.c - the log expression in the BPF dataplane (BPF_PROG_TEST_RUN):
 * the ring buffer record, prefixes as rule constants (one shape, no
 * program load for a new prefix), and the forms refused at commit.
 */
#include "tests/codegen/model.h"
#include "codegen/codegen.h"
#include "expr/log.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[1024];
static uint32_t plen;

struct got {
	int n;
	bool allowed;
	struct codegen_log_rec rec;
	char prefix[LOG_PREFIXLEN];
	char line[1100];
};

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 2);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
}

static void teardown(void)
{
	dataplane_net_free(&net);
	free(net.nflog_bound);
	net.nflog_bound = NULL;
}

/* an nfnetlink_log instance for @group (as nfnl/ulog.c marks it) */
static void bind_group(uint16_t group)
{
	if (!net.nflog_bound)
		net.nflog_bound = calloc(1, NFLOG_GROUPS / 8);
	cr_assert_not_null(net.nflog_bound);
	net.nflog_bound[group / 8] |= (uint8_t)(1u << (group % 8));
	cr_assert_eq(dataplane_nflog_sync(&net), 0);
}

TestSuite(expr_log, .init = setup, .fini = teardown);

static struct expr_log *tm_log(struct tm_rb *rb, const char *prefix,
			       uint8_t level, uint8_t flags)
{
	struct expr_log *l = tm_add(rb, EXPR_LOG, sizeof(*l));

	l->type = LOG_TYPE_SYSLOG;
	l->level = level;
	l->logflags = flags;
	if (prefix) {
		l->has_prefix = true;
		snprintf(l->prefix, sizeof(l->prefix), "%s", prefix);
	}
	return l;
}

static void sink(void *arg, const struct codegen_log_rec *rec,
		 const char *prefix, bool allowed)
{
	struct got *g = arg;

	if (g->n++)
		return;
	g->allowed = allowed;
	g->rec = *rec;
	snprintf(g->prefix, sizeof(g->prefix), "%s", prefix);
	offload_log_format(rec, prefix, g->line, sizeof(g->line));
}

static struct got read_log(void)
{
	struct got g = { 0 };

	cr_assert_geq(offload_log_read(&net, sink, &g), 0);
	return g;
}

Test(expr_log, record_holds_what_the_line_needs)
{
	struct tm_rb rb = { 0 };
	struct got g;

	tm_log(&rb, "dropped: ", 6, LOG_F_TCPSEQ);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	pkt[24] = 0;
	pkt[25] = 16;	/* udp length 16 */
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	g = read_log();
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.prefix, "dropped: ");
	/* a scratch netns, not the host's: the kernel logs from it only with
	 * nf_log_all_netns = 1, a sysctl of the host's netns alone (this
	 * process cannot even see it from here) */
	cr_assert_not(g.allowed);
	cr_assert_eq(g.rec.level, 6);
	cr_assert_eq(g.rec.logflags, LOG_F_TCPSEQ);
	cr_assert_eq(g.rec.hook, HOOK_OUT);
	cr_assert_eq(g.rec.pf, 2);
	cr_assert_eq(g.rec.len, plen);
	cr_assert_eq(g.rec.caplen, plen);
	cr_assert_arr_eq(g.rec.data, pkt, plen);
	/* the test run's output device is lo */
	cr_assert_str_eq(g.rec.in, "");
	cr_assert_str_eq(g.rec.out, "lo");
	cr_assert_eq(g.rec.has_dev, 0);
	cr_assert_str_eq(g.line, "dropped: IN= OUT=lo SRC=10.0.0.1 DST=10.0.0.2 "
			 "LEN=36 TOS=0x00 PREC=0x00 TTL=64 ID=0 PROTO=UDP "
			 "SPT=1000 DPT=53 LEN=16 ");
}

Test(expr_log, only_evaluated_log_expressions_log)
{
	struct tm_rb rb = { 0 };
	uint8_t tcp = 6;

	tm_meta(&rb, 16 /* l4proto */, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &tcp, 1);
	tm_log(&rb, "tcp ", 4, 0);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	cr_assert_eq(read_log().n, 0);
}

Test(expr_log, long_packets_are_copied_up_to_the_cap)
{
	struct tm_rb rb = { 0 };
	struct got g;
	uint32_t i;

	for (i = 28; i < 700; i++)
		pkt[i] = (uint8_t)i;
	pkt[2] = 700 >> 8;
	pkt[3] = 700 & 0xff;
	tm_log(&rb, NULL, 4, 0);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, 700), NF_ACCEPT);
	g = read_log();
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.prefix, "");
	cr_assert_eq(g.rec.len, 700);
	cr_assert_eq(g.rec.caplen, LOG_REC_DATA);
	cr_assert_arr_eq(g.rec.data, pkt, LOG_REC_DATA);
}

Test(expr_log, prefixes_are_rule_constants)
{
	struct tm_rb rb = { 0 };
	struct dp_stats st0, st1;
	struct got g;

	tm_log(&rb, "a ", 4, 0);
	tm_rule(base, &rb);
	tm_log(&rb, "b ", 4, 0);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &st0);
	cr_assert_eq(st0.shapes, 1, "every log rule shares one shape");
	tm_log(&rb, "a new prefix ", 1, LOG_F_IPOPT | LOG_F_MACDECODE);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &st1);
	cr_assert_eq(st1.progs_loaded, st0.progs_loaded,
		     "a new prefix, level or flags loads no program");
	cr_assert_eq(st1.shapes, 1);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	g = read_log();
	cr_assert_eq(g.n, 3);
	cr_assert_str_eq(g.prefix, "a ", "records come in rule order");
}

static void refused(uint8_t type, uint8_t level, uint8_t flags, const char *what)
{
	struct tm_rb rb = { 0 };
	struct expr_log *l = tm_log(&rb, "x", level, flags);
	struct dp_error err;
	struct rule *r;

	l->type = type;
	r = tm_rule_new(base, &rb);
	memset(&err, 0, sizeof(err));
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_not_null(err.msg);
	cr_assert_not_null(strstr(err.msg, what), "message: %s", err.msg);
	free(r->exprs);
	free(r);
}

Test(expr_log, unsupported_forms_are_refused_never_skipped)
{
	refused(LOG_TYPE_SYSLOG, LOG_LEVEL_AUDIT, 0, "log level audit");
}

/* NFLOG records: LOG_NFLOG_HDR + caplen bytes, kept whole */
struct nfgot {
	int n;
	uint8_t rec[LOG_NFLOG_HDR + 1024] __attribute__((aligned(8)));
	char prefix[LOG_PREFIXLEN];
};

static void nfsink(void *arg, const struct codegen_log_rec *rec,
		   const char *prefix, bool allowed)
{
	struct nfgot *g = arg;

	(void)allowed;
	cr_assert_eq(rec->nflog, 1);
	cr_assert_leq(rec->caplen, 1024);
	if (g->n++)
		return;
	memcpy(g->rec, rec, LOG_NFLOG_HDR + rec->caplen);
	snprintf(g->prefix, sizeof(g->prefix), "%s", prefix);
}

static void nfsink_or_skip(void *arg, const struct codegen_log_rec *rec,
			   const char *prefix, bool allowed)
{
	if (rec->nflog)
		nfsink(arg, rec, prefix, allowed);
}

static struct expr_log *tm_nflog(struct tm_rb *rb, const char *prefix,
				 uint16_t group, uint16_t qthreshold,
				 int64_t snaplen)
{
	struct expr_log *l = tm_log(rb, prefix, 0, 0);

	l->type = LOG_TYPE_NFLOG;
	l->group = group;
	l->qthreshold = qthreshold;
	if (snaplen >= 0) {
		l->has_snaplen = true;
		l->snaplen = (uint32_t)snaplen;
	}
	return l;
}

Test(expr_log, nflog_record_holds_the_packet_up_to_the_snaplen)
{
	struct tm_rb rb = { 0 };
	const struct codegen_log_rec *rec;
	struct dp_stats st;
	struct nfgot g = { 0 };
	uint32_t i;

	for (i = 28; i < 700; i++)
		pkt[i] = (uint8_t)i;
	pkt[2] = 700 >> 8;
	pkt[3] = 700 & 0xff;
	bind_group(5);
	bind_group(6);
	tm_nflog(&rb, "nf", 5, 3, 20);
	tm_rule(base, &rb);
	tm_log(&rb, "syslog ", 4, 0);
	tm_rule(base, &rb);
	tm_nflog(&rb, NULL, 6, 0, -1);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.shapes, 2, "one shape for NFLOG rules, one for syslog");
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, 700), NF_ACCEPT);
	cr_assert_geq(offload_log_read(&net, nfsink_or_skip, &g), 0);
	cr_assert_eq(g.n, 2, "two NFLOG records (and one syslog one)");
	rec = (const void *)g.rec;
	cr_assert_str_eq(g.prefix, "nf");
	cr_assert_eq(rec->group, 5);
	cr_assert_eq(rec->qthreshold, 3);
	cr_assert_eq(rec->hook, HOOK_OUT);
	cr_assert_eq(rec->pf, 2);
	cr_assert_eq(rec->len, 700);
	cr_assert_eq(rec->caplen, 20, "the rule's snaplen");
	cr_assert_arr_eq(g.rec + LOG_NFLOG_HDR, pkt, 20);
	cr_assert_neq(rec->tai_ns, 0);
	cr_assert(rec->pktflags & PKT_HAS_OUT);
	cr_assert_eq(rec->oif, 1, "lo");
	cr_assert_eq(rec->has_uid, 0, "no socket in a test run");
}

Test(expr_log, nflog_without_snaplen_copies_the_whole_packet)
{
	struct tm_rb rb = { 0 };
	const struct codegen_log_rec *rec;
	struct nfgot g = { 0 };
	uint32_t i;

	for (i = 28; i < 1000; i++)
		pkt[i] = (uint8_t)(i * 7);
	pkt[2] = 1000 >> 8;
	pkt[3] = 1000 & 0xff;
	tm_nflog(&rb, NULL, 1, 0, -1);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	bind_group(1);	/* after the dataplane exists: pushed to it */
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, 1000), NF_ACCEPT);
	cr_assert_geq(offload_log_read(&net, nfsink_or_skip, &g), 0);
	cr_assert_eq(g.n, 1);
	rec = (const void *)g.rec;
	cr_assert_eq(rec->group, 1);
	cr_assert_eq(rec->caplen, 1000);
	cr_assert_arr_eq(g.rec + LOG_NFLOG_HDR, pkt, 1000);
}

Test(expr_log, nflog_to_a_group_without_instance_records_nothing)
{
	struct tm_rb rb = { 0 };
	struct nfgot g = { 0 };

	bind_group(2);
	bind_group(12);
	tm_nflog(&rb, NULL, 10, 0, -1);
	tm_rule(base, &rb);
	tm_nflog(&rb, NULL, 3, 0, -1);
	tm_rule(base, &rb);
	tm_nflog(&rb, NULL, 12, 0, 8);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	cr_assert_geq(offload_log_read(&net, nfsink_or_skip, &g), 0);
	cr_assert_eq(g.n, 1, "only group 12 has an instance");
	cr_assert_eq(((const struct codegen_log_rec *)g.rec)->group, 12);
	/* unbound again: nothing */
	net.nflog_bound[12 / 8] = 0;
	cr_assert_eq(dataplane_nflog_sync(&net), 0);
	g.n = 0;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	cr_assert_geq(offload_log_read(&net, nfsink_or_skip, &g), 0);
	cr_assert_eq(g.n, 0);
}
