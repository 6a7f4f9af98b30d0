# 15-ustrings.sh: syscall enter events record the user strings (follow-up
# patch "tracing: record the user space strings of syscall enter events",
# feature ustrings).  Every path lives in a page tp_ustr never touched
# before the call (it checks /proc/self/pagemap), so only a copy that
# faults reads it.
#  ustr.format        sys_enter_openat's format has "__data_loc char[]
#                     __filename_val" and __get_str() in its print fmt,
#                     sys_enter_rename (renameat on arm64) two strings,
#                     sys_enter_write no string: with feature ubuf its
#                     buffer, "__data_loc char[] __buf_val" printed with
#                     __print_array(), without it no field;
#                     without ustrings: no such field (patched unchanged)
#  ustr.tracefs       N openat() calls: N of N trace lines show the exact
#                     path after the exact pointer
#  ustr.rename        rename(): both paths
#  ustr.trace_cmd     trace-cmd record -e syscalls:sys_enter_openat +
#                     trace-cmd report: N of N paths
#  ustr.perf          perf record -e syscalls:sys_enter_openat + perf
#                     script: N of N paths
#  ustr.perf_user.*   tp_perfuser user: a perf event on sys_enter_openat
#                     opened by a user without capabilities (UID 65534,
#                     perf_event_paranoid 2) records N non-resident paths
#                     empty (nonres: the probe does not fault for such a
#                     user) and a path on the stack exactly (resident)
#  ustr.perf_root.*   tp_perfuser root: the same calls traced by root
#                     record every path (nonres) and the one on the stack
#                     (resident)
#  ustr.bpftrace      bpftrace tracepoint:syscalls:sys_enter_unlink (unlinkat)
#                     str(kptr(args->__pathname_val)) of N unlink() calls
#                     of fresh paths: N of N (the BPF context is the record
#                     the format describes).  bpftrace 0.17 takes the fields
#                     of syscalls:* for user addresses, hence kptr(), and
#                     lays out its struct from the field types, not the
#                     format's offsets (openat's 8-byte umode_t mode shifts
#                     the string's word), hence unlink.  str(args->pathname)
#                     of the same calls is a diagnostic
#  ustr.filter        a filter on __filename_val selects exactly the
#                     matching calls
#  ustr.hist          a hist trigger keyed on __filename_val counts each
#                     path exactly
#  ustr.badptr_result NULL, inaccessible, kernel and partially mapped
#                     filenames: openat() fails with EFAULT as on every
#                     kernel, event on or off
#  ustr.badptr_record those calls record an empty string
#  ustr.buf_tracefs   (feature ubuf) N write() calls of buffers in pages
#                     never touched: N of N trace lines show the pointer,
#                     the bytes in hex and their printable copy (a tab,
#                     0xfe and a NUL as '.'), as upstream 6.19 prints them
#                     (a copy of a string would stop at the NUL; half of
#                     them end on their page's last byte)
#  ustr.buf_cut       a 200-byte buffer: its first 63 bytes (the knob's
#                     default), marked ", ...)" and "..." after the copy
#  ustr.buf_trace_cmd trace-cmd report: N of N buffers, the bytes as
#                     libtraceevent prints the format's __print_array()
#  ustr.buf_perf      perf record + perf script: the same
#  ustr.buf_filter    a filter on __buf_val selects exactly the matching
#                     calls
#  ustr.buf_empty     with the knob at 0 the N buffers record no byte,
#                     printed "(, ...)", and a filter __buf_val == ""
#                     keeps each of them (a NUL follows the empty field),
#                     none of N recorded with the knob at 63
#  ustr.knob_default  syscall_user_buf_size reads 63, in a new instance too
#  ustr.knob_off      0: an empty string, user memory not read
#  ustr.knob_cut      8: the first 8 bytes and "..."
#  ustr.knob_max      165: a 200-byte path is cut at 165 and marked
#  ustr.knob_clamp    a larger value is taken as 165, as upstream does
#                     (200 and 2^32, each written after 8: accepted,
#                     reads 165)
#  ustr.knob_instance an instance's value applies to its own buffer only
#  ustr.switch_exactly_once  (feature ustrsleep) N getppid() calls while
#                     instance A's knob goes 0 <-> 63 and instance B's
#                     sys_enter_openat is enabled and disabled, in loops
#                     (each a switch of the instance's sys_enter probe
#                     between the one that sleeps and the other): as many
#                     records in each as in instance C, whose probe never
#                     switches (N, and the exec'ing shell's own call)
# The [demo:trace_cmd] lines are make demo's (us_demo), on every kernel.
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/ustr-check
D=/tmp/ustr-d
N=20
NEED="needs the follow-up patch 'tracing: record the user space strings of syscall enter events' (feature ustrings)"

us_clean() {
	echo 0 > $T/events/enable
	for ev in sys_enter_openat sys_enter_$SC_RENAME sys_enter_write; do
		echo 0 > $T/events/syscalls/$ev/filter
		grep -v '^#' $T/events/syscalls/$ev/trigger | sed 's/ \[.*//' |
		while read -r trig; do echo "!$trig" > $T/events/syscalls/$ev/trigger; done
	done
	# (a script killed between the two writes of a check leaves it)
	[ ! -e $T/syscall_user_buf_size ] || echo 63 > $T/syscall_user_buf_size
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# us_count_paths OUT TRACE PREFIX SUFFIX: for each "call=openat" line of
# tp_ustr's OUT, count the lines of TRACE with PREFIX<ptr> "<path>"SUFFIX
# (grep -E; PREFIX may match the pointer's padding); sets us_found (paths
# seen exactly once) and us_missing (the first few others).
us_count_paths() {
	us_found=0
	us_missing=
	grep 'call=openat' "$1" > $W/calls
	while read -r line; do
		ptr=$(ktap_kv "$line" ptr)
		path=$(ktap_kv "$line" path)
		c=$(grep -cE -- "$3$ptr \"$path\"$4" "$2")
		if [ "$c" = 1 ]; then
			us_found=$((us_found + 1))
		else
			us_missing="$us_missing $path($c)"
		fi
	done < $W/calls
}

# us_judge NAME TOOL RC OUT REPORT ERR: ustr.NAME passes if the tool's
# run exited RC 0 and its REPORT (tracefs print fmt as libtraceevent
# prints it) shows every path of tp_ustr's OUT exactly once
us_judge() {
	us_count_paths "$4" "$5" "filename: 0x0*" ", $OFL_TEP_RE"
	ktap_diag "ustr.$1: $us_found of $N non-resident paths in $2"
	grep -F "$D/u-" "$5" | head -n 2 | sed "s/^/  $2: /"
	if [ "$3" = 0 ] && [ $us_found = $N ]; then ktap_pass "ustr.$1"; else
		# what the tool saw: no record at all, or records without the
		# path; the end of its own output (trace-cmd record: bytes per CPU)
		ktap_diag "ustr.$1: $(wc -l < "$5") report lines, $(grep -c 'openat' "$5") openat; tool: $(grep -v 'call=' "$4" | tail -n 8 | tr '\n' ' ')"
		ktap_fail "ustr.$1" "rc $3, $us_found of $N; missing:$us_missing $(tail -n 2 "$6" | tr '\n' ' ')"; fi
}

# us_demo OUT REPORT: make demo's trace-cmd block (scripts/demo-report.py):
# of tp_ustr's openat() calls (OUT), how many trace-cmd's REPORT shows with
# the path after the pointer and how many with the pointer alone, and the
# line of the first call; on every kernel
us_demo() {
	local _l _p _s=0 _b=0
	grep 'call=openat' "$1" > $W/demo.calls
	while read -r _l; do
		_p=$(ktap_kv "$_l" ptr)
		grep -qE -- "filename: 0x0*$_p \"$(ktap_kv "$_l" path)\"," "$2" && _s=$((_s + 1))
		grep -qE -- "filename: 0x0*$_p," "$2" && _b=$((_b + 1))
	done < $W/demo.calls
	echo "[demo:trace_cmd] # calls=$(wc -l < $W/demo.calls) path=$_s pointer_only=$_b"
	_p=$(ktap_kv "$(head -n 1 $W/demo.calls)" ptr)
	[ -z "$_p" ] || grep -m 1 -E -- "filename: 0x0*${_p}[ ,]" "$2" | sed 's/^/[demo:trace_cmd] /'
}

# us_judge_filter NAME FORMAT: ustr.NAME passes if the trace holds exactly
# the lines of calls 1 and 10..19 of N, each the one line with the text
# printf FORMAT i (a filter "...1*" on their string or buffer kept them)
us_judge_filter() {
	local _want=0 _why= _i=0 _n _c _total
	grep -v '^#' $T/trace > $W/trace.$1
	while [ $_i -lt $N ]; do
		case $_i in 1|1?) _want=$((_want + 1)); _n=1 ;; *) _n=0 ;; esac
		_c=$(grep -cF -- "$(printf "$2" $_i)" $W/trace.$1)
		[ "$_c" = $_n ] || _why="$_why $_i: $_c (want $_n);"
		_i=$((_i + 1))
	done
	_total=$(wc -l < $W/trace.$1)
	if [ -z "$_why" ] && [ "$_total" = $_want ]; then ktap_pass "ustr.$1"; else
		ktap_fail "ustr.$1" "$_total line(s), want $_want;$_why"; fi
}

# us_run_open OUT: N openat() calls of fresh paths; 0 if tp_ustr ran fine
us_run_open() {
	tp_ustr open $N $D > "$1" 2>&1
	us_rc=$?
	[ "$us_rc" = 0 ] && [ "$(grep -c 'call=openat' "$1")" = $N ]
}

rm -rf $W $D
mkdir -p $W $D
i=0
while [ $i -lt $N ]; do
	[ $((i % 3)) = 0 ] || echo "file $i" > $D/u-$i     # some ENOENT too
	i=$((i + 1))
done
us_clean

# --- format --------------------------------------------------------------
F=$T/events/syscalls
if has_feature ustrings; then
	why=
	grep -q 'field:__data_loc char\[\] __filename_val;' $F/sys_enter_openat/format ||
		why="$why openat: no __filename_val field;"
	grep -q '__get_str(__filename_val)' $F/sys_enter_openat/format ||
		why="$why openat: print fmt lacks __get_str(__filename_val);"
	[ "$(grep -c 'field:__data_loc char\[\]' $F/sys_enter_$SC_RENAME/format)" = 2 ] ||
		why="$why rename: not two strings;"
	if has_feature ubuf; then
		[ "$(grep -c 'field:__data_loc' $F/sys_enter_write/format)" = 1 ] &&
		grep -q 'field:__data_loc char\[\] __buf_val;' $F/sys_enter_write/format ||
			why="$why write: no __buf_val field alone;"
		grep -q 'buf: 0x%08lx (%s).*__print_array(__get_dynamic_array(__buf_val), __get_dynamic_array_len(__buf_val), 1)' \
			$F/sys_enter_write/format || why="$why write: print fmt lacks the buffer's array;"
		grep -q 'field:__data_loc char\[\] __buf_val;' $F/sys_enter_pwrite64/format ||
			why="$why pwrite64: no __buf_val field;"
		[ ! -d $F/sys_enter_mq_timedsend ] ||
		grep -q 'field:__data_loc char\[\] __u_msg_ptr_val;' $F/sys_enter_mq_timedsend/format ||
			why="$why mq_timedsend: no __u_msg_ptr_val field;"
	elif grep -q '__data_loc' $F/sys_enter_write/format; then
		why="$why write: its buffer is recorded (no feature ubuf);"
	fi
	if [ -z "$why" ]; then ktap_pass ustr.format; else
		ktap_fail ustr.format "$why"; fi
	grep -E 'field:__data_loc|print fmt' $F/sys_enter_openat/format $F/sys_enter_write/format |
		sed 's/^/  format: /'
else
	if grep -q '__data_loc' $F/sys_enter_openat/format $F/sys_enter_$SC_RENAME/format \
		$F/sys_enter_write/format; then
		ktap_fail ustr.format "a syscall event has a string field on a kernel without the follow-up"
	else
		ktap_pass ustr.format
	fi
fi

if ! has_feature ustrings; then
	# What a user gets today: the pointer.  (The bad pointers still run
	# below: their results must be the same on every kernel.)
	ktap_skip_all ustr "$NEED" tracefs rename trace_cmd perf bpftrace filter hist
	ktap_skip_all ustr.perf_user "$NEED" nonres resident
	ktap_skip_all ustr.perf_root "$NEED" nonres resident
	# make demo: the same trace-cmd run here shows the pointer alone
	if command -v trace-cmd > /dev/null; then
		(cd $W && trace-cmd record -e syscalls:sys_enter_openat -o $W/tc.dat \
			tp_ustr open $N $D) > $W/tc.out 2>&1
		trace-cmd report -i $W/tc.dat > $W/tc.report 2> $W/tc.err
		us_demo $W/tc.out $W/tc.report
	fi
	us_clean
fi

# --- tracefs: N of N ------------------------------------------------------
if has_feature ustrings; then
	echo 1 > $F/sys_enter_openat/enable
	us_run_open $W/open.out
	ok=$?
	echo 0 > $T/tracing_on
	cat $T/trace > $W/trace.open
	if [ $ok != 0 ]; then
		ktap_fail ustr.tracefs "tp_ustr failed (rc $us_rc): $(tail -n 2 $W/open.out | tr '\n' ' ')"
	else
		us_count_paths $W/open.out $W/trace.open "filename: " ", $OFL_FT_RE"
		ktap_diag "ustr.tracefs: $us_found of $N non-resident paths recorded exactly"
		grep -F "$D/u-" $W/trace.open | head -n 3 | sed 's/^/  ftrace: /'
		if [ $us_found = $N ]; then ktap_pass ustr.tracefs; else
			ktap_fail ustr.tracefs "$us_found of $N; missing (count):$us_missing"; fi
	fi
	us_clean

	# --- rename: two strings ---------------------------------------------
	# (renameat() where there is no rename(): its dfd arguments between)
	echo 1 > $F/sys_enter_$SC_RENAME/enable
	echo x > $D/r-old
	tp_ustr rename $D/r-old $D/r-new > $W/rename.out 2>&1
	rc=$?
	echo 0 > $T/tracing_on
	line=$(grep 'call=rename' $W/rename.out)
	old="oldname: $(ktap_kv "$line" ptr) \"$D/r-old\""
	new="newname: $(ktap_kv "$line" newptr) \"$D/r-new\""
	if [ $SC_RENAME = rename ]; then
		want="sys_rename($old, $new)"
	else	# AT_FDCWD, sign-extended, for both directories
		want="sys_renameat(olddfd: ffffffffffffff9c, $old, newdfd: ffffffffffffff9c, $new)"
	fi
	c=$(grep -cF -- "$want" $T/trace)
	if [ $rc = 0 ] && [ "$(ktap_kv "$line" ret)" = 0 ] && [ "$c" = 1 ]; then
		ktap_pass ustr.rename
	else
		ktap_fail ustr.rename "rc $rc, '$line', $c line(s) '$want': $(grep "sys_$SC_RENAME(" $T/trace | head -n 2)"
	fi
	us_clean

	# --- trace-cmd ---------------------------------------------------------
	if ! command -v trace-cmd > /dev/null; then
		ktap_fail ustr.trace_cmd "no trace-cmd in the guest"
	else
		(cd $W && trace-cmd record -e syscalls:sys_enter_openat -o $W/tc.dat \
			tp_ustr open $N $D) > $W/tc.out 2>&1
		rc=$?
		trace-cmd report -i $W/tc.dat > $W/tc.report 2> $W/tc.err
		us_judge trace_cmd "trace-cmd report" $rc $W/tc.out $W/tc.report $W/tc.err
		us_demo $W/tc.out $W/tc.report
	fi
	us_clean

	# --- perf ----------------------------------------------------------------
	perf record -q -e syscalls:sys_enter_openat -o $W/perf.data -- \
		tp_ustr open $N $D > $W/perf.out 2>&1
	rc=$?
	perf script -i $W/perf.data > $W/perf.script 2> $W/perf.err
	us_judge perf "perf script" $rc $W/perf.out $W/perf.script $W/perf.err
	us_clean

	# --- perf, opened by a user without capabilities, and by root ----------
	pu_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	echo 2 > /proc/sys/kernel/perf_event_paranoid
	tp_perfuser user $N > $W/perfuser.out 2>&1
	pu_rc=$?
	echo "$pu_paranoid" > /proc/sys/kernel/perf_event_paranoid
	tp_perfuser root $N > $W/perfroot.out 2>&1
	pr_rc=$?
	rm -rf /tmp/tp_perfuser-*	# the user's run cannot remove root's dir
	grep -v '^sample \|^call ' $W/perfuser.out $W/perfroot.out | sed 's/^/  /'
	ktap_check_lines ustr.perf_user $W/perfuser.out $pu_rc nonres resident
	ktap_check_lines ustr.perf_root $W/perfroot.out $pr_rc nonres resident
	us_clean

	# --- bpftrace: the BPF context matches the format ------------------------
	mkdir -p $W/inc/linux
	cp /tests/bench/bpftrace-types.h $W/inc/linux/types.h
	bpftrace -I $W/inc -e 'tracepoint:syscalls:sys_enter_'$SC_UNLINK' /pid == cpid/ {
		printf("BT val=%s ptr=%s\n", str(kptr(args->__pathname_val)), str(args->pathname)); }' \
		-c "/tests/bin/tp_ustr unlink $N $D" > $W/bt.out 2> $W/bt.err
	ok=$?
	[ "$(grep -c 'call=unlink' $W/bt.out)" = $N ] || ok="$ok (tp_ustr: $(grep -c 'call=unlink' $W/bt.out) calls)"
	val=0 ptr=0
	i=0
	while [ $i -lt $N ]; do
		[ "$(grep -c "^BT val=$D/u-$i ptr=" $W/bt.out)" = 1 ] && val=$((val + 1))
		[ "$(grep -c "^BT val=.* ptr=$D/u-$i\$" $W/bt.out)" = 1 ] && ptr=$((ptr + 1))
		i=$((i + 1))
	done
	ktap_diag "ustr.bpftrace: str(kptr(args->__pathname_val)) $val of $N, str(args->pathname) $ptr of $N"
	grep '^BT' $W/bt.out | head -n 2 | sed 's/^/  bpftrace: /'
	if [ "$ok" = 0 ] && [ $val = $N ]; then ktap_pass ustr.bpftrace; else
		ktap_fail ustr.bpftrace "rc $ok, $val of $N: $(head -n 3 $W/bt.out $W/bt.err | tr '\n' ' ')"; fi
	us_clean

	# --- filter on the string: u-1 and u-10..u-19 ----------------------------
	echo "__filename_val ~ \"$D/u-1*\"" > $F/sys_enter_openat/filter
	echo 1 > $F/sys_enter_openat/enable
	us_run_open $W/filter.out
	echo 0 > $T/tracing_on
	us_judge_filter filter "\"$D/u-%d\""
	us_clean

	# --- hist keyed on the string: two runs, hitcount 2 per path ------------
	echo "hist:keys=__filename_val if __filename_val ~ \"$D/*\"" > $F/sys_enter_openat/trigger
	us_run_open $W/hist1.out && us_run_open $W/hist2.out
	ok=$?
	cat $F/sys_enter_openat/hist > $W/hist
	why=
	i=0
	while [ $i -lt $N ]; do
		grep -qE "__filename_val: $D/u-$i +\} hitcount: +2\$" $W/hist || why="$why u-$i;"
		i=$((i + 1))
	done
	hits=$(sed -n 's/^ *Hits: //p' $W/hist)
	if [ $ok = 0 ] && [ -z "$why" ] && [ "$hits" = $((2 * N)) ]; then ktap_pass ustr.hist; else
		ktap_fail ustr.hist "rc $ok, Hits: $hits (want $((2 * N))), wrong or missing:$why $(grep -m2 __filename_val $W/hist | tr '\n' ' ')"; fi
	us_clean
fi

# --- write() buffers (feature ubuf) ----------------------------------------
NEED_BUF="needs the follow-up patch 'tracing: record the user buffers of write(), pwrite64() and mq_timedsend()' (feature ubuf)"
# ub_count OUT REPORT STYLE: for each "call=write" line of tp_ustr's OUT,
# count the lines of REPORT with its buffer exactly, as ftrace prints it
# (STYLE ftrace: pointer, hex bytes, printable copy, count) or as
# libtraceevent prints the print fmt (tep: 0x-padded pointer, decimal
# bytes, count); sets ub_found and ub_missing
ub_count() {
	ub_found=0
	ub_missing=
	grep 'call=write ' "$1" > $W/wcalls
	while read -r line; do
		ptr=$(ktap_kv "$line" ptr)
		cnt=$(ktap_kv "$line" cnt)
		if [ "$3" = ftrace ]; then
			c=$(grep -cF -- "buf: $ptr ($(ktap_kv "$line" hex)) \"$(ktap_kv "$line" text)\", count: $cnt)" "$2")
		else
			c=$(grep -cE -- "buf: 0x0*$ptr \($(ktap_kv "$line" dec | tr _ ' ')\), count: 0x0*$cnt\$" "$2")
		fi
		if [ "$c" = 1 ]; then
			ub_found=$((ub_found + 1))
		else
			ub_missing="$ub_missing $(ktap_kv "$line" text)($c)"
		fi
	done < $W/wcalls
}

# ub_judge NAME TOOL RC OUT REPORT ERR: ustr.NAME passes if the tool's
# run exited 0 and its REPORT shows every buffer of tp_ustr's OUT once
ub_judge() {
	ub_count "$4" "$5" tep
	ktap_diag "ustr.$1: $ub_found of $N non-resident write() buffers in $2"
	grep -m 2 -F 'sys_enter_write' "$5" | grep -F "$(ktap_kv "$(grep -m 1 'call=write ' "$4")" ptr)" |
		sed "s/^/  $2: /"
	if [ "$3" = 0 ] && [ $ub_found = $N ]; then ktap_pass "ustr.$1"; else
		ktap_fail "ustr.$1" "rc $3, $ub_found of $N; missing:$ub_missing $(tail -n 2 "$6" | tr '\n' ' ')"; fi
}

if has_feature ubuf; then
	echo 1 > $F/sys_enter_write/enable
	tp_ustr write $N > $W/write.out 2>&1
	rc=$?
	echo 0 > $T/tracing_on
	cat $T/trace > $W/trace.write
	ub_count $W/write.out $W/trace.write ftrace
	ktap_diag "ustr.buf_tracefs: $ub_found of $N non-resident write() buffers recorded exactly"
	grep -m 2 -F 'buf: ' $W/trace.write | grep -F -- '|end' | sed 's/^/  ftrace: /'
	if [ $rc = 0 ] && [ $ub_found = $N ]; then ktap_pass ustr.buf_tracefs; else
		ktap_fail ustr.buf_tracefs "rc $rc, $ub_found of $N; missing (count):$ub_missing"; fi
	# the 200-byte one: 63 bytes, cut
	line=$(grep 'call=writelong' $W/write.out)
	hex=$(ktap_kv "$line" hex | cut -c 1-$((63 * 3 - 1)))
	text=$(ktap_kv "$line" text | cut -c 1-63)
	want="buf: $(ktap_kv "$line" ptr) ($hex, ...) \"$text\"..., count: c8)"
	c=$(grep -cF -- "$want" $W/trace.write)
	if [ "$c" = 1 ]; then ktap_pass ustr.buf_cut; else
		ktap_fail ustr.buf_cut "$c line(s) with '$want': $(grep -F "buf: $(ktap_kv "$line" ptr)" $W/trace.write | cut -c 1-300)"; fi
	us_clean

	if ! command -v trace-cmd > /dev/null; then
		ktap_fail ustr.buf_trace_cmd "no trace-cmd in the guest"
	else
		(cd $W && trace-cmd record -e syscalls:sys_enter_write -o $W/tcw.dat \
			tp_ustr write $N) > $W/tcw.out 2>&1
		rc=$?
		trace-cmd report -i $W/tcw.dat > $W/tcw.report 2> $W/tcw.err
		ub_judge buf_trace_cmd "trace-cmd report" $rc $W/tcw.out $W/tcw.report $W/tcw.err
	fi
	us_clean

	perf record -q -e syscalls:sys_enter_write -o $W/perfw.data -- \
		tp_ustr write $N > $W/perfw.out 2>&1
	rc=$?
	perf script -i $W/perfw.data > $W/perfw.script 2> $W/perfw.err
	ub_judge buf_perf "perf script" $rc $W/perfw.out $W/perfw.script $W/perfw.err
	us_clean

	# a filter on the buffer: w-1 and w-10..w-19
	echo '__buf_val ~ "tp_ustr-w-1*"' > $F/sys_enter_write/filter
	echo 1 > $F/sys_enter_write/enable
	tp_ustr write $N > $W/wfilter.out 2>&1
	echo 0 > $T/tracing_on
	us_judge_filter buf_filter '"tp_ustr-w-%d:...|end"'
	echo 0 > $F/sys_enter_write/filter
	us_clean

	# the knob at 0: no byte recorded, and the field reads as ""; with
	# the knob at 63 the same filter keeps none of them
	echo '__buf_val == ""' > $F/sys_enter_write/filter
	filt=$(cat $F/sys_enter_write/filter)
	echo 1 > $F/sys_enter_write/enable
	echo 0 > $T/syscall_user_buf_size
	tp_ustr write $N > $W/wempty.out 2>&1
	rc=$?
	echo 63 > $T/syscall_user_buf_size
	tp_ustr write $N > $W/wfull.out 2>&1
	rc=$((rc + $?))
	echo 0 > $T/tracing_on
	grep -v '^#' $T/trace > $W/trace.wempty
	found=0 full=0
	grep 'call=write ' $W/wempty.out > $W/wcalls
	while read -r line; do
		c=$(grep -cF -- "buf: $(ktap_kv "$line" ptr) (, ...), count: $(ktap_kv "$line" cnt))" $W/trace.wempty)
		[ "$c" = 1 ] && found=$((found + 1))
	done < $W/wcalls
	grep 'call=write ' $W/wfull.out > $W/wcalls
	while read -r line; do
		c=$(grep -cF -- "buf: $(ktap_kv "$line" ptr) " $W/trace.wempty)
		[ "$c" = 0 ] || full=$((full + 1))
	done < $W/wcalls
	if [ $rc = 0 ] && [ "$filt" = '__buf_val == ""' ] && [ $found = $N ] && [ $full = 0 ]; then
		ktap_pass ustr.buf_empty
	else
		ktap_fail ustr.buf_empty "rc $rc, filter '$filt', $found of $N empty buffers kept by it (want $N), $full of $N recorded ones (want 0): $(head -n 2 $W/trace.wempty | tr '\n' ' ')"
	fi
	echo 0 > $F/sys_enter_write/filter
	us_clean
else
	ktap_skip_all ustr "$NEED_BUF" buf_tracefs buf_cut buf_trace_cmd buf_perf buf_filter buf_empty
fi

# --- syscall_user_buf_size -------------------------------------------------
NEED_KNOB="needs the follow-up patch 'tracing: add syscall_user_buf_size' (feature ubufsize)"
K=$T/syscall_user_buf_size
I=$T/instances/ustr
# us_knob_run NAME SIZE PATH WANT: with the knob at SIZE, one openat(PATH)
# must record exactly "WANT"
us_knob_run() {
	echo "$2" > $K
	echo 1 > $F/sys_enter_openat/enable
	tp_ustr path "$3" > $W/knob.out 2>&1
	rc=$?
	echo 0 > $T/tracing_on
	ptr=$(ktap_kv "$(grep call=openat $W/knob.out)" ptr)
	c=$(grep -cF -- "filename: $ptr \"$4\", $OFL_FT" $T/trace)
	if [ $rc = 0 ] && [ "$c" = 1 ]; then ktap_pass ustr.$1; else
		ktap_fail ustr.$1 "rc $rc, $c line(s) with \"$4\": $(grep -F "filename: $ptr" $T/trace | head -n 1)"; fi
	us_clean
}
if has_feature ubufsize; then
	rmdir $I 2>/dev/null
	v=$(cat $K)
	mkdir $I
	vi=$(cat $I/syscall_user_buf_size)
	if [ "$v" = 63 ] && [ "$vi" = 63 ]; then ktap_pass ustr.knob_default; else
		ktap_fail ustr.knob_default "top level $v, new instance $vi (want 63)"; fi
	us_knob_run knob_off 0 $D/u-1 ""
	us_knob_run knob_cut 8 $D/u-1 "$(echo $D/u-1 | cut -c1-8)..."
	long=$D/$(printf '%0188d' 0)
	us_knob_run knob_max 165 "$long" "$(echo "$long" | cut -c1-165)..."
	# 2^32 too: upstream parses an unsigned long
	clamp=
	for big in 200 4294967296; do
		echo 8 > $K
		if ! echo $big > $K 2> $W/clamp.err; then
			clamp="$clamp $big refused: $(cat $W/clamp.err);"
		elif [ "$(cat $K)" != 165 ]; then
			clamp="$clamp $big written, reads $(cat $K);"
		fi
	done
	if [ -z "$clamp" ]; then ktap_pass ustr.knob_clamp; else
		ktap_fail ustr.knob_clamp "$clamp (want each taken as 165)"; fi
	echo 63 > $K
	echo 4 > $I/syscall_user_buf_size
	echo 1 > $I/events/syscalls/sys_enter_openat/enable
	echo 1 > $F/sys_enter_openat/enable
	tp_ustr path $D/u-2 > $W/inst.out 2>&1
	echo 0 > $T/tracing_on
	echo 0 > $I/events/syscalls/sys_enter_openat/enable
	ptr=$(ktap_kv "$(grep call=openat $W/inst.out)" ptr)
	c_top=$(grep -cF "filename: $ptr \"$D/u-2\"," $T/trace)
	c_in=$(grep -cF "filename: $ptr \"/tmp...\"," $I/trace)
	if [ "$c_top" = 1 ] && [ "$c_in" = 1 ]; then ktap_pass ustr.knob_instance; else
		ktap_fail ustr.knob_instance "top level $c_top line(s) with the path, instance $c_in with \"/tmp...\" (want 1, 1)"; fi
	echo > $I/trace
	rmdir $I
	us_clean
else
	ktap_skip_all ustr "$NEED_KNOB" knob_default knob_off knob_cut knob_max knob_clamp knob_instance
fi

# --- the probe switch calls each probe once per system call (0014) ------
# Instance A records sys_enter_getppid and sys_enter_openat (strings), and
# its knob goes 0 <-> 63 in a loop: its sys_enter probe is replaced by the
# one that sleeps and back.  Instance B records sys_enter_getppid, and its
# sys_enter_openat is enabled and disabled in a loop: the same switch for
# B's probe.  Meanwhile one process makes EO_N getppid() calls; each
# instance, filtered on its pid, must hold as many records as instance C,
# whose probe never switches (the shell that execs the program makes a
# call of its own), and C at least EO_N.
EO_N=30000
NEED_SW="needs the follow-up patch 'tracing: syscalls: sleep in the enter probes only while strings are copied' (feature ustrsleep)"
if has_feature ustrsleep; then
	A=$T/instances/eo_a
	B=$T/instances/eo_b
	C=$T/instances/eo_c
	rmdir $A $B $C 2>/dev/null
	mkdir $A $B $C
	rm -f $W/eo.stop $W/eo.a $W/eo.b
	for i in $A $B $C; do
		echo 4096 > $i/buffer_size_kb
		echo 1 > $i/events/syscalls/sys_enter_getppid/enable
	done
	echo 1 > $A/events/syscalls/sys_enter_openat/enable
	( while [ ! -e $W/eo.stop ]; do
		echo 0 > $A/syscall_user_buf_size
		echo 63 > $A/syscall_user_buf_size
		echo x >> $W/eo.a
	done ) &
	eo_pa=$!
	( while [ ! -e $W/eo.stop ]; do
		echo 1 > $B/events/syscalls/sys_enter_openat/enable
		echo 0 > $B/events/syscalls/sys_enter_openat/enable
		echo x >> $W/eo.b
	done ) &
	eo_pb=$!
	sh -c "for i in $A $B $C; do echo \$\$ > \$i/set_event_pid; done; exec tp_syscalls $EO_N" > $W/eo.out 2>&1
	eo_rc=$?
	touch $W/eo.stop
	wait $eo_pa $eo_pb
	for i in $A $B $C; do echo 0 > $i/tracing_on; done
	grep -m 2 'sys_getppid()' $C/trace | sed 's/^/  eo first: /'
	grep 'sys_getppid()' $C/trace | tail -n 1 | sed 's/^/  eo last: /'
	ca=$(grep -c 'sys_getppid()' $A/trace)
	cb=$(grep -c 'sys_getppid()' $B/trace)
	cc=$(grep -c 'sys_getppid()' $C/trace)
	sa=$(wc -l < $W/eo.a)
	sb=$(wc -l < $W/eo.b)
	lost=$(cat $A/per_cpu/cpu*/stats $B/per_cpu/cpu*/stats $C/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
	ktap_diag "ustr.switch_exactly_once: $EO_N getppid(): A $ca records over $sa knob cycles, B $cb over $sb enable cycles, C (no switch) $cc, overrun $lost"
	if [ $eo_rc = 0 ] && [ "$ca" = "$cc" ] && [ "$cb" = "$cc" ] && [ "$cc" -ge $EO_N ] &&
	   [ "$lost" = 0 ] && [ "$sa" -ge 2 ] && [ "$sb" -ge 2 ]; then
		ktap_pass ustr.switch_exactly_once
	else
		ktap_fail ustr.switch_exactly_once "want C's count (>= $EO_N) in each instance: A $ca, B $cb, C $cc (switch cycles $sa, $sb; overrun $lost; tp_syscalls rc $eo_rc)"
	fi
	for i in $A $B $C; do
		echo 0 > $i/events/enable
		echo > $i/set_event_pid
		echo > $i/trace
		rmdir $i
	done
else
	ktap_skip ustr.switch_exactly_once "$NEED_SW"
fi

# --- bad pointers: the same result with the event off and on, everywhere --
tp_ustr bad > $W/bad.off 2>&1
echo 1 > $F/sys_enter_openat/enable
tp_ustr bad > $W/bad.on 2>&1
echo 0 > $T/tracing_on
cat $T/trace > $W/trace.bad
why=
for kind in null unmapped kernel partial; do
	for f in $W/bad.off $W/bad.on; do
		line=$(grep "kind=$kind " $f)
		[ "$(ktap_kv "$line" ret)" = -14 ] || why="$why $kind ${f##*.}: '$line';"
	done
done
if [ -z "$why" ]; then ktap_pass ustr.badptr_result; else
	ktap_fail ustr.badptr_result "not EFAULT:$why"; fi
if has_feature ustrings; then
	why=
	for kind in null unmapped kernel partial; do
		ptr=$(ktap_kv "$(grep "kind=$kind " $W/bad.on)" ptr)
		c=$(grep -cF "filename: $ptr \"\", $OFL_FT" $W/trace.bad)
		[ "$c" = 1 ] || why="$why $kind: $c;"
	done
	if [ -z "$why" ]; then ktap_pass ustr.badptr_record; else
		ktap_fail ustr.badptr_record "lines with an empty string (want 1 each):$why"; fi
else
	ktap_skip ustr.badptr_record "$NEED"
fi
us_clean
