// SPDX-License-Identifier: GPL-2.0
/*
 * faultsnoop: openat(), openat2() and execve() at sys_enter, read by a
 * sleepable tp_btf program that faults the user memory in.  The program
 * is loaded sleepable by faultsnoop.c (libbpf 1.1 has no "tp_btf.s"
 * section).
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "faultsnoop.h"

/* NR_openat, NR_execve, NR_openat2 and SC_ARGn(): vmlinux_min.h */

char LICENSE[] SEC("license") = "GPL";

/* The kernel's, upstream's prototype (6.12; the follow-up series for 6.1). */
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz,
				  const void *unsafe_ptr__ign, __u64 flags) __ksym;

const volatile __u32 targ_tgid;	/* 0: every process */
const volatile __u32 self_tgid;	/* never trace ourselves */

/*
 * Each call's record is built in a value of its own thread: a sleepable
 * run may block on a fault for as long as user space wants, so it holds
 * neither a per-CPU buffer (another task on the CPU would reuse it) nor a
 * reserved ring buffer record (records are consumed in reservation order:
 * one blocked run would hold back every later event of every task).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct fs_event);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fs_event);
} zero_event SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

static __always_inline void count_drop(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&dropped, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid;
	const char *path;
	struct fs_event *e, *z;
	__u32 zero = 0;
	int i;

	if (id != NR_openat && id != NR_openat2 && id != NR_execve)
		return 0;
	if (tgid == self_tgid || (targ_tgid && tgid != targ_tgid))
		return 0;

	z = bpf_map_lookup_elem(&zero_event, &zero);
	if (!z)
		return 0;
	if (bpf_map_update_elem(&scratch, &tid, z, BPF_ANY)) {
		count_drop();
		return 0;
	}
	e = bpf_map_lookup_elem(&scratch, &tid);
	if (!e)
		return 0;

	e->pid = tgid;
	e->tid = tid;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (id == NR_execve) {
		const char *const *argv = (const char *const *)SC_ARG1(regs);

		e->call = FS_EXECVE;
		path = (const char *)SC_ARG0(regs);
		e->path_ret = bpf_copy_from_user_str(e->path, sizeof(e->path), path, 0);
#pragma clang loop unroll(full)
		for (i = 0; i < FS_MAX_ARGS; i++) {
			const char *arg = NULL;
			int ret;

			ret = bpf_copy_from_user(&arg, sizeof(arg), &argv[i]);
			if (ret) {
				e->argv_ret = ret;
				break;
			}
			if (!arg)
				break;
			ret = bpf_copy_from_user_str(e->argv[i], FS_ARG_LEN, arg, 0);
			if (ret < 0) {
				e->argv_ret = ret;
				break;
			}
			e->argc = i + 1;
		}
		if (e->argc == FS_MAX_ARGS) {
			const char *arg = NULL;

			if (!bpf_copy_from_user(&arg, sizeof(arg), &argv[FS_MAX_ARGS]) && arg)
				e->argv_more = 1;
		}
	} else {
		e->call = id == NR_openat ? FS_OPENAT : FS_OPENAT2;
		e->dfd = (int)SC_ARG0(regs);
		path = (const char *)SC_ARG1(regs);
		e->path_ret = bpf_copy_from_user_str(e->path, sizeof(e->path), path, 0);
		if (id == NR_openat) {
			e->flags = SC_ARG2(regs);
			e->mode = SC_ARG3(regs);
		} else {
			struct open_how how = {};
			const void *uhow = (const void *)SC_ARG2(regs);

			e->how_ret = bpf_copy_from_user(&how, sizeof(how), uhow);
			e->flags = how.flags;
			e->mode = how.mode;
			e->resolve = how.resolve;
		}
	}

	if (bpf_ringbuf_output(&events, e, sizeof(*e), 0))
		count_drop();
	bpf_map_delete_elem(&scratch, &tid);
	return 0;
}
