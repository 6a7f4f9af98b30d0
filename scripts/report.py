#!/usr/bin/env python3
"""Summarise the guests' KTAP results.

report.py VARIANT=KTAP-FILE... prints a per-check table (one column per
variant) and the closing line 'N passed, N failed, N skipped'.  Exit status
is 1 on any failure, a missing or short plan, or a missing results file.
"""
import re
import sys

LINE = re.compile(r'^(not ok|ok) (\d+) (\S+)(?: # (SKIP|TODO)\b ?(.*))?$')


def parse(path):
    results, problems, plan, seen_header = {}, [], None, False
    try:
        text = open(path, encoding='utf-8', errors='replace').read()
    except OSError as err:
        return {}, [f'no results: {err}']
    diags = []
    for raw in text.splitlines():
        line = raw.strip('\r')
        if line.startswith('KTAP version'):
            seen_header = True
        elif re.match(r'^1\.\.\d+$', line):
            plan = int(line[3:])
        elif line.startswith('#'):
            diags.append(line[1:].strip())
        else:
            m = LINE.match(line)
            if m:
                status = ('SKIP' if m.group(4) == 'SKIP' else
                          'PASS' if m.group(1) == 'ok' else 'FAIL')
                name = m.group(3)
                if name in results:
                    problems.append(f'check {name} reported twice')
                why = m.group(5) or ''
                if status == 'FAIL':
                    why = next((d.split(': ', 1)[1] for d in reversed(diags)
                                if d.startswith(name + ': ')), '')
                results[name] = (status, why)
    if not seen_header:
        problems.append('no KTAP header')
    if plan is None:
        problems.append('no plan line: the guest did not finish')
    elif plan != len(results):
        problems.append(f'plan says {plan} checks, {len(results)} reported')
    return results, problems


def main(args):
    variants, data = [], {}
    for arg in args:
        name, _, path = arg.partition('=')
        variants.append(name)
        data[name] = parse(path)
    names = []
    for v in variants:
        for n in data[v][0]:
            if n not in names:
                names.append(n)
    width = max([len(n) for n in names] + [10])
    print(f"{'check':<{width}}  " + '  '.join(f'{v:<10}' for v in variants))
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    notes = []
    for n in names:
        row = []
        for v in variants:
            status, why = data[v][0].get(n, ('-', ''))
            if status == '-':
                status = 'MISSING'
                counts['FAIL'] += 1
                notes.append(f'{v}: {n}: missing here')
            else:
                counts[status] += 1
                if why:
                    notes.append(f'{v}: {n}: {status.lower()}: {why}')
            row.append(f'{status:<10}')
        print(f'{n:<{width}}  ' + '  '.join(row))
    for v in variants:
        for p in data[v][1]:
            counts['FAIL'] += 1
            notes.append(f'{v}: ERROR: {p}')
    if notes:
        print()
        for note in notes:
            print('  ' + note)
    print()
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped")
    return 1 if counts['FAIL'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
