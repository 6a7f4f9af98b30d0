#!/usr/bin/env python3
"""Summarise a make robot run (scripts/robot.sh).

robot-report.py DIR --cells CELL... --sets SET... [--prefix-cells CELL...]
                [--unconfigurable CELL...]
reads DIR/SET-robot-CELL.{status,err}, the warnings robot.sh found added
over baseline of the cell (DIR/SET-robot-CELL.added.{cc,w1,sparse}: this
report does not compare again), DIR/cell-CELL.status,
DIR/prefixes-CELL.status, DIR/{baseline,faulting}.kdoc and
DIR/kdoc.added (kernel-doc's, counted, and what the series adds; or
DIR/kdoc.failed: why kernel-doc failed) and
DIR/total.status, prints one
table (a row per cell: each set built or not, the warnings it adds,
seconds; the first failing prefix), writes it with every added
warning to DIR/../robot.md and the figures to DIR/../robot-figures.json
(scripts/results.py makes robot.json of them).  Exit
status 1 when a cell fails (a set does not apply, configure or build, or
adds a warning; a cell of --unconfigurable passes only when every set of
it is not configurable, any other only when every set is built), or a
prefix of the walk fails.
"""
import argparse
import json
import os
import re
import time


def kv(path):
    d = {}
    try:
        for line in open(path, encoding='utf-8'):
            k, sep, v = line.rstrip('\n').partition('=')
            if sep:
                d.setdefault(k, v)
    except OSError:
        pass
    return d


def lines(path):
    try:
        return [x for x in open(path, encoding='utf-8').read().splitlines() if x.strip()]
    except OSError:
        return []


def parse(line):
    """TEXT and N of a counted line (robot-lib.sh's "TEXT [xN]")."""
    m = re.search(r' \[x([0-9]+)\]$', line)
    return (line[:m.start()], int(m.group(1))) if m else (line, 1)


def counts(path):
    """The counted lines of a file: {TEXT: N}."""
    c = {}
    for x in lines(path):
        t, n = parse(x)
        c[t] = c.get(t, 0) + n
    return c


def counted(path):
    """The warnings of a file of counted lines, each time counted."""
    return sum(counts(path).values())


def n_added(added, base):
    """How many warnings the lines of an .added file (a set's "TEXT [xN]"
    where baseline has TEXT fewer times) add over the base file's."""
    b = counts(base)
    return sum(n - b.get(t, 0) for t, n in (parse(x) for x in lines(added)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--cells', nargs='*', default=[])
    ap.add_argument('--sets', nargs='*', default=[])
    ap.add_argument('--prefix-cells', nargs='*', default=[])
    ap.add_argument('--unconfigurable', nargs='*', default=[])
    a = ap.parse_args()
    d, out, bad = a.dir, {'cells': {}, 'prefixes': {}}, False
    detail = []
    rows = []
    for cell in a.cells:
        base = f'baseline-robot-{cell}'
        cst = kv(os.path.join(d, f'cell-{cell}.status'))
        row = [cell]
        cobj = {'sets': {}, 'text': {}, 'ok': True}
        for s in a.sets:
            v = f'{s}-robot-{cell}'
            st = kv(os.path.join(d, f'{v}.status'))
            err = ' '.join(lines(os.path.join(d, f'{v}.err')))[:160]
            res = st.get('result', 'not run')
            sec = st.get('seconds', '?')
            add, nadd = {}, {}
            compared = kv(os.path.join(d, f'{base}.status')).get('result') == 'built'
            if s != 'baseline' and res == 'built' and compared:
                for k in ('cc', 'w1', 'sparse'):
                    f = os.path.join(d, f'{v}.added.{k}')
                    if not os.path.exists(f):
                        # robot.sh writes it whenever both are built
                        err = f'not compared with baseline ({os.path.basename(f)} is missing)'
                        res = 'notcompared'
                        add, nadd = {}, {}
                        break
                    add[k] = lines(f)
                    nadd[k] = n_added(f, os.path.join(d, f'{base}.{k}'))
            if res == 'built':
                cellt = f'built, {sec} s'
                if add:
                    n = nadd
                    cellt = (f'built, +{n["cc"]} warnings, +{n["w1"]} W=1, +{n["sparse"]} sparse, {sec} s'
                             if any(n.values()) else f'built, no warning added, {sec} s')
                    for k, x in add.items():
                        detail += [f'- {v}, {k}: `{w}`' for w in x]
                cellt += f" ({st.get('objs', '?')} touched files checked)"
            elif res == 'noconfig':
                cellt = (f'not configurable (as expected on this architecture): {err}'
                         if cell in a.unconfigurable else f'FAILED, not configurable: {err}')
            else:
                cellt = f'FAILED ({res}): {err}'
            want = 'noconfig' if cell in a.unconfigurable else 'built'
            if res != want or any(add.values()):
                bad = True
                cobj['ok'] = False
            row.append(cellt)
            cobj['text'][s] = cellt
            cobj['sets'][s] = {'result': res, 'seconds': sec, 'error': err,
                               'added': dict(nadd)}
        fb = '; '.join(f"{s}: {cst[s + '.first_bad']}" for s in a.sets if s + '.first_bad' in cst) or '-'
        row.append(fb)
        cobj['first_bad'] = fb
        out['cells'][cell] = cobj
        rows.append(row)
    hdr = ['cell'] + a.sets + ['first failing prefix']
    table = ['| ' + ' | '.join(hdr) + ' |', '|' + '---|' * len(hdr)]
    table += ['| ' + ' | '.join(r) + ' |' for r in rows]
    ptab = []
    for cell in a.prefix_cells:
        pst = kv(os.path.join(d, f'prefixes-{cell}.status'))
        res = {k: v for k, v in pst.items() if k.isdigit()}
        fails = [f'{k} ({v})' for k, v in sorted(res.items(), key=lambda x: int(x[0])) if not v.startswith('ok')]
        for k in sorted((k for k, v in res.items() if not v.startswith('ok')), key=int):
            for kind in ('cc', 'w1', 'sparse'):
                detail += [f'- prefix {k} of the walk in {cell}, {kind}: `{w}`'
                           for w in lines(os.path.join(d, f'prefix-{k}-robot-{cell}.added.{kind}'))]
        bad |= bool(fails) or not res
        out['prefixes'][cell] = {'built': len(res), 'failed': fails, 'seconds': pst.get('total_s')}
        ptab.append(f"- cell {cell}: {len(res)} prefixes built incrementally in {pst.get('total_s', '?')} s, "
                    + ('all pass' if res and not fails else 'failing: ' + ', '.join(fails) if fails else 'none built'))
    kb, kf = counted(os.path.join(d, 'baseline.kdoc')), counted(os.path.join(d, 'faulting.kdoc'))
    kadd = lines(os.path.join(d, 'kdoc.added'))
    nk = n_added(os.path.join(d, 'kdoc.added'), os.path.join(d, 'baseline.kdoc'))
    kfail = ' '.join(lines(os.path.join(d, 'kdoc.failed')))[:200]
    if kfail or os.path.exists(os.path.join(d, 'kdoc.failed')):
        kfail = kfail or 'kernel-doc failed'
        ptab.append(f'- kernel-doc -none -v FAILED: {kfail}')
        bad = True
    elif os.path.exists(os.path.join(d, 'faulting.kdoc')):
        ptab.append(f'- kernel-doc -none -v (6.1 has no -Wall) on the files the series touches: baseline {kb}, '
                    f'series {kf} warnings, {nk} added')
        detail += [f'- kernel-doc: `{w}`' for w in kadd]
        bad |= bool(kadd)
    out['kernel_doc'] = {'baseline': kb, 'faulting': kf, 'added': nk, 'failed': kfail,
                         'ran': bool(kfail) or os.path.exists(os.path.join(d, 'faulting.kdoc'))}
    total = kv(os.path.join(d, 'total.status')).get('total_s')
    out['total_s'] = total
    out['sets'] = a.sets
    out['reported'] = time.strftime('%Y-%m-%d %H:%M', time.gmtime())
    out['ok'] = not bad
    text = ['# make robot', '', f"Reported {out['reported']} UTC, {total} s in all.", ''] + table
    if ptab:
        text += ['', 'Every prefix of the series; kernel-doc:', ''] + ptab
    if detail:
        text += ['', 'Warnings added over baseline of the cell:', ''] + detail
    res_dir = os.path.dirname(os.path.abspath(d))
    with open(os.path.join(res_dir, 'robot.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(text) + '\n')
    with open(os.path.join(res_dir, 'robot-figures.json'), 'w', encoding='utf-8') as f:
        json.dump(out, f, indent=1)
    print('\n'.join(table + ([''] + ptab if ptab else []) + ([''] + detail[:40] if detail else [])))
    print(f"robot: {'every cell passes' if not bad else 'FAILED'} ({os.path.join(res_dir, 'robot.md')})")
    return 1 if bad else 0


if __name__ == '__main__':
    raise SystemExit(main())
