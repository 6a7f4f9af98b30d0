// SPDX-License-Identifier: GPL-2.0
/*
 * tp_syscalls N: makes exactly N getppid() system calls (raw syscall(),
 * never cached by libc), then prints
 *
 *   tp_syscalls: pid=PID getppid=N nr=39
 *
 * Besides the N getppid calls the program only makes the static-binary
 * startup calls, the write of that line and exit_group.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_syscalls N\n");
		return 1;
	}
	n = strtol(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0' || n < 0) {
		fprintf(stderr, "tp_syscalls: bad count '%s'\n", argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("tp_syscalls: pid=%d getppid=%ld nr=%d\n", getpid(), n,
	       SYS_getppid);
	return 0;
}
