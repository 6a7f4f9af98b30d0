# gdb -batch -x hitprofile.py VMLINUX, with HP_PORT (the guest's gdbstub),
# HP_READY (a function the traced program calls: once it is hit, the state
# runs), HP_OUT (where the counts go), HP_ROUNDS (traced calls, default 2).
# Steps one instruction at a time through syscall_trace_enter() of the next
# traced system calls and counts the instructions run in each function
# (JIT-ed BPF code has no symbol: "[bpf prog]").  The last round is the
# one reported, the earlier ones warm nothing up but show it is stable.
import collections
import os

import gdb

out = open(os.environ['HP_OUT'], 'w')
gdb.execute('set pagination off')
gdb.execute('target remote :' + os.environ['HP_PORT'])
gdb.execute('break ' + os.environ['HP_READY'])
gdb.execute('continue')
gdb.execute('delete')
for rnd in range(int(os.environ.get('HP_ROUNDS', '2'))):
    gdb.execute('break syscall_trace_enter')
    gdb.execute('continue')
    gdb.execute('delete')
    ret = int(gdb.parse_and_eval('*(unsigned long *)$sp'))
    counts = collections.OrderedDict()
    total = 0
    while total < 100000:
        pc = int(gdb.parse_and_eval('$pc'))
        if pc == ret:
            break
        sym = gdb.execute('info symbol %d' % pc, to_string=True)
        fn = sym.split(' in section')[0].split(' + ')[0].strip()
        if fn.startswith('No symbol'):
            fn = '[bpf prog]'
        fn = fn.split('.')[0]
        counts[fn] = counts.get(fn, 0) + 1
        total += 1
        gdb.execute('stepi', to_string=True)
    out.write('round %d total %d\n' % (rnd, total))
    for fn, n in counts.items():
        out.write('%d %s\n' % (n, fn))
out.close()
gdb.execute('kill')
