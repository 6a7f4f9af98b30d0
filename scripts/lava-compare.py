#!/usr/bin/env python3
"""Compare a LAVA run of the guest checks with our own KTAP report.

lava-compare.py --kernel-version BZIMAGE  (prints the kernel's version string)
lava-compare.py --log LAVA-LOG --suite NAME --ours KTAP [--kernel BZIMAGE]
                [--ours-console LOG] [--console OUT] [--table OUT]

LAVA-LOG is what lava-run printed (one YAML mapping a line: dt, lvl, msg);
its 'results' records of definition NAME are the test cases the job's
monitor made of the guest's console KTAP lines (the original KTAP name is
in extra.test_case_id; LAVA's own case id is it lowercased, \\W+ -> _).
KTAP is our report for the same kernel (scripts/ktap.py reads it).

Prints both counts, every name whose result differs or that one side lacks,
and whether the kernel is the same (the 'Linux version' line of both
consoles against the version string in BZIMAGE).  --console writes the guest
console as LAVA logged it (the 'target' records), --table a Markdown table
of every name.  Exit status 1 when the job did not finish correctly or its
monitor did not see the plan line, a test case failed, a name differs, or
the kernels differ; 0 when everything is the same and passed or skipped.
"""
import argparse
import re
import sys

import ktap

OURS = {'PASS': 'pass', 'FAIL': 'fail', 'SKIP': 'skip'}


def read_log(path):
    """The records of a lava-run log: [(lvl, msg)], unparsable lines skipped."""
    import yaml  # python3-yaml, a dependency of lava-dispatcher
    loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
    records, bad = [], 0
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.strip()
            if not line.startswith('{'):
                continue
            try:
                rec = yaml.load(line, Loader=loader)
            except yaml.YAMLError:
                bad += 1
                continue
            if isinstance(rec, dict) and 'lvl' in rec:
                records.append((rec['lvl'], rec.get('msg')))
    return records, bad


def kernel_version(bzimage):
    """The kernel_version string of a bzImage's setup header, or None."""
    with open(bzimage, 'rb') as f:
        data = f.read(0x8000)
    if data[0x202:0x206] != b'HdrS':
        return None
    ptr = int.from_bytes(data[0x20e:0x210], 'little') + 0x200
    return data[ptr:data.index(b'\0', ptr)].decode('ascii', 'replace')


def console_version(lines):
    """'RELEASE (BY@HOST) UTS_VERSION' of the console's 'Linux version' line
    (the compiler in the middle dropped), as the bzImage header has it."""
    for line in lines:
        m = re.search(r'Linux version (\S+) \(([^)]*)\) \(.*\) (#.*?)\s*$', line)
        if m:
            return f'{m.group(1)} ({m.group(2)}) {m.group(3)}'
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--kernel-version':
        print(kernel_version(sys.argv[2]))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument('--log', required=True)
    ap.add_argument('--suite', required=True)
    ap.add_argument('--ours', required=True)
    ap.add_argument('--kernel')
    ap.add_argument('--ours-console')
    ap.add_argument('--console')
    ap.add_argument('--table')
    opt = ap.parse_args()
    status = 0

    records, bad = read_log(opt.log)
    lava, twice, job, monitor = {}, [], None, None
    console = []
    for lvl, msg in records:
        if lvl == 'target' and isinstance(msg, str):
            console.append(msg)
        if lvl != 'results' or not isinstance(msg, dict):
            continue
        if msg.get('definition') == 'lava' and msg.get('case') == 'job':
            job = msg
        elif msg.get('definition') == 'lava' and msg.get('case') == 'lava-test-monitor':
            monitor = msg
        elif msg.get('definition') == opt.suite:
            name = (msg.get('extra') or {}).get('test_case_id', msg.get('case'))
            if name in lava:
                twice.append(name)
            lava[name] = msg.get('result')
    if opt.console:
        with open(opt.console, 'w', encoding='utf-8') as f:
            f.write(''.join(line + '\n' for line in console))

    results, _, ours_twice, problems = ktap.parse(opt.ours, unit=' checks')
    ours = {n: OURS[s] for n, (s, _) in results.items()}

    def counts(d):
        return {r: sum(1 for v in d.values() if v == r) for r in ('pass', 'fail', 'skip')}
    lc, oc = counts(lava), counts(ours)
    jobres = job.get('result') if job else 'missing'
    print(f"LAVA ({opt.log}): {lc['pass']} pass, {lc['fail']} fail, {lc['skip']} skip "
          f"({len(lava)} test cases of '{opt.suite}'); job result: {jobres}"
          + (f"; monitor: {monitor.get('result')}" if monitor else ''))
    print(f"ours ({opt.ours}): {oc['pass']} passed, {oc['fail']} failed, "
          f"{oc['skip']} skipped ({len(ours)} results)")
    if bad:
        print(f'  ({bad} log lines were not YAML and were skipped)')
    if jobres != 'pass':
        print(f"  LAVA job did not finish correctly: {job.get('error_type', '') if job else ''} "
              f"{job.get('error_msg', '') if job else 'no job result in the log'}")
        status = 1
    if not monitor or monitor.get('result') != 'pass':
        print("  LAVA monitor did not see the guest's end line ('tpsleep: checks done')")
        status = 1
    # the console's KTAP plan: a line the monitor missed (a kernel message
    # in the middle of it) would be a test case short
    plans = [int(m.group(1)) for m in
             (re.match(r'TPSLEEP-KTAP: 1\.\.(\d+)\s*$', line) for line in console) if m]
    if len(plans) != 1 or plans[0] != len(lava):
        print(f'  LAVA console plan {plans or "missing"}, {len(lava)} test cases')
        status = 1
    for p in problems:
        print(f'  ours: {p}')
        status = 1
    for n in twice:
        print(f'  LAVA: {n} reported twice')
        status = 1
    for n in ours_twice:
        print(f'  ours: {n} reported twice')
        status = 1

    # The same kernel: the bzImage's version string in both consoles.
    if opt.kernel:
        want = kernel_version(opt.kernel)
        got = console_version(console)
        print(f'kernel {opt.kernel}: {want}')
        if got != want:
            print(f'  LAVA console: {got}: NOT the same kernel')
            status = 1
        if opt.ours_console:
            with open(opt.ours_console, encoding='utf-8', errors='replace') as f:
                mine = console_version(f.read().splitlines())
            if mine != want:
                print(f'  our console ({opt.ours_console}): {mine}: NOT the same kernel')
                status = 1
            else:
                print('  the same in the LAVA console and in ours')

    names = list(ours) + [n for n in lava if n not in ours]
    differ = [n for n in names if lava.get(n) != ours.get(n)]
    for n in differ:
        print(f"  {n}: LAVA {lava.get(n, 'missing')}, ours {ours.get(n, 'missing')}")
    if opt.table:
        width = max([len(n) for n in names] + [5])
        with open(opt.table, 'w', encoding='utf-8') as f:
            f.write(f"| {'check':<{width}} | LAVA    | ours    |\n|{'-' * (width + 2)}|---------|---------|\n")
            for n in names:
                f.write(f"| {n:<{width}} | {lava.get(n, 'missing'):<7} | {ours.get(n, 'missing'):<7} |\n")
    failed = [n for n in lava if lava[n] == 'fail']
    if failed:
        print(f"LAVA: {len(failed)} test case(s) failed: {' '.join(failed)}")
        status = 1
    if differ:
        print(f'lava-compare: {len(differ)} of {len(names)} names differ')
        status = 1
    else:
        print(f'lava-compare: the same {len(names)} names with the same pass/fail/skip')
    return status


if __name__ == '__main__':
    sys.exit(main())
