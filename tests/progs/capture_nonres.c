// SPDX-License-Identifier: GPL-2.0
/*
 * capture_nonres DIR N [openat|openat2|execve|all]: N calls of each kind
 * whose strings and structures live only in pages the process has never
 * touched before the call: for each call a fresh private mapping of a
 * file written beforehand, laid out as
 *
 *   page 0: struct open_how (openat2), the argv strings (execve)
 *   page 1: the argv pointer array (execve)
 *   page 2: the path, its NUL in the page's last byte
 *   page 3: PROT_NONE: a copy past the NUL faults
 *
 * so that a tracer reading at sys_enter without faulting the pages in
 * gets nothing, and a fixed-size copy of the path fails.  Every page is a
 * VMA of its own (a file of its own): fault-around, which maps the cached
 * pages around a fault within its VMA, cannot make one page resident by
 * a fault on another, of the same call or of another.  For each call it prints the line a tracer should show:
 *
 *   expect openat  dfd=-100 flags=0x80000 mode=00 path="DIR/o-PID-K"
 *   expect openat2 dfd=-100 flags=0x80000 mode=00 resolve=0x2 path="..."
 *   expect execve  path="/bin/true" argv=["/bin/true", "cap-PID-K", "..."]
 *
 * (the details in faultsnoop's format).  execve runs in a child, which
 * maps the pages itself; openat/openat2 fail with ENOENT, which does not
 * matter at sys_enter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define RESOLVE_NO_MAGICLINKS 0x02

struct how {
	uint64_t flags, mode, resolve;
};

#define PG 4096UL
#define NARGS 3

static const char *dir;

/* A fresh four-page PROT_NONE reservation; map_image() maps the first
 * three. */
static char *reserve(void)
{
	char *base = mmap(NULL, 4 * PG, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED) {
		perror("mmap reserve");
		exit(1);
	}
	return base;
}

static void map_image(char *base, const char *img, const char *tag, long k)
{
	char file[256];
	int fd, pn;

	/*
	 * Each page from a file of its own: three VMAs that cannot merge, so
	 * that faulting one page in (fault-around maps the page cache pages
	 * around a fault, within the VMA) leaves the others unmapped.
	 */
	for (pn = 0; pn < 3; pn++) {
		snprintf(file, sizeof(file), "%s/img-%s-%d-%ld-%d", dir, tag,
			 getpid(), k, pn);
		fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, img + pn * PG, PG) != (ssize_t)PG) {
			perror(file);
			exit(1);
		}
		if (mmap(base + pn * PG, PG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_FIXED, fd, 0) != base + pn * PG) {
			perror("mmap image");
			exit(1);
		}
		close(fd);
		unlink(file);
	}
}

/* Put path at the end of page 2 of img; return its offset. */
static size_t put_path(char *img, const char *path)
{
	size_t len = strlen(path) + 1;
	size_t off = 3 * PG - len;

	memcpy(img + off, path, len);
	return off;
}

static void do_openat(long k)
{
	static char img[3 * PG];
	char path[128], *base = reserve();
	size_t off;

	memset(img, 0, sizeof(img));
	snprintf(path, sizeof(path), "%s/o-%d-%ld", dir, getpid(), k);
	off = put_path(img, path);
	map_image(base, img, "o", k);
	printf("expect openat  dfd=-100 flags=0x%x mode=00 path=\"%s\"\n",
	       O_RDONLY | O_CLOEXEC, path);
	fflush(stdout);
	syscall(SYS_openat, AT_FDCWD, base + off, O_RDONLY | O_CLOEXEC, 0);
	munmap(base, 4 * PG);
}

static void do_openat2(long k)
{
	static char img[3 * PG];
	struct how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.mode = 0,
		.resolve = RESOLVE_NO_MAGICLINKS,
	};
	char path[128], *base = reserve();
	size_t off;

	memset(img, 0, sizeof(img));
	snprintf(path, sizeof(path), "%s/o2-%d-%ld", dir, getpid(), k);
	off = put_path(img, path);
	memcpy(img, &how, sizeof(how));
	map_image(base, img, "o2", k);
	printf("expect openat2 dfd=-100 flags=0x%llx mode=00 resolve=0x%llx path=\"%s\"\n",
	       (unsigned long long)how.flags, (unsigned long long)how.resolve,
	       path);
	fflush(stdout);
	syscall(SYS_openat2, AT_FDCWD, base + off, base, sizeof(how));
	munmap(base, 4 * PG);
}

static void do_execve(long k)
{
	static char img[3 * PG];
	char args[NARGS][128];
	size_t off, aoff = 64;
	char *base;
	pid_t pid;
	int i, st;

	snprintf(args[0], sizeof(args[0]), "/bin/true");
	snprintf(args[1], sizeof(args[1]), "cap-%d-%ld", getpid(), k);
	snprintf(args[2], sizeof(args[2]), "an-argument-of-%ld-with-some-length-%0*d",
		 k, 40, 0);
	printf("expect execve  path=\"/bin/true\" argv=[\"%s\", \"%s\", \"%s\"]\n",
	       args[0], args[1], args[2]);
	fflush(stdout);

	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		char **argv;

		base = reserve();
		memset(img, 0, sizeof(img));
		off = put_path(img, "/bin/true");
		argv = (char **)(img + PG);
		for (i = 0; i < NARGS; i++) {
			size_t len = strlen(args[i]) + 1;

			memcpy(img + aoff, args[i], len);
			argv[i] = base + aoff;
			aoff += len;
		}
		argv[NARGS] = NULL;
		map_image(base, img, "x", k);
		syscall(SYS_execve, base + off, base + PG, NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "capture_nonres: execve child %ld: status 0x%x\n", k, st);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *mode;
	long n, k;

	if (argc < 3) {
		fprintf(stderr, "usage: capture_nonres DIR N [openat|openat2|execve|all]\n");
		return 2;
	}
	dir = argv[1];
	n = atol(argv[2]);
	mode = argc > 3 ? argv[3] : "all";
	for (k = 0; k < n; k++) {
		if (!strcmp(mode, "all") || !strcmp(mode, "openat"))
			do_openat(k);
		if (!strcmp(mode, "all") || !strcmp(mode, "openat2"))
			do_openat2(k);
		if (!strcmp(mode, "all") || !strcmp(mode, "execve"))
			do_execve(k);
	}
	return 0;
}
