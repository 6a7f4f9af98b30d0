#!/usr/bin/env python3
"""The story of `make demo` (scripts/demo.sh), from the guests' console logs.

demo-report.py LOGS RESULTS BENCH-RUNS VARIANT [BASE]

Reads the [demo:BLOCK] lines that the guest checks print into
LOGS/console-VARIANT.log (tests/guest/checks/15-ustrings.sh, 80-bpfsleep.sh):
"[demo:BLOCK] # key=value ..." are the counts of a block, any other
"[demo:BLOCK] line" a line the tracer printed.  Prints a few blocks, each
with one sentence per kernel built from those counts and the kernel's
features (the "[ktap] # variant ..." line), and beside VARIANT the same
block of BASE (default baseline) when LOGS/console-BASE.log exists, else
how to get it; then the headline ratios of the last `make bench`
(RESULTS/bench.csv, its date from BENCH-RUNS/MODE.settings) or how to get
them.  Exit status 1 if VARIANT's log has no demo block.
"""
import csv
import os
import re
import sys
import textwrap
import time

DEMO = re.compile(r'\[demo:([\w-]+)\] ?(.*)$')
VARLINE = re.compile(r'\[ktap\] # variant (\S+), kernel (\S+), features: ?(.*)$')
WIDTH = 100


def load(path):
    """{block: (facts, lines)}, features, kernel of one console log, or None."""
    if not os.path.exists(path):
        return None
    blocks, feats, kernel = {}, None, '?'
    with open(path, encoding='utf-8', errors='replace') as f:
        for raw in f:
            raw = raw.rstrip('\r\n')
            m = VARLINE.search(raw)
            if m and feats is None:
                kernel, feats = m[2], m[3].split()
                continue
            m = DEMO.search(raw)
            if not m:
                continue
            facts, lines = blocks.setdefault(m[1], ({}, []))
            if m[2].startswith('# '):
                facts.update(kv.split('=', 1) for kv in m[2][2:].split() if '=' in kv)
            else:
                lines.append(m[2])
    mtime = time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(path)))
    return dict(blocks=blocks, feats=feats or [], kernel=kernel, date=mtime, path=path)


def num(facts, key):
    try:
        return int(facts.get(key, ''))
    except ValueError:
        return None


def say(text, indent='  '):
    print(textwrap.fill(text, WIDTH, initial_indent=indent,
                        subsequent_indent=indent + '  ', break_on_hyphens=False))


def show(line, indent='      '):
    print(indent + line)


def block(log, name):
    return log['blocks'].get(name, ({}, [])) if log else ({}, [])


def has(log, feat):
    return feat in log['feats']


# --- the blocks: one function each, called per kernel -------------------------

def trace_cmd(v, log):
    facts, lines = block(log, 'trace_cmd')
    calls, path, bare = (num(facts, k) for k in ('calls', 'path', 'pointer_only'))
    if not calls:
        return say(f'{v}: no trace-cmd lines in its log.')
    if path == calls:
        s = f'{v}: {path} of {calls} records show the path after the pointer'
        if has(log, 'ustrings'):
            s += (': new, the event records the user string, copied with page faults '
                  'allowed (0010)')
    elif bare == calls:
        s = f'{v}: {bare} of {calls} records show the pointer alone'
        if not has(log, 'ustrings'):
            s += ': without 0010 the event records no string'
    else:
        s = f'{v}: of {calls} records, {path} show the path, {bare} the pointer alone'
    say(s + '.')
    for line in lines[:1]:
        show(re.sub(r'^.*?\b(sys_enter_openat:)\s*', r'\1 ', line))


def bpftrace(v, log):
    sc, sc_lines = block(log, 'bpftrace-sc')
    raw, raw_lines = block(log, 'bpftrace-raw')
    if not sc and not raw:
        return say(f'{v}: no bpftrace lines in its log.')
    parts, why, all_empty = [], '', True
    for where, facts in (('syscalls:sys_enter_openat', sc), ('raw_syscalls:sys_enter', raw)):
        calls, read, empty = (num(facts, k) for k in ('calls', 'read', 'empty'))
        if calls is None:
            parts.append(f'no run at {where}')
            continue
        if facts.get('ready') == '0':
            parts.append(f'none at {where}: bpftrace never started there '
                         f'(status {facts.get("status", "?")})')
            all_empty = False
            continue
        parts.append(f'{read} of {calls} at {where} ({empty} empty)')
        all_empty = all_empty and not read and empty == calls
        if where.startswith('syscalls') and read and has(log, 'ustrings'):
            why = (': new, that event\'s own probe copies the path first, faulting its page '
                   'in (0010)')
        elif why and not read and empty == calls:
            why += ', and nothing does at raw_syscalls'
    if all_empty:
        why = ': nothing faults the pages in before the program runs, and str() does not fault'
    say(f'{v}: str() reads the path of ' + ', '.join(parts) + why + '.')
    for where, lines in (('syscalls:sys_enter_openat', sc_lines),
                         ('raw_syscalls:sys_enter   ', raw_lines)):
        for line in lines[:1]:
            show(f'{where}  {line}')


def faultsnoop(v, log):
    facts, lines = block(log, 'faultsnoop')
    argv, argv_lines = block(log, 'bpftrace-argv')
    if facts.get('refused') == '1':
        say(f'{v}: faultsnoop refuses to start (exit status {facts.get("status", "?")}), '
            'saying:')
        for line in lines[:1]:
            show(line)
    elif facts.get('refused') == '0':
        calls = num(facts, 'calls')
        got = [(c, num(facts, c)) for c in ('openat', 'openat2', 'execve')]
        misses = facts.get('misses', '?')
        s = (f'{v}: faultsnoop shows ' + ', '.join(f'{n} of {calls} {c}' for c, n in got)
             + f' calls exactly (open_how, argv), {misses} recursion misses')
        if all(n == calls for _, n in got) and has(log, 'ustrcopy') and has(log, 'bpfsleep'):
            s += (': new, a sleepable BPF program at sys_enter copies them with page faults '
                  'allowed (0018, 0019, 0021)')
        say(s + '.')
        for line in lines[:3]:
            show(line)
    else:
        say(f'{v}: no faultsnoop lines in its log.')
    calls, x = num(argv, 'calls'), num(argv, 'argv')
    if calls is not None:
        say(f'{v}: bpftrace\'s join(args->argv) at syscalls:sys_enter_execve, the same kind '
            f'of calls: {x} of {calls} argv read.')
        for line in argv_lines[:1]:
            show(line)


BLOCKS = [
    ('trace-cmd record -e syscalls:sys_enter_openat, openat() calls whose path is in a page '
     'never touched (tp_ustr)', trace_cmd),
    ('bpftrace, unmodified, str() of the path of such openat() calls (capture_nonres)', bpftrace),
    ('faultsnoop, such openat(), openat2() and execve() calls: path, open_how, argv '
     '(capture_nonres)', faultsnoop),
]


# --- the cost: the last make bench ---------------------------------------------

# the headline rows of bench.csv (scripts/bench-report.py's states), short
HEADLINE = {'none': 'getppid(), no tracing',
            'ftrace_raw': 'ftrace raw_syscalls:sys_enter+sys_exit',
            'bpf_rawtp': 'BPF raw_tp sys_enter counter',
            'openat_ftrace_nostr': 'openat(), sys_enter_openat, knob 0',
            'openat_ftrace': 'openat(), sys_enter_openat, path copied',
            'openat64_bpf_copystr': 'openat(), path copied by a BPF program'}


def bench(results, runs):
    path = os.path.join(results, 'bench.csv')
    if not os.path.exists(path):
        say(f'No bench results here ({path}): `make bench` measures the cost beside '
            'baseline (`BENCH_MODES=icount BENCH_BOOTS=2 make bench`: 5 min of guests, plus '
            'the lean kernels\' builds); the recorded figures: docs/measurements.md.')
        return
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return say(f'{path} has no rows: `make bench` measures them again.')
    cols = list(rows[0])
    variants = [c[:-len('_ns_median')] for c in cols if c.endswith('_ns_median')]
    ref, last = variants[0], variants[-1]
    modes = [r['mode'] for r in rows]
    mode = 'icount' if 'icount' in modes else modes[0]
    date = None
    try:
        with open(os.path.join(runs, f'{mode}.settings')) as f:
            m = re.search(r'Measured ([^,]+),', f.read())
            date = m and m[1]
    except OSError:
        pass
    date = date or time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(path)))
    unit = 'instructions' if mode.startswith('icount') else 'wall-clock time'
    say(f'The last `make bench` ({date}, {mode}: {unit}): {last} / {ref}, median '
        f'(min-max) over the paired boots, and its target:')
    for r in rows:
        if r['mode'] != mode or r['state'] not in HEADLINE:
            continue
        ratio = (f"{float(r[f'{last}_ratio_median']):.4f} ({float(r[f'{last}_ratio_min']):.4f}-"
                 f"{float(r[f'{last}_ratio_max']):.4f})")
        met = r[f'met_{last}'].replace('yes', 'met').replace('no', 'not met')
        tgt = f"  <= {r['target']} {met}" if r['target'] else ''
        show(f"{HEADLINE[r['state']]:<40} {ratio}{tgt}", '    ')
    show(f'(every row: {os.path.join(results, "bench.md")})', '    ')


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    logs, results, runs, var = argv[:4]
    base = argv[4] if len(argv) > 4 else 'baseline'
    main_log = load(os.path.join(logs, f'console-{var}.log'))
    base_log = load(os.path.join(logs, f'console-{base}.log')) if base != var else None
    rerun = 'make run VARIANT={0}'
    if not main_log or not main_log['blocks']:
        print(f'demo: no [demo:*] lines in {os.path.join(logs, f"console-{var}.log")}: '
              f'the guest did not get to them, or its checks predate them ({rerun.format(var)}).')
        return 1

    def kernel(v, log):
        n = len(log['feats'])
        what = f'{n} patches of the series' if n else 'no patch: the unpatched kernel'
        return f'{v} ({what}; {log["kernel"]}), log of {log["date"]}'

    print(f'=== make demo: what the tracers show on {kernel(var, main_log)}')
    compare = []
    if base_log and base_log['blocks']:
        print(f'    beside {kernel(base, base_log)}')
        compare = [(base, base_log)]
    elif base_log:
        print(f'    {base}: its log ({base_log["path"]}, {base_log["date"]}) has no demo lines '
              f'(older checks): `{rerun.format(base)}` refreshes it.')
    elif base != var:
        print(f'    {base}: no run here: `{rerun.format(base)}` builds and boots it, '
              f'for the same calls on {"the unpatched kernel" if base == "baseline" else base}.')
    for i, (title, fn) in enumerate(BLOCKS, 1):
        print()
        say(f'{i}. {title}', '')
        for v, log in [(var, main_log)] + compare:
            fn(v, log)
    print()
    say(f'{len(BLOCKS) + 1}. What it costs', '')
    bench(results, runs)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
