// SPDX-License-Identifier: GPL-2.0
/*
 * tp_rename OLD NEW
 *
 * Renames OLD to NEW once with renameat2(AT_FDCWD, OLD, AT_FDCWD, NEW, 0)
 * (raw syscall: five arguments, two of them strings, so seven fields
 * after __syscall_nr in a kernel that records the strings) and prints
 * what a tracer must have seen:
 *
 *   tp_rename: pid=PID oldname=PTR newname=PTR ret=RET
 *
 * PTRs in bare lowercase hex; RET is 0 or -errno (still exit 0: the call
 * is traced either way).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long ret;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_rename OLD NEW\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	ret = syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 0);
	if (ret < 0)
		ret = -errno;
	printf("tp_rename: pid=%d oldname=%lx newname=%lx ret=%ld\n", getpid(),
	       (unsigned long)argv[1], (unsigned long)argv[2], ret);
	return 0;
}
