// SPDX-License-Identifier: GPL-2.0
/*
 * bench_copystr's programs (bench/progs/bench_copystr.c): raw_tp
 * programs for sys_enter that, for each openat(), read the path pointer
 * from the pt_regs and copy up to 64 bytes of the string into buf[0],
 * counting in buf[1] (its first u64) the copies that returned 64:
 *   copy_kfunc       bpf_copy_from_user_str(), loaded sleepable (an
 *                    object of its own, copystr_kfunc.bpf.c: only
 *                    kernels with the kfunc can load it)
 *   copy_probe_read  bpf_probe_read_user_str(), what tools use today
 * and the same as tracepoint programs (perf) for syscalls:sys_enter_openat,
 * the path from the event's context: tp_copy_kfunc (sleepable, 0025) and
 * tp_copy_probe_read.
 */
#include "tests_bpf.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>


char LICENSE[] SEC("license") = "GPL";

ARRAY_MAP(buf, char[64], 2);

#ifdef COPYSTR_KFUNC
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz,
				  const void *unsafe_ptr__ign, __u64 flags) __ksym;
#define COPY(dst, size, src)	bpf_copy_from_user_str(dst, size, src, 0)
#define PROG			copy_kfunc
#define TP_PROG			tp_copy_kfunc
#else
#define COPY(dst, size, src)	bpf_probe_read_user_str(dst, size, src)
#define PROG			copy_probe_read
#define TP_PROG			tp_copy_probe_read
#endif

SEC("raw_tp/sys_enter")
int PROG(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	__u32 k0 = 0, k1 = 1;
	const char *path;
	__u64 *count;
	char *dst;

	if (ctx->args[1] != NR_openat)
		return 0;
	path = (const char *)SC_ARG1(regs);
	dst = bpf_map_lookup_elem(&buf, &k0);
	if (!dst || COPY(dst, 64, path) != 64)
		return 0;
	count = bpf_map_lookup_elem(&buf, &k1);
	if (count)
		__sync_fetch_and_add(count, 1);
	return 0;
}

/* A syscalls:sys_enter_* program's context */
struct sc_enter {
	__u64 regs;
	long nr;
	unsigned long args[6];
};

SEC("tracepoint")
int TP_PROG(struct sc_enter *ctx)
{
	__u32 k0 = 0, k1 = 1;
	__u64 *count;
	char *dst;

	dst = bpf_map_lookup_elem(&buf, &k0);
	if (!dst || COPY(dst, 64, (const char *)ctx->args[1]) != 64)
		return 0;
	count = bpf_map_lookup_elem(&buf, &k1);
	if (count)
		__sync_fetch_and_add(count, 1);
	return 0;
}
