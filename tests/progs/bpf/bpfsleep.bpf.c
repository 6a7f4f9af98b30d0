// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsleep_test's programs (tests/progs/bpfsleep_test.c).  Every program
 * is loaded alone (tests/lib/bpf_test.h: bpft_load_one()), sleepable or
 * not as the check wants, with the caller's maps:
 *   counts  array of 4 struct cnt
 *   buf     array of 2 values of 64 bytes ([1]: copy_str_long's canary)
 *
 *   ret0, ret0_other, ret0_sys_enter
 *           return 0: a raw_tp program, a tp_btf program for sched_switch
 *           and one for sys_enter (what the refusals load)
 *   copy    a raw_tp program for sys_enter, for the calls of process
 *           @tgid: getppid() counted in counts[0].n; for openat(), the
 *           path (the second argument: pt_regs->si) copied into buf[0],
 *           64 bytes, the copy's return value in counts[1].n and the
 *           copy counted in counts[1].m.  Built twice: here with
 *           bpf_copy_from_user(), in bpfsleep_kfunc.bpf.c (which
 *           includes this file) with the kfunc bpf_copy_from_user_str()
 *           (0021), which only kernels that have it can load
 *   tp_ret0 a tracepoint program that returns 0 (what the refusals and
 *           uffd_perf_close attach)
 *   tp_openat  a tracepoint program for syscalls:sys_enter_openat of
 *           @tgid: the path copied into buf[0], 64 bytes, the copy's
 *           return value in counts[1].n, the copy counted in counts[1].m
 *   tp_openat_count  the same event, not sleepable: counts the calls in
 *           counts[2].m
 *   tp_getcwd_enter  a tracepoint program for syscalls:sys_enter_getcwd
 *           of @tgid (an event without strings): copies the path at
 *           counts[0].m into buf[1], its return value in counts[2].n,
 *           the runs counted in counts[2].m
 *   tp_getcwd  a tracepoint program for syscalls:sys_exit_getcwd of
 *           @tgid: copies the buffer getcwd() filled (its address in
 *           counts[3].n) into buf[0], and then the path at counts[3].m
 *           into buf[1]; their return values in counts[1].n and
 *           counts[0].n, the runs counted in counts[1].m
 *   tp_past_args  reads a sys_enter_openat context at offset 48, past
 *           its four arguments (the record's __filename_val there)
 *   tp_last_arg  reads its last argument (mode, offset 40, 8 bytes)
 *   tp_openat_mode0  for sys_enter_openat: lets the record through (1)
 *           for the calls of @tgid with mode 0, filters it out (0) for
 *           the others; the runs counted in counts[1].m
 *   tp_openat_pass  the same event, not sleepable: counts the calls of
 *           @tgid in counts[2].m, lets every record through
 *   tail_caller  a raw_tp program that tail calls through its prog array
 *           jmp (slot 0): what the prog array checks load as a caller
 *   kp_ret0 returns 0: a kprobe program (sleepable: what a sleepable
 *           uprobe program is), for the prog array checks
 *   null_dst  (kfunc object only) for getppid() of @tgid, the kfunc into
 *           the value of a key that buf does not have: a map value that
 *           is NULL at run time, passed without a NULL check (6.1's
 *           verifier lets a maybe-NULL map value through to a kfunc); its
 *           return value in counts[2].n
 */
#include "tests_bpf.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct cnt {
	__u64 n, m;
};

ARRAY_MAP(counts, struct cnt, 4);

ARRAY_MAP(buf, char[64], 2);

const volatile __u32 tgid;

#ifdef BPFSLEEP_KFUNC
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz,
				  const void *unsafe_ptr__ign, __u64 flags) __ksym;
#define COPY(dst, size, src)	bpf_copy_from_user_str(dst, size, src, 0)
#else
#define COPY(dst, size, src)	bpf_copy_from_user(dst, size, src)
#endif

SEC("raw_tp")
int ret0(void *ctx)
{
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp SEC(".maps");

SEC("raw_tp")
int tail_caller(void *ctx)
{
	bpf_tail_call(ctx, &jmp, 0);
	return 0;
}

SEC("kprobe")
int kp_ret0(void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_switch")
int ret0_other(void *ctx)
{
	return 0;
}

SEC("tp_btf/sys_enter")
int ret0_sys_enter(void *ctx)
{
	return 0;
}

SEC("raw_tp")
int copy(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	__u32 k0 = 0, k1 = 1;
	const char *path;
	struct cnt *c;
	char *dst;
	long ret;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	if (ctx->args[1] == NR_getppid) {
		c = bpf_map_lookup_elem(&counts, &k0);
		if (c)
			__sync_fetch_and_add(&c->n, 1);
		return 0;
	}
	if (ctx->args[1] != NR_openat)
		return 0;
	path = (const char *)SC_ARG1(regs);
	dst = bpf_map_lookup_elem(&buf, &k0);
	if (!dst)
		return 0;
	ret = COPY(dst, 64, path);
	c = bpf_map_lookup_elem(&counts, &k1);
	if (c) {
		c->n = ret;
		__sync_fetch_and_add(&c->m, 1);
	}
	return 0;
}

/* A syscalls:sys_enter_* program's context (6.1's, and upstream's) */
struct sc_enter {
	__u64 regs;
	long nr;
	unsigned long args[6];
};

/* A syscalls:sys_exit_* program's context */
struct sc_exit {
	__u64 regs;
	long nr;
	long ret;
};

SEC("tracepoint")
int tp_ret0(void *ctx)
{
	return 0;
}

SEC("tracepoint")
int tp_openat(struct sc_enter *ctx)
{
	__u32 k0 = 0, k1 = 1;
	struct cnt *c;
	char *dst;
	long ret;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	dst = bpf_map_lookup_elem(&buf, &k0);
	if (!dst)
		return 0;
	ret = COPY(dst, 64, (const char *)ctx->args[1]);
	c = bpf_map_lookup_elem(&counts, &k1);
	if (c) {
		c->n = ret;
		__sync_fetch_and_add(&c->m, 1);
	}
	return 0;
}

SEC("tracepoint")
int tp_openat_count(struct sc_enter *ctx)
{
	__u32 k2 = 2;
	struct cnt *c;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	c = bpf_map_lookup_elem(&counts, &k2);
	if (c)
		__sync_fetch_and_add(&c->m, 1);
	return 0;
}

SEC("tracepoint")
int tp_getcwd_enter(struct sc_enter *ctx)
{
	__u32 k0 = 0, k1 = 1, k2 = 2;
	struct cnt *c0, *c2;
	char *d1;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	c0 = bpf_map_lookup_elem(&counts, &k0);
	c2 = bpf_map_lookup_elem(&counts, &k2);
	d1 = bpf_map_lookup_elem(&buf, &k1);
	if (!c0 || !c2 || !d1)
		return 0;
	c2->n = COPY(d1, 64, (const char *)c0->m);
	__sync_fetch_and_add(&c2->m, 1);
	return 0;
}

SEC("tracepoint")
int tp_getcwd(struct sc_exit *ctx)
{
	__u32 k0 = 0, k1 = 1, k3 = 3;
	struct cnt *c0, *c1, *where;
	char *d0, *d1;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	where = bpf_map_lookup_elem(&counts, &k3);
	c0 = bpf_map_lookup_elem(&counts, &k0);
	c1 = bpf_map_lookup_elem(&counts, &k1);
	d0 = bpf_map_lookup_elem(&buf, &k0);
	d1 = bpf_map_lookup_elem(&buf, &k1);
	if (!where || !c0 || !c1 || !d0 || !d1)
		return 0;
	c1->n = COPY(d0, 64, (const char *)where->n);
	c0->n = COPY(d1, 64, (const char *)where->m);
	__sync_fetch_and_add(&c1->m, 1);
	return 0;
}

SEC("tracepoint")
int tp_past_args(struct sc_enter *ctx)
{
	return *(volatile __u32 *)((char *)ctx + 48);
}

SEC("tracepoint")
int tp_last_arg(struct sc_enter *ctx)
{
	return ctx->args[3] == 0;
}

SEC("tracepoint")
int tp_openat_mode0(struct sc_enter *ctx)
{
	__u32 k1 = 1;
	struct cnt *c;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	c = bpf_map_lookup_elem(&counts, &k1);
	if (c)
		__sync_fetch_and_add(&c->m, 1);
	return ctx->args[3] == 0;
}

SEC("tracepoint")
int tp_openat_pass(struct sc_enter *ctx)
{
	__u32 k2 = 2;
	struct cnt *c;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 1;
	c = bpf_map_lookup_elem(&counts, &k2);
	if (c)
		__sync_fetch_and_add(&c->m, 1);
	return 1;
}

#ifdef BPFSLEEP_KFUNC
SEC("raw_tp")
int null_dst(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 k2 = 2, k5 = 5;
	struct cnt *c;
	void *dst;
	int ret;

	if (bpf_get_current_pid_tgid() >> 32 != tgid ||
	    ctx->args[1] != NR_getppid)
		return 0;
	dst = bpf_map_lookup_elem(&buf, &k5);	/* maybe NULL: no check */
	ret = bpf_copy_from_user_str(dst, 64, NULL, 0);
	c = bpf_map_lookup_elem(&counts, &k2);
	if (c)
		c->n = ret;
	return 0;
}
#endif
