// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsleep.bpf.c's programs with the kfunc bpf_copy_from_user_str()
 * (0021) instead of bpf_copy_from_user(), and null_dst: an object of its
 * own, because libbpf 1.1 (Debian 12) cannot load an object that names a
 * kfunc the kernel lacks, not even with the program that calls it left
 * out.
 */
#define BPFSLEEP_KFUNC
#include "bpfsleep.bpf.c"
