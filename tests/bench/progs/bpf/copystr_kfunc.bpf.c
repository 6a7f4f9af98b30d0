// SPDX-License-Identifier: GPL-2.0
/* copystr.bpf.c with the kfunc bpf_copy_from_user_str() (0021) */
#define COPYSTR_KFUNC
#include "copystr.bpf.c"
