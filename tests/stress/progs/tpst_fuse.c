// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_fuse snoop FAULTSNOOP_OUT | tpst_fuse nosnoop: while a sleepable
 * sys_enter probe is blocked for good on a page of a FUSE file whose READ
 * is never answered, no global tracing lock may wait for it.  Run as root
 * on a kernel with syscall user strings (the follow-up's feature
 * ustrings) and CONFIG_FUSE_FS.
 *
 * Setup, in this order:
 *   server     forked first, so that no other process inherits its
 *              /dev/fuse fd: mounts a FUSE file system on /tmp/fuse
 *              (mount(2) with fd=N, then libfuse3's low-level API on
 *              /dev/fd/N) with one regular file f, mode 0444, 4096 bytes.
 *              LOOKUP, GETATTR, OPEN (page cache kept, no direct I/O:
 *              mmap works), FLUSH and RELEASE are answered; every READ is
 *              counted and never answered.
 *   tracing    ftrace instance fs with syscalls:sys_enter_openat on and
 *              its syscall user strings on (syscall_user_buf_size 63, the
 *              default, written when the knob exists); instance other
 *              with sched:sched_process_fork on; then, with "snoop",
 *              /usr/sbin/faultsnoop (a sleepable BPF program on sys_enter)
 *              in the background, output to FAULTSNOOP_OUT: ftrace's probe
 *              is registered first, so it is the one that blocks.
 *   B          a child mmap()s /tmp/fuse/f (PROT_READ, MAP_SHARED) and
 *              calls openat(AT_FDCWD, page, O_RDONLY): the probe's copy of
 *              the filename faults, FUSE sends a READ, nobody answers.
 *
 * Then each operation below runs in a child of its own while B is blocked;
 * each is given STALL_MAX_MS to return before the next starts (one still
 * waiting is left running and reaped at the end):
 *   filter         instance fs: events/syscalls/sys_enter_getppid/filter
 *                  set, replaced, cleared ("0")
 *   trigger        instance fs: "traceoff" then "!traceoff" written to
 *                  events/syscalls/sys_enter_getppid/trigger
 *   event_pid      instance fs: a pid written to set_event_pid, then the
 *                  list cleared (an O_TRUNC open)
 *   perf_open      a counting perf event on syscalls:sys_enter_getppid for
 *                  the child: opened, enabled, a getppid(), closed (perf's
 *                  sys_enter probe registered and unregistered)
 *   insmod, rmmod  finit_module() of tpsleep_events.ko (an ordinary trace
 *                  event), then delete_module(O_NONBLOCK) once insmod
 *                  succeeded
 *   bpf_map        BPF_F_NO_PREALLOC hash maps (elements freed through
 *                  bpf_mem_alloc, after a Tasks Trace RCU grace period that
 *                  the blocked probe holds up): 10000 update+delete of one
 *                  key, then close; 100 create+update+delete+close.  Each
 *                  bpf() call and close() is timed; the operation is given
 *                  BPF_OP_MAX_MS in all.  MemAvailable, Slab and SUnreclaim
 *                  before and after (and after the drain) are diagnostics.
 *   cpu_offline, cpu_online  0 then 1 written to cpu1's online file
 *                  (skipped without cpu1's online file or a second CPU)
 *   rmdir_other    rmdir of instance other (unrelated to the probe)
 *   rmdir_blocked  rmdir of instance fs, whose probe B is blocked in,
 *                  nothing disabled first
 *                  (both given RMDIR_REF_TIMES the time the removal of
 *                  instance ref, set up as fs, took before B blocked, at
 *                  least STALL_MAX_MS: thousands of event directories go,
 *                  slowly under KASAN and TCG)
 *   sync_unreg     tpsleep_stress "plain_sync": a module's ordinary probe
 *                  registered and unregistered on its own tracepoint, then
 *                  tracepoint_synchronize_unregister(), which must not wait
 *                  for B (no probe that sleeps of a module was removed;
 *                  ftrace's and perf's removals do not count)
 * Finally the server is killed (closing /dev/fuse aborts the connection:
 * the pending READ fails, the probe's copy fails, B's openat() fails with
 * EFAULT), /tmp/fuse is detached.
 *
 * Checks:
 *   blocked        within 10 s of B's call the server saw a READ, and 1 s
 *                  later B had not returned; where /proc/B/stack exists, it
 *                  shows the probe (ftrace_syscall_enter*,
 *                  syscall_get_user_strs or bpf); the stack and wchan are
 *                  diagnostics
 *   prompt.OP      for each operation OP above: it succeeded and returned
 *                  in less than STALL_MAX_MS (bpf_map: no single call took
 *                  STALL_MAX_MS or more, and all of them in less than
 *                  BPF_OP_MAX_MS); else "still waiting after 1000 ms"
 *   still_blocked  after the operations B still had not returned: they ran
 *                  during the stall
 *   drained        within DRAIN_MS of the kill B exited (openat() failed
 *                  with EFAULT) and every operation still waiting returned;
 *                  faultsnoop (snoop) exited 0 within DRAIN_MS of SIGINT
 * Each operation's time is a "diag" line.  Every wait is bounded; a setup
 * failure fails every check with its reason.
 *
 * Prints "check NAME ok|fail|skip WHY" and "diag TEXT" lines.
 */
#define FUSE_USE_VERSION 34
#include "tpst_stress.h"
#include <fuse3/fuse_lowlevel.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define MNT		"/tmp/fuse"
#define FNAME		"f"
#define FPATH		MNT "/" FNAME
#define FSIZE		4096
#define FILE_INO	2
#define INST_FS		"instances/fs"
#define INST_OTHER	"instances/other"
#define INST_REF	"instances/ref"
/*
 * An instance's removal is slow under KASAN and TCG (thousands of event
 * directories): the rmdir operations get RMDIR_REF_TIMES the time the
 * removal of a like instance took before B blocked, at least STALL_MAX_MS.
 */
#define RMDIR_REF_TIMES	3
#define GETPPID_EV	"events/syscalls/sys_enter_getppid"
#define FAULTSNOOP	"/usr/sbin/faultsnoop"
#define EVENTS_MOD	"tpsleep_events"
#define EVENTS_KO	"/tests/modules/" EVENTS_MOD ".ko"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

#define STALL_MAX_MS	1000	/* the most an operation may take */
#define BPF_OP_MAX_MS	60000	/* the most bpf_map may take in all */
#define SETUP_MS	10000	/* mount, stat, B's READ */
#define SNOOP_MS	60000	/* faultsnoop's load and attach (KASAN, TCG) */
#define START_MS	5000	/* a forked operation to start */
#define DRAIN_MS	10000	/* after the kill; faultsnoop after SIGINT */
#define ALARM_S		280	/* the whole run (run.sh gives it 300 s) */
#define BPF_UPDATES	10000
#define BPF_MAPS	100

/* B's exit status: openat()'s errno, or one of these */
#define B_OPENED	200	/* openat() succeeded (impossible) */
#define B_OPEN		201	/* open(FPATH) failed */
#define B_MMAP		202
#define B_ORPHAN	203

#define STR_(x) #x
#define STR(x) STR_(x)

enum {
	OP_FILTER, OP_TRIGGER, OP_EVENT_PID, OP_PERF_OPEN, OP_INSMOD,
	OP_RMMOD, OP_BPF_MAP, OP_CPU_OFFLINE, OP_CPU_ONLINE, OP_RMDIR_OTHER,
	OP_RMDIR_BLOCKED, OP_SYNC_UNREG, NOPS
};

/* What an operation's child tells the parent (shared memory). */
struct op_sh {
	long long start_ns, end_ns;	/* end_ns: set once it returned */
	int err;			/* 0, or the errno of step @what */
	char what[160];			/* the failed step, or a result */
	/* bpf_map: the call in progress and the slowest one */
	long long call_start_ns;	/* 0: none in progress */
	char call[48];
	long long max_call_ns;
	char max_call[48];
	long calls;
};

static struct shared {
	int mounted;			/* the server is in its loop */
	int server_err;
	char server_why[160];
	int reads;			/* READ requests (none answered) */
	long long first_read_ns;
	unsigned long long read_off, read_size;
	struct op_sh ops[NOPS];
} *sh;

struct op {
	const char *name;		/* check prompt.NAME */
	int (*fn)(struct op_sh *o);	/* in the child: 0 or an errno */
	long bound_ms;			/* the most it may take */
	pid_t pid;			/* 0: not started */
	long long fork_ns;
	int reaped, status;
	int late;			/* given up on: 1, 2 (had not started) */
	long long waited_ns;		/* how long it had run by then */
	int skip;			/* not started: a skip, else a fail */
	char why[200];			/* why it was not started */
};

static pid_t parent_pid, server_pid, b_pid, snoop_pid;
static int b_reaped, b_status, server_reaped, snoop_reaped, snoop_status;
static int snoop_stopped;	/* SIGINT sent */
static long long b_call_ns, b_exit_ns;
static long perf_id = -1;
static int ko_fd = -1, ko_err;
static const char *snoop_out;

/* ---- small helpers ---- */

static double ms_of(long long ns)
{
	return ns / 1e6;
}

/* Reap @pid if it exited: 1 (status in *@status), else 0. */
static int reap(pid_t pid, int *status)
{
	return pid > 0 && waitpid(pid, status, WNOHANG) == pid;
}

/* Wait until @pid exits, at most until @end (ns): 1 if reaped. */
static int wait_exit_until(pid_t pid, int *status, long long end)
{
	for (;;) {
		if (reap(pid, status))
			return 1;
		if (tpst_now_ns() >= end)
			return 0;
		sleep_ms(5);
	}
}

/* "exit N" or "signal N" */
static const char *status_str(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "status %#x", status);
	return buf;
}

/* A child that dies with the parent (the parent may be timed out). */
static pid_t fork_child(int sig)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		tpst_die("fork");
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, sig) || getppid() != parent_pid)
			_exit(B_ORPHAN);
	}
	return pid;
}

/* File @path opened with @flags, @val written (if not empty): 0 or errno. */
static int path_write(const char *path, int flags, const char *val)
{
	ssize_t n;
	int fd, e = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return errno;
	if (*val) {
		n = write(fd, val, strlen(val));
		if (n < 0)
			e = errno;
	}
	if (close(fd) && !e)
		e = errno;
	return e;
}

/* The same for tracefs file @rel */
static int tf_write(const char *rel, int flags, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	return path_write(path, flags, val);
}

/* Reap B if it exited (its status and time kept): whether it did. */
static int b_reap(void)
{
	if (!b_reaped && reap(b_pid, &b_status)) {
		b_reaped = 1;
		b_exit_ns = tpst_now_ns();
	}
	return b_reaped;
}

/* "MemAvailable N kB, Slab N kB, SUnreclaim N kB" */
static void meminfo(char *buf, size_t size)
{
	static const char * const keys[] = {
		"MemAvailable:", "Slab:", "SUnreclaim:",
	};
	char mi[8192], *p;
	size_t i, n = 0;

	buf[0] = '\0';
	if (tpst_read_file("/proc/meminfo", mi, sizeof(mi)) < 0) {
		snprintf(buf, size, "no /proc/meminfo");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(keys) && n < size; i++) {
		p = strstr(mi, keys[i]);
		n += snprintf(buf + n, size - n, "%s%.*s %lld kB", i ? ", " : "",
			      (int)strlen(keys[i]) - 1, keys[i],
			      p ? strtoll(p + strlen(keys[i]), NULL, 10) : -1LL);
	}
}

/* ---- the FUSE server ---- */

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = FSIZE;
		st->st_blocks = FSIZE / 512;
	}
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, FNAME)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = FILE_INO;
	e.attr_timeout = 3600;
	e.entry_timeout = 3600;
	fill_attr(FILE_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != FILE_INO) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 3600);
}

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino != FILE_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EACCES);
		return;
	}
	fi->keep_cache = 1;	/* the page cache, so that mmap() works */
	fi->direct_io = 0;
	fuse_reply_open(req, fi);
}

/* Counted, never answered: the reader waits until the connection ends. */
static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	(void)req;
	(void)ino;
	(void)fi;
	if (!__atomic_load_n(&sh->reads, __ATOMIC_ACQUIRE)) {
		sh->read_off = off;
		sh->read_size = size;
		sh->first_read_ns = tpst_now_ns();
	}
	__atomic_add_fetch(&sh->reads, 1, __ATOMIC_RELEASE);
}

static void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void fs_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	(void)ino;
	(void)nlookup;
	fuse_reply_none(req);
}

static const struct fuse_lowlevel_ops fs_ops = {
	.lookup = fs_lookup,
	.forget = fs_forget,
	.getattr = fs_getattr,
	.open = fs_open,
	.read = fs_read,
	.flush = fs_flush,
	.release = fs_release,
};

static void __attribute__((noreturn)) server_fail(const char *what, int err)
{
	snprintf(sh->server_why, sizeof(sh->server_why), "%s: %s", what,
		 err ? strerror(err) : "failed");
	__atomic_store_n(&sh->server_err, err ? err : -1, __ATOMIC_RELEASE);
	_exit(1);
}

/*
 * The server: mount(2) itself (as root; libfuse's own mount would fall
 * back to fusermount3 on EPERM, and update /etc/mtab where there is one),
 * then hand the fd to libfuse as /dev/fd/N, and serve until killed.
 */
static void __attribute__((noreturn)) server(void)
{
	char arg0[] = "tpst_fuse";
	char *argv[] = { arg0, NULL };
	struct fuse_args args = FUSE_ARGS_INIT(1, argv);
	struct fuse_session *se;
	char opts[128], fdpath[32];
	int fd;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		server_fail("open /dev/fuse", errno);
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("tpst_fuse", MNT, "fuse", MS_NOSUID | MS_NODEV, opts))
		server_fail("mount -t fuse " MNT, errno);
	se = fuse_session_new(&args, &fs_ops, sizeof(fs_ops), NULL);
	if (!se)
		server_fail("fuse_session_new", 0);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", fd);
	if (fuse_session_mount(se, fdpath))
		server_fail("fuse_session_mount /dev/fd/N", 0);
	flag_set(&sh->mounted);
	fuse_session_loop(se);
	_exit(0);
}

/* ---- B: the openat() whose filename is on the FUSE page ---- */

static void __attribute__((noreturn)) blocker(int ready)
{
	char *page;
	long r;
	int fd;

	fd = open(FPATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(B_OPEN);
	page = mmap(NULL, FSIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		_exit(B_MMAP);
	if (write(ready, "b", 1) != 1)
		_exit(B_ORPHAN);
	/* Its bytes never arrive. */
	r = syscall(SYS_openat, AT_FDCWD, page, O_RDONLY);
	if (r >= 0)
		_exit(B_OPENED);
	_exit(errno < B_OPENED ? errno : B_OPENED - 1);
}

/* B's result, from its exit status */
static const char *b_result(char *buf, size_t size)
{
	int st = WIFEXITED(b_status) ? WEXITSTATUS(b_status) : -1;

	if (!b_pid)
		snprintf(buf, size, "not started");
	else if (!b_reaped)
		snprintf(buf, size, "has not returned");
	else if (WIFSIGNALED(b_status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(b_status));
	else if (st == B_OPENED)
		snprintf(buf, size, "openat() succeeded");
	else if (st == B_OPEN)
		snprintf(buf, size, "open(" FPATH ") failed");
	else if (st == B_MMAP)
		snprintf(buf, size, "mmap(" FPATH ") failed");
	else if (st == B_ORPHAN)
		snprintf(buf, size, "setup failed");
	else
		snprintf(buf, size, "openat() = -1 (%s)", strerror(st));
	return buf;
}

/* ---- the operations, each in a child of its own ---- */

static void op_begin(struct op_sh *o)
{
	__atomic_store_n(&o->start_ns, tpst_now_ns(), __ATOMIC_RELEASE);
}

static int op_fail(struct op_sh *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int op_fail(struct op_sh *o, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->what, sizeof(o->what), fmt, ap);
	va_end(ap);
	return err;
}

static int do_filter(struct op_sh *o)
{
	static const char * const filters[] = {
		"common_pid != 1", "common_pid != 2 && common_pid != 3", "0",
	};
	size_t i;
	int e;

	op_begin(o);
	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		e = tf_write(INST_FS "/" GETPPID_EV "/filter", 0, filters[i]);
		if (e)
			return op_fail(o, e, "write %zu (\"%s\")", i + 1,
				       filters[i]);
	}
	return 0;
}

static int do_trigger(struct op_sh *o)
{
	int e;

	op_begin(o);
	e = tf_write(INST_FS "/" GETPPID_EV "/trigger", 0, "traceoff");
	if (e)
		return op_fail(o, e, "write \"traceoff\"");
	e = tf_write(INST_FS "/" GETPPID_EV "/trigger", 0, "!traceoff");
	if (e)
		return op_fail(o, e, "write \"!traceoff\"");
	return 0;
}

static int do_event_pid(struct op_sh *o)
{
	char pid[32];
	int e;

	snprintf(pid, sizeof(pid), "%d", parent_pid);
	op_begin(o);
	e = tf_write(INST_FS "/set_event_pid", 0, pid);
	if (e)
		return op_fail(o, e, "write %s", pid);
	e = tf_write(INST_FS "/set_event_pid", O_TRUNC, "");
	if (e)
		return op_fail(o, e, "clear (O_TRUNC)");
	return 0;
}

static int do_perf_open(struct op_sh *o)
{
	struct perf_event_attr attr;
	unsigned long long count = 0;
	int fd, e;

	tpss_perf_attr(&attr, perf_id);
	attr.disabled = 1;
	op_begin(o);
	fd = tpss_perf_open(&attr, 0, -1);
	if (fd < 0)
		return op_fail(o, errno, "perf_event_open(syscalls:sys_enter_getppid, id %ld)",
			       perf_id);
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		e = errno;
		close(fd);
		return op_fail(o, e, "PERF_EVENT_IOC_ENABLE");
	}
	syscall(SYS_getppid);
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		e = errno ? errno : EIO;
		close(fd);
		return op_fail(o, e, "read the count");
	}
	if (close(fd))
		return op_fail(o, errno, "close");
	snprintf(o->what, sizeof(o->what), "counted %llu getppid()", count);
	return 0;
}

static int do_insmod(struct op_sh *o)
{
	op_begin(o);
	if (syscall(SYS_finit_module, ko_fd, "", 0))
		return op_fail(o, errno, "finit_module(" EVENTS_KO ")");
	return 0;
}

static int do_rmmod(struct op_sh *o)
{
	op_begin(o);
	if (syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK))
		return op_fail(o, errno, "delete_module(" EVENTS_MOD ")");
	return 0;
}

/* One timed bpf() call or close() of the bpf_map operation. */
#define TIMED(o, name, expr) ({						\
	long long _t0 = tpst_now_ns(), _d;				\
	long _r;							\
									\
	snprintf((o)->call, sizeof((o)->call), "%s", name);		\
	__atomic_store_n(&(o)->call_start_ns, _t0, __ATOMIC_RELEASE);	\
	_r = (expr);							\
	_d = tpst_now_ns() - _t0;					\
	__atomic_store_n(&(o)->call_start_ns, 0, __ATOMIC_RELEASE);	\
	if (_d > (o)->max_call_ns) {					\
		(o)->max_call_ns = _d;					\
		snprintf((o)->max_call, sizeof((o)->max_call), "%s", name); \
	}								\
	(o)->calls++;							\
	_r;								\
})

static int htab_create(struct op_sh *o)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);

	return TIMED(o, "BPF_MAP_CREATE",
		     /* no name: libbpf would probe the kernel for names */
		     bpf_map_create(BPF_MAP_TYPE_HASH, NULL,
				    sizeof(uint32_t), sizeof(uint64_t), 16,
				    &opts));
}

/* update and delete of key @k: 0 or an errno (what in o->what) */
static int htab_cycle(struct op_sh *o, int fd, uint32_t k, long i)
{
	uint64_t v = i;

	if (TIMED(o, "BPF_MAP_UPDATE_ELEM",
		  bpf_map_update_elem(fd, &k, &v, BPF_ANY)))
		return op_fail(o, errno, "update %ld", i);
	if (TIMED(o, "BPF_MAP_DELETE_ELEM", bpf_map_delete_elem(fd, &k)))
		return op_fail(o, errno, "delete %ld", i);
	return 0;
}

static int do_bpf_map(struct op_sh *o)
{
	char m[160];
	long i;
	int fd, e;

	meminfo(m, sizeof(m));
	printf("diag fuse_stall bpf_map: before: %s\n", m);
	fflush(stdout);
	op_begin(o);
	fd = htab_create(o);
	if (fd < 0)
		return op_fail(o, errno, "BPF_MAP_CREATE (hash, BPF_F_NO_PREALLOC)");
	for (i = 0; i < BPF_UPDATES; i++) {
		e = htab_cycle(o, fd, 1, i);
		if (e) {
			close(fd);
			return e;
		}
	}
	if (TIMED(o, "close", close(fd)))
		return op_fail(o, errno, "close");
	for (i = 0; i < BPF_MAPS; i++) {
		fd = htab_create(o);
		if (fd < 0)
			return op_fail(o, errno, "BPF_MAP_CREATE %ld", i + 1);
		e = htab_cycle(o, fd, 7, i);
		if (e) {
			close(fd);
			return e;
		}
		if (TIMED(o, "close", close(fd)))
			return op_fail(o, errno, "close of map %ld", i + 1);
	}
	meminfo(m, sizeof(m));
	printf("diag fuse_stall bpf_map: after %ld calls (%d update+delete on one map, then %d maps created, used, closed): %s\n",
	       o->calls, BPF_UPDATES, BPF_MAPS, m);
	return 0;
}

static int do_cpu(struct op_sh *o, const char *val)
{
	int e;

	op_begin(o);
	e = path_write(CPU1_ONLINE, 0, val);
	if (e)
		return op_fail(o, e, "write %s to " CPU1_ONLINE, val);
	return 0;
}

static int do_cpu_offline(struct op_sh *o)
{
	return do_cpu(o, "0");
}

static int do_cpu_online(struct op_sh *o)
{
	return do_cpu(o, "1");
}

static int do_rmdir(struct op_sh *o, const char *inst)
{
	op_begin(o);
	if (rmdir(inst))
		return op_fail(o, errno, "rmdir %s", inst);
	return 0;
}

static int do_rmdir_other(struct op_sh *o)
{
	return do_rmdir(o, TRACEFS "/" INST_OTHER);
}

static int do_rmdir_blocked(struct op_sh *o)
{
	return do_rmdir(o, TRACEFS "/" INST_FS);
}

/*
 * tpsleep_stress "plain_sync": an ordinary probe of the module on its own
 * tracepoint registered and unregistered, then
 * tracepoint_synchronize_unregister(): no probe that sleeps was removed
 * by a module meanwhile (ftrace's, removed by rmdir_blocked and perf's
 * switches, are the kernel's), so it must not wait for B.
 */
static int do_sync_unreg(struct op_sh *o)
{
	char buf[256];
	int fd, ret;

	fd = open(TPSS_CTL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return op_fail(o, errno, "open " TPSS_CTL);
	op_begin(o);
	ret = tpss_do(fd, buf, sizeof(buf), "plain_sync");
	close(fd);
	if (ret)
		return op_fail(o, -ret, "plain_sync: %d", ret);
	if (!strstr(buf, "reg=0 unreg=0"))
		return op_fail(o, EIO, "plain_sync: %.100s", buf);
	snprintf(o->what, sizeof(o->what), "%.100s", buf);
	return 0;
}

/* In the order they run; check prompt.NAME each. */
static struct op ops[NOPS] = {
	[OP_FILTER] = { .name = "filter", .fn = do_filter,
		.bound_ms = STALL_MAX_MS },
	[OP_TRIGGER] = { .name = "trigger", .fn = do_trigger,
		.bound_ms = STALL_MAX_MS },
	[OP_EVENT_PID] = { .name = "event_pid", .fn = do_event_pid,
		.bound_ms = STALL_MAX_MS },
	[OP_PERF_OPEN] = { .name = "perf_open", .fn = do_perf_open,
		.bound_ms = STALL_MAX_MS },
	[OP_INSMOD] = { .name = "insmod", .fn = do_insmod,
		.bound_ms = STALL_MAX_MS },
	[OP_RMMOD] = { .name = "rmmod", .fn = do_rmmod,
		.bound_ms = STALL_MAX_MS },
	[OP_BPF_MAP] = { .name = "bpf_map", .fn = do_bpf_map,
		.bound_ms = BPF_OP_MAX_MS },
	[OP_CPU_OFFLINE] = { .name = "cpu_offline", .fn = do_cpu_offline,
		.bound_ms = STALL_MAX_MS },
	[OP_CPU_ONLINE] = { .name = "cpu_online", .fn = do_cpu_online,
		.bound_ms = STALL_MAX_MS },
	[OP_RMDIR_OTHER] = { .name = "rmdir_other", .fn = do_rmdir_other,
		.bound_ms = STALL_MAX_MS },
	[OP_RMDIR_BLOCKED] = { .name = "rmdir_blocked", .fn = do_rmdir_blocked,
		.bound_ms = STALL_MAX_MS },
	[OP_SYNC_UNREG] = { .name = "sync_unreg", .fn = do_sync_unreg,
		.bound_ms = STALL_MAX_MS },
};

static int op_done(int i)
{
	return __atomic_load_n(&sh->ops[i].end_ns, __ATOMIC_ACQUIRE) != 0;
}

static long long op_dur(int i)
{
	struct op_sh *o = &sh->ops[i];

	return op_done(i) ? o->end_ns - o->start_ns : -1;
}

/* bpf_map's single calls all took less than STALL_MAX_MS so far */
static int bpf_calls_ok(void)
{
	struct op_sh *o = &sh->ops[OP_BPF_MAP];
	long long t = __atomic_load_n(&o->call_start_ns, __ATOMIC_ACQUIRE);

	return o->max_call_ns < STALL_MAX_MS * 1000000LL &&
	       (!t || tpst_now_ns() - t < STALL_MAX_MS * 1000000LL);
}

/* Fork operation @i; wait until it returned or ran out of its time. */
/* /proc/PID/stack in one line: whether it shows a probe on sys_enter */
static int pid_stack(pid_t pid, char *out, size_t size, int *present)
{
	char path[64], buf[4096], *line, *save = NULL, *p;
	size_t n = 0;
	int probe = 0;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	*present = 0;
	if (tpst_read_file(path, buf, sizeof(buf)) < 0) {
		snprintf(out, size, "%s", access(path, F_OK) ?
			 "no /proc/PID/stack" : "empty or unreadable");
		return 0;
	}
	*present = 1;	/* it has lines: judged */
	for (line = strtok_r(buf, "\n", &save); line && n < size;
	     line = strtok_r(NULL, "\n", &save)) {
		p = strchr(line, ']');
		p = p ? p + 1 : line;
		p += strspn(p, " ");
		p[strcspn(p, "+ ")] = '\0';
		if (strstr(p, "ftrace_syscall_enter") ||
		    strstr(p, "syscall_get_user_strs") || strstr(p, "bpf"))
			probe = 1;
		n += snprintf(out + n, size - n, "%s%s", n ? " < " : "", p);
	}
	return probe;
}

static void op_run(int i)
{
	struct op *op = &ops[i];
	struct op_sh *o = &sh->ops[i];
	long long now, start;
	int e;

	op->fork_ns = tpst_now_ns();
	op->pid = fork_child(SIGKILL);
	if (op->pid == 0) {
		e = op->fn(o);
		o->err = e;
		__atomic_store_n(&o->end_ns, tpst_now_ns(), __ATOMIC_RELEASE);
		fflush(stdout);
		_exit(e ? 1 : 0);
	}
	for (;;) {
		if (op_done(i)) {
			op->reaped = wait_exit_until(op->pid, &op->status,
						     tpst_now_ns() + 1000000000LL);
			return;
		}
		now = tpst_now_ns();
		start = __atomic_load_n(&o->start_ns, __ATOMIC_ACQUIRE);
		if ((!start && now - op->fork_ns >= START_MS * 1000000LL) ||
		    (start && now - start >= op->bound_ms * 1000000LL) ||
		    /* bpf_map: a call is stuck, a fail already */
		    (start && i == OP_BPF_MAP && !bpf_calls_ok()))
			break;
		sleep_ms(2);
	}
	op->late = start ? 1 : 2;
	op->waited_ns = now - (start ? start : op->fork_ns);
	{
		char stack[2048];
		int present;

		pid_stack(op->pid, stack, sizeof(stack), &present);
		printf("diag fuse_stall %s: waiting in: %s\n", op->name, stack);
	}
}

static void op_check(int i)
{
	struct op *op = &ops[i];
	struct op_sh *o = &sh->ops[i];
	long long dur = op_dur(i);
	char name[64], extra[160] = "";
	int ok;

	snprintf(name, sizeof(name), "prompt.%s", op->name);
	if (!op->pid) {
		printf("diag fuse_stall %s: not run: %s\n", op->name, op->why);
		if (op->skip)
			tpst_skip(name, "%s", op->why);
		else
			tpst_check(name, 0, "%s", op->why);
		return;
	}
	if (i == OP_BPF_MAP)
		snprintf(extra, sizeof(extra),
			 "; %ld calls, the longest %.1f ms (%s)%s%s", o->calls,
			 ms_of(o->max_call_ns), o->max_call[0] ? o->max_call : "-",
			 o->call_start_ns && dur < 0 ? ", in progress: " : "",
			 o->call_start_ns && dur < 0 ? o->call : "");
	if (op->late) {
		char later[96] = "";

		if (dur >= 0)
			snprintf(later, sizeof(later),
				 "; it returned after %.1f ms%s%s", ms_of(dur),
				 o->err ? ": " : "", o->err ? strerror(o->err) : "");
		printf("diag fuse_stall %s: still waiting after %.1f ms%s%s\n",
		       op->name, ms_of(op->waited_ns), later, extra);
		if (i == OP_BPF_MAP && op->waited_ns < op->bound_ms * 1000000LL)
			tpst_check(name, 0, "a single call still waiting after %d ms%s%s",
				   STALL_MAX_MS, later, extra);
		else
			tpst_check(name, 0, "still waiting after %ld ms%s%s%s",
				   op->bound_ms, op->late == 2 ? " (had not started)" : "",
				   later, extra);
		return;
	}
	printf("diag fuse_stall %s: %.1f ms%s%s%s%s\n", op->name, ms_of(dur),
	       o->err ? ", failed: " : "", o->err ? strerror(o->err) : "",
	       o->what[0] ? ", " : "", o->what);
	ok = !o->err && dur < op->bound_ms * 1000000LL &&
	     (i != OP_BPF_MAP || o->max_call_ns < STALL_MAX_MS * 1000000LL);
	if (o->err)
		tpst_check(name, 0, "failed after %.1f ms: %s: %s%s", ms_of(dur),
			   o->what, strerror(o->err), extra);
	else
		tpst_check(name, ok, "took %.1f ms (want less than %ld ms%s)%s",
			   ms_of(dur), op->bound_ms,
			   i == OP_BPF_MAP ? ", each call less than " STR(STALL_MAX_MS) " ms" : "",
			   extra);
}

/* Why the CPU operations are skipped, or "" */
static void cpu_skip(char *why, size_t size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char buf[8];

	why[0] = '\0';
	if (access(CPU1_ONLINE, W_OK))
		snprintf(why, size, "no writable " CPU1_ONLINE " (%s)",
			 strerror(errno));
	else if (ncpu < 2)
		snprintf(why, size, "%ld CPU online", ncpu);
	else if (tpst_read_file(CPU1_ONLINE, buf, sizeof(buf)) < 0 ||
		 buf[0] != '1')
		snprintf(why, size, "cpu1 is not online");
}

/* Run every operation while B is blocked. */
static void ops_run(void)
{
	char cpu_why[200];
	int i;

	cpu_skip(cpu_why, sizeof(cpu_why));
	for (i = 0; i < NOPS; i++) {
		struct op *op = &ops[i];

		if (i == OP_PERF_OPEN && perf_id < 0) {
			snprintf(op->why, sizeof(op->why),
				 "not attempted: no id for syscalls:sys_enter_getppid");
			continue;
		}
		if (i == OP_INSMOD && ko_fd < 0) {
			snprintf(op->why, sizeof(op->why),
				 "not attempted: open " EVENTS_KO ": %s",
				 strerror(ko_err));
			continue;
		}
		if (i == OP_RMMOD && !(op_done(OP_INSMOD) &&
				       !sh->ops[OP_INSMOD].err)) {
			snprintf(op->why, sizeof(op->why),
				 "not attempted: insmod %s",
				 !ops[OP_INSMOD].pid ? "not attempted" :
				 op_done(OP_INSMOD) ? "failed" :
				 "had not returned after " STR(STALL_MAX_MS) " ms");
			continue;
		}
		if ((i == OP_CPU_OFFLINE || i == OP_CPU_ONLINE) && cpu_why[0]) {
			op->skip = 1;
			snprintf(op->why, sizeof(op->why), "%s", cpu_why);
			continue;
		}
		op_run(i);
		if (!op_done(i))
			printf("op %s: still waiting (pid %d), going on\n",
			       op->name, op->pid);
	}
}

/* ---- setup ---- */

static void fail_all(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail_all(const char *fmt, ...)
{
	char why[512], name[64];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("diag fuse_stall: setup failed: %s\n", why);
	tpst_check("blocked", 0, "setup: %s", why);
	for (i = 0; i < NOPS; i++) {
		snprintf(name, sizeof(name), "prompt.%s", ops[i].name);
		tpst_check(name, 0, "not run: setup: %s", why);
	}
	tpst_check("still_blocked", 0, "not run: setup: %s", why);
	tpst_check("drained", 0, "not run: setup: %s", why);
}

/* Stop faultsnoop: SIGINT, else (a second time) SIGKILL; bounded. */
static void snoop_stop(void)
{
	if (!snoop_pid || snoop_reaped)
		return;
	kill(snoop_pid, snoop_stopped ? SIGKILL : SIGINT);
	snoop_stopped = 1;
	snoop_reaped = wait_exit_until(snoop_pid, &snoop_status,
				       tpst_now_ns() + DRAIN_MS * 1000000LL);
}

/*
 * The end of any run: B, the server and faultsnoop gone, /tmp/fuse
 * detached, what the operations left behind undone (in a child: bounded).
 */
static void cleanup(void)
{
	int status;
	pid_t pid;

	if (server_pid && !server_reaped) {
		kill(server_pid, SIGKILL);
		server_reaped = wait_exit_until(server_pid, &status,
						tpst_now_ns() + 2000000000LL);
	}
	if (b_pid && !b_reap()) {
		kill(b_pid, SIGKILL);
		b_reaped = wait_exit_until(b_pid, &b_status,
					   tpst_now_ns() + 2000000000LL);
	}
	snoop_stop();
	if (umount2(MNT, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		printf("umount2(" MNT "): %s\n", strerror(errno));
	rmdir(MNT);
	pid = fork_child(SIGKILL);
	if (pid == 0) {
		char buf[8];
		int e;

		if (ops[OP_CPU_OFFLINE].pid &&
		    tpst_read_file(CPU1_ONLINE, buf, sizeof(buf)) > 0 &&
		    buf[0] == '0' && (e = path_write(CPU1_ONLINE, 0, "1")))
			printf("cleanup: cpu1 stays offline: %s\n", strerror(e));
		rmdir(TRACEFS "/" INST_OTHER);
		rmdir(TRACEFS "/" INST_FS);
		rmdir(TRACEFS "/" INST_REF);
		syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK);
		_exit(0);
	}
	if (!wait_exit_until(pid, &status, tpst_now_ns() + DRAIN_MS * 1000000LL)) {
		char stack[2048];
		int present;

		pid_stack(pid, stack, sizeof(stack), &present);
		printf("diag fuse_stall: cleanup (cpu1 online, instances, " EVENTS_MOD ") still waiting after %d ms, in: %s\n",
		       DRAIN_MS, stack);
	}
	if (ko_fd >= 0)
		close(ko_fd);
}

static void on_alarm(int sig)
{
	static const char msg[] =
		"check drained fail tpst_fuse: overall alarm after " STR(ALARM_S) " s\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	if (server_pid)
		kill(server_pid, SIGKILL);
	_exit(3);
}

/* Mount: the server forked, the mount there, f stat()ed (in a child). */
static int setup_fuse(char *why, size_t size)
{
	long long end = tpst_now_ns() + SETUP_MS * 1000000LL;
	int status;
	pid_t pid;

	if (mkdir(MNT, 0755) && errno != EEXIST) {
		snprintf(why, size, "mkdir " MNT ": %s", strerror(errno));
		return -1;
	}
	server_pid = fork_child(SIGKILL);
	if (server_pid == 0)
		server();
	while (!flag_get(&sh->mounted) &&
	       !__atomic_load_n(&sh->server_err, __ATOMIC_ACQUIRE) &&
	       tpst_now_ns() < end) {
		if (reap(server_pid, &status)) {
			server_reaped = 1;
			break;
		}
		sleep_ms(5);
	}
	if (!flag_get(&sh->mounted)) {
		snprintf(why, size, "FUSE server: %s",
			 __atomic_load_n(&sh->server_err, __ATOMIC_ACQUIRE) ?
			 sh->server_why : server_reaped ? "exited" :
			 "not mounted after " STR(SETUP_MS) " ms");
		return -1;
	}
	pid = fork_child(SIGKILL);
	if (pid == 0) {
		struct stat st;

		if (stat(FPATH, &st))
			_exit(1);
		_exit(S_ISREG(st.st_mode) && st.st_size == FSIZE ? 0 : 2);
	}
	if (!wait_exit_until(pid, &status, end)) {
		kill(pid, SIGKILL);
		snprintf(why, size, "stat " FPATH " did not return within " STR(SETUP_MS) " ms");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, size, "stat " FPATH ": %s",
			 WIFEXITED(status) && WEXITSTATUS(status) == 2 ?
			 "not a regular file of " STR(FSIZE) " bytes" : "failed");
		return -1;
	}
	printf("fuse: " FPATH " is up (server pid %d)\n", server_pid);
	return 0;
}

/*
 * The bound of the rmdir operations: instance ref, set up as fs is
 * (openat with strings: ftrace's probe that sleeps), removed while nothing
 * is blocked, timed.
 */
static int rmdir_reference(char *why, size_t size)
{
	long long t0, ms;
	long bound;
	int e;

	if (mkdir(TRACEFS "/" INST_REF, 0755)) {
		snprintf(why, size, "mkdir " INST_REF ": %s", strerror(errno));
		return -1;
	}
	if (!access(TRACEFS "/" INST_REF "/syscall_user_buf_size", F_OK))
		tf_write(INST_REF "/syscall_user_buf_size", 0, "63");
	e = tf_write(INST_REF "/events/syscalls/sys_enter_openat/enable", 0, "1");
	if (!e)
		e = tf_write(INST_REF "/events/sched/sched_process_fork/enable", 0, "1");
	if (e) {
		snprintf(why, size, "instance ref: enable: %s", strerror(e));
		return -1;
	}
	t0 = tpst_now_ns();
	if (rmdir(TRACEFS "/" INST_REF)) {
		snprintf(why, size, "rmdir " INST_REF ": %s", strerror(errno));
		return -1;
	}
	ms = (tpst_now_ns() - t0) / 1000000;
	bound = ms * RMDIR_REF_TIMES;
	if (bound < STALL_MAX_MS)
		bound = STALL_MAX_MS;
	ops[OP_RMDIR_OTHER].bound_ms = bound;
	ops[OP_RMDIR_BLOCKED].bound_ms = bound;
	printf("diag fuse_stall: the removal of instance ref (nothing blocked) took %lld ms: the rmdir operations get %ld ms\n",
	       ms, bound);
	return 0;
}

/* Instances fs (openat with strings) and other (sched_process_fork). */
static int setup_tracing(char *why, size_t size)
{
	int e;

	rmdir(TRACEFS "/" INST_FS);	/* left by an earlier run? */
	rmdir(TRACEFS "/" INST_OTHER);
	rmdir(TRACEFS "/" INST_REF);
	if (rmdir_reference(why, size))
		return -1;
	if (mkdir(TRACEFS "/" INST_FS, 0755) ||
	    mkdir(TRACEFS "/" INST_OTHER, 0755)) {
		snprintf(why, size, "mkdir of an instance: %s", strerror(errno));
		return -1;
	}
	if (!access(TRACEFS "/" INST_FS "/syscall_user_buf_size", F_OK)) {
		e = tf_write(INST_FS "/syscall_user_buf_size", 0, "63");
		if (e) {
			snprintf(why, size, "instance fs: syscall_user_buf_size 63: %s",
				 strerror(e));
			return -1;
		}
	}
	e = tf_write(INST_FS "/events/syscalls/sys_enter_openat/enable", 0, "1");
	if (e) {
		snprintf(why, size, "instance fs: enable sys_enter_openat: %s",
			 strerror(e));
		return -1;
	}
	e = tf_write(INST_OTHER "/events/sched/sched_process_fork/enable", 0, "1");
	if (e) {
		snprintf(why, size, "instance other: enable sched_process_fork: %s",
			 strerror(e));
		return -1;
	}
	perf_id = tpss_event_id("syscalls", "sys_enter_getppid");
	/* Left loaded by an earlier run? */
	syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK);
	ko_fd = open(EVENTS_KO, O_RDONLY | O_CLOEXEC);
	ko_err = errno;
	return 0;
}

/* faultsnoop in the background, its output (and messages) to @out */
static int setup_snoop(const char *out, char *why, size_t size)
{
	long long end = tpst_now_ns() + SNOOP_MS * 1000000LL;
	char buf[4096], st[32];

	snoop_pid = fork_child(SIGTERM);
	if (snoop_pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execl(FAULTSNOOP, "faultsnoop", (char *)NULL);
		_exit(127);
	}
	for (;;) {
		/* its header line comes once the program is attached */
		if (tpst_read_file(out, buf, sizeof(buf)) > 0 &&
		    (!strncmp(buf, "PID ", 4) || strstr(buf, "\nPID ")))
			break;
		if (reap(snoop_pid, &snoop_status)) {
			snoop_reaped = 1;
			if (tpst_read_file(out, buf, sizeof(buf)) < 0)
				buf[0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(why, size, "faultsnoop %s: %.300s",
				 status_str(snoop_status, st, sizeof(st)), buf);
			return -1;
		}
		if (tpst_now_ns() >= end) {
			snprintf(why, size, "faultsnoop not attached after %d ms",
				 SNOOP_MS);
			return -1;
		}
		sleep_ms(20);
	}
	printf("faultsnoop: attached (pid %d, output %s)\n", snoop_pid, out);
	return 0;
}

/* ---- the stall ---- */

/* "/proc/B/stack" as "fn < fn < ...", and whether it shows the probe */
static void check_blocked(int *is_blocked)
{
	long long end = b_call_ns + SETUP_MS * 1000000LL;
	char stack[2048], wchan[128], path[64], res[64];
	int reads, present = 0, probe = 0, ok;

	while (!(reads = __atomic_load_n(&sh->reads, __ATOMIC_ACQUIRE)) &&
	       tpst_now_ns() < end && !b_reap())
		sleep_ms(5);
	if (reads) {
		sleep_ms(1000);
		b_reap();
	}
	snprintf(path, sizeof(path), "/proc/%d/wchan", b_pid);
	if (b_reaped || tpst_read_file(path, wchan, sizeof(wchan)) < 0)
		snprintf(wchan, sizeof(wchan), "-");
	if (b_reaped)
		snprintf(stack, sizeof(stack), "-");
	else
		probe = pid_stack(b_pid, stack, sizeof(stack), &present);
	printf("diag fuse_stall: READ requests %d (the first at offset %llu, %llu bytes, %+.1f ms from B's call); B %s, wchan %s\n",
	       reads, sh->read_off, sh->read_size,
	       reads ? ms_of(sh->first_read_ns - b_call_ns) : 0.0,
	       b_result(res, sizeof(res)), wchan);
	printf("diag fuse_stall: B's stack: %s\n", stack);
	*is_blocked = reads && !b_reaped;
	ok = *is_blocked && (!present || probe);
	tpst_check("blocked", ok,
		   "READ requests %d within %d ms, 1 s later B %s%s",
		   reads, SETUP_MS, b_result(res, sizeof(res)),
		   *is_blocked && present && !probe ?
		   ", but its stack does not show the probe (ftrace_syscall_enter, syscall_get_user_strs or bpf)" : "");
}

/* Kill the server; everything still waiting must return. */
static void check_drained(void)
{
	long long t_kill, end;
	char res[64], st[32], m[160], late[1024] = "", buf[8192], *p;
	int i, ops_ok = 1, status, snoop_ok = 1;
	size_t n = 0;

	t_kill = tpst_now_ns();
	kill(server_pid, SIGKILL);
	end = t_kill + DRAIN_MS * 1000000LL;
	server_reaped = wait_exit_until(server_pid, &status, end);
	if (umount2(MNT, MNT_DETACH))
		printf("umount2(" MNT ", MNT_DETACH): %s\n", strerror(errno));
	while (!b_reap() && tpst_now_ns() < end)
		sleep_ms(5);
	for (i = 0; i < NOPS; i++) {
		if (!ops[i].pid || ops[i].reaped)
			continue;
		ops[i].reaped = wait_exit_until(ops[i].pid, &ops[i].status, end);
		if (!ops[i].reaped) {
			ops_ok = 0;
			n += snprintf(late + n, sizeof(late) - n,
				      "%s%s still waiting", n ? ", " : "",
				      ops[i].name);
		} else if (sh->ops[i].end_ns &&
			   sh->ops[i].end_ns - sh->ops[i].start_ns >= ops[i].bound_ms * 1000000LL) {
			n += snprintf(late + n, sizeof(late) - n,
				      "%s%s returned %+.1f ms from the kill (%s)",
				      n ? ", " : "", ops[i].name,
				      ms_of(sh->ops[i].end_ns - t_kill),
				      sh->ops[i].err ? strerror(sh->ops[i].err) : "ok");
		}
		if (n >= sizeof(late))
			n = sizeof(late) - 1;
	}
	snoop_stop();
	if (snoop_pid)
		snoop_ok = snoop_reaped && WIFEXITED(snoop_status) &&
			   !WEXITSTATUS(snoop_status);
	meminfo(m, sizeof(m));
	printf("diag fuse_stall: after the kill: B %s (%+.1f ms from it); server %s; operations: %s\n",
	       b_result(res, sizeof(res)),
	       ms_of((b_reaped ? b_exit_ns : tpst_now_ns()) - t_kill),
	       server_reaped ? "gone" : "still there",
	       n ? late : "none was waiting");
	printf("diag fuse_stall bpf_map: after the drain: %s\n", m);
	if (snoop_pid && snoop_out && tpst_read_file(snoop_out, buf, sizeof(buf)) > 0) {
		p = strstr(buf, "faultsnoop: ");
		printf("diag fuse_stall: faultsnoop %s%s%.*s\n",
		       snoop_reaped ? status_str(snoop_status, st, sizeof(st)) :
		       "still running",
		       p ? ": " : "", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	}
	tpst_check("drained",
		   b_reaped && WIFEXITED(b_status) &&
		   WEXITSTATUS(b_status) == EFAULT && ops_ok && snoop_ok,
		   "within %d ms of the kill: B %s (want openat() = -1 EFAULT); operations: %s; faultsnoop %s",
		   DRAIN_MS, b_result(res, sizeof(res)), n ? late : "none was waiting",
		   !snoop_pid ? "not run" :
		   snoop_reaped ? status_str(snoop_status, st, sizeof(st)) :
		   "did not exit within " STR(DRAIN_MS) " ms of SIGINT");
}

int main(int argc, char **argv)
{
	char why[512], res[64];
	int ready[2], is_blocked = 0, i;
	struct sigaction sa;
	struct pollfd pfd;
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "snoop")) {
		snoop_out = argv[2];
	} else if (!(argc == 2 && !strcmp(argv[1], "nosnoop"))) {
		fprintf(stderr, "usage: tpst_fuse snoop FAULTSNOOP_OUT | tpst_fuse nosnoop\n");
		return 2;
	}
	parent_pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(ALARM_S);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		tpst_die("mmap");

	/* The server first: no other child inherits its /dev/fuse fd. */
	if (setup_fuse(why, sizeof(why)) || setup_tracing(why, sizeof(why)) ||
	    (snoop_out && setup_snoop(snoop_out, why, sizeof(why)))) {
		fail_all("%s", why);
		cleanup();
		return 1;
	}
	if (!snoop_out)
		printf("diag fuse_stall: faultsnoop not run (nosnoop)\n");

	if (pipe2(ready, O_CLOEXEC))
		tpst_die("pipe");
	b_pid = fork_child(SIGKILL);
	if (b_pid == 0) {
		close(ready[0]);
		blocker(ready[1]);
	}
	close(ready[1]);
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, SETUP_MS) != 1 || read(ready[0], &c, 1) != 1) {
		/* it exited (a setup failure), or is stuck before the call */
		long long end = tpst_now_ns() + 1000000000LL;

		while (!b_reap() && tpst_now_ns() < end)
			sleep_ms(5);
		fail_all("B did not get to its openat(): %s",
			 b_result(res, sizeof(res)));
		cleanup();
		return 1;
	}
	b_call_ns = tpst_now_ns();
	close(ready[0]);
	printf("fuse: B (pid %d) calls openat() on the FUSE page\n", b_pid);

	check_blocked(&is_blocked);
	if (!is_blocked) {
		for (i = 0; i < NOPS; i++) {
			snprintf(why, sizeof(why), "prompt.%s", ops[i].name);
			tpst_check(why, 0, "not run: B was not blocked (see blocked)");
		}
		tpst_check("still_blocked", 0, "B was not blocked (see blocked)");
	} else {
		ops_run();
		for (i = 0; i < NOPS; i++)
			op_check(i);
		tpst_check("still_blocked", !b_reap(),
			   "after the operations (%.1f s after its call) B %s",
			   ms_of(tpst_now_ns() - b_call_ns) / 1000,
			   b_result(res, sizeof(res)));
	}
	check_drained();
	cleanup();
	return tpst_failed;
}
