#!/bin/bash
# lava.sh: the guest checks as LAVA jobs (the scheduler and workers under
# KernelCI and Linaro's labs), and their proof with Debian's lava-dispatcher.
#
#   lava.sh [VARIANT...]          write build/lava/VARIANT.yaml for built variants
#   lava.sh --bisect              one job per prefix of the series, build/lava/prefix-N.yaml,
#                                 kernels of the bisect walk (build/bisect/N.bzImage)
#   lava.sh --run VARIANT         install lava-dispatcher, write, validate, run the job
#                                 with lava-run on this machine, compare with our KTAP
#   lava.sh --validate NAME...    lava-run --validate and the server's job schema
#   lava.sh --submit LAB NAME...  lavacli jobs submit (LAB: an identity or a --uri URL)
#
# A job deploys the kernel and the ramdisk to tmpfs (file:// URLs of
# build/lava/artifacts, or $LAVA_URL_BASE/NAME/... for a lab's artifact
# server), boots them with the qemu method on the machine of scripts/boot.sh
# (scripts/guest.sh: CPUs, memory, accelerator, kernel command line) plus
# tpsleep.ktap=console, and a monitor turns the guest's console KTAP lines
# (prefixed "TPSLEEP-KTAP: ", tests/guest/ktap.sh) into LAVA test cases:
# 'ok' a pass, 'not ok' a fail, '# SKIP' a skip, from the KTAP header to
# the guest's "tpsleep: checks done" (initramfs/init), so that LAVA's log
# holds the console our splat scan reads (check-log.sh).  Timeouts come from the
# budget of our boot: TIMEOUT (900 s) for the guest, CHECK_TIMEOUT (400 s)
# a check script, the longest silence between two results.
#
# The kernel and initramfs are copied once into build/lava/artifacts/NAME
# (with our KTAP and console of the same boot, when there are), so a
# rebuild does not change them under a job; LAVA_REFRESH=1 takes the
# current ones.  The ramdisk is that initramfs with a second cpio archive
# appended holding the current /init, /tests/ktap.sh and /tests/run-checks.sh
# (the kernel unpacks both, the second wins), so the console switch is there
# whatever packed the initramfs; LAVA_OVERLAY=DIR adds DIR's files too.
# LAVA_APPEND adds kernel arguments (like APPEND for boot.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest.sh"
LAVA=$BUILD/lava
ART=$LAVA/artifacts
# Debian's python3, where the LAVA packages (lava_common, python3-yaml) are;
# another python3 (pyenv) may come first in PATH
PY=/usr/bin/python3
TIMEOUT=${TIMEOUT:-900}
CHECK_TIMEOUT=${CHECK_TIMEOUT:-400}
status=0

usage() { sed -n '5,11s/^# \{0,1\}//p' "$0"; }

# Debian's LAVA packages, only for these targets (not in scripts/packages.txt,
# so make check and .ci/run never install them).
lava_deps() {
	local pkgs p missing=''
	pkgs=$(sed -e 's/#.*//' "$TOP/scripts/packages-lava.txt" | xargs)
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "lava: must run as root to install:$missing"
	stage "lava: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
}

# The variant of prefix N in the bisect walk (scripts/bisect.sh): the end
# of the six and of the whole series are patched and faulting.
total=$(series_patches faulting | wc -l)
six=$(series_patches patched | wc -l)
variant_of() {
	if [ "$1" = "$six" ]; then echo patched
	elif [ "$1" = "$total" ]; then echo faulting
	else echo "prefix-$1"
	fi
}

kernel_version() { "$PY" "$TOP/scripts/lava-compare.py" --kernel-version "$1"; }

# snapshot NAME KERNEL INITRAMFS KTAP CONSOLE: copy a built kernel and its
# initramfs (and our results of that kernel, if any) to build/lava/artifacts/NAME
snapshot() {
	local name=$1 kernel=$2 initrd=$3 ktap=$4 console=$5 dir=$ART/$1
	if [ -f "$dir/bzImage" ] && [ "${LAVA_REFRESH:-0}" != 1 ]; then
		cmp -s "$kernel" "$dir/bzImage" 2>/dev/null ||
			echo "lava: $name: keeping the kernel of $dir ($kernel differs or is gone; LAVA_REFRESH=1 takes it)"
		return 0
	fi
	[ -f "$kernel" ] || { echo "lava: $name: no kernel $kernel"; return 1; }
	[ -f "$initrd" ] || { echo "lava: $name: no initramfs $initrd"; return 1; }
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$kernel" "$dir/bzImage"
	cp "$initrd" "$dir/initramfs.cpio"
	# our KTAP and console of this kernel (lava-compare.py checks they are)
	if [ -f "$ktap" ] && [ -f "$console" ]; then
		cp "$ktap" "$dir/results.ktap"
		cp "$console" "$dir/console.log"
	fi
	echo "lava: $name: copied $kernel ($(kernel_version "$dir/bzImage")) and $initrd to $dir"
}

# ramdisk NAME: the initramfs + an appended archive of the current guest
# scripts (and LAVA_OVERLAY's files)
ramdisk() {
	local dir=$ART/$1 root
	root=$(mktemp -d)
	mkdir -p "$root/tests"
	cp "$TOP/initramfs/init" "$root/init"
	cp "$TOP/tests/guest/ktap.sh" "$TOP/tests/guest/run-checks.sh" "$root/tests/"
	[ -z "${LAVA_OVERLAY:-}" ] || cp -r "$LAVA_OVERLAY"/. "$root/"
	find "$root" -exec touch -h -d @0 {} +
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --reproducible -R 0:0 --quiet) > "$dir/overlay.cpio"
	rm -rf "$root"
	cat "$dir/initramfs.cpio" "$dir/overlay.cpio" > "$dir/ramdisk.cpio"
}

url_of() {
	if [ -n "${LAVA_URL_BASE:-}" ]; then
		echo "${LAVA_URL_BASE%/}/$1/$2"
	else
		echo "file://$ART/$1/$2"
	fi
}

# The QEMU options a qemu device type gets from the job's context (Debian's
# lava-server device-types/qemu.jinja2 with arch x86_64, no_kvm, memory,
# extra_options): ours are those of scripts/boot.sh, the console on the
# worker's stdio, the results port (ttyS1) to nowhere.
accel=$(guest_accel)
extra_options=("-smp $GUEST_SMP" "-cpu $GUEST_CPU" "-accel $accel" "-no-reboot" "-serial stdio" "-serial null")

yaml_list() { local o; for o in "$@"; do printf '%s- %s\n' "$INDENT" "$o"; done; }

# The device dictionary of a local QEMU worker: what lava-server renders
# for device type qemu with the job's context above (the NIC and
# -nographic come with the type; our kernel has no PCI, so no NIC).
write_device() {
	INDENT='          '
	cat > "$LAVA/qemu-device.yaml" <<-EOF
	# A local QEMU worker for the tpsleep LAVA jobs (scripts/lava.sh):
	# the qemu device type rendered for context arch x86_64, memory
	# $GUEST_MEM, no_kvm and the jobs' extra_options.
	available_architectures:
	- x86_64
	- amd64
	constants:
	  posix:
	    lava_test_sh_cmd: /bin/sh
	    lava_test_results_dir: /lava-%s
	    lava_test_shell_file: ~/.bashrc
	  shutdown-message: 'The system is going down for reboot NOW'
	  kernel-start-message: 'Linux version [0-9]'
	  default-shell-prompt: 'lava-test: # '
	  spawn_maxread: '4092'
	  failure_retry: 1
	  boot_retry:
	parameters:
	  pass:
	actions:
	  deploy:
	    connections:
	      serial:
	    methods:
	      image:
	        parameters:
	          guest:
	            size: 512
	            interface: ide
	            driveid: lavatest
	  boot:
	    connections:
	      serial:
	    methods:
	      minimal:
	      qemu:
	        parameters:
	          command: qemu-system-x86_64
	          boot_options:
	            {root: /dev/sda1, console: 'ttyS0,115200', boot_order: c}
	          options:
	          - -nographic
	          - -net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user
	          - -m $GUEST_MEM
	          - -monitor none
	          extra:
	$(yaml_list "${extra_options[@]}")
	timeouts:
	  actions:
	    boot-qemu-image:
	      minutes: 2
	    boot-image-retry:
	      minutes: 2
	  connections:
	    lava-test-monitor:
	      seconds: $((CHECK_TIMEOUT + 60))
	EOF
	# lava-run asks the dispatcher's address only for NFS; give it one
	# rather than reading the default route
	printf '%s\n' '# lava-run --dispatcher: no NFS in these jobs' 'dispatcher_ip: 127.0.0.1' > "$LAVA/dispatcher.yaml"
}

# write_job NAME VARIANT: build/lava/NAME.yaml from build/lava/artifacts/NAME
write_job() {
	local name=$1 variant=$2 dir=$ART/$1 cmdline kver commit
	ramdisk "$name"
	cmdline=$(guest_append "$CHECK_TIMEOUT" "tpsleep.ktap=console${LAVA_APPEND:+ $LAVA_APPEND}")
	kver=$(kernel_version "$dir/bzImage")
	commit=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
	INDENT='  '
	cat > "$LAVA/$name.yaml" <<-EOF
	# The tpsleep guest checks of $name as a LAVA job, written by
	# scripts/lava.sh at $commit.  Run here: scripts/lava.sh --run $name.
	device_type: qemu
	job_name: tpsleep $name guest checks (x86_64)
	priority: medium
	visibility: public
	metadata:
	  variant: $variant
	  commit: $commit
	  kernel: "$kver"
	context:
	  arch: x86_64
	  memory: $GUEST_MEM
	  no_kvm: true
	  extra_options:
	$(yaml_list "${extra_options[@]}")
	# Our boot's budget: TIMEOUT $TIMEOUT s for the guest, CHECK_TIMEOUT $CHECK_TIMEOUT s a check script.
	timeouts:
	  job:                 # deploy + boot + the guest, and a minute
	    seconds: $((TIMEOUT + 300 + CHECK_TIMEOUT + 60 + 60))
	  connections:
	    lava-test-monitor: # until the KTAP header
	      seconds: $((CHECK_TIMEOUT + 60))
	actions:
	- deploy:
	    to: tmpfs
	    timeout:
	      minutes: 5
	    images:
	      kernel:
	        url: $(url_of "$name" bzImage)
	        sha256sum: $(sha256sum < "$dir/bzImage" | cut -d' ' -f1)
	        image_arg: '-kernel {kernel} -append "$cmdline"'
	      ramdisk:
	        url: $(url_of "$name" ramdisk.cpio)
	        sha256sum: $(sha256sum < "$dir/ramdisk.cpio" | cut -d' ' -f1)
	        image_arg: '-initrd {ramdisk}'
	- boot:
	    method: qemu
	    media: tmpfs
	    timeout:           # QEMU's process: the monitor waits as long for each next result
	      seconds: $((CHECK_TIMEOUT + 60))
	- test:
	    timeout:           # the whole guest, as scripts/boot.sh
	      seconds: $TIMEOUT
	    monitors:
	    - name: tpsleep-$name
	      start: 'TPSLEEP-KTAP: KTAP version 1'
	      end: 'tpsleep: checks done at [^\r\n]*\r*\n'
	      pattern: 'TPSLEEP-KTAP: (?=(?:ok \d+ \S+ # )?(?P<result>SKIP|not ok|ok) )(?:not )?ok \d+ (?P<test_case_id>\S+)[^\r\n]*\r*\n'
	      fixupdict:
	        ok: pass
	        not ok: fail
	        SKIP: skip
	EOF
	echo "lava: wrote $LAVA/$name.yaml (kernel $kver)"
}

# validate NAME...: the dispatcher builds the job's pipeline against the
# device (lava-run --validate), and the server's schemas (lava_common)
# check the job and the device dictionary as a submission would be
validate() {
	local name out
	for name in "$@"; do
		out=$LAVA/validate/$name
		rm -rf "$out"
		if lava-run --validate --device "$LAVA/qemu-device.yaml" --dispatcher "$LAVA/dispatcher.yaml" \
			--job-id 0 --output-dir "$out" "$LAVA/$name.yaml" > "$out.log" 2>&1 &&
			grep -q 'result: pass' "$out/result.yaml" &&
			"$PY" - "$LAVA/$name.yaml" "$LAVA/qemu-device.yaml" <<-'EOF'
			import sys
			import yaml
			from lava_common.schemas import validate
			from lava_common.schemas.device import validate as validate_device
			validate(yaml.safe_load(open(sys.argv[1])), strict=True)
			validate_device(yaml.safe_load(open(sys.argv[2])))
			EOF
		then
			echo "lava: $name.yaml valid (lava-run --validate, job and device schemas)"
		else
			tail -n 5 "$out.log" "$out/result.yaml" 2>/dev/null
			echo "lava: $name.yaml NOT valid (log: $out.log)"
			status=1
		fi
	done
}

# own_boot NAME: our boot of the same kernel and ramdisk without the switch
# (scripts/boot.sh, ttyS1), when the copied KTAP does not fit the run
own_boot() {
	local name=$1 b=$LAVA/ours/$1
	rm -rf "$b"
	mkdir -p "$b/initramfs"
	ln "$ART/$name/ramdisk.cpio" "$b/initramfs/$name.cpio" 2>/dev/null ||
		cp "$ART/$name/ramdisk.cpio" "$b/initramfs/$name.cpio"
	BUILD=$b KERNEL=$ART/$name/bzImage APPEND=${LAVA_APPEND:-} "$TOP/scripts/boot.sh" "$name" &&
		"$TOP/scripts/check-log.sh" "$b/logs/console-$name.log" || return 1
	# without tpsleep.ktap=console, no KTAP on the console
	if grep -q 'TPSLEEP-KTAP: ' "$b/logs/console-$name.log"; then
		echo "lava: our boot wrote console KTAP without the switch"
		return 1
	fi
}

# run NAME: lava-run on this machine, then the comparison
run() {
	local name=$1 id out ours oursc t0 secs
	validate "$name"
	[ "$status" = 0 ] || die "the job does not validate"
	mkdir -p "$LAVA/jobs"
	id=$(( $(cat "$LAVA/jobs/last-id" 2>/dev/null || echo 0) + 1 ))
	echo "$id" > "$LAVA/jobs/last-id"
	out=$LAVA/jobs/$id
	rm -rf "$out"
	mkdir -p "$out"
	stage "lava: lava-run job $id ($name), log $out/lava.log"
	t0=$(date +%s)
	lava-run --device "$LAVA/qemu-device.yaml" --dispatcher "$LAVA/dispatcher.yaml" \
		--job-id "$id" --output-dir "$out" "$LAVA/$name.yaml" > "$out/lava.log" 2>&1 || status=1
	secs=$(( $(date +%s) - t0 ))
	echo "$secs" > "$out/seconds"
	stage "lava: lava-run job $id done in ${secs}s: $(tr '\n' ' ' < "$out/result.yaml" 2>/dev/null)"
	ours=$ART/$name/results.ktap oursc=$ART/$name/console.log
	if [ ! -f "$ours" ] || [ -n "${LAVA_APPEND:-}${LAVA_OVERLAY:-}" ]; then
		stage "lava: our own boot of the same kernel and ramdisk for the comparison"
		own_boot "$name" || status=1
		ours=$LAVA/ours/$name/logs/results-$name.ktap oursc=$LAVA/ours/$name/logs/console-$name.log
	fi
	"$PY" "$TOP/scripts/lava-compare.py" --log "$out/lava.log" --suite "tpsleep-$name" \
		--ours "$ours" --ours-console "$oursc" --kernel "$ART/$name/bzImage" \
		--console "$out/console.log" --table "$out/compare.md" || status=1
	# our console scan on the console LAVA saw (the job itself has none)
	"$TOP/scripts/check-log.sh" "$out/console.log" || status=1
	echo "lava: job $id: $out (lava.log, console.log, compare.md)"
}

mode=write bisect="" lab=""
while [ $# -gt 0 ]; do
	case $1 in
	--run) mode=run ;;
	--validate) mode=validate ;;
	--submit) mode=submit lab=${2:?--submit needs a lab}; shift ;;
	--bisect) bisect=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage >&2; die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
mkdir -p "$LAVA" "$LAVA/validate"

case $mode in
validate)
	validate "$@"
	exit "$status" ;;
submit)
	# An operator's lab: the artifacts must be where its workers can fetch
	# them (LAVA_URL_BASE when the jobs were written).  LAB is a lavacli
	# identity (lavacli identities add ...) or a URI such as
	# https://USER:TOKEN@lab.example.org/RPC2.
	lava_deps
	for name in "$@"; do
		! grep -q 'url: file://' "$LAVA/$name.yaml" ||
			die "$name.yaml has file:// URLs: write it with LAVA_URL_BASE set for a lab"
		case $lab in
		*://*) lavacli --uri "$lab" jobs submit "$LAVA/$name.yaml" ;;
		*) lavacli -i "$lab" jobs submit "$LAVA/$name.yaml" ;;
		esac
	done
	exit 0 ;;
run)
	[ $# = 1 ] || die "usage: lava.sh --run VARIANT"
	lava_deps ;;
esac

# add_job NAME VARIANT KERNEL: snapshot the artifacts of VARIANT with
# KERNEL as job NAME and write its job; 1 if they are missing
add_job() {
	snapshot "$1" "$3" "$BUILD/initramfs/$2.cpio" \
		"$LOGS/results-$2.ktap" "$LOGS/console-$2.log" || return 1
	write_job "$1" "$2"
	names+=("$1")
}

# write (and for --run, run) the jobs
write_device
names=()
if [ -n "$bisect" ]; then
	missing=
	for n in $(seq 1 "$total"); do
		add_job "prefix-$n" "$(variant_of "$n")" "$BUILD/bisect/$n.bzImage" ||
			missing="$missing $n"
	done
	[ -z "$missing" ] || { echo "lava: no bisect kernel for prefixes$missing (make bisect builds them)"; status=1; }
else
	[ $# -gt 0 ] || set -- "${VARIANT:-patched}"
	for v in "$@"; do
		add_job "$v" "$v" "$(obj_of "$v")/arch/x86/boot/bzImage" || status=1
	done
fi
[ "${#names[@]}" -gt 0 ] || die "no job written"
if [ "$mode" = run ]; then
	run "${names[0]}"
elif command -v lava-run >/dev/null; then
	validate "${names[@]}"
else
	echo "lava: not validated: lava-dispatcher is not installed (make lava-run installs it)"
fi
exit "$status"
