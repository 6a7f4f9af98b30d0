// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that count their runs in one slot of an array map of u64,
 * what bpftrace's "@ = count()" does; shared by the checks, the stress
 * programs and the bench (tests/lib/bpf_test.h loads them: one program
 * a load, the map given by the caller, the slot in .rodata).
 *
 *   count_raw_tp       a raw_tp program; does not read its context
 *   count_tracepoint   the same as a classic (perf) tracepoint program
 *   count_copy         a raw_tp program for sys_enter, loaded sleepable:
 *                      counts, and for openat() copies 64 bytes of the
 *                      path with bpf_copy_from_user(), faulting them in
 *                      (a bad or short path fails the copy: not counted
 *                      apart, the run is what the stress programs want)
 */
#include "tests_bpf.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>


char LICENSE[] SEC("license") = "GPL";

/* one slot: the caller's map replaces it (bpft_count_load()) */
ARRAY_MAP(counts, __u64, 1);

const volatile __u32 slot;

static __always_inline int bump(void)
{
	__u32 key = slot;
	__u64 *n = bpf_map_lookup_elem(&counts, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

SEC("raw_tp")
int count_raw_tp(void *ctx)
{
	return bump();
}

SEC("tracepoint")
int count_tracepoint(void *ctx)
{
	return bump();
}

SEC("raw_tp")
int count_copy(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	const char *path;
	char buf[64];

	bump();
	if (ctx->args[1] != NR_openat)
		return 0;
	path = (const char *)SC_ARG1(regs);
	bpf_copy_from_user(buf, sizeof(buf), path);
	return 0;
}
