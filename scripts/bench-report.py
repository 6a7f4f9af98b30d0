#!/usr/bin/env python3
"""Summarise the `make bench` guest results (scripts/bench.sh).

bench-report.py RUNS-DIR OUT-DIR VARIANT-A VARIANT-B

RUNS-DIR holds MODE-BOOT-VARIANT.txt, each the results port of one guest
(tests/bench/lib.sh: "bench STATE ns=... min=... max=... calls=C count=N").
Boot BOOT of A and boot BOOT of B are a pair (booted one after the other);
per state the ratio B/A is taken per pair, and its median and min-max over
the pairs are reported, with the median (and min-max) of each variant's
own values.  RUNS-DIR/MODE.settings, if there, is printed under the
mode's heading (how the guests were run).

Writes OUT-DIR/bench.md (table), bench.csv (the table), bench-runs.csv
(every guest value), bench-plot.dat (for gnuplot); prints bench.md.
Exit status 1 if a guest reported an error, a state is missing from a
run, or a tracer saw fewer sys_enter hits than the benchmark made calls.
"""
import csv
import os
import re
import statistics
import sys

STATES = ['none', 'ftrace_raw', 'ftrace_syscalls', 'perf_stat', 'perf_record',
          'bpf_rawtp', 'bpftrace', 'disable_all', 'rawtp_cycle',
          'openat_none', 'openat_ftrace', 'openat_ftrace_nostr']
LABEL = {
    'none': 'no tracing',
    'ftrace_raw': 'ftrace raw_syscalls:sys_enter+sys_exit',
    'ftrace_syscalls': 'ftrace syscalls:* (events/syscalls/enable)',
    'perf_stat': 'perf stat -e raw_syscalls:sys_enter',
    'perf_record': 'perf record -e raw_syscalls:sys_enter -m 16',
    'bpf_rawtp': 'BPF raw_tp sys_enter counter',
    'bpftrace': "bpftrace raw_syscalls:sys_enter @=count()",
    'disable_all': 'disable syscalls/* + raw_syscalls (per cycle)',
    'rawtp_cycle': 'BPF raw_tp attach+detach (per cycle)',
    'openat_none': 'openat() loop, no tracing',
    'openat_ftrace': 'openat() loop, syscalls:sys_enter_openat (strings: default 63)',
    'openat_ftrace_nostr': 'openat() loop, syscalls:sys_enter_openat, syscall_user_buf_size 0',
}
# B's own ratios, one state against another of the same kernel
WITHIN = [('openat_ftrace', 'openat_ftrace_nostr',
           'traced openat(): path copied (63) / knob 0')]
# patched/baseline ratio targets (the issue); None: no target
TARGET = {'none': 1.005, 'disable_all': 1.5, 'rawtp_cycle': None,
          'openat_none': 1.005, 'openat_ftrace': None, 'openat_ftrace_nostr': None}
for s in ('ftrace_raw', 'ftrace_syscalls', 'perf_stat', 'perf_record',
          'bpf_rawtp', 'bpftrace'):
    TARGET[s] = 1.02
# minimum tracer count, in getppid calls made (ftrace: enter + exit events)
MIN_COUNT = {'ftrace_raw': 2, 'ftrace_syscalls': 2, 'perf_stat': 1,
             'bpf_rawtp': 1, 'bpftrace': 1, 'openat_ftrace': 1,
             'openat_ftrace_nostr': 1}
MODE_LABEL = {'icount': 'icount', 'wall': 'wall clock'}
LINE = re.compile(r'^bench (\S+)(?: (.*))?$')
FILE = re.compile(r'^(?P<mode>[a-z0-9]+)-(?P<boot>\d+)-(?P<variant>.+)\.txt$')


def parse(path):
    vals, errors, meta = {}, [], {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for raw in f:
            m = LINE.match(raw.strip('\r\n'))
            if not m:
                continue
            key, rest = m.group(1), m.group(2) or ''
            if key == 'error':
                errors.append(rest)
            elif key in ('begin', 'end'):
                meta[key] = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
            else:
                vals[key] = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
    if 'end' not in meta:
        errors.append('no "bench end" line: the guest did not finish')
    return vals, errors, meta.get('begin', {})


def fmt_ns(v):
    if v >= 1e6:
        return f'{v / 1e6:.2f} ms'
    if v >= 1e4:
        return f'{v / 1e3:.1f} µs'
    return f'{v:.0f} ns'


def main():
    runs_dir, out_dir, var_a, var_b = sys.argv[1:5]
    status = 0
    data = {}       # (mode, boot, variant) -> vals
    problems = []
    metas = {}
    for name in sorted(os.listdir(runs_dir)):
        m = FILE.match(name)
        if not m or m['variant'] not in (var_a, var_b):
            continue
        vals, errors, meta = parse(os.path.join(runs_dir, name))
        key = (m['mode'], int(m['boot']), m['variant'])
        data[key] = vals
        metas[key] = meta
        for e in errors:
            problems.append(f'{name}: {e}')
        for s, v in vals.items():
            need = MIN_COUNT.get(s)
            if need and v.get('count', '-').isdigit() and 'calls' in v:
                if int(v['count']) < need * int(v['calls']):
                    problems.append(f'{name}: {s}: the tracer saw {v["count"]} events '
                                    f'for {v["calls"]} calls (want >= {need}x)')
            elif need:
                problems.append(f'{name}: {s}: no tracer count')
    modes = [m for m in ('icount', 'wall') if any(k[0] == m for k in data)]
    modes += sorted({k[0] for k in data} - set(modes))

    with open(os.path.join(out_dir, 'bench-runs.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['mode', 'boot', 'variant', 'state', 'ns', 'min', 'max', 'calls', 'count'])
        for (mode, boot, variant), vals in sorted(data.items()):
            for s in STATES:
                if s in vals:
                    v = vals[s]
                    w.writerow([mode, boot, variant, s, v.get('ns'), v.get('min'),
                                v.get('max'), v.get('calls', ''), v.get('count', '')])

    rows = []
    for mode in modes:
        boots = sorted({k[1] for k in data if k[0] == mode})
        for s in STATES:
            a, b, r = [], [], []
            for i in boots:
                va = data.get((mode, i, var_a), {}).get(s)
                vb = data.get((mode, i, var_b), {}).get(s)
                if not va and not vb:
                    continue    # a state neither guest ran (BENCH_STATES)
                if va and vb:
                    a.append(float(va['ns']))
                    b.append(float(vb['ns']))
                    r.append(float(vb['ns']) / float(va['ns']) if float(va['ns']) else float('nan'))
                else:
                    problems.append(f'{mode} boot {i}: no {s} result for '
                                    f'{var_a if not va else var_b}')
            if not r:
                continue
            t = TARGET.get(s)
            med = statistics.median(r)
            met = '-' if t is None else ('yes' if med <= t else 'no')
            if t is not None and met == 'yes' and max(r) > t:
                met = 'yes (median; max above)'
            rows.append(dict(mode=mode, state=s, pairs=len(r),
                             a_med=statistics.median(a), a_min=min(a), a_max=max(a),
                             b_med=statistics.median(b), b_min=min(b), b_max=max(b),
                             r_med=med, r_min=min(r), r_max=max(r), target=t, met=met))

    with open(os.path.join(out_dir, 'bench.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['mode', 'state', 'pairs', f'{var_a}_ns_median', f'{var_a}_ns_min',
                    f'{var_a}_ns_max', f'{var_b}_ns_median', f'{var_b}_ns_min',
                    f'{var_b}_ns_max', 'ratio_median', 'ratio_min', 'ratio_max',
                    'target', 'met'])
        for x in rows:
            w.writerow([x['mode'], x['state'], x['pairs'],
                        f"{x['a_med']:.2f}", f"{x['a_min']:.2f}", f"{x['a_max']:.2f}",
                        f"{x['b_med']:.2f}", f"{x['b_min']:.2f}", f"{x['b_max']:.2f}",
                        f"{x['r_med']:.4f}", f"{x['r_min']:.4f}", f"{x['r_max']:.4f}",
                        '' if x['target'] is None else x['target'], x['met']])

    # gnuplot data: one block per mode (index 0, 1, ...), x = state number
    with open(os.path.join(out_dir, 'bench-plot.dat'), 'w') as f:
        for mode in modes:
            f.write(f'# {mode}\n')
            for x in rows:
                if x['mode'] == mode:
                    f.write(f"{STATES.index(x['state'])} {x['state']} {x['r_med']:.4f} "
                            f"{x['r_min']:.4f} {x['r_max']:.4f} "
                            f"{x['target'] if x['target'] is not None else 'NaN'}\n")
            f.write('\n\n')

    md = []
    for mode in modes:
        boots = sorted({k[1] for k in data if k[0] == mode})
        meta = next((metas[k] for k in sorted(metas) if k[0] == mode), {})
        md.append(f'### {MODE_LABEL.get(mode, mode)}: {var_b} vs {var_a}, '
                  f'{len(boots)} paired boot(s)')
        md.append('')
        md.append(f"guest: {meta.get('cpus', '?')} CPU, clocksource {meta.get('clocksource', '?')}; "
                  f"per state {meta.get('reps', '?')} rounds of {meta.get('iters', '?')} "
                  f"getppid() calls after {meta.get('warmup', '?')} warm-up calls, "
                  f"median round; {meta.get('cycles', '?')} disable / attach cycles, median cycle")
        try:
            with open(os.path.join(runs_dir, f'{mode}.settings')) as f:
                md.append('')
                md.extend(line.rstrip('\n') for line in f)
        except OSError:
            pass
        md.append('')
        md.append(f'| state | {var_a} | {var_b} | Δ | ratio {var_b}/{var_a} (min–max) | target | met |')
        md.append('|---|---|---|---|---|---|---|')
        for x in rows:
            if x['mode'] != mode:
                continue
            unit = '' if x['state'] in ('disable_all', 'rawtp_cycle') else '/call'
            md.append(f"| {LABEL[x['state']]} | {fmt_ns(x['a_med'])}{unit} | "
                      f"{fmt_ns(x['b_med'])}{unit} | "
                      f"{'+' if x['b_med'] >= x['a_med'] else '−'}{fmt_ns(abs(x['b_med'] - x['a_med']))} | "
                      f"{x['r_med']:.4f} ({x['r_min']:.4f}–{x['r_max']:.4f}) | "
                      f"{'-' if x['target'] is None else '≤ %g' % x['target']} | {x['met']} |")
        md.append('')
        for s1, s2, label in WITHIN:
            for var in (var_a, var_b):
                r = [float(data[(mode, i, var)][s1]['ns']) / float(data[(mode, i, var)][s2]['ns'])
                     for i in boots if s1 in data.get((mode, i, var), {})
                     and s2 in data.get((mode, i, var), {})]
                if r:
                    md.append(f'{var}: {label}: {statistics.median(r):.4f} '
                              f'({min(r):.4f}–{max(r):.4f}, {len(r)} boot(s))')
                    md.append('')
    if problems:
        status = 1
        md.append('Problems:')
        md.extend(f'- {p}' for p in problems)
        md.append('')
    text = '\n'.join(md)
    with open(os.path.join(out_dir, 'bench.md'), 'w') as f:
        f.write(text + '\n')
    print(text)
    return status


if __name__ == '__main__':
    sys.exit(main())
