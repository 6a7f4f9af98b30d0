#!/usr/bin/env python3
"""Summarise the guests' KTAP results.

report.py VARIANT=KTAP-FILE... prints a per-check table (one column per
variant) and the closing line 'N passed, N failed, N skipped'.  Exit status
is 1 on any failure, a missing or short plan, a missing results file, or a
result whose name is not in the catalogue of checks (docs/tests.md, read
by catalogue.py): a name the static check of `make hygiene` missed.
"""
import os
import sys

import catalogue
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
    notes, bad = [], []
    for n in names:
        row = []
        for v in variants:
            status, why = data[v][0].get(n, ('-', ''))
            if status == '-':
                status = 'MISSING'
                counts['FAIL'] += 1
                notes.append(f'{v}: {n}: missing here')
                bad.append(notes[-1])
            else:
                counts[status] += 1
                if why:
                    notes.append(f'{v}: {n}: {status.lower()}: {why}')
                if status == 'FAIL':
                    bad.append(notes[-1] if why else f'{v}: {n}: fail')
            row.append(f'{status:<10}')
        print(f'{n:<{width}}  ' + '  '.join(row))
    for v in variants:
        for p in data[v][1]:
            counts['FAIL'] += 1
            notes.append(f'{v}: ERROR: {p}')
            bad.append(notes[-1])
    # Every name must be in the catalogue (docs/tests.md): one failure per
    # name that is not.
    cat = catalogue.load_catalogue()
    unknown = [n for n in names if not cat.has(n)]
    for n in unknown:
        counts['FAIL'] += 1
        where = ', '.join(v for v in variants if n in data[v][0])
        notes.append(f'{where}: {n}: ERROR: not in the catalogue of checks')
        bad.append(notes[-1])
    if notes:
        print()
        for note in notes:
            print('  ' + note)
    if unknown:
        print()
        if not cat.entries:
            for e in cat.errors:
                print(f'ERROR: {e}')
        print(f'ERROR: {len(unknown)} KTAP name(s) reported but not in the catalogue '
              f'of checks {os.path.relpath(cat.path)} (add a row: name, what '
              f'it proves, what fails it; then `make hygiene`): {", ".join(unknown)}')
    # The failures again, last: a CI log is read from its tail, and the
    # notes above run to a few hundred lines of skips.
    if bad:
        print()
        print(f'FAILED ({len(bad)}):')
        for note in bad:
            print('  ' + note)
    print()
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped")
    return 1 if counts['FAIL'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
