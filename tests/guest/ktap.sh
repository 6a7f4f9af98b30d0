# KTAP helpers for the guest checks (busybox sh); sourced by run-checks.sh
# and by every script in checks/.  Results go to $KTAP_OUT (the results
# serial port, /dev/ttyS1), diagnostics to the console.
# shellcheck shell=sh

KTAP_OUT=${KTAP_OUT:-/dev/ttyS1}
KTAP_COUNT_FILE=${KTAP_COUNT_FILE:-/run/ktap.count}

_ktap_next() {
	n=$(cat "$KTAP_COUNT_FILE" 2>/dev/null || echo 0)
	n=$((n + 1))
	echo "$n" > "$KTAP_COUNT_FILE"
	echo "$n"
}

# ktap_pass NAME / ktap_fail NAME [WHY] / ktap_skip NAME WHY
ktap_pass() {
	n=$(_ktap_next)
	echo "ok $n $1" > "$KTAP_OUT"
	echo "[ktap] ok $n $1"
}
ktap_fail() {
	n=$(_ktap_next)
	[ -n "${2:-}" ] && echo "# $1: $2" > "$KTAP_OUT"
	echo "not ok $n $1" > "$KTAP_OUT"
	echo "[ktap] not ok $n $1 ${2:-}"
}
ktap_skip() {
	n=$(_ktap_next)
	echo "ok $n $1 # SKIP ${2:?a skip needs a reason}" > "$KTAP_OUT"
	echo "[ktap] skip $n $1: $2"
}
# ktap_diag TEXT: a comment line in the results
ktap_diag() {
	echo "# $*" > "$KTAP_OUT"
	echo "[ktap] # $*"
}
# ktap_check NAME CMD...: pass if CMD exits 0, else fail with its output
ktap_check() {
	name=$1; shift
	if out=$("$@" 2>&1); then
		ktap_pass "$name"
	else
		ktap_fail "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# has_feature TAG: the kernel carries the patch that provides TAG
has_feature() {
	grep -qx "$1" /tests/features 2>/dev/null
}
