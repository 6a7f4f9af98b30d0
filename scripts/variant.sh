#!/bin/bash
# variant.sh VARIANT: tree, config, build, initramfs, boot, log check.
# The KTAP file is left in build/logs/results-VARIANT.ktap for report.py.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: variant.sh VARIANT}
t0=$(date +%s)
"$TOP/scripts/tree.sh" "$VARIANT"
"$TOP/scripts/config.sh" "$VARIANT"
"$TOP/scripts/build.sh" "$VARIANT"
"$TOP/scripts/initramfs.sh" "$VARIANT"
"$TOP/scripts/boot.sh" "$VARIANT"
"$TOP/scripts/check-log.sh" "$LOGS/console-$VARIANT.log"
stage "variant done in $(( $(date +%s) - t0 ))s (build $(cat "$(obj_of "$VARIANT")/.build-seconds")s, boot+checks $(cat "$LOGS/boot-$VARIANT.seconds")s)"
