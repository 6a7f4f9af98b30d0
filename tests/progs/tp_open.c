// SPDX-License-Identifier: GPL-2.0
/*
 * tp_open [--wait-fifo FIFO] PATH
 *
 * Opens PATH once with openat(AT_FDCWD, PATH, O_RDONLY|O_CLOEXEC) (raw
 * syscall, mode 0) and prints what a tracer must have seen:
 *
 *   tp_open: pid=PID flags=0xFLAGS filename=PTR fd=FD
 *
 * PTR is the user address passed as the filename argument, in the same
 * bare lowercase hex ftrace's sys_enter_openat uses (%lx).  FD is the
 * return value (-errno if the open failed: that is still traced, and
 * still exits 0 so the check can compare it; the exit code is 2).
 *
 * With --wait-fifo, FIFO is opened O_RDWR first (never blocks) and
 * "tp_open: pid=PID ready" is printed; then one byte is read from it
 * and only then PATH is opened.  A check can set a common_pid filter
 * on the printed pid before writing to the FIFO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: tp_open [--wait-fifo FIFO] PATH\n");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *fifo = NULL, *path;
	const long flags = O_RDONLY | O_CLOEXEC;
	long fd;
	char c;

	if (argc == 4 && strcmp(argv[1], "--wait-fifo") == 0) {
		fifo = argv[2];
		path = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		path = argv[1];
	} else {
		usage();
	}
	setvbuf(stdout, NULL, _IONBF, 0);

	if (fifo) {
		int ffd = open(fifo, O_RDWR | O_CLOEXEC);

		if (ffd < 0) {
			perror(fifo);
			return 1;
		}
		printf("tp_open: pid=%d ready\n", getpid());
		if (read(ffd, &c, 1) != 1) {
			perror("read fifo");
			return 1;
		}
	}

	/* longs: the registers the tracers read are fully defined */
	fd = syscall(SYS_openat, (long)AT_FDCWD, path, flags, 0L);
	if (fd < 0)
		fd = -(long)errno;
	printf("tp_open: pid=%d flags=0x%lx filename=%lx fd=%ld\n",
	       getpid(), flags, (unsigned long)path, fd);
	return fd < 0 ? 2 : 0;
}
