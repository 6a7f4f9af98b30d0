# 90-lttng.sh: a real LTTng kernel session (shared): Debian's lttng-tools
# 2.13.9 (lttng, lttng-sessiond, lttng-consumerd) and babeltrace2 2.0.4,
# on Debian's lttng-modules 2.13.9 built against this kernel
# (scripts/lttng-modules.sh; packed with modules.dep*, loaded by the
# session daemon through libkmod).
#  lttng.session       lttng-sessiond starts (and loads lttng-tracer);
#                      create, enable-event -k --syscall openat,
#                      enable-event -k sched_process_exec, add-context -k
#                      pid procname, start, stop, destroy succeed; the
#                      daemon exits on SIGTERM
#  lttng.exec_control  babeltrace2 shows the sched_process_exec event of
#                      tp_open (its pid, filename): the session records on
#                      this kernel, whatever happens to the syscall events
#  lttng.openat_path   sys_enter ordinary (no 0005) or taking ordinary
#                      probes (0012 tpmode): babeltrace2 shows
#                      syscall_entry_openat with tp_open's pid and
#                      filename = "the known path".  The six (0005 without
#                      0012): the may-sleep sys_enter/sys_exit refuse
#                      LTTng's ordinary tracepoint_probe_register() with
#                      -EINVAL, lttng-modules goes on without its probe:
#                      no syscall event at all (a pass, said in a diag)
#  lttng.warn          no WARN in the kernel log while LTTng ran; on the
#                      six only the refused probe's: WARN_ON_ONCE(IS_ERR(old))
#                      in tracepoint_remove_func() when LTTng unregisters
#                      the probe it never added (required, with LTTng's
#                      unregister in its call trace), and lttng-modules' own
#                      WARN_ON_ONCE(ret) in lttng_tracepoint_probe_register()
#                      and _unregister() (allowed)
# On the six the check writes two markers to /dev/kmsg around the session
# ("tpsleep-lttng: expect-warn begin/end"): scripts/check-log.sh accepts
# those WARNs between them on such a kernel only, any other splat fails.
# Every tracefs event (of every instance) is disabled first: sys_enter must
# hold no other probe, or tracepoint_remove_func() finds a probe array and
# does not warn.
# A kernel or guest that can not run LTTng (CONFIG_UNIX, CONFIG_FILE_LOCKING:
# config-fragments/26-lttng.config) fails every result, naming what lacks.
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/lttng-check
KP=$W/lttng-known-path
L="lttng --no-sessiond"
SESSION=tpsleep

if has_feature syscalls && ! has_feature tpmode; then
	refused=1
else
	refused=
fi

lt_kmsg() { echo "tpsleep-lttng: $*" > /dev/kmsg; }

# lt_do CMD...: one lttng command (never spawning a session daemon of its
# own), its output in lttng.log; the first failing one is kept in $lt_failed
lt_failed=
lt_do() {
	local _rc
	echo "+ lttng $*" >> $W/lttng.log
	timeout 120 $L "$@" >> $W/lttng.log 2>&1
	_rc=$?
	if [ "$_rc" != 0 ] && [ -z "$lt_failed" ]; then
		lt_failed="'lttng $*' exited $_rc: $(tail -n 2 $W/lttng.log | tr '\n' ' ')"
	fi
	return $_rc
}

# lt_stop_sessiond: SIGTERM, then wait (at most 60 s, then SIGKILL)
lt_stop_sessiond() {
	local _p _i=0
	_p=$(pidof lttng-sessiond)
	[ -n "$_p" ] || return 0
	kill -TERM $_p 2>/dev/null
	while pidof lttng-sessiond > /dev/null && [ "$_i" -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if pidof lttng-sessiond > /dev/null; then
		kill -KILL $(pidof lttng-sessiond lttng-consumerd) 2>/dev/null
		sleep 1
		return 1
	fi
	# its consumer daemon exits with it
	_i=0
	while pidof lttng-consumerd > /dev/null && [ "$_i" -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	return 0
}

# What this guest lacks to run LTTng at all, one phrase per item
lt_missing() {
	local _m='' _b
	[ -e /proc/net/unix ] || _m="$_m CONFIG_UNIX (no /proc/net/unix: the daemons' sockets),"
	[ -e /proc/locks ] || _m="$_m CONFIG_FILE_LOCKING (no /proc/locks: the daemons' lock files),"
	for _b in lttng lttng-sessiond babeltrace2 /usr/lib/x86_64-linux-gnu/lttng/libexec/lttng-consumerd; do
		command -v $_b > /dev/null || _m="$_m no $_b in the guest,"
	done
	[ -f /lib/modules/$(uname -r)/extra/lttng/lttng-tracer.ko ] ||
		_m="$_m no lttng-tracer.ko in /lib/modules/$(uname -r)/extra/lttng,"
	[ -f /lib/modules/$(uname -r)/modules.dep.bin ] ||
		_m="$_m no modules.dep.bin (depmod),"
	echo "${_m%,}"
}

# kCFI (CONFIG_CFI_CLANG; kernel/cfi.c's report_cfi_failure() is in
# kallsyms): lttng-modules 2.13.9's syscall_entry_event_probe() calls each
# syscall's probe, e.g. __event_probe__syscall_entry_openat(void *, int,
# const char *, ...), through a pointer of another type, void (*)(void *,
# unsigned long, ...) (src/lttng-syscalls.c), which kCFI traps as soon as
# a syscall event is enabled: LTTng's own call, whatever the series does.
if grep -q ' report_cfi_failure$' /proc/kallsyms; then
	ktap_skip_all lttng "kCFI kernel: lttng-modules 2.13.9 calls its per-syscall probes through pointers of another type (lttng-syscalls.c), a CFI failure in LTTng itself" \
		session exec_control openat_path warn
	exit 0
fi

rm -rf $W
mkdir -p $W
echo known > $KP
: > $W/lttng.log
# The daemons' shm_open() (/dev/shm), their run directory (/var/run/lttng,
# /var/run is /run), HOME=/tmp (initramfs/init) for the client.
mkdir -p /dev/shm
grep -q ' /dev/shm ' /proc/mounts || mount -t tmpfs tmpfs /dev/shm
echo 0 > $T/events/enable
for i in $T/instances/*/events/enable; do
	[ -f "$i" ] && echo 0 > "$i"
done
lt_kmsg "check begins"
missing=$(lt_missing)
[ -z "$missing" ] || echo "lttng: this guest lacks:$missing"

# The session daemon, in the background once ready (it loads the
# lttng-modules first); its output in sessiond.log.
timeout 180 lttng-sessiond --background > $W/sessiond.log 2>&1
src=$?
sessiond_ok=
if [ "$src" = 0 ] && pidof lttng-sessiond > /dev/null; then
	sessiond_ok=1
fi
echo "--- lttng-sessiond --background: exit $src; lttng modules loaded:"
lsmod | grep '^lttng' | sed 's/^/  lsmod: /'

lt_ran=
if [ -z "$sessiond_ok" ]; then
	sed 's/^/[lttng] sessiond: /' $W/sessiond.log
	why="lttng-sessiond did not start (exit $src)"
	[ -z "$missing" ] || why="$why; the guest lacks:$missing"
	why="$why; its last words: $(grep -v '^$' $W/sessiond.log | tail -n 2 | tr '\n' ' ')"
	ktap_fail lttng.session "$why"
	# Whether lttng-modules at least loads here (the session daemon
	# would have loaded them): modprobe from modules.dep, then unload.
	if modprobe lttng-tracer > $W/modprobe.out 2>&1 &&
	   modprobe lttng-ring-buffer-client-discard >> $W/modprobe.out 2>&1; then
		ktap_diag "lttng: no session daemon, but lttng-modules load here by modprobe: $(lsmod | grep -c '^lttng') lttng modules"
	else
		ktap_diag "lttng: no session daemon, and lttng-modules do not load either: $(tail -n 2 $W/modprobe.out | tr '\n' ' ')"
	fi
	lsmod | grep '^lttng' | sed 's/^/  lsmod: /'
	modprobe -r lttng-ring-buffer-client-discard lttng-tracer > /dev/null 2>&1
	for n in exec_control openat_path warn; do
		ktap_fail lttng.$n "no LTTng session: lttng-sessiond did not start (see lttng.session)"
	done
else
	[ -z "$refused" ] || lt_kmsg "expect-warn begin: LTTng's ordinary probe on the may-sleep sys_enter/sys_exit (the six)"
	lt_do create $SESSION --output=$W/trace &&
	lt_do enable-event --kernel --syscall openat &&
	lt_do enable-event --kernel sched_process_exec &&
	lt_do add-context --kernel --type=pid --type=procname &&
	lt_do start &&
	{ /tests/bin/tp_open $KP > $W/tp_open.out 2>&1; lt_do stop; } &&
	lt_do destroy
	lt_ran=1
	tpid=$(sed -n 's/^tp_open: pid=\([0-9]*\) .*/\1/p' $W/tp_open.out 2>/dev/null)
	[ -n "$lt_failed" ] && [ -n "$(pidof lttng-sessiond)" ] && $L destroy $SESSION >> $W/lttng.log 2>&1
	lt_stop_sessiond
	stop_rc=$?
	sed 's/^/[lttng] /' $W/lttng.log
	sed 's/^/[lttng] sessiond: /' $W/sessiond.log
	echo "--- after the session daemon exited, lttng modules loaded:"
	lsmod | grep '^lttng' | sed 's/^/  lsmod: /'
	if [ -n "$lt_failed" ]; then
		ktap_fail lttng.session "$lt_failed"
	elif [ "$stop_rc" != 0 ]; then
		ktap_fail lttng.session "lttng-sessiond did not exit within 60 s of SIGTERM"
	elif [ -z "$tpid" ]; then
		ktap_fail lttng.session "tp_open did not run: $(tr '\n' ' ' < $W/tp_open.out)"
	else
		ktap_pass lttng.session
	fi

	# What the session recorded
	babeltrace2 $W/trace > $W/bt.out 2> $W/bt.err
	btrc=$?
	nev=$(wc -l < $W/bt.out)
	nsys=$(grep -c ' syscall_\(entry\|exit\)_' $W/bt.out)
	echo "--- babeltrace2 $W/trace: exit $btrc, $nev events, $nsys syscall events; tp_open pid ${tpid:-?}:"
	grep -E "[{ ]pid = ${tpid:-none}[,} ]" $W/bt.out | head -n 20 | sed 's/^/  bt: /'
	sed 's/^/  bt (stderr): /' $W/bt.err | head -n 20
	exec_line=$(grep ' sched_process_exec: ' $W/bt.out | grep -E "[{ ]pid = ${tpid:-none}[,} ]" |
		grep -F 'filename = "/tests/bin/tp_open"')
	open_line=$(grep ' syscall_entry_openat: ' $W/bt.out | grep -E "[{ ]pid = ${tpid:-none}[,} ]" |
		grep -F "filename = \"$KP\"")
	if [ "$btrc" != 0 ]; then
		ktap_fail lttng.exec_control "babeltrace2 exited $btrc: $(tail -n 2 $W/bt.err | tr '\n' ' ')"
		ktap_fail lttng.openat_path "babeltrace2 exited $btrc (see lttng.exec_control)"
	else
		if [ -n "$exec_line" ]; then
			ktap_pass lttng.exec_control
		else
			ktap_fail lttng.exec_control "no sched_process_exec event with pid = ${tpid:-?} and filename = \"/tests/bin/tp_open\" ($nev events)"
		fi
		if [ -z "$refused" ]; then
			if [ -n "$open_line" ]; then
				ktap_pass lttng.openat_path
			else
				ktap_fail lttng.openat_path "no syscall_entry_openat event with pid = ${tpid:-?} and filename = \"$KP\" ($nsys syscall events of $nev)"
			fi
		elif [ -z "$exec_line" ]; then
			ktap_fail lttng.openat_path "the six: the session recorded nothing of tp_open at all, so no syscall event proves nothing"
		elif [ "$nsys" = 0 ]; then
			ktap_diag "lttng.openat_path: the six: sys_enter/sys_exit are may-sleep and refuse LTTng's ordinary tracepoint_probe_register() with -EINVAL; lttng-modules ignores it: no syscall event recorded ($nev other events, tp_open's exec among them), as expected"
			ktap_pass lttng.openat_path
		else
			ktap_fail lttng.openat_path "the six: $nsys syscall events recorded, expected none (LTTng's ordinary probe on the may-sleep sys_enter/sys_exit is refused)"
		fi
	fi
fi

# The kernel log since the check began: every process of LTTng is gone,
# so every probe unregistration has run.
sleep 1
dmesg | sed -n '/tpsleep-lttng: check begins/,$p' > $W/dmesg.out
# (their places only: a "WARNING:" on the console is a splat for
# scripts/check-log.sh, whatever prints it)
lt_warns() { sed -n 's/.*WARNING: CPU: [0-9]* PID: [0-9]* at /WARN at /p'; }
lt_warns < $W/dmesg.out | sed 's/^/  kernel: /'
warns=$(grep -c 'WARNING: CPU: ' $W/dmesg.out)
# The kernel's WARN: tracepoint_remove_func() is inlined into
# tracepoint_probe_unregister(), which %pS names then; the file is
# relative to the build directory (../../trees/VARIANT/kernel/tracepoint.c);
# its call trace (up to the end of its block) has LTTng's unregister.
KWARN=' at \([^ ]*/\)*kernel/tracepoint\.c:[0-9]* \(tracepoint_remove_func\|tracepoint_probe_unregister\)+'
rm_line=$(grep -n "WARNING: CPU: .*$KWARN" $W/dmesg.out | head -n 1 | cut -d: -f1)
rm_lttng=
if [ -n "$rm_line" ] && sed -n "$rm_line,\$p" $W/dmesg.out | sed '/---\[ end trace/q' |
	grep -q 'lttng_tracepoint_probe_unregister+.*\[lttng_tracer\]'; then
	rm_lttng=1
fi
other=$(grep 'WARNING: CPU: ' $W/dmesg.out |
	grep -v "$KWARN" |
	grep -v ' at [^ ]*lttng-tracepoint\.c:[0-9]* lttng_tracepoint_probe_\(un\)*register+[^ ]* \[lttng_tracer\]' || true)
if [ -z "$lt_ran" ]; then
	:	# failed above
elif [ -z "$refused" ]; then
	if [ "$warns" = 0 ]; then
		ktap_pass lttng.warn
	else
		ktap_fail lttng.warn "$warns WARN(s) while LTTng ran: $(lt_warns < $W/dmesg.out | head -n 2 | tr '\n' ' ')"
	fi
elif [ -n "$other" ]; then
	ktap_fail lttng.warn "the six: unexpected WARN(s): $(echo "$other" | lt_warns | head -n 2 | tr '\n' ' ')"
elif [ -z "$rm_lttng" ]; then
	ktap_fail lttng.warn "the six: no WARN from tracepoint_remove_func() with lttng_tracepoint_probe_unregister in its call trace ($warns WARN(s)): LTTng's unregister of its refused sys_enter probe should trip WARN_ON_ONCE(IS_ERR(old))"
else
	ktap_diag "lttng.warn: the six: $warns WARN(s), as expected: WARN_ON_ONCE(IS_ERR(old)) in tracepoint_remove_func() (LTTng unregisters the sys_enter probe the kernel refused), and lttng-modules' WARN_ON_ONCE(ret) on the refused register and unregister; scripts/check-log.sh accepts exactly these"
	ktap_pass lttng.warn
fi
[ -z "$refused" ] || [ -z "$lt_ran" ] || lt_kmsg "expect-warn end"
echo 0 > $T/events/enable
rm -rf $W
