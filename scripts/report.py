#!/usr/bin/env python3
"""Summarise the guests' KTAP results.

report.py VARIANT=KTAP-FILE... prints a per-check table (one column per
variant) and the closing line 'N passed, N failed, N skipped'.  Exit status
is 1 on any failure, a missing or short plan, or a missing results file.
"""
import sys

import ktap


def parse(path):
    results, _, twice, problems = ktap.parse(path, unit=' checks')
    return results, [f'check {name} reported twice' for name in twice] + problems


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
