/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs of tests/ include first: faultsnoop's kernel
 * types for CO-RE (tools/faultsnoop/vmlinux_min.h: struct pt_regs read
 * through BPF_CORE_READ() is relocated against the running kernel's BTF),
 * libbpf's helper definitions, the raw_tp context (its layout is UAPI)
 * and the array maps the programs count and copy into.
 */
#ifndef TESTS_BPF_H
#define TESTS_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>

/* include/uapi/linux/bpf.h: a raw_tp program's context */
struct bpf_raw_tracepoint_args {
	__u64 args[0];
};

/* An array map @name of @n values of type @vtype (u32 keys) */
#define ARRAY_MAP(name, vtype, n)			\
	struct {					\
		__uint(type, BPF_MAP_TYPE_ARRAY);	\
		__uint(max_entries, n);			\
		__type(key, __u32);			\
		__type(value, vtype);			\
	} name SEC(".maps")

#endif /* TESTS_BPF_H */
