#!/bin/bash
# sparse-cc.sh: sparse as make C=1/C=2 runs it (CHECK=scripts/sparse-cc.sh), for
# make robot.  Debian 12's sparse (0.6.4) knows riscv's base ISA in -march
# but not the multi-letter extensions 6.1's arch/riscv/Makefile appends
# (-march=rv64imac_zicsr_zifencei_zicbom_zihintpause): it stops at the
# first file ("invalid argument to '-march'").  It is given the base ISA:
# the extensions only add predefined macros that no C code of the kernel
# tests.  Every other argument is passed as it is.
args=()
for a in "$@"; do
	case $a in
	-march=rv*_*) a=${a%%_*} ;;
	esac
	args+=("$a")
done
exec sparse "${args[@]}"
