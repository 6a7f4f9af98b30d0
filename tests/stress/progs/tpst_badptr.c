// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_badptr sleepy|nofault|none: system calls with bad user pointers
 * while a probe on sys_enter copies from them (tpsleep_stress "bad_arm").
 *
 *   sleepy   a sleepable probe (may-sleep sys_enter): copy_from_user() of
 *            64 bytes (openat2's struct open_how: 24), strncpy_from_user(),
 *            copy_from_user_nofault()
 *   nofault  a normal probe (ordinary sys_enter): copy_from_user_nofault()
 *   none     no probe: only the system calls
 *
 * The pointers: NULL, an unmapped page, kernel text and direct map
 * addresses, a non-canonical address, a string that ends (without or
 * with its NUL) right before an unmapped page, a good one.  They go to
 * openat() (filename), newfstatat() (filename, statbuf) and openat2()
 * (struct open_how).
 *
 * One check per case: the system call returned its expected result
 * (EFAULT, or ENOENT for a good path), and the probe was called once with
 * that pointer and got exactly what can be copied: -EFAULT or a short
 * copy of the mapped bytes, never an oops.  "diag badptr CASE ret=R
 * errno=E" lines record each system call's result for the comparison
 * between kernels (scripts/stress.sh).
 */
#include "tpst_stress.h"
#include <sys/stat.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define HOW_SIZE 24	/* struct open_how, version 0 */
#define LEN 64		/* the probe's copy of a filename */

enum kind { K_OPENAT, K_STAT, K_STATBUF, K_OPENAT2 };

struct bcase {
	const char *name;
	enum kind kind;
	const char *ptr;	/* the pointer under test */
	size_t mapped;		/* readable bytes at ptr, up to the copy size */
	long str_want;		/* strncpy_from_user() result */
	int err_want;		/* the system call's errno, 0: success */
};

static char result[4096];
static long pg;

/* Two pages, the second unmapped; @str at the end of the first. */
static char *at_edge(const char *str, size_t n)
{
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tpst_die("mmap");
	if (munmap(p + pg, pg))
		tpst_die("munmap");
	memcpy(p + pg - n, str, n);
	return p + pg - n;
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EFAULT: return "EFAULT";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return strerror(e);
	}
}

static long do_syscall(const struct bcase *c, const char *good_path,
		       int *err)
{
	struct stat st;
	long r;

	errno = 0;
	switch (c->kind) {
	case K_OPENAT:
		r = syscall(SYS_openat, AT_FDCWD, c->ptr, O_RDONLY);
		break;
	case K_STAT:
		r = syscall(SYS_newfstatat, AT_FDCWD, c->ptr, &st, 0);
		break;
	case K_STATBUF:
		r = syscall(SYS_newfstatat, AT_FDCWD, good_path, c->ptr, 0);
		break;
	default:
		r = syscall(SYS_openat2, AT_FDCWD, good_path, c->ptr,
			    (size_t)HOW_SIZE);
		break;
	}
	*err = r < 0 ? errno : 0;
	if (r >= 0 && (c->kind == K_OPENAT || c->kind == K_OPENAT2))
		close(r);
	return r;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	char *good, *unmapped, *part, *part_nul, *how_part, *slash;
	static const char good_str[] = "/tpst-badptr-no-such-file";
	char want_hex[2 * LEN + 1], got_hex[2 * LEN + 1];
	long long calls, copy_left, str_ret, nf_ret, prev_calls = 0, want_calls;
	struct { uint64_t flags, mode, resolve; } how = { O_RDONLY, 0, 0 };
	int fd = -1, probe, err, ok, i;
	size_t len;
	long r;

	if (strcmp(mode, "sleepy") && strcmp(mode, "nofault") &&
	    strcmp(mode, "none")) {
		fprintf(stderr, "usage: tpst_badptr sleepy|nofault|none\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pg = sysconf(_SC_PAGESIZE);
	probe = strcmp(mode, "none") != 0;

	good = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (good == MAP_FAILED)
		tpst_die("mmap");
	strcpy(good, good_str);
	slash = good + 512;
	strcpy(slash, "/");
	memcpy(good + 1024, &how, sizeof(how));
	unmapped = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || munmap(unmapped, pg))
		tpst_die("mmap/munmap");
	part = at_edge("/tpss-part", 10);		/* no NUL */
	part_nul = at_edge("/tpss-nx", 9);		/* with its NUL */
	how_part = at_edge((const char *)&how, 8);	/* 8 of 24 bytes */

	const char *kernel_text = (const char *)0xffffffff81000000UL;
	const char *kernel_map = (const char *)0xffff888000100000UL;
	const char *noncanon = (const char *)0x8000000000001000UL;
	const struct bcase cases[] = {
		{ "openat.good", K_OPENAT, good, LEN, sizeof(good_str) - 1, ENOENT },
		{ "openat.null", K_OPENAT, NULL, 0, -EFAULT, EFAULT },
		{ "openat.unmapped", K_OPENAT, unmapped + 100, 0, -EFAULT, EFAULT },
		{ "openat.kernel_text", K_OPENAT, kernel_text, 0, -EFAULT, EFAULT },
		{ "openat.kernel_map", K_OPENAT, kernel_map, 0, -EFAULT, EFAULT },
		{ "openat.noncanonical", K_OPENAT, noncanon, 0, -EFAULT, EFAULT },
		{ "openat.partial", K_OPENAT, part, 10, -EFAULT, EFAULT },
		{ "openat.partial_nul", K_OPENAT, part_nul, 9, 8, ENOENT },
		{ "stat.null", K_STAT, NULL, 0, -EFAULT, EFAULT },
		{ "stat.unmapped", K_STAT, unmapped + 100, 0, -EFAULT, EFAULT },
		{ "stat.kernel_text", K_STAT, kernel_text, 0, -EFAULT, EFAULT },
		{ "stat.partial", K_STAT, part, 10, -EFAULT, EFAULT },
		{ "stat.partial_nul", K_STAT, part_nul, 9, 8, ENOENT },
		/* filename "/" is fine, the statbuf is not */
		{ "stat.statbuf_null", K_STATBUF, NULL, 0, 0, EFAULT },
		{ "stat.statbuf_kernel", K_STATBUF, kernel_map, 0, 0, EFAULT },
		{ "openat2.good", K_OPENAT2, good + 1024, HOW_SIZE, 0, 0 },
		{ "openat2.null", K_OPENAT2, NULL, 0, 0, EFAULT },
		{ "openat2.unmapped", K_OPENAT2, unmapped + 100, 0, 0, EFAULT },
		{ "openat2.kernel_text", K_OPENAT2, kernel_text, 0, 0, EFAULT },
		{ "openat2.partial", K_OPENAT2, how_part, 8, 0, EFAULT },
	};

	if (probe) {
		fd = tpss_open();
		if (tpss_do(fd, result, sizeof(result), "bad_arm %s", mode) ||
		    tpst_num(result, "reg", -1)) {
			tpst_check("arm", 0, "bad_arm %s: %s", mode, result);
			return 1;
		}
		/* The calls so far (stdio's first fstat() of stdout...). */
		if (tpss_do(fd, result, sizeof(result), "bad_get"))
			tpst_die("bad_get");
		prev_calls = tpst_num(result, "calls", 0);
	}
	for (i = 0; i < (int)ARRAY_SIZE(cases); i++) {
		const struct bcase *c = &cases[i];
		const char *arg = c->kind == K_STATBUF ? slash : c->ptr;

		r = do_syscall(c, slash, &err);
		/* a file descriptor's number is not the point */
		if (r > 0)
			printf("diag badptr %s ret=fd errno=%s\n", c->name,
			       errname(err));
		else
			printf("diag badptr %s ret=%ld errno=%s\n", c->name, r,
			       errname(err));
		ok = err == c->err_want;
		if (!probe) {
			tpst_check(c->name, ok, "ret=%ld errno=%s, want %s", r,
				   errname(err), errname(c->err_want));
			continue;
		}
		if (tpss_do(fd, result, sizeof(result), "bad_get"))
			tpst_die("bad_get");
		/* The probe saw the argument it copies from. */
		len = c->kind == K_OPENAT2 ? HOW_SIZE : LEN;
		calls = tpst_num(result, "calls", -1);
		copy_left = tpst_num(result, "copy_left", -2);
		str_ret = tpst_num(result, "str_ret", -2);
		nf_ret = tpst_num(result, "nf_ret", -2);
		tpst_str(result, "addr", got_hex, sizeof(got_hex));
		want_calls = prev_calls + 1;
		ok = ok && calls == want_calls &&
		     strtoull(got_hex, NULL, 16) == (uintptr_t)arg;
		prev_calls = calls;
		/* copy_from_user_nofault(): all or nothing ("/" is whole) */
		if (c->kind == K_STATBUF || c->mapped >= len)
			ok = ok && nf_ret == 0;
		else
			ok = ok && nf_ret == -EFAULT;
		if (!strcmp(mode, "sleepy")) {
			size_t mapped = c->kind == K_STATBUF ? 2 : c->mapped;

			/* copy_from_user(): exactly the readable bytes */
			if (c->kind == K_STATBUF)
				/* "/" at offset 512 of a mapped page */
				ok = ok && copy_left == 0;
			else
				ok = ok && copy_left == (long long)(len - mapped);
			if (c->kind == K_OPENAT || c->kind == K_STAT)
				ok = ok && str_ret == c->str_want;
			if (c->kind == K_STATBUF)
				ok = ok && str_ret == 1;
			if (c->kind != K_STATBUF && mapped) {
				tpst_hex(c->ptr, mapped < len ? mapped : len,
					 want_hex);
				tpst_str(result, "bytes", got_hex,
					 sizeof(got_hex));
				ok = ok && !strncmp(got_hex, want_hex,
						    strlen(want_hex));
			}
			ok = ok && tpst_num(result, "preemptible", 0) == 1;
		} else {
			ok = ok && tpst_num(result, "preemptible", 1) == 0;
		}
		tpst_check(c->name, ok,
			   "syscall ret=%ld errno=%s (want %s); probe: calls=%lld (want %lld) copy_left=%lld str_ret=%lld nf_ret=%lld, readable bytes %zu of %zu: %s",
			   r, errname(err), errname(c->err_want), calls,
			   want_calls, copy_left, str_ret, nf_ret, c->mapped,
			   len, result);
	}
	if (probe) {
		tpss_do(fd, result, sizeof(result), "bad_disarm");
		close(fd);
	}
	return tpst_failed;
}
