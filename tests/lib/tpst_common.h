/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the tpst_* programs, which drive tpsleep_test.ko
 * through /proc/tpsleep_test (write a command, read back key=value lines)
 * and print one line per assertion:
 *
 *   check NAME ok
 *   check NAME fail WHY
 *
 * The guest check script (60-maysleep.sh) turns those into KTAP results.
 * Everything else they print is diagnostics.
 */
#ifndef TPST_COMMON_H
#define TPST_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define TPST_CTL "/proc/tpsleep_test"
#define TPST_CMD_MAX 128	/* longest command, with its NUL */

static int tpst_failed;

/* "check NAME VERDICT WHY", WHY formatted from @fmt and @ap */
static inline void __attribute__((format(printf, 3, 0)))
tpst_verdict(const char *name, const char *verdict, const char *fmt,
	     va_list ap)
{
	printf("check %s %s ", name, verdict);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

static inline void __attribute__((format(printf, 3, 4)))
tpst_check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("check %s ok\n", name);
		fflush(stdout);
		return;
	}
	va_start(ap, fmt);
	tpst_verdict(name, "fail", fmt, ap);
	va_end(ap);
	tpst_failed = 1;
}

/* "check NAME skip WHY": reported, not judged (a KTAP SKIP) */
static inline void __attribute__((format(printf, 2, 3)))
tpst_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tpst_verdict(name, "skip", fmt, ap);
	va_end(ap);
}

static inline void __attribute__((noreturn)) tpst_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(2);
}

/* Open a test module's control file @path read-write, or die. */
static inline int tpst_open_ctl(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	char what[128];

	if (fd < 0) {
		snprintf(what, sizeof(what), "open %s", path);
		tpst_die(what);
	}
	return fd;
}

static inline int tpst_open(void)
{
	return tpst_open_ctl(TPST_CTL);
}

/* Format a command into @cmd (TPST_CMD_MAX bytes): its length. */
static inline int __attribute__((format(printf, 2, 0)))
tpst_vformat(char *cmd, const char *fmt, va_list ap)
{
	int n = vsnprintf(cmd, TPST_CMD_MAX, fmt, ap);

	if (n < 0 || n >= TPST_CMD_MAX) {
		fprintf(stderr, "command too long\n");
		exit(2);
	}
	return n;
}

/* Print and write one command: 0 or -errno (the module rejects bad ones). */
static inline int __attribute__((format(printf, 2, 0)))
tpst_vcmd(int fd, const char *fmt, va_list ap)
{
	char cmd[TPST_CMD_MAX];
	int n = tpst_vformat(cmd, fmt, ap);

	printf("> %s\n", cmd);
	fflush(stdout);
	if (write(fd, cmd, n) != n)
		return -errno;
	return 0;
}

static inline int __attribute__((format(printf, 2, 3)))
tpst_cmd(int fd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = tpst_vcmd(fd, fmt, ap);
	va_end(ap);
	return ret;
}

/* Read back the result of the last command (NUL terminated). */
static inline void tpst_result(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		tpst_die("read " TPST_CTL);
	buf[n] = '\0';
	printf("< %s", buf);
	if (n && buf[n - 1] != '\n')
		printf("\n");
	fflush(stdout);
}

/* Read the small file @path into @buf, NUL terminated: its length, or -1. */
static inline ssize_t tpst_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* Value of " KEY=" (or "KEY=" at the start) in @buf, as a string. */
static inline const char *tpst_kv(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	const char *p = buf;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == buf || p[-1] == ' ' || p[-1] == '\n') &&
		    p[klen] == '=')
			return p + klen + 1;
		p += klen;
	}
	return NULL;
}

/* Numeric value of KEY; @def when absent or not a number. */
static inline long long tpst_num(const char *buf, const char *key, long long def)
{
	const char *v = tpst_kv(buf, key);
	char *end;
	long long n;

	if (!v)
		return def;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || end == v || (*end && *end != ' ' && *end != '\n'))
		return def;
	return n;
}

/* Copy KEY's value (up to blank or newline) to @out. */
static inline void tpst_str(const char *buf, const char *key, char *out, size_t size)
{
	const char *v = tpst_kv(buf, key);
	size_t n = 0;

	if (v)
		while (v[n] && v[n] != ' ' && v[n] != '\n' && n + 1 < size)
			n++;
	if (v)
		memcpy(out, v, n);
	out[n] = '\0';
}

static inline void tpst_hex(const void *data, size_t len, char *out)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * len] = '\0';
}

static inline long long tpst_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * A fresh shared file mapping (tmpfs) of one page that starts with @str
 * and its NUL.  Nothing touches the mapping, so no page table entry maps
 * it until the first access faults it in; MADV_DONTNEED makes sure.
 */
static inline char *tpst_map_string(const char *str)
{
	long pg = sysconf(_SC_PAGESIZE);
	char path[64];
	char *page, *p;
	int fd;

	snprintf(path, sizeof(path), "/tmp/tpst-map-%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		tpst_die("create mapping file");
	page = calloc(1, pg);
	if (!page)
		tpst_die("calloc");
	strcpy(page, str);
	if (write(fd, page, pg) != pg)
		tpst_die("write mapping file");
	free(page);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		tpst_die("mmap");
	close(fd);
	unlink(path);
	if (madvise(p, pg, MADV_DONTNEED))
		tpst_die("madvise");
	return p;
}

#endif /* TPST_COMMON_H */
