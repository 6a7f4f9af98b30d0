// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rawtp_count's program (tests/progs/bpf_rawtp_count.c): a raw_tp
 * program for sys_enter that, for the task whose tgid is in the map,
 * counts every syscall entry and, apart, the getppid() ones.
 */
#include "tests_bpf.h"
#include <bpf/bpf_helpers.h>


char LICENSE[] SEC("license") = "GPL";

/* the map value: bpf_rawtp_count.c's struct counts */
struct counts {
	__u32 target_tgid;
	__u32 pad;
	__u64 getppid;
	__u64 all;
};

ARRAY_MAP(counts, struct counts, 1);

SEC("raw_tp/sys_enter")
int rawtp_count(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 key = 0;
	struct counts *c = bpf_map_lookup_elem(&counts, &key);

	if (!c || c->target_tgid != tgid)
		return 0;
	__sync_fetch_and_add(&c->all, 1);
	if (ctx->args[1] == NR_getppid)
		__sync_fetch_and_add(&c->getppid, 1);
	return 0;
}
