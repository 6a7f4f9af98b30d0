#!/usr/bin/env python3
"""kabi-report.py: compare the Module.symvers of two CONFIG_MODVERSIONS
builds (scripts/kabi.sh) and say why each changed CRC changed.

genksyms writes, with KBUILD_SYMTYPES=1, a .symtypes file beside each
object: one line per type it expanded ("s#tracepoint struct tracepoint {
...}") and per export ("tracepoint_probe_register int ... ( s#tracepoint *
...)"), other types referred to by name.  A type whose line differs
between the two builds is a changed type; an export's CRC changes when
its own line or a type it reaches differs.  For each export whose CRC
changed the report names the changed types it reaches.

Watched exports (those out-of-tree modules such as lttng-modules and
vendor tracers link against): tracepoint registration and each
tracepoint's symbols (__tracepoint_*, __traceiter_*, the static call
key and trampoline), what a module's TRACE_EVENT()s call (trace_*,
event_trigger*, tracing_*), bpf_*, perf_*.  One of them whose CRC
changed, or that is gone, fails the comparison (exit 1) unless the
allow-list explains it by its cause, not by its name: each line is
"type:T REASON" (a changed type, e.g. type:s#tracepoint) or "removed:SYMBOL
REASON".  A changed watched export passes only if its own prototype is
unchanged and every changed type it reaches is listed; a removed one only
if it is listed.  A listed type or removal that no watched export needs
fails too (stale).
"""
import argparse
import glob
import json
import os
import re
import sys

WATCH = [
    ('tracepoint', re.compile(r'tracepoint|^__traceiter_|^__SC[KT]__tp_func_')),
    ('trace event', re.compile(r'^(__)?trace_|^event_triggers?_|^tracing_')),
    ('bpf', re.compile(r'^_*bpf_')),
    ('perf', re.compile(r'^perf_')),
]
REF = re.compile(r'\b([sutEe])#([A-Za-z_0-9]+)')


def symvers(obj):
    out = {}
    with open(os.path.join(obj, 'Module.symvers')) as f:
        for line in f:
            p = line.rstrip('\n').split('\t')
            if len(p) >= 4:
                out[p[1]] = (p[0], p[2], p[3])
    return out


def symtypes(obj):
    """{relative file: {name: definition}} for every .symtypes under obj"""
    files = {}
    for path in glob.glob(os.path.join(obj, '**', '*.symtypes'), recursive=True):
        defs = {}
        with open(path, errors='replace') as f:
            for line in f:
                name, _, rest = line.rstrip('\n').partition(' ')
                if name:
                    defs[name] = rest
        files[os.path.relpath(path, obj)] = defs
    return files


def exporter(files):
    """{export: file} for the exports defined in the .symtypes files"""
    out = {}
    for fn, defs in files.items():
        for name in defs:
            if '#' not in name:
                out.setdefault(name, fn)
    return out


def reach(defs, start):
    seen, todo = set(), [start]
    while todo:
        d = defs.get(todo.pop())
        if d is None:
            continue
        for kind, name in REF.findall(d):
            t = kind + '#' + name
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def category(sym):
    for cat, rx in WATCH:
        if rx.search(sym):
            return cat
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--base', required=True)
    ap.add_argument('--new', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('--allow', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seconds', type=int, default=0)
    a = ap.parse_args()

    allow_types, allow_removed = {}, {}
    if os.path.exists(a.allow):
        with open(a.allow) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith('#'):
                    parts = line.split(None, 1)
                    if len(parts) < 2:
                        sys.exit(f'{a.allow}: {line!r}: no reason given')
                    kind, _, what = parts[0].partition(':')
                    if kind == 'type':
                        allow_types[what] = parts[1].strip()
                    elif kind == 'removed':
                        allow_removed[what] = parts[1].strip()
                    else:
                        sys.exit(f'{a.allow}: {line!r}: neither type:T nor removed:SYMBOL')

    def allowed(why):
        """the causes of a changed export, if the allow-list explains it whole"""
        if not why or any(t not in allow_types for t in why):
            return None
        return '; '.join(f'{t}: {allow_types[t]}' for t in why)

    b, n = symvers(a.base), symvers(a.new)
    bt, nt = symtypes(a.base), symtypes(a.new)
    bexp, nexp = exporter(bt), exporter(nt)
    changed = sorted(s for s in b.keys() & n.keys() if b[s][0] != n[s][0])
    added = sorted(n.keys() - b.keys())
    removed = sorted(b.keys() - n.keys())

    rows, roots = [], {}
    for s in changed:
        fn = nexp.get(s) or bexp.get(s)
        why = []
        if fn and fn in bt and fn in nt:
            bd, nd = bt[fn], nt[fn]
            if bd.get(s) != nd.get(s):
                why.append('prototype')
            for t in sorted(reach(bd, s) | reach(nd, s)):
                if bd.get(t) != nd.get(t):
                    why.append(t)
        elif not fn:
            why.append('no .symtypes')
        for t in why:
            roots.setdefault(t, []).append(s)
        cat = category(s)
        rows.append({'symbol': s, 'category': cat, 'file': fn,
                     'types': why, 'allowed': allowed(why)})

    # a removed export that modules use fails their load ("Unknown symbol")
    for s in removed:
        cat = category(s)
        if cat:
            rows.append({'symbol': s, 'category': cat, 'file': bexp.get(s),
                         'types': ['removed'], 'allowed': allow_removed.get(s)})
    watched = [r for r in rows if r['category']]
    bad = [r for r in watched if r['allowed'] is None]
    # an entry no watched export needs explains nothing any more
    need = {t for r in watched if r['types'] != ['removed'] for t in r['types']}
    gone = {r['symbol'] for r in watched if r['types'] == ['removed']}
    stale = sorted([f'type:{t}' for t in allow_types if t not in need] +
                   [f'removed:{x}' for x in allow_removed if x not in gone])
    summary = {
        'set': a.name, 'exports_base': len(b), 'exports_new': len(n),
        'changed': len(changed), 'added': len(added), 'removed': len(removed),
        'watched_changed': len(watched), 'not_allowed': len(bad), 'stale': stale,
        'by_category': {c: sum(1 for r in watched if r['category'] == c)
                        for c, _ in WATCH},
        'seconds': a.seconds,
    }
    with open(a.out + '.json', 'w') as f:
        json.dump({'summary': summary, 'changed': rows, 'added': added,
                   'removed': removed,
                   'types': {t: len(v) for t, v in roots.items()}}, f, indent=1)

    md = [f'# make kabi: baseline against {a.name}', '',
          '| exports (baseline, {0}) | CRC changed | watched, changed or removed ({1}) | not allowed | added | removed |'.format(a.name, ', '.join(c for c, _ in WATCH)),
          '|---|---|---|---|---|---|',
          f"| {len(b)}, {len(n)} | {len(changed)} | {len(watched)} ({', '.join(str(summary['by_category'][c]) for c, _ in WATCH)}) | {len(bad)} | {len(added)} | {len(removed)} |",
          '', '## Changed types, by the number of exports they change', '',
          '| type | exports |', '|---|---|']
    for t, v in sorted(roots.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        md.append(f'| `{t}` | {len(v)} |')
    md += ['', '## Watched exports whose CRC changed, or removed', '',
           '| export | kind | changed types it reaches | allowed |', '|---|---|---|---|']
    for r in watched:
        md.append(f"| `{r['symbol']}` | {r['category']} | {', '.join('`%s`' % t for t in r['types'])} | {'yes' if r['allowed'] else 'no'} |")
    md += ['', '## Causes allowed (scripts/kabi-allowlist)', '', '| cause | watched exports | reason |', '|---|---|---|']
    for t, why in sorted(allow_types.items()):
        md.append(f"| `type:{t}` | {sum(1 for r in watched if t in r['types'])} | {why} |")
    for x, why in sorted(allow_removed.items()):
        md.append(f"| `removed:{x}` | {1 if x in gone else 0} | {why} |")
    if stale:
        md += ['', 'Stale allow-list entries (no watched export needs them): ' + ', '.join(f'`{x}`' for x in stale)]
    md += ['', '## Added exports', '', ', '.join(f'`{s}`' for s in added) or 'none',
           '', '## Removed exports', '', ', '.join(f'`{s}`' for s in removed) or 'none', '']
    with open(a.out + '.md', 'w') as f:
        f.write('\n'.join(md))

    print(f"kabi {a.name}: {len(b)} -> {len(n)} exports; CRC changed {len(changed)}, "
          f"watched {len(watched)} {summary['by_category']}, not allowed {len(bad)}; "
          f"added {len(added)}, removed {len(removed)}")
    for t, v in sorted(roots.items(), key=lambda kv: -len(kv[1]))[:10]:
        print(f'  {len(v):5d} exports reach changed {t}')
    for r in bad[:40]:
        print(f"  NOT ALLOWED: {r['symbol']} ({r['category']}): {', '.join(r['types'])}")
    if len(bad) > 40:
        print(f'  ... and {len(bad) - 40} more (see {a.out}.md)')
    for x in stale:
        print(f'  STALE allow-list entry: {x}')
    return 1 if bad or stale else 0


if __name__ == '__main__':
    sys.exit(main())
