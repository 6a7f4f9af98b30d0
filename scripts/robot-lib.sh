# shellcheck shell=bash
# robot-lib.sh: the comparison of make robot (scripts/robot.sh), sourced
# by it and by scripts/robot-selftest.sh, which tries it on made-up sets
# (make hygiene).  R is the directory of a run's files.

# norm FILE...: warning lines of build logs (and sparse's error lines:
# sparse reports an address-space mismatch such as a bad __rcu access as
# an error, and the build goes on), without the tree's path (absolute, or
# relative to the object directory: ../../trees/SET/, as kbuild names the
# sources of an O= build), line and column numbers, each with its count
# (a second identical warning in a file is an added one; every set of a
# cell checks the same files, the series adds no C file)
norm() {
	grep -hE ': (warning|error):' "$@" 2>/dev/null |
		sed -E "s|^$TREES/[^/]*/||; s|^(\.\./)+trees/[^/]*/||; s|:[0-9]+:[0-9]+:|:|; s|:[0-9]+:|:|" |
		counted
}

# counted: the lines of stdin, each once with its count ("TEXT [xN]"),
# sorted (norm's form; kernel-doc's warnings, robot.sh, are counted alike)
counted() {
	sort | uniq -c | sed -E 's/^ *([0-9]+) (.*)$/\2 [x\1]/' | sort
}

# added KIND VARIANT BASE: the KIND warnings of VARIANT that BASE has not,
# or has fewer times (norm's "TEXT [xN]" lines; one fewer is not added).
# BASE's lines are those of the first file by name (NR == FNR would take
# VARIANT's for BASE's when BASE has none); a file that cannot be read
# fails.
added() {
	awk 'function parse(line) {
		if (match(line, / \[x[0-9]+\]$/)) {
			text = substr(line, 1, RSTART - 1)
			n = substr(line, RSTART + 3, RLENGTH - 4) + 0
		} else {
			text = line
			n = 1
		}
	}
	FILENAME == ARGV[1] { parse($0); base[text] = n; next }
	{ parse($0); if (n > base[text] + 0) print }' "$R/$3.$1" "$R/$2.$1"
}

# set_ok VARIANT BASE: both built (and checked), nothing added over BASE.
# What is added is written to $R/VARIANT.added.{cc,w1,sparse}, the one
# comparison robot-report.py reports (it does not compare again).
set_ok() {
	local k
	rm -f "$R/$1".added.{cc,w1,sparse}
	grep -q '^result=built' "$R/$1.status" || return 1
	grep -q '^result=built' "$R/$2.status" 2>/dev/null || return 1
	for k in cc w1 sparse; do
		added "$k" "$1" "$2" > "$R/$1.added.$k" || return 1
	done
	! [ -s "$R/$1.added.cc" ] && ! [ -s "$R/$1.added.w1" ] && ! [ -s "$R/$1.added.sparse" ]
}
