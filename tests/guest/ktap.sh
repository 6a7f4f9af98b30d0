# KTAP helpers for the guest checks (busybox sh); sourced by run-checks.sh
# and by every script in checks/.  Results go to $KTAP_OUT (the results
# serial port, /dev/ttyS1; also the console with tpsleep.ktap=console),
# diagnostics to the console.
# shellcheck shell=sh

KTAP_OUT=${KTAP_OUT:-/dev/ttyS1}

# What differs between the guests' architectures, for the checks: system
# call numbers, and the calls that only have an *at() form on arm64 (the
# asm-generic table: no unlink(), no rename(); tests/progs/tp_ustr.c).
case $(uname -m) in
aarch64)
	NR_OPENAT=56 NR_GETPPID=173 NR_EXECVE=221
	SC_UNLINK=unlinkat SC_RENAME=renameat ;;
*)
	NR_OPENAT=257 NR_GETPPID=110 NR_EXECVE=59
	SC_UNLINK=unlink SC_RENAME=rename ;;
esac
KTAP_COUNT_FILE=${KTAP_COUNT_FILE:-/run/ktap.count}

# ktap_line LINE: one line of the results.  With tpsleep.ktap=console on
# the kernel command line (/init exports KTAP_CONSOLE=1) each line also goes
# to the console, prefixed "TPSLEEP-KTAP: " for a LAVA monitor
# (scripts/lava.sh); without it, the results port alone.
ktap_line() {
	echo "$1" > "$KTAP_OUT"
	[ -z "${KTAP_CONSOLE:-}" ] || echo "TPSLEEP-KTAP: $1" > /dev/console
}

# The helpers keep their variables local: a check's own variables (n, name,
# out...) must survive a call.
_ktap_next() {
	local _kn
	_kn=$(cat "$KTAP_COUNT_FILE" 2>/dev/null || echo 0)
	_kn=$((_kn + 1))
	echo "$_kn" > "$KTAP_COUNT_FILE"
	echo "$_kn"
}

# ktap_pass NAME / ktap_fail NAME [WHY] / ktap_skip NAME WHY
ktap_pass() {
	local _kn
	_kn=$(_ktap_next)
	ktap_line "ok $_kn $1"
	echo "[ktap] ok $_kn $1"
}
ktap_fail() {
	local _kn
	_kn=$(_ktap_next)
	[ -n "${2:-}" ] && ktap_line "# $1: $2"
	ktap_line "not ok $_kn $1"
	echo "[ktap] not ok $_kn $1 ${2:-}"
}
ktap_skip() {
	local _kn
	_kn=$(_ktap_next)
	ktap_line "ok $_kn $1 # SKIP ${2:?a skip needs a reason}"
	echo "[ktap] skip $_kn $1: $2"
}
# ktap_diag TEXT: a comment line in the results
ktap_diag() {
	ktap_line "# $*"
	echo "[ktap] # $*"
}
# ktap_check NAME CMD...: pass if CMD exits 0, else fail with its output
ktap_check() {
	local _kname _kout
	_kname=$1; shift
	if _kout=$("$@" 2>&1); then
		ktap_pass "$_kname"
	else
		ktap_fail "$_kname" "$(echo "$_kout" | tail -n 3 | tr '\n' ' ')"
	fi
}
# ktap_check_lines PREFIX OUT STATUS NAME...: one result PREFIX.NAME per
# NAME from the "check NAME ok|fail|skip WHY" lines a program wrote to OUT (the
# last one wins); a NAME without a line fails, with "exit status STATUS"
# and the end of OUT.
ktap_check_lines() {
	local _kp _kout _kst _kc _kline
	_kp=$1 _kout=$2 _kst=$3
	shift 3
	for _kc in "$@"; do
		_kline=$(grep "^check $_kc " "$_kout" | tail -n 1)
		case "$_kline" in
		"check $_kc ok")
			ktap_pass "$_kp.$_kc" ;;
		"check $_kc fail "*)
			ktap_fail "$_kp.$_kc" "${_kline#check "$_kc" fail }" ;;
		"check $_kc skip "*)
			ktap_skip "$_kp.$_kc" "${_kline#check "$_kc" skip }" ;;
		*)
			ktap_fail "$_kp.$_kc" "no result (exit status $_kst): $(tail -n 2 "$_kout" | tr '\n' ' ')" ;;
		esac
	done
}
# ktap_skip_all PREFIX WHY NAME...: skip PREFIX.NAME for each NAME
ktap_skip_all() {
	local _kp _kwhy _kc
	_kp=$1 _kwhy=$2
	shift 2
	for _kc in "$@"; do
		ktap_skip "$_kp.$_kc" "$_kwhy"
	done
}

# ktap_kv LINE KEY: the value of the first KEY=VALUE in LINE (the test
# modules' result lines)
ktap_kv() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# has_feature TAG: the kernel carries the patch that provides TAG
has_feature() {
	grep -qx "$1" /tests/features 2>/dev/null
}

# How the kernel prints the flags and mode of tp_open's and tp_ustr's
# openat(..., O_RDONLY | O_CLOEXEC) (mode 0): in ftrace's trace (FT) and
# through the format's print fmt as libtraceevent prints it (TEP: trace-cmd,
# perf script); *_RE as an extended regular expression.  Decoded as
# upstream 6.19 does with feature openatflags, raw before.
if has_feature openatflags; then
	OFL_FT="flags: O_RDONLY|O_CLOEXEC)"
	OFL_FT_RE="flags: O_RDONLY[|]O_CLOEXEC[)]"
	OFL_TEP="flags: O_RDONLY|O_CLOEXEC, mode: 0000"
	OFL_TEP_RE="flags: O_RDONLY[|]O_CLOEXEC, mode: 0000\$"
else
	OFL_FT="flags: 80000, mode: 0)"
	OFL_FT_RE="flags: 80000, mode: 0[)]"
	OFL_TEP="flags: 0x00080000, mode: 0x00000000"
	OFL_TEP_RE="flags: 0x0*80000, mode: 0x0*\$"
fi
