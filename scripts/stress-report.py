#!/usr/bin/env python3
"""Summarise a stress run (scripts/stress.sh).

stress-report.py RESULTS-DIR VARIANT... reads, per variant,
RESULTS-DIR/stress-VARIANT.{status,ktap} (stage results, the guest's
KTAP) and RESULTS-DIR/stress-hang.status, prints a per-scenario table and
writes RESULTS-DIR/stress.md with the table, every check, the comparisons
between kernels (bad-pointer system call results, unprivileged errnos),
the userfaultfd timelines and the storm counts, and RESULTS-DIR/stress-summary.json
(the totals and the table, for scripts/results.py).  Exit status 1 on any
failure: a stage, a check, a plan, a difference between the kernels, or
the harness case.
"""
import json
import os
import re
import sys

import ktap

SCENARIOS = [
    ('badptr', 'stress.badptr.', 'bad user pointers under a copying probe'),
    ('priv', 'stress.priv.', 'unprivileged user (uid 1000)'),
    ('uffd.resolve', 'stress.uffd.resolve.', 'probe blocked on uffd, resolved'),
    ('uffd.kill', 'stress.uffd.kill.', 'probe blocked on uffd, SIGKILL'),
    ('uffd.usermode', 'stress.uffd.usermode.', 'UFFD_USER_MODE_ONLY'),
    ('uffd.signal', 'stress.uffd.signal.', 'non-fatal signal, fault in a probe'),
    ('uffd.signal_noprobe', 'stress.uffd.signal_noprobe.', 'non-fatal signal, fault in openat()'),
    ('fuse_stall', 'stress.fuse_stall.', 'probe blocked on a FUSE page that never comes'),
    ('bpflife', 'stress.bpflife.', 'BPF program closed under a parked caller'),
    ('ustrings', 'stress.ustrings.', 'syscall user strings, workers re-pinned, knob changing'),
    ('transitions', 'stress.transitions.', 'a sleeping and a normal probe on sys_enter, every order'),
    ('storm', 'stress.storm.', 'attach/detach storm under load'),
    ('modules', 'stress.module_', 'test modules load/unload'),
    ('cpus', 'stress.cpus', 'two CPUs online'),
]


def read_status(path):
    st = {}
    try:
        for line in open(path, encoding='utf-8'):
            k, _, v = line.strip().partition('=')
            if k:
                st[k] = v
    except OSError:
        pass
    return st


def parse_ktap(path):
    res, diags, _, problems = ktap.parse(path)
    return res, diags, problems


def kv(text):
    return dict(re.findall(r'(\w+)=(\S+)', text))


def main(argv):
    rdir, variants = argv[0], argv[1:]
    data, status = {}, {}
    for v in variants:
        data[v] = parse_ktap(os.path.join(rdir, f'stress-{v}.ktap'))
        status[v] = read_status(os.path.join(rdir, f'stress-{v}.status'))
    hang = read_status(os.path.join(rdir, 'stress-hang.status'))
    rcuidle = read_status(os.path.join(rdir, 'stress-rcuidle.status'))
    rcu_data = {}
    for v in rcuidle:
        if v.endswith('_s'):
            continue
        path = os.path.join(rdir, f'stress-rcuidle-{v}.ktap')
        rcu_data[v] = parse_ktap(path) if os.path.exists(path) else ({}, [], ['no KTAP results'])
    total = read_status(os.path.join(rdir, 'stress-total.status'))
    failures = []

    # stages
    for v in variants:
        st = status[v]
        for stage in ('tree', 'config', 'build', 'initramfs', 'boot', 'log'):
            val = st.get(stage, 'not run')
            if val != 'ok':
                failures.append(f'{v}: {stage}: {val}')
        for p in data[v][2]:
            failures.append(f'{v}: KTAP: {p}')

    # per scenario
    def scen_cell(v, prefix):
        res, diags, _ = data[v]
        names = [n for n in res if n.startswith(prefix)]
        if not names:
            return 'MISSING'
        c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
        for n in names:
            c[res[n][0]] += 1
        if c['SKIP'] == len(names):
            return 'skip'
        cell = f"{c['PASS']} pass" + (f", {c['FAIL']} FAIL" if c['FAIL'] else '') + \
            (f", {c['SKIP']} skip" if c['SKIP'] else '')
        return cell

    def duration(v, scen):
        for d in data[v][1]:
            m = re.match(rf'scenario {re.escape(scen)}: (\d+) s', d)
            if m:
                return m.group(1) + ' s'
        return ''

    rows = []
    for key, prefix, what in SCENARIOS:
        cells = []
        for v in variants:
            cell = scen_cell(v, prefix)
            base = key.split('.')[0]
            dur = duration(v, base) if base in ('badptr', 'priv', 'fuse_stall', 'bpflife', 'ustrings', 'transitions', 'storm') or key == 'uffd.resolve' else ''
            if key == 'uffd.resolve':
                dur = duration(v, 'uffd')
            cells.append(cell + (f' ({dur})' if dur else ''))
        rows.append((key, what, cells))
    # storm counts
    storm = {}
    for v in variants:
        s = {}
        for d in data[v][1]:
            m = re.match(r'storm (\w+) (.*)', d)
            if m and '=' in m.group(2):
                s[m.group(1)] = kv(m.group(2))
        storm[v] = s

    def storm_cell(v):
        s = storm[v]
        if not s:
            return '-'
        parts = []
        for t in ('ftrace', 'perf', 'perfbpf', 'rawtp'):
            if t in s:
                parts.append(f"{t} {s[t].get('cycles', '?')}")
        if 'module' in s:
            parts.append(f"module {s['module'].get('attach_detach', '?')} "
                         f"(bad cookies {int(s['module'].get('bad_a', 0)) + int(s['module'].get('bad_b', 0))})")
        if 'total' in s:
            parts.append(f"total {s['total'].get('attach_detach', '?')}, "
                         f"{s['total'].get('load_calls', '?')} load syscalls")
        return ', '.join(parts)
    rows.append(('storm counts', 'attach/detach cycles per tracer', [storm_cell(v) for v in variants]))
    rows.append(('console', 'splat check (KASAN, lockdep, RCU, ...)',
                 [status[v].get('log', 'not run') for v in variants]))
    rows.append(('time', 'build / boot+scenarios',
                 [f"{status[v].get('build_s', '?')} s / {status[v].get('boot_s', '?')} s" for v in variants]))

    # comparisons between kernels
    comps = []
    for kind in ('badptr', 'priv'):
        vals = {}
        for v in variants:
            vals[v] = {}
            for d in data[v][1]:
                m = re.match(rf'{kind} (\S+) (.*)', d)
                if m and '=' in m.group(2):
                    vals[v][m.group(1)] = m.group(2)
        names = sorted(set().union(*[set(x) for x in vals.values()])) if vals else []
        for n in names:
            row = [vals[v].get(n, 'MISSING') for v in variants]
            same = len(set(row)) == 1
            comps.append((kind, n, row, same))
            if not same and len(variants) > 1:
                failures.append(f'{kind} {n} differs between kernels: ' +
                                ', '.join(f'{v}: {r}' for v, r in zip(variants, row)))

    for v in variants:
        for n, (s, why) in data[v][0].items():
            if s == 'FAIL':
                failures.append(f'{v}: {n}: {why}')
    for v, (res, diags, problems) in rcu_data.items():
        if not rcuidle[v].startswith('ok'):
            failures.append(f'rcuidle case {v}: {rcuidle[v]}')
        for p in problems:
            failures.append(f'rcuidle case {v}: KTAP: {p}')
        for n, (s, why) in res.items():
            if s == 'FAIL':
                failures.append(f'rcuidle case {v}: {n}: {why}')
    hv = hang.get('hang', 'not run')
    if not hv.startswith('ok') and not hv.startswith('skipped'):
        failures.append(f'harness hang case: {hv}')

    # output
    out = []
    out.append('| scenario | what | ' + ' | '.join(variants) + ' |')
    out.append('|---|---|' + '---|' * len(variants))
    for key, what, cells in rows:
        out.append(f'| {key} | {what} | ' + ' | '.join(cells) + ' |')
    out.append(f'| harness | probe that never returns: killed at the timeout, reported | {hv} (' + hang.get('hang_s', '?') + ' s) |' + ' |' * (len(variants) - 1))
    for v, (res, diags, _) in rcu_data.items():
        c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
        for st, _ in res.values():
            c[st] += 1
        d = next((x for x in diags if x.startswith('rcuidle: ')), '')
        out.append(f"| rcuidle ({v}, idle=poll) | filter rewrite storm on the rcuidle events | "
                   f"{rcuidle[v]}: {c['PASS']} pass, {c['FAIL']} fail, {c['SKIP']} skip "
                   f"({rcuidle.get(v + '_s', '?')} s); {d[len('rcuidle: '):]} |" + ' |' * (len(variants) - 1))
    table = '\n'.join(out)
    print(table)
    print()

    md = ['# Stress run (make stress)', '',
          f"Kernels: {', '.join(variants)} (config-fragments/stress/kasan.config); "
          f"whole run {total.get('total_s', '?')} s.", '', table, '']
    md.append('## Comparison between kernels')
    md.append('')
    md.append('| what | case | ' + ' | '.join(variants) + ' | same |')
    md.append('|---|---|' + '---|' * len(variants) + '---|')
    for kind, n, row, same in comps:
        md.append(f'| {kind} | {n} | ' + ' | '.join(row) + f" | {'yes' if same else 'NO'} |")
    md.append('')
    md.append('## Diagnostics (userfaultfd, storm, badptr mode)')
    md.append('')
    for v in variants:
        md.append(f'### {v}')
        md.append('')
        for d in data[v][1]:
            if re.match(r'(uffd|fuse_stall|storm|scenario|badptr: |stress:)', d):
                md.append(f'    {d}')
        md.append('')
    md.append('## Every check')
    md.append('')
    names = []
    for v in variants:
        for n in data[v][0]:
            if n not in names:
                names.append(n)
    md.append('| check | ' + ' | '.join(variants) + ' |')
    md.append('|---|' + '---|' * len(variants))
    for n in names:
        md.append(f'| {n} | ' + ' | '.join(data[v][0].get(n, ('MISSING', ''))[0] for v in variants) + ' |')
    md.append('')
    md.append('## Failures')
    md.append('')
    md.extend([f'- {f}' for f in failures] or ['none'])
    md.append('')
    with open(os.path.join(rdir, 'stress.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(md))

    if failures:
        print('Failures:')
        for f in failures:
            print(f'  {f}')
    npass = sum(1 for v in variants for s, _ in data[v][0].values() if s == 'PASS')
    nskip = sum(1 for v in variants for s, _ in data[v][0].values() if s == 'SKIP')

    # The figures for build/results/stress.json (scripts/results.py).
    kernels = {}
    for v in variants:
        c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
        for s, _ in data[v][0].values():
            c[s] += 1
        st = status[v]
        kernels[v] = {'passed': c['PASS'], 'skipped': c['SKIP'],
                      'failed': sum(1 for f in failures if f.startswith(f'{v}: ')),
                      'checks_failed': c['FAIL'], 'results': len(data[v][0]),
                      'stages': {k: st.get(k, 'not run') for k in
                                 ('tree', 'config', 'build', 'initramfs', 'boot', 'log')},
                      'log': st.get('log', 'not run'),
                      'build_s': int(st['build_s']) if st.get('build_s', '').isdigit() else None,
                      'boot_s': int(st['boot_s']) if st.get('boot_s', '').isdigit() else None,
                      'storm': storm_cell(v)}
    summary = {'variants': variants, 'kernels': kernels, 'passed': npass,
               'failed': len(failures), 'skipped': nskip, 'failures': failures,
               'hang': hv, 'hang_s': hang.get('hang_s'),
               'rcuidle': {v: rcuidle[v] for v in rcu_data},
               'total_s': int(total['total_s']) if total.get('total_s', '').isdigit() else None,
               'table': out}
    with open(os.path.join(rdir, 'stress-summary.json'), 'w', encoding='utf-8') as f:
        json.dump(summary, f, indent=1)
        f.write('\n')
    print(f'stress: {npass} passed, {len(failures)} failed, {nskip} skipped; '
          f'report in {os.path.join(rdir, "stress.md")}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
