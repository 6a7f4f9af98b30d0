// SPDX-License-Identifier: GPL-2.0
/*
 * tp_ustr: system calls whose user strings live only in pages this
 * process has never touched, for the syscall user string checks.
 *
 *   tp_ustr open N DIR    openat(AT_FDCWD, "DIR/u-<i>", O_RDONLY) for i in
 *                         0..N-1, each path in its own fresh private
 *                         file mapping of one page, alternately at the
 *                         start and at the very end of the page (then
 *                         right before an inaccessible page)
 *   tp_ustr unlink N DIR  the same paths and pages with unlink(): an event
 *                         whose only field before the string is the pointer
 *   tp_ustr rename OLD NEW  rename(OLD, NEW), each path in its own fresh page
 *   tp_ustr path PATH     openat(AT_FDCWD, PATH, O_RDONLY | O_CLOEXEC, 0), in
 *                         a fresh page (open, bad: the same flags and mode)
 *   tp_ustr creat PATH    openat(AT_FDCWD, PATH, O_WRONLY | O_CREAT | O_TRUNC
 *                         | O_CLOEXEC, 0640), in a fresh page, call=creat
 *   tp_ustr bad           openat() with a NULL pointer, an inaccessible
 *                         page, a kernel address, and a string running
 *                         into an inaccessible page without its NUL
 *   tp_ustr dir PATH      openat(AT_FDCWD, PATH, O_RDONLY | O_DIRECTORY |
 *                         O_CLOEXEC, 0), call=dir
 *   tp_ustr tmpfile PATH  openat(AT_FDCWD, PATH, O_TMPFILE | O_WRONLY, 0600),
 *                         call=tmpfile
 *   tp_ustr write N       write() to /dev/null of N buffers of
 *                         "tp_ustr-w-<i>:", a tab, 0xfe, a NUL and "|end",
 *                         each in its own fresh page as the paths of open
 *                         (the odd ones ending on their page's last byte);
 *                         then one of 200 bytes ("0123456789" twenty
 *                         times), call=writelong
 *
 * Before each call the page of each string is checked not present in the
 * page table (/proc/self/pagemap); a string that is already present
 * is a test error (exit 3).  One line per call:
 *
 *   tp_ustr: pid=PID call=openat|unlink path=PATH ptr=PTR ret=RET
 *   tp_ustr: pid=PID call=bad kind=KIND ptr=PTR ret=RET
 *
 *   tp_ustr: pid=PID call=write|writelong ptr=PTR cnt=CNT hex=HEX text=TEXT dec=DEC ret=RET
 *
 * PTR is the pointer (bare lowercase hex, as ftrace prints it), RET the
 * result (a file descriptor, a count or -errno).  For write: CNT the
 * length in hex, HEX the bytes as ftrace prints a buffer ("74:70:..."),
 * TEXT as its printable copy (a '.' for each other byte), DEC in decimal
 * joined by '_' (libtraceevent prints an array of bytes as "116 112
 * ...").  Exit 0 when every call ran.
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
#include <unistd.h>

static long page;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* 1 if the page holding @p is present in this process's page table */
static int present(const void *p)
{
	uint64_t ent;
	off_t off = (uintptr_t)p / page * sizeof(ent);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("pagemap");
	if (pread(fd, &ent, sizeof(ent), off) != sizeof(ent))
		die("pagemap read");
	close(fd);
	return !!(ent & (1ULL << 63));
}

static void need_absent(const void *p)
{
	if (present(p)) {
		fprintf(stderr, "tp_ustr: page of %p already present\n", p);
		exit(3);
	}
}

/*
 * Map @n pages of a new file, page i holding @strs[i] at @offs[i], each
 * page in its own mapping followed by an inaccessible page (so that no
 * fault-around maps one string's page while another's is read).  The
 * strings are written with pwrite(): this process never touches the
 * mappings.  Returns the address of string i in @ptrs[i].
 */
static void map_bytes(int n, char **strs, size_t *lens, long *offs, char **ptrs);

static void map_strings(int n, char **strs, long *offs, char **ptrs)
{
	size_t *lens = calloc(n, sizeof(*lens));
	int i;

	if (!lens)
		die("calloc");
	for (i = 0; i < n; i++)
		lens[i] = strlen(strs[i]) + 1;
	map_bytes(n, strs, lens, offs, ptrs);
	free(lens);
}

/* The same for @lens[i] bytes of each (no NUL needed) */
static void map_bytes(int n, char **strs, size_t *lens, long *offs, char **ptrs)
{
	char tmpl[] = "/tmp/tp_ustr.XXXXXX";
	char *map;
	int fd, i;

	fd = mkstemp(tmpl);
	if (fd < 0)
		die("mkstemp");
	unlink(tmpl);
	if (ftruncate(fd, (off_t)n * page))
		die("ftruncate");
	for (i = 0; i < n; i++) {
		size_t len = lens[i];

		if (len > (size_t)page)
			die("string longer than a page");
		if (offs[i] < 0)	/* at the end: the last byte is the page's */
			offs[i] = page - len;
		if (pwrite(fd, strs[i], len, (off_t)i * page + offs[i]) != (ssize_t)len)
			die("pwrite");
	}
	map = mmap(NULL, 2 * n * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("mmap reserve");
	for (i = 0; i < n; i++) {
		char *at = map + 2L * i * page;

		if (mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
			 (off_t)i * page) == MAP_FAILED)
			die("mmap file");
		ptrs[i] = at + offs[i];
	}
	close(fd);
}

static long sys_ret(long r)
{
	return r < 0 ? -errno : r;
}

static int use_unlink;
/* what do_open() passes to openat(), and the call= it prints */
static long o_flags = O_RDONLY | O_CLOEXEC, o_mode;
static const char *o_call = "openat";

/*
 * Architectures without unlink() and rename() (arm64 and the other
 * asm-generic ones) have only their *at() forms: the checks trace
 * sys_enter_unlinkat and sys_enter_renameat there (uname -m).  AT_FDCWD as
 * a long: an int passed through syscall()'s variadic arguments leaves the
 * register's upper half undefined on arm64 (the trace shows ffffff9c).
 */
#ifdef SYS_unlink
#define do_unlink(p)		syscall(SYS_unlink, (p))
#else
#define do_unlink(p)		syscall(SYS_unlinkat, (long)AT_FDCWD, (p), 0)
#endif
#ifdef SYS_rename
#define do_rename(a, b)		syscall(SYS_rename, (a), (b))
#else
#define do_rename(a, b)		syscall(SYS_renameat, (long)AT_FDCWD, (a), (long)AT_FDCWD, (b))
#endif

static void do_open(const char *p, const char *shown)
{
	long r;

	need_absent(p);
	if (use_unlink)
		r = sys_ret(do_unlink(p));
	else	/* a mode always: the event records the register either way */
		r = sys_ret(syscall(SYS_openat, (long)AT_FDCWD, p, o_flags, o_mode));
	printf("tp_ustr: pid=%d call=%s path=%s ptr=%lx ret=%ld\n", getpid(),
	       use_unlink ? "unlink" : o_call, shown, (unsigned long)p, r);
	if (r >= 0 && !use_unlink)
		close(r);
}

static int cmd_open(int n, const char *dir)
{
	char **strs = calloc(n, sizeof(*strs));
	char **ptrs = calloc(n, sizeof(*ptrs));
	long *offs = calloc(n, sizeof(*offs));
	int i;

	if (!strs || !ptrs || !offs)
		die("calloc");
	for (i = 0; i < n; i++) {
		if (asprintf(&strs[i], "%s/u-%d", dir, i) < 0)
			die("asprintf");
		/* even: start of a page; odd: its very end */
		offs[i] = i % 2 ? -1 : 0;
	}
	map_strings(n, strs, offs, ptrs);
	for (i = 0; i < n; i++)
		do_open(ptrs[i], strs[i]);
	return 0;
}

static int cmd_rename(char *from, char *to)
{
	char *strs[2] = { from, to };
	long offs[2] = { 0, -1 };
	char *ptrs[2], *a, *b;
	long r;

	map_strings(2, strs, offs, ptrs);
	a = ptrs[0];
	b = ptrs[1];

	need_absent(a);
	need_absent(b);
	r = sys_ret(do_rename(a, b));
	printf("tp_ustr: pid=%d call=rename path=%s newpath=%s ptr=%lx newptr=%lx ret=%ld\n",
	       getpid(), from, to, (unsigned long)a, (unsigned long)b, r);
	return 0;
}

static int cmd_path(char *path)
{
	long off = 0;
	char *p;

	map_strings(1, &path, &off, &p);
	do_open(p, path);
	return 0;
}

static void do_bad(const char *kind, const char *p)
{
	long r = sys_ret(syscall(SYS_openat, AT_FDCWD, p, O_RDONLY | O_CLOEXEC, 0));

	printf("tp_ustr: pid=%d call=bad kind=%s ptr=%lx ret=%ld\n",
	       getpid(), kind, (unsigned long)p, r);
	if (r >= 0)
		close(r);
}

static int cmd_bad(void)
{
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED)
		die("mmap");
	/* the second page becomes inaccessible, the first has no NUL */
	if (mprotect(map + page, page, PROT_NONE))
		die("mprotect");
	memset(map, 'x', page);
	do_bad("null", NULL);
	do_bad("unmapped", map + page);
	do_bad("kernel", (const char *)0xffffffff81000000UL);
	do_bad("partial", map + page - 16);
	return 0;
}

/* write() of @len bytes at @p, a fresh page's copy of @str */
static void do_write(int fd, const char *p, const char *str, size_t len,
		     const char *call)
{
	char *hex = malloc(3 * len + 1), *text = malloc(len + 1);
	char *dec = malloc(4 * len + 1);
	size_t i, h = 0, d = 0;
	long r;

	if (!hex || !text || !dec)
		die("malloc");
	hex[0] = dec[0] = '\0';
	for (i = 0; i < len; i++) {
		unsigned char c = str[i];

		h += sprintf(hex + h, i ? ":%02x" : "%02x", c);
		d += sprintf(dec + d, i ? "_%u" : "%u", c);
		text[i] = c >= 0x20 && c < 0x7f ? c : '.';
	}
	text[len] = '\0';
	need_absent(p);
	r = sys_ret(syscall(SYS_write, fd, p, len));
	printf("tp_ustr: pid=%d call=%s ptr=%lx cnt=%zx hex=%s text=%s dec=%s ret=%ld\n",
	       getpid(), call, (unsigned long)p, len, hex, text, dec, r);
	free(hex);
	free(text);
	free(dec);
}

/*
 * Each buffer holds a NUL, which a copy of a string would stop at; the
 * odd ones end on the last byte of their page, before an inaccessible
 * one, which a copy of one byte more would fault on
 */
static int cmd_write(int n)
{
	char **strs = calloc(n + 1, sizeof(*strs));
	char **ptrs = calloc(n + 1, sizeof(*ptrs));
	size_t *lens = calloc(n + 1, sizeof(*lens));
	long *offs = calloc(n + 1, sizeof(*offs));
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int i;

	if (!strs || !ptrs || !lens || !offs || fd < 0)
		die("write setup");
	for (i = 0; i < n; i++) {
		int len = asprintf(&strs[i], "tp_ustr-w-%d:\t\xfe#|end", i);

		if (len < 0)
			die("asprintf");
		strs[i][len - 5] = '\0';	/* the '#' */
		lens[i] = len;
		offs[i] = i % 2 ? -1 : 0;
	}
	strs[n] = calloc(201, 1);
	if (!strs[n])
		die("calloc");
	for (i = 0; i < 200; i++)
		strs[n][i] = '0' + i % 10;
	lens[n] = 200;
	map_bytes(n + 1, strs, lens, offs, ptrs);
	for (i = 0; i <= n; i++)
		do_write(fd, ptrs[i], strs[i], lens[i], i < n ? "write" : "writelong");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 4 && !strcmp(argv[1], "open") && atoi(argv[2]) > 0)
		return cmd_open(atoi(argv[2]), argv[3]);
	if (argc == 4 && !strcmp(argv[1], "unlink") && atoi(argv[2]) > 0) {
		use_unlink = 1;
		return cmd_open(atoi(argv[2]), argv[3]);
	}
	if (argc == 4 && !strcmp(argv[1], "rename"))
		return cmd_rename(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "path"))
		return cmd_path(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "creat")) {
		o_flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
		o_mode = 0640;
		o_call = "creat";
		return cmd_path(argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "dir")) {
		o_flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
		o_call = "dir";
		return cmd_path(argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "tmpfile")) {
		o_flags = O_TMPFILE | O_WRONLY;
		o_mode = 0600;
		o_call = "tmpfile";
		return cmd_path(argv[2]);
	}
	if (argc == 2 && !strcmp(argv[1], "bad"))
		return cmd_bad();
	if (argc == 3 && !strcmp(argv[1], "write") && atoi(argv[2]) > 0)
		return cmd_write(atoi(argv[2]));
	fprintf(stderr, "usage: tp_ustr open|unlink N DIR | rename OLD NEW | path PATH | creat|dir|tmpfile PATH | bad | write N\n");
	return 1;
}
