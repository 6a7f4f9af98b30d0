#!/usr/bin/env python3
"""Summarise the `make bench` guest results (scripts/bench.sh).

bench-report.py RUNS-DIR OUT-DIR VARIANT-A VARIANT-B [VARIANT-C ...]

RUNS-DIR holds MODE-BOOT-VARIANT.txt, each the results port of one guest
(tests/bench/lib.sh: "bench STATE ns=... min=... max=... calls=C count=N").
Boot BOOT of A and boot BOOT of each other variant are a pair (booted one
after the other); per state the ratio X/A is taken per pair, and its median
and min-max over the pairs are reported, with the median of each variant's
own values.  The targets are the last variant's.  RUNS-DIR/MODE.settings, if there, is printed under the
mode's heading (how the guests were run).

Writes OUT-DIR/bench.md (table), bench.csv (the table), bench-runs.csv
(every guest value), bench-plot.dat (for gnuplot), bench-figures.json (the
table, the per-hit costs and the per-byte ratio, for scripts/results.py);
prints bench.md.
Exit status 1 if a guest reported an error, a state is missing from a
run, or a tracer saw fewer sys_enter hits than the benchmark made calls.
"""
import csv
import json
import os
import re
import statistics
import sys

STATES = ['none', 'ftrace_raw', 'ftrace_syscalls', 'ftrace_syscalls_nostr',
          'perf_stat', 'perf_record', 'bpf_rawtp', 'bpftrace', 'enable_all',
          'disable_all', 'rawtp_cycle', 'openat_none', 'openat_ftrace',
          'openat_ftrace_nostr', 'openat64_none', 'openat64_bpf_copystr',
          'openat64_bpf_tpcopy', 'openat64_ftrace', 'openat64_ftrace_1',
          'write64_ftrace', 'write64_ftrace_1']
LABEL = {
    'none': 'no tracing',
    'ftrace_raw': 'ftrace raw_syscalls:sys_enter+sys_exit',
    'ftrace_syscalls': 'ftrace syscalls:* (events/syscalls/enable; strings: default 63)',
    'ftrace_syscalls_nostr': 'ftrace syscalls:*, syscall_user_buf_size 0',
    'enable_all': 'enable syscalls/* + raw_syscalls (per cycle, knob 0)',
    'perf_stat': 'perf stat -e raw_syscalls:sys_enter',
    'perf_record': 'perf record -e raw_syscalls:sys_enter -m 16',
    'bpf_rawtp': 'BPF raw_tp sys_enter counter',
    'bpftrace': "bpftrace raw_syscalls:sys_enter @=count()",
    'disable_all': 'disable syscalls/* + raw_syscalls (per cycle, knob 0)',
    'rawtp_cycle': 'BPF raw_tp attach+detach (per cycle)',
    'openat_none': 'openat() loop, no tracing',
    'openat_ftrace': 'openat() loop, syscalls:sys_enter_openat (strings: default 63)',
    'openat_ftrace_nostr': 'openat() loop, syscalls:sys_enter_openat, syscall_user_buf_size 0',
    'openat64_none': 'openat() loop, 64-byte path, no tracing',
    'openat64_bpf_copystr': 'openat() loop, 64-byte path copied by a BPF raw_tp program '
                            '(sleepable bpf_copy_from_user_str() where the kernel has it, '
                            'else bpf_probe_read_user_str())',
    'openat64_bpf_tpcopy': 'openat() loop, 64-byte path copied by a BPF tracepoint program '
                           'on syscalls:sys_enter_openat (sleepable bpf_copy_from_user_str() '
                           'where the kernel runs them, else bpf_probe_read_user_str())',
    'openat64_ftrace': 'openat() loop, 64-byte path, syscalls:sys_enter_openat '
                       '(strings: default 63)',
    'openat64_ftrace_1': 'openat() loop, 64-byte path, syscalls:sys_enter_openat, '
                         'syscall_user_buf_size 1',
    'write64_ftrace': 'write() of a 64-byte buffer to /dev/null, syscalls:sys_enter_write '
                      '(buffer: first 63 bytes where the kernel records it)',
    'write64_ftrace_1': 'write() of a 64-byte buffer to /dev/null, syscalls:sys_enter_write, '
                        'syscall_user_buf_size 1',
}
# Cost per hit: (state - its untraced twin) of each variant against the
# first variant's, with the target for the last (issue 11: the sleepable
# faulting copy against bpf_probe_read_user_str() on baseline).
PER_HIT = [('openat64_bpf_copystr', 'openat64_none',
            'BPF copy of a resident 64-byte path per hit (copystr - untraced)', 1.10),
           ('openat64_bpf_tpcopy', 'openat64_none',
            'the same by a tracepoint program (tpcopy - untraced)', 1.10)]
# B's own ratios, one state against another of the same kernel
WITHIN = [('openat_ftrace', 'openat_ftrace_nostr',
           'traced openat(): path copied (63) / knob 0')]
# Cost per byte of ftrace's write() buffer record against its path record,
# within the last variant only (on a kernel that records neither both
# differences are noise): (s1 - s2) / (s3 - s4) per boot, knob 63 against
# knob 1 in both (62 more bytes copied each, the probe sleeping in all
# four); its median, min-max and boots, the target on the median.
PER_BYTE = [('write64_ftrace', 'write64_ftrace_1', 'openat64_ftrace', 'openat64_ftrace_1',
             'write() buffer record / path record, per byte '
             '((write64_ftrace - _1) / (openat64_ftrace - _1), knob 63 against 1)', 1.0)]
# last variant / first variant ratio targets (issue 13, without a sleeping
# probe: mode icount and wall; the strings rows are the price of sleeping);
# None: no target.  Mode icountsl (a sleeping probe attached) has none.
TARGET = {'none': 1.0005, 'openat_none': 1.0005, 'enable_all': 1.05,
          'disable_all': 1.05, 'rawtp_cycle': 1.10, 'ftrace_syscalls': None,
          'openat_ftrace': None, 'openat64_none': 1.0005, 'openat64_bpf_copystr': 1.10,
          'openat64_bpf_tpcopy': 1.10, 'openat64_ftrace': None,
          'openat64_ftrace_1': None, 'write64_ftrace': None,
          'write64_ftrace_1': None}
for s in ('ftrace_raw', 'ftrace_syscalls_nostr', 'perf_stat', 'perf_record',
          'bpf_rawtp', 'bpftrace', 'openat_ftrace_nostr'):
    TARGET[s] = 1.005
NO_TARGET_MODES = ('icountsl',)
# minimum tracer count, in getppid calls made (ftrace: enter + exit events)
MIN_COUNT = {'ftrace_raw': 2, 'ftrace_syscalls': 2, 'ftrace_syscalls_nostr': 2,
             'perf_stat': 1,
             'bpf_rawtp': 1, 'bpftrace': 1, 'openat_ftrace': 1,
             'openat_ftrace_nostr': 1, 'openat64_bpf_copystr': 1,
             'openat64_bpf_tpcopy': 1, 'openat64_ftrace': 1,
             'openat64_ftrace_1': 1, 'write64_ftrace': 1,
             'write64_ftrace_1': 1}
MODE_LABEL = {'icount': 'icount', 'wall': 'wall clock',
              'icountsl': 'icount, a probe that sleeps attached to sys_enter '
                          '(where the kernel has them; the price of sleeping)'}
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
    runs_dir, out_dir = sys.argv[1:3]
    variants = sys.argv[3:]
    ref, others = variants[0], variants[1:]
    last = variants[-1]
    status = 0
    data = {}       # (mode, boot, variant) -> vals
    problems = []
    metas = {}
    for name in sorted(os.listdir(runs_dir)):
        m = FILE.match(name)
        if not m or m['variant'] not in variants:
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
    modes = [m for m in ('icount', 'icountsl', 'wall') if any(k[0] == m for k in data)]
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

    rows = []       # one per (mode, state): per variant its median and ratio
    for mode in modes:
        boots = sorted({k[1] for k in data if k[0] == mode})
        for s in STATES:
            vals = {v: [] for v in variants}
            ratios = {v: [] for v in others}
            seen = False
            for i in boots:
                got = {v: data.get((mode, i, v), {}).get(s) for v in variants}
                if not any(got.values()):
                    continue    # a state no guest ran (BENCH_STATES)
                seen = True
                for v in variants:
                    if not got[v]:
                        problems.append(f'{mode} boot {i}: no {s} result for {v}')
                        continue
                    vals[v].append(float(got[v]['ns']))
                for v in others:
                    if got[ref] and got[v] and float(got[ref]['ns']):
                        ratios[v].append(float(got[v]['ns']) / float(got[ref]['ns']))
            if not seen or not all(vals.values()):
                continue
            t = None if mode in NO_TARGET_MODES else TARGET.get(s)
            r = ratios[last]
            med = statistics.median(r) if r else float('nan')
            met = '-' if t is None or not r else ('yes' if med <= t else 'no')
            if t is not None and met == 'yes' and max(r) > t:
                met = 'yes (median; max above)'
            rows.append(dict(mode=mode, state=s, pairs=len(r),
                             med={v: statistics.median(vals[v]) for v in variants},
                             rat={v: (statistics.median(ratios[v]), min(ratios[v]),
                                      max(ratios[v])) for v in others if ratios[v]},
                             target=t, met=met))

    with open(os.path.join(out_dir, 'bench.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['mode', 'state', 'pairs'] + [f'{v}_ns_median' for v in variants] +
                   [f'{v}_ratio_{k}' for v in others for k in ('median', 'min', 'max')] +
                   ['target', f'met_{last}'])
        for x in rows:
            w.writerow([x['mode'], x['state'], x['pairs']] +
                       [f"{x['med'][v]:.2f}" for v in variants] +
                       [f'{q:.4f}' for v in others for q in x['rat'].get(v, (float('nan'),) * 3)] +
                       ['' if x['target'] is None else x['target'], x['met']])

    # gnuplot data: one block per (mode, variant), x = state number
    with open(os.path.join(out_dir, 'bench-plot.dat'), 'w') as f:
        for mode in modes:
            for v in others:
                f.write(f'# {mode} {v}\n')
                for x in rows:
                    if x['mode'] == mode and v in x['rat']:
                        q = x['rat'][v]
                        f.write(f"{STATES.index(x['state'])} {x['state']} {q[0]:.4f} "
                                f"{q[1]:.4f} {q[2]:.4f} "
                                f"{x['target'] if x['target'] is not None else 'NaN'}\n")
                f.write('\n\n')

    md = []
    per_hit = {}
    per_byte = {}
    for mode in modes:
        boots = sorted({k[1] for k in data if k[0] == mode})
        meta = next((metas[k] for k in sorted(metas) if k[0] == mode), {})
        md.append(f"### {MODE_LABEL.get(mode, mode)}: {', '.join(others)} vs {ref}, "
                  f'{len(boots)} paired boot(s)')
        md.append('')
        md.append(f"guest: {meta.get('cpus', '?')} CPU, clocksource {meta.get('clocksource', '?')}; "
                  f"per state {meta.get('reps', '?')} rounds of {meta.get('iters', '?')} "
                  f"getppid() calls after {meta.get('warmup', '?')} warm-up calls, "
                  f"median round; {meta.get('cycles', '?')} enable/disable / attach cycles, median cycle")
        sl = {v: metas[k].get('sleeper', '?') for k in sorted(metas) if k[0] == mode
              for v in [k[2]]}
        if any(x not in ('off', '?') for x in sl.values()):
            md.append('')
            md.append('sleeping probe on sys_enter: ' +
                      ', '.join(f'{v} {sl.get(v, "?")}' for v in variants))
        try:
            with open(os.path.join(runs_dir, f'{mode}.settings')) as f:
                md.append('')
                md.extend(line.rstrip('\n') for line in f)
        except OSError:
            pass
        md.append('')
        head = f'| state | {ref} |'
        for v in others:
            head += f' {v} | ratio {v}/{ref} (min–max) |'
        md.append(head + f' target ({last}) | met |')
        md.append('|---|---|' + '---|---|' * len(others) + '---|---|')
        for x in rows:
            if x['mode'] != mode:
                continue
            unit = '' if x['state'] in ('disable_all', 'enable_all', 'rawtp_cycle') else '/call'
            line = f"| {LABEL[x['state']]} | {fmt_ns(x['med'][ref])}{unit} |"
            for v in others:
                q = x['rat'].get(v)
                line += f" {fmt_ns(x['med'][v])}{unit} | "
                line += f'{q[0]:.4f} ({q[1]:.4f}–{q[2]:.4f}) |' if q else '- |'
            line += f" {'-' if x['target'] is None else '≤ %g' % x['target']} | {x['met']} |"
            md.append(line)
        md.append('')
        for s1, s2, label, tgt in PER_HIT:
            hit, byboot = {}, {}
            for var in variants:
                byboot[var] = {i: float(data[(mode, i, var)][s1]['ns']) - float(data[(mode, i, var)][s2]['ns'])
                               for i in boots if s1 in data.get((mode, i, var), {})
                               and s2 in data.get((mode, i, var), {})}
                if byboot[var]:
                    hit[var] = statistics.median(byboot[var].values())
            # the ratio of each paired boot (boot i of a variant against
            # boot i of the first): its median, min and max; the target
            # is judged on that median
            rat = {}
            for var in others:
                r = [byboot[var][i] / byboot[ref][i] for i in boots
                     if i in byboot[var] and byboot[ref].get(i, 0) > 0]
                if r:
                    rat[var] = [statistics.median(r), min(r), max(r), len(r)]
            if hit:
                per_hit.setdefault(mode, []).append(
                    {'state': s1, 'untraced': s2, 'label': label, 'median': hit, 'ratio': rat,
                     'target': None if mode in NO_TARGET_MODES else tgt})
            if ref in hit and hit[ref] > 0:
                parts = [f'{ref} {fmt_ns(hit[ref])}']
                for var in others:
                    if var in hit:
                        parts.append(f'{var} {fmt_ns(hit[var])} (ratio of the medians {hit[var] / hit[ref]:.4f}'
                                     + (f'; per paired boot {rat[var][0]:.4f}, {rat[var][1]:.4f}–{rat[var][2]:.4f} '
                                        f'over {rat[var][3]} boot(s)' if var in rat else '') + ')')
                t = None if mode in NO_TARGET_MODES else tgt
                met = ''
                if t is not None and last in rat:
                    met = (f"; target ≤ {t:g} for {last} on the median of the paired boots: "
                           f"{'met' if rat[last][0] <= t else 'NOT met'}")
                md.append(f'{label}: ' + ', '.join(parts) + met)
                md.append('')
        for s1, s2, label in WITHIN:
            for var in variants:
                r = [float(data[(mode, i, var)][s1]['ns']) / float(data[(mode, i, var)][s2]['ns'])
                     for i in boots if s1 in data.get((mode, i, var), {})
                     and s2 in data.get((mode, i, var), {})]
                if r:
                    md.append(f'{var}: {label}: {statistics.median(r):.4f} '
                              f'({min(r):.4f}–{max(r):.4f}, {len(r)} boot(s))')
                    md.append('')
        for s1, s2, s3, s4, label, tgt in PER_BYTE:
            buf, path, r, skipped = [], [], [], []
            for i in boots:
                got = data.get((mode, i, last), {})
                if not all(s in got for s in (s1, s2, s3, s4)):
                    continue
                b = float(got[s1]['ns']) - float(got[s2]['ns'])
                p = float(got[s3]['ns']) - float(got[s4]['ns'])
                if p <= 0:
                    skipped.append(i)      # no path record cost: no ratio
                    continue
                buf.append(b)
                path.append(p)
                r.append(b / p)
            if skipped:
                md.append(f'{last}: {label}: no ratio in boot(s) '
                          f"{', '.join(map(str, skipped))}: {s3} - {s4} ≤ 0")
                md.append('')
            if not r:
                continue
            t = None if mode in NO_TARGET_MODES else tgt
            med = statistics.median(r)
            met = '-' if t is None else ('yes' if med <= t else 'no')
            if met == 'yes' and max(r) > t:
                met = 'yes (median; max above)'
            per_byte.setdefault(mode, []).append(
                {'state': s1, 'base': s2, 'ref_state': s3, 'ref_base': s4, 'label': label,
                 'variant': last, 'buf': statistics.median(buf), 'path': statistics.median(path),
                 'ratio': [med, min(r), max(r)], 'boots': len(r), 'target': t, 'met': met})
            line = (f'{last}: {label}: buffer {fmt_ns(statistics.median(buf))}, '
                    f'path {fmt_ns(statistics.median(path))} (medians): ratio {med:.4f} '
                    f'({min(r):.4f}–{max(r):.4f}, {len(r)} boot(s))')
            if t is not None:
                line += f"; target ≤ {t:g}: {'met' if med <= t else 'NOT met'} (median)"
            md.append(line)
            md.append('')
    if problems:
        status = 1
        md.append('Problems:')
        md.extend(f'- {p}' for p in problems)
        md.append('')
    text = '\n'.join(md)
    with open(os.path.join(out_dir, 'bench.md'), 'w') as f:
        f.write(text + '\n')
    # The figures for build/results/bench.json (scripts/results.py).
    fig = {'variants': variants, 'problems': problems, 'modes': {}}
    for mode in modes:
        settings = []
        try:
            with open(os.path.join(runs_dir, f'{mode}.settings')) as f:
                settings = [line.rstrip('\n') for line in f]
        except OSError:
            pass
        fig['modes'][mode] = {
            'boots': len({k[1] for k in data if k[0] == mode}), 'settings': settings,
            'rows': [{'state': x['state'], 'pairs': x['pairs'], 'median': x['med'],
                      'ratio': {v: list(q) for v, q in x['rat'].items()},
                      'target': x['target'], 'met': x['met']} for x in rows if x['mode'] == mode],
            'per_hit': per_hit.get(mode, []),
            'per_byte': per_byte.get(mode, [])}
    with open(os.path.join(out_dir, 'bench-figures.json'), 'w') as f:
        json.dump(fig, f, indent=1)
        f.write('\n')
    print(text)
    return status


if __name__ == '__main__':
    sys.exit(main())
