#!/usr/bin/env python3
"""Result files of the measuring targets, and the tables generated from them.

Each of `make check` (scripts/check.sh, also `make run`), `make bench`,
`make stress` and `make bisect` records its run in build/results/TARGET.json
(what was measured, when, at which commit, with which command) and then
rewrites its own generated sections of docs/measurements.md and the rows of
README.md's "Latest figures" table; `make results` rewrites all of them from
the files present.

  results.py start TARGET --pid PID         at the start of a target: time, git
                                            state, command -> build/results/.TARGET.start.json
  results.py ccache check --pid PID --since EPOCH VARIANT
                                            after a kernel's build: its ccache hits
  results.py record TARGET --pid PID [...]  at the end: the figures + the start
                                            record -> build/results/TARGET.json,
                                            then `update TARGET` (RESULTS_DOCS=0: not)
  results.py import check|bisect [...]      a result file from the logs of an
                                            earlier run, marked "reconstructed"
  results.py update [TARGET...]             rewrite the generated sections

A generated section lies between `<!-- results:ID begin ... -->` and
`<!-- results:ID end -->`; everything outside the markers is prose and is
left alone.  A section whose result file does not exist (a clean clone) is
left as it is.  A table whose header is the same as the one already in the
section is merged row by row: a row measured again replaces the one with
the same key (check: the kernel, bisect: the prefix, CI: the ccache state,
stress: the kernel, README: the "what" cell), the others stay with their
own date, commit and command.  Any other table is replaced, and so are the
bench tables (their rows have no date of their own: a run with fewer
BENCH_STATES shows only those).

Only the Python standard library; ktap.py is imported from scripts/.
Exit status 1 on an error (the target scripts turn it into a warning).
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMAT = 1
TARGETS = ('check', 'bench', 'stress', 'bisect', 'preempt', 'arm64', 'arm64-cfi', 'stress-arm64', 'robot')
DEFAULT_CHECK = ['baseline', 'patched', 'faulting']      # Makefile VARIANTS
DEFAULT_STRESS = ['baseline-stress', 'patched-stress', 'faulting-stress']
# The environment that shapes a run, in the order it is written before the
# command (the make command line's own NAME=VALUE words are not repeated).
ENV_NAMES = ['CI', 'CCACHE_DIR', 'BUILD', 'JOBS', 'ACCEL', 'TIMEOUT', 'CHECK_TIMEOUT',
             'APPEND', 'KERNEL', 'QEMU_EXTRA', 'FRAGMENTS', 'VARIANT', 'VARIANTS']
ENV_PREFIXES = ('BENCH_', 'STRESS_', 'PREEMPT_', 'ARM64_', 'ROBOT_')
ENV_MORE = ['HANG_TIMEOUT', 'RCUIDLE_TIMEOUT']


def warn(msg):
    print(f'results: warning: {msg}', file=sys.stderr)


# ---------------------------------------------------------------- basics

def now():
    return datetime.datetime.now(datetime.timezone.utc).timestamp()


def iso(t):
    if t is None:
        return None
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def parse_iso(s):
    if not s:
        return None
    return datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ').replace(
        tzinfo=datetime.timezone.utc).timestamp()


def span(start, end):
    """'2026-12-05 03:16-03:44' (UTC), the day repeated when it changes."""
    a, b = parse_iso(start), parse_iso(end)
    if a is None and b is None:
        return 'unknown'
    if a is None or b is None:
        t = datetime.datetime.fromtimestamp(a or b, datetime.timezone.utc)
        return t.strftime('%Y-%m-%d %H:%M')
    da = datetime.datetime.fromtimestamp(a, datetime.timezone.utc)
    db = datetime.datetime.fromtimestamp(b, datetime.timezone.utc)
    if da.date() == db.date():
        return f"{da:%Y-%m-%d %H:%M}-{db:%H:%M}"
    return f"{da:%Y-%m-%d %H:%M}-{db:%Y-%m-%d %H:%M}"


def duration(secs):
    if secs is None:
        return '?'
    secs = int(round(secs))
    if secs < 60:
        return f'{secs} s'
    m, s = divmod(secs, 60)
    return f'{m} min {s} s' if s else f'{m} min'


def read_int(path):
    try:
        with open(path, encoding='utf-8') as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def mtime(path):
    try:
        return os.path.getmtime(path)
    except OSError:
        return None


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def write_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write('\n')
    os.replace(tmp, path)


def run(cmd, timeout=20):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError) as err:
        return None, str(err)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1:] or [f'status {p.returncode}']
    return p.stdout, None


# ---------------------------------------------------------------- git, series

def series_patches():
    """(all patches, the six) of series, as scripts/lib.sh reads it."""
    every, six, in_six = [], [], True
    try:
        lines = open(os.path.join(TOP, 'series'), encoding='utf-8').read().splitlines()
    except OSError:
        return [], []
    for line in lines:
        if line.startswith('# --- follow-up'):
            in_six = False
        name = line.split('#', 1)[0].strip().split()
        if name:
            every.append(name[0])
            if in_six:
                six.append(name[0])
    return every, six


def git_state():
    """git describe of the repository, the last commit of patches/ + series,
    whether they differ from it, and a hash of the series as applied."""
    g = {}
    out, err = run(['git', '-C', TOP, 'describe', '--always', '--dirty'])
    g['describe'] = out.strip() if out else None
    if err:
        warn(f'git describe: {err}')
    out, _ = run(['git', '-C', TOP, 'rev-parse', 'HEAD'])
    g['head'] = out.strip() if out else None
    out, _ = run(['git', '-C', TOP, 'log', '-1', '--format=%h', '--', 'patches', 'series'])
    g['series_commit'] = out.strip() if out else None
    out, _ = run(['git', '-C', TOP, 'status', '--porcelain', '--', 'patches', 'series'])
    g['series_dirty'] = bool(out and out.strip()) if out is not None else None
    h = hashlib.sha256()
    every, _ = series_patches()
    try:
        h.update(open(os.path.join(TOP, 'series'), 'rb').read())
        for p in every:
            h.update(open(os.path.join(TOP, 'patches', p), 'rb').read())
        g['series_sha256'] = h.hexdigest()[:16]
    except OSError:
        g['series_sha256'] = None
    return g


def commit_text(g):
    if not g:
        return 'unknown'
    text = g.get('describe') or 'unknown'
    if g.get('series_commit'):
        text += f", series of {g['series_commit']}"
        if g.get('series_dirty'):
            text += ' + uncommitted changes'
    return text


# ---------------------------------------------------------------- processes, command line

def proc(pid):
    """argv, parent pid and start time (epoch) of a process, or None."""
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            argv = [a.decode('utf-8', 'replace') for a in f.read().split(b'\0')]
        with open(f'/proc/{pid}/stat', encoding='utf-8') as f:
            stat = f.read()
    except OSError:
        return None
    if argv and argv[-1] == '':
        argv.pop()
    rest = stat[stat.rfind(')') + 2:].split()
    start = None
    try:
        btime = next(int(line.split()[1]) for line in open('/proc/stat') if line.startswith('btime'))
        start = btime + int(rest[19]) / os.sysconf('SC_CLK_TCK')
    except (OSError, StopIteration, ValueError, IndexError):
        pass
    return {'pid': pid, 'argv': argv, 'ppid': int(rest[1]), 'start': start}


def environ_of(pid):
    """The environment a process was started with (not later exports)."""
    try:
        with open(f'/proc/{pid}/environ', 'rb') as f:
            pairs = f.read().split(b'\0')
    except OSError:
        return dict(os.environ)
    env = {}
    for p in pairs:
        k, sep, v = p.decode('utf-8', 'replace').partition('=')
        if sep:
            env[k] = v
    return env


def relevant_env(env):
    names = [n for n in ENV_NAMES if n in env]
    names += sorted(n for n in env if n.startswith(ENV_PREFIXES))
    names += [n for n in ENV_MORE if n in env]
    return {n: env[n] for n in names}


def shquote(v):
    if v == '' or re.fullmatch(r'[\w@%+=:,./~-]+', v):
        return v
    return '"' + re.sub(r'(["\\$`])', r'\\\1', v) + '"'


def script_words(argv):
    if len(argv) > 1 and os.path.basename(argv[0]) in ('bash', 'sh', 'dash', 'python3', 'python'):
        argv = argv[1:]
    if argv:
        path = os.path.abspath(argv[0])
        if path.startswith(TOP + os.sep):
            argv = [os.path.relpath(path, TOP)] + argv[1:]
    return argv


def invocation(pid):
    """What started the target script PID: its argv, the make command line
    that ran it (if any), the relevant environment, the command as one
    would type it again, and a .ci/run ancestor (CI)."""
    me = proc(pid) or {'argv': sys.argv, 'ppid': os.getppid(), 'start': None}
    env = relevant_env(environ_of(pid))
    chain, p, make = [], me['ppid'], None
    while p and p > 1 and len(chain) < 8:
        info = proc(p)
        if not info:
            break
        chain.append(info)
        p = info['ppid']
    for info in chain:
        a = info['argv']
        if a and os.path.basename(a[0]) in ('sh', 'bash', 'dash') and len(a) > 1 and a[1] == '-c':
            continue        # make's shell for a recipe
        if a and os.path.basename(a[0]) in ('make', 'gmake'):
            make = ['make'] + a[1:]
        break
    words = make or script_words(me['argv'])
    given = {w.split('=', 1)[0] for w in words if re.match(r'^\w+=', w)}
    shown = {k: v for k, v in env.items() if k not in given and k != 'RESULTS_DOCS'}
    command = ' '.join([f'{k}={shquote(v)}' for k, v in shown.items()] + [shquote(w) for w in words])
    ci = None
    for info in chain:
        a = info['argv']
        if any(x.endswith('.ci/run') for x in a):
            cienv = relevant_env(environ_of(info['pid']))
            cw = [w for w in a if not w.startswith('-')]
            if cw and os.path.basename(cw[0]) in ('bash', 'sh'):
                cw = ['bash'] + [os.path.relpath(os.path.abspath(w), TOP)
                                 if os.path.abspath(w).startswith(TOP + os.sep) else w for w in cw[1:]]
            pre = [f'{k}={shquote(cienv[k])}' for k in ('CI', 'CCACHE_DIR') if k in cienv]
            ci = {'command': ' '.join(pre + [shquote(w) for w in cw]), 'start': iso(info['start'])}
            break
    if ci is None and env.get('CI', '').lower() in ('true', '1', 'yes'):
        ci = {'command': command, 'start': None}
    return {'command': command, 'argv': script_words(me['argv']), 'make': make, 'env': env,
            'script_start': iso(me['start']), 'ci': ci}


# ---------------------------------------------------------------- ccache

def ccache_stats(quiet=False):
    out, err = run(['ccache', '--print-stats'])
    if out is None:
        if not quiet:
            warn(f'ccache --print-stats: {err}')
        return None
    st = {}
    for line in out.splitlines():
        k, _, v = line.partition('\t')
        if v.strip().isdigit():
            st[k] = int(v)
    return {'hits': st.get('direct_cache_hit', 0) + st.get('preprocessed_cache_hit', 0),
            'misses': st.get('cache_miss', 0), 'files': st.get('files_in_cache'),
            'zeroed': st.get('stats_zeroed_timestamp')}


def ccache_class(c):
    """warm, cold, few hits, mostly hits: from the builds' hit rate."""
    if not c:
        return None
    if c.get('files_at_start') == 0:
        return 'cold'
    n = c.get('hits', 0) + c.get('misses', 0)
    if not n:
        return None
    r = c['hits'] / n
    return 'warm' if r >= 0.9 else 'cold' if r <= 0.1 else 'mostly hits' if r >= 0.5 else 'few hits'


# ---------------------------------------------------------------- paths

class Paths:
    def __init__(self, args):
        self.build = os.path.abspath(args.build or os.environ.get('BUILD') or os.path.join(TOP, 'build'))
        self.results = os.path.abspath(args.results or os.path.join(self.build, 'results'))
        self.logs = os.path.join(self.build, 'logs')
        self.doc = os.path.abspath(args.doc or os.path.join(TOP, 'docs', 'measurements.md'))
        self.readme = os.path.abspath(args.readme or os.path.join(TOP, 'README.md'))

    def obj(self, variant):
        # VARIANT@MODE: a boot of VARIANT's kernel (make check-preempt)
        variant = variant.split('@')[0]
        v = 'prefix' if re.match(r'^prefix-\d+$', variant) else variant
        return os.path.join(self.build, 'obj', v)

    def result(self, target):
        return os.path.join(self.results, f'{target}.json')

    def start_file(self, target):
        return os.path.join(self.results, f'.{target}.start.json')


def run_meta(paths, target, pid, status=None):
    """The common part of a result file: start (from the start record when
    it is this process's), end, git, command, environment."""
    start = None
    try:
        start = load_json(paths.start_file(target))
        if start.get('pid') != pid:
            warn(f'{paths.start_file(target)} is of another run (pid {start.get("pid")}, not {pid}): ignored')
            start = None
    except (OSError, ValueError) as err:
        warn(f'no start record ({err}): the start time is the script\'s, git state read now')
    inv = (start or {}).get('invocation') or invocation(pid)
    t_start = (start or {}).get('start') or inv.get('script_start')
    end = now()
    meta = {'format': FORMAT, 'target': target, 'start': t_start, 'end': iso(end),
            'seconds': int(end - parse_iso(t_start)) if t_start else None,
            'git': (start or {}).get('git') or git_state(),
            'command': inv['command'], 'argv': inv['argv'], 'make': inv['make'],
            'env': inv['env'], 'status': status, 'reconstructed': False}
    return meta, start or {}, inv


# ---------------------------------------------------------------- check

def check_figures(paths, variants, since=None):
    """Per kernel: passed/failed/skipped as report.py counts them (a name
    another kernel has and this one lacks fails here, so does a problem
    of the file), results, build and boot seconds, the kernel's build."""
    data = {}
    for v in variants:
        path = os.path.join(paths.logs, f'results-{v}.ktap')
        res, _, twice, problems = ktap.parse(path, unit=' checks')
        data[v] = (res, [f'check {n} reported twice' for n in twice] + problems, path)
    names = set()
    for v in variants:
        names.update(data[v][0])
    kernels = {}
    for v in variants:
        res, problems, path = data[v]
        c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
        for st, _ in res.values():
            c[st] += 1
        missing = len(names - set(res))
        k = {'passed': c['PASS'], 'failed': c['FAIL'] + missing + len(problems),
             'skipped': c['SKIP'], 'results': len(res), 'missing': missing,
             'problems': problems, 'failed_checks': sorted(n for n, (s, _) in res.items() if s == 'FAIL')}
        files = {'ktap': path, 'build_s': os.path.join(paths.obj(v), '.build-seconds'),
                 'boot_s': os.path.join(paths.logs, f'boot-{v}.seconds'),
                 'console': os.path.join(paths.logs, f'console-{v}.log')}
        k['file_times'] = {n: iso(mtime(f)) for n, f in files.items()}
        for n in ('build_s', 'boot_s'):
            t = mtime(files[n])
            k[n] = read_int(files[n]) if t is not None and (since is None or t >= since - 2) else None
        k['kernel'] = None
        t = mtime(files['console'])
        if t is not None and (since is None or t >= since - 2):
            try:
                with open(files['console'], encoding='utf-8', errors='replace') as f:
                    for line in f:
                        m = re.search(r'Linux version (\S+).*?(#\d+ .*)$', line.strip())
                        if m:
                            k['kernel'] = f'{m.group(1)} {m.group(2)}'
                            break
            except OSError:
                pass
        kernels[v] = k
    total = {n: sum(k[n] for k in kernels.values()) for n in ('passed', 'failed', 'skipped')}
    return kernels, total


def report_total(paths, variants):
    """The closing line of scripts/report.py for these kernels (the figure
    make check prints), or None."""
    cmd = [sys.executable, os.path.join(TOP, 'scripts', 'report.py')] + \
        [f"{v}={os.path.join(paths.logs, f'results-{v}.ktap')}" for v in variants]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as err:
        warn(f'report.py: {err}')
        return None
    lines = [line for line in p.stdout.splitlines() if line.strip()]
    m = re.match(r'^(\d+) passed, (\d+) failed, (\d+) skipped$', lines[-1]) if lines else None
    if not m:
        warn('report.py printed no closing "N passed, N failed, N skipped" line; the KTAP counts are the total')
        return None
    return {'passed': int(m.group(1)), 'failed': int(m.group(2)), 'skipped': int(m.group(3))}


def record_check(args, paths, target='check'):
    variants = args.variants
    meta, start, inv = run_meta(paths, target, args.pid, args.status)
    since = parse_iso(meta['start'])
    kernels, total = check_figures(paths, variants, since)
    report = report_total(paths, variants)
    if report and report != total:
        warn(f"report.py's closing line ({report['passed']} passed, {report['failed']} failed, "
             f"{report['skipped']} skipped) is the total; the per-kernel KTAP counts add up to "
             f"{total['passed']}, {total['failed']}, {total['skipped']}")
    total = dict(report or total, ktap=total)
    failed = args.failed.split() if args.failed else []
    for v in variants:
        kernels[v]['variant_ok'] = v not in failed
        kernels[v]['ccache'] = (start.get('ccache_builds') or {}).get(v)
    ci = None
    if inv.get('ci'):
        c = {'hits': 0, 'misses': 0, 'builds': 0}
        for v in variants:
            b = kernels[v]['ccache']
            if b:
                c['hits'] += b['hits']
                c['misses'] += b['misses']
                c['builds'] += 1
        c['files_at_start'] = (start.get('ccache') or {}).get('files')
        c['dir'] = os.environ.get('CCACHE_DIR')
        cstart = inv['ci'].get('start') or meta['start']
        ci = {'command': inv['ci']['command'], 'start': cstart,
              'seconds': int(parse_iso(meta['end']) - parse_iso(cstart)) if cstart else None,
              'ccache': c if c['builds'] else {'files_at_start': c['files_at_start'], 'dir': c['dir']}}
    out = dict(meta, variants=variants, kernels=kernels, total=total, ci=ci,
               passed=total['failed'] == 0 and not failed)
    write_json(paths.result(target), out)
    return out


def import_check(args, paths):
    """check.json from the logs a make check left (build/logs, build/obj):
    times from the files, git state read now, command given or unknown."""
    variants = args.variants or DEFAULT_CHECK
    kernels, total = check_figures(paths, variants)
    report = report_total(paths, variants)
    total = dict(report or total, ktap=total)
    spans = []
    for v in variants:
        k = kernels[v]
        end = parse_iso(k['file_times']['ktap'])
        bt = parse_iso(k['file_times']['build_s'])
        begin = bt - k['build_s'] if bt is not None and k['build_s'] is not None else \
            (end - k['boot_s'] if end is not None and k['boot_s'] is not None else end)
        spans.append((begin, end, v))
        k['variant_ok'] = end is not None
        print(f"results: {v}: build until {k['file_times']['build_s']} ({k['build_s']} s), "
              f"KTAP {k['file_times']['ktap']} (boot {k['boot_s']} s), kernel {k['kernel']}: "
              f"{k['passed']} passed, {k['failed']} failed, {k['skipped']} skipped")
    known = sorted(s for s in spans if s[0] is not None and s[1] is not None)
    for (b1, e1, v1), (b2, e2, v2) in zip(known, known[1:]):
        if b2 - e1 > 600:
            warn(f'{v2} started {int((b2 - e1) / 60)} min after {v1} ended: '
                 'these logs are probably not of one run')
    start = min((s[0] for s in known), default=None)
    end = max((s[1] for s in known), default=None)
    out = {'format': FORMAT, 'target': 'check', 'start': iso(start), 'end': iso(end),
           'seconds': int(end - start) if known else None, 'git': None, 'git_at_import': git_state(),
           'command': args.command or 'unknown', 'argv': None, 'make': None, 'env': {},
           'status': None, 'reconstructed': True, 'variants': variants, 'kernels': kernels,
           'total': total, 'ci': None, 'passed': total['failed'] == 0}
    write_json(paths.result('check'), out)
    return out


# ---------------------------------------------------------------- bisect

def parse_bisect_md(path):
    rows, total, rng = [], None, None
    with open(path, encoding='utf-8') as f:
        for line in f:
            c = cells(line)
            if c and c[0].isdigit() and len(c) >= 7:
                m = re.match(r'(\d+) passed, (\d+) failed, (\d+) skipped', c[5])
                rows.append({'prefix': int(c[0]), 'patch': c[1], 'applies': c[2], 'builds': c[3],
                             'boots': c[4], 'checks': c[5],
                             'passed': int(m.group(1)) if m else None,
                             'failed': int(m.group(2)) if m else None,
                             'skipped': int(m.group(3)) if m else None,
                             'build_s': int(c[6]) if c[6].isdigit() else None})
            m = re.match(r'total (\d+)s for prefixes (\d+)\.\.(\d+)', line)
            if m:
                total, rng = int(m.group(1)), (int(m.group(2)), int(m.group(3)))
    return rows, total, rng


def bisect_variant(n):
    every, six = series_patches()
    if n == len(six):
        return 'patched'
    if n == len(every):
        return 'faulting'
    return f'prefix-{n}'


def bisect_figures(paths, since, until):
    md = os.path.join(paths.results, 'bisect.md')
    rows, total, rng = parse_bisect_md(md)
    for r in rows:
        v = bisect_variant(r['prefix'])
        r['variant'] = v
        f = os.path.join(paths.logs, f'boot-{v}.seconds')
        t = mtime(f)
        r['boot_s'] = read_int(f) if t is not None and (since is None or since - 2 <= t <= until + 2) else None
        r['ok'] = (r['applies'], r['builds'], r['boots']) == ('yes', 'yes', 'yes') and r['failed'] == 0
    return rows, total, rng


def record_bisect(args, paths):
    meta, _, _ = run_meta(paths, 'bisect', args.pid, args.status)
    md = os.path.join(paths.results, 'bisect.md')
    if meta['start'] and (mtime(md) or 0) < parse_iso(meta['start']) - 2:
        raise SystemExit(f'results: {md} is older than this walk: not recorded')
    rows, total, rng = bisect_figures(paths, parse_iso(meta['start']), parse_iso(meta['end']))
    first = args.first if args.first is not None else (rng or (None, None))[0]
    last = args.last if args.last is not None else (rng or (None, None))[1]
    out = dict(meta, first=first, last=last, series_length=len(series_patches()[0]),
               walk_seconds=total, prefixes=rows, passed=bool(rows) and all(r['ok'] for r in rows))
    write_json(paths.result('bisect'), out)
    return out


def import_bisect(args, paths):
    md = os.path.join(paths.results, 'bisect.md')
    end = mtime(md)
    if end is None:
        raise SystemExit(f'results: no {md}')
    _, total, rng = parse_bisect_md(md)
    start = end - total if total else None
    rows, total, rng = bisect_figures(paths, start, end)
    out = {'format': FORMAT, 'target': 'bisect', 'start': iso(start), 'end': iso(end),
           'seconds': total, 'git': None, 'git_at_import': git_state(),
           'command': args.command or 'unknown',
           'argv': None, 'make': None, 'env': {}, 'status': None, 'reconstructed': True,
           'first': rng[0] if rng else None, 'last': rng[1] if rng else None,
           'series_length': len(series_patches()[0]), 'walk_seconds': total,
           'prefixes': rows, 'passed': bool(rows) and all(r['ok'] for r in rows)}
    write_json(paths.result('bisect'), out)
    return out


# ---------------------------------------------------------------- bench, stress

def record_bench(args, paths):
    """bench.json: bench-report.py's figures (build/results/bench-figures.json),
    every mode with the run that measured it: this one for the modes of
    BENCH_MODES, the previous bench.json's for the others (bench.sh keeps
    their guest results)."""
    meta, _, _ = run_meta(paths, 'bench', args.pid, args.status)
    fig = load_json(os.path.join(paths.results, 'bench-figures.json'))
    measured = (args.measured or '').split()
    prev = {}
    try:
        prev = load_json(paths.result('bench')).get('modes', {})
    except (OSError, ValueError):
        pass
    run_of = {k: meta[k] for k in ('start', 'end', 'seconds', 'git', 'command', 'env', 'status')}
    modes = {}
    for mode, m in fig.get('modes', {}).items():
        m = dict(m)
        if mode in measured:
            m['run'] = run_of
        else:
            old = prev.get(mode) or {}
            m['run'] = old.get('run') if old.get('settings') == m.get('settings') else None
            if m['run'] is None:
                warn(f'bench mode {mode}: measured by an earlier run not on record; its tables are not generated')
        modes[mode] = m
    out = dict(meta, variants=fig.get('variants'), measured=measured, modes=modes,
               problems=fig.get('problems', []))
    write_json(paths.result('bench'), out)
    return out


def record_stress(args, paths, target='stress'):
    meta, _, _ = run_meta(paths, target, args.pid, args.status)
    summary = load_json(os.path.join(paths.results, 'stress-summary.json'))
    out = dict(meta, **summary)
    write_json(paths.result(target), out)
    return out


def record_robot(args, paths):
    """robot.json: robot-report.py's figures (build/results/robot-figures.json)
    with the run's date, commit and command."""
    meta, _, _ = run_meta(paths, 'robot', args.pid, args.status)
    fig = load_json(os.path.join(paths.results, 'robot-figures.json'))
    out = dict(meta, **fig)
    write_json(paths.result('robot'), out)
    return out


# ---------------------------------------------------------------- markdown

def cells(line):
    """The cells of a markdown table row ('|' inside `code` is not a border)."""
    line = line.strip()
    if not line.startswith('|'):
        return None
    out, cur, code = [], '', False
    i = 1
    while i < len(line):
        ch = line[i]
        if ch == '\\' and i + 1 < len(line) and line[i + 1] == '|':
            cur += '\\|'
            i += 2
            continue
        if ch == '`':
            code = not code
        if ch == '|' and not code:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def cell(text):
    return str(text).replace('|', '\\|').replace('\n', ' ')


def row_line(cs):
    return '| ' + ' | '.join(cell(c) if not isinstance(c, Raw) else c.text for c in cs) + ' |'


class Raw:
    """A cell written as is (already escaped, may hold `a|b` in code)."""

    def __init__(self, text):
        self.text = text


def code(cmd):
    return Raw('`' + cmd.replace('`', "'") + '`')


class Table:
    """A generated table; rows are (key, cells).  key(cells of an old row)
    gives the key of a row already in the section; sort orders the rows."""

    def __init__(self, header, rows, key=lambda c: c[0], sort=None, merge=True, caption=None):
        self.header, self.rows, self.key, self.sort = header, rows, key, sort
        self.merge = merge      # False: the rows of one run, no date of their own
        self.caption = caption  # a line before the table; a captioned table
                                # without rows (new or kept) is left out

    def head_line(self):
        return row_line(self.header)


def old_tables(lines):
    """{header line: [row lines]} of the tables in LINES."""
    out, i = {}, 0
    while i < len(lines):
        if lines[i].startswith('|') and i + 1 < len(lines) and re.match(r'^\|\s*:?-', lines[i + 1]):
            head = row_line(cells(lines[i]))
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith('|'):
                rows.append(lines[i].rstrip('\n'))
                i += 1
            out[head] = rows
        else:
            i += 1
    return out


def merge(table, old):
    """Rows of TABLE, with the rows of the same table already in the section
    that TABLE does not measure again (same header: same columns), each
    after the row it followed there."""
    merged = [(k, row_line(c)) for k, c in table.rows]
    prev = old.get(table.head_line()) if table.merge else None
    if prev is not None:
        fresh = {k for k, _ in merged}
        before = None
        for line in prev:
            k = table.key(cells(line))
            if k not in fresh:
                at = next((i for i, (mk, _) in enumerate(merged) if mk == before), -1)
                merged.insert(at + 1, (k, line))
            before = k
    if table.sort:
        merged.sort(key=lambda kl: table.sort(kl[0]))
    sep = '|' + '---|' * len(table.header)
    return [table.head_line(), sep] + [line for _, line in merged]


def render(items, old_lines):
    old = old_tables(old_lines)
    out = []
    for it in items:
        if isinstance(it, Table):
            lines = merge(it, old)
            if it.caption is not None:
                if len(lines) > 2:
                    out.extend(['', it.caption, ''] + lines)
                continue
            out.extend(lines)
        else:
            out.extend(it.split('\n'))
    return out


def replace_section(text, sid, items, origin):
    """TEXT with the lines between the markers of section SID generated
    from ITEMS; None if the markers are missing."""
    lines = text.split('\n')
    b = next((i for i, line in enumerate(lines) if line.startswith(f'<!-- results:{sid} begin')), None)
    e = next((i for i, line in enumerate(lines) if line.strip() == f'<!-- results:{sid} end -->'), None)
    if b is None or e is None or e < b:
        return None
    body = render(items, lines[b + 1:e])
    stamp = f'<!-- generated by scripts/results.py from {origin} -->'
    return '\n'.join(lines[:b + 1] + [stamp, ''] + body + [''] + lines[e:])


# ---------------------------------------------------------------- generated sections

def cmd_cell(d, command=None):
    c = command or d.get('command') or 'unknown'
    if d.get('reconstructed'):
        if c == 'unknown':
            return 'unknown (reconstructed from the logs)'
        return Raw(code(c).text + ' (reconstructed from the logs)')
    return code(c)


def check_key(c):
    return re.sub(r'\s*\(.*$', '', c[0]).strip()


def check_section(d):
    when, commit = span(d['start'], d['end']), commit_text(d['git'])
    rows = []

    def secs(x):
        return '-' if x is None else str(x)
    ks = [d['kernels'][v] for v in d['variants']]
    if len(ks) > 1:
        bs = [k['build_s'] for k in ks]
        us = [k['boot_s'] for k in ks]
        rows.append((' + '.join(d['variants']),
                     [' + '.join(d['variants']), when, commit, cmd_cell(d), d['total']['passed'],
                      d['total']['failed'], d['total']['skipped'],
                      ' / '.join(secs(x) for x in bs), ' / '.join(secs(x) for x in us)]))
    for v in d['variants']:
        k = d['kernels'][v]
        name = v if k.get('variant_ok', True) else f'{v} (the variant failed: see its log)'
        rows.append((v, [name, when, commit, cmd_cell(d), k['passed'], k['failed'], k['skipped'],
                         secs(k['build_s']), secs(k['boot_s'])]))
    t = Table(['kernels', 'date', 'commit', 'command', 'passed', 'failed', 'skipped',
               'build s', 'boot + checks s'], rows, key=check_key)
    items = [t]
    kt = d['total'].get('ktap')
    if kt and kt['failed'] != d['total']['failed']:
        items += ['', f"The total is `report.py`'s: {d['total']['failed']} failed, of which "
                      f"{d['total']['failed'] - kt['failed']} not in the kernels' KTAP counts (see the run's report)."]
    fails = [f'{v}: {n}' for v in d['variants'] for n in d['kernels'][v]['failed_checks']]
    fails += [f'{v}: {p}' for v in d['variants'] for p in d['kernels'][v]['problems']]
    if fails:
        items.append('')
        items.append(f"Failed in the run of {when}: " + ', '.join(f'`{f}`' for f in fails[:20]) +
                     (f' and {len(fails) - 20} more' if len(fails) > 20 else '') + '.')
    return items


def ci_section(d):
    ci = d.get('ci')
    if not ci:
        return None
    c = ci.get('ccache') or {}
    cls = ccache_class(c) or 'unknown ccache state'
    where = c.get('dir') or 'ccache'
    home = os.environ.get('HOME')
    if home and where.startswith(home + '/'):
        where = '~' + where[len(home):]
    detail = f'`{where}`'
    if c.get('builds'):
        detail += f", {c['hits']} hits, {c['misses']} misses"
    if c.get('files_at_start') == 0:
        detail += ', empty at the start'
    ks = [d['kernels'][v] for v in d['variants']]
    t = Table(['ccache', 'date', 'commit', 'result', 'time', 'builds', 'boot + checks'],
              [(cls, [f'{cls} ({detail})', span(ci['start'], d['end']), commit_text(d['git']),
                      f"{d['total']['passed']} passed, {d['total']['failed']} failed, "
                      f"{d['total']['skipped']} skipped", duration(ci.get('seconds')),
                      ' / '.join('-' if k['build_s'] is None else f"{k['build_s']} s" for k in ks),
                      ' / '.join('-' if k['boot_s'] is None else f"{k['boot_s']} s" for k in ks)])],
              key=ci_key)
    return [t]


def ci_key(c):
    """The ccache state of a CI row: warm, cold, few hits, mostly hits."""
    k = c[0].split(' (')[0].strip().lower()
    for cls in ('warm', 'cold', 'few hits', 'mostly hits'):
        if k.startswith(cls.split()[0]):
            return cls
    return k


def bisect_section(d):
    when, commit = span(d['start'], d['end']), commit_text(d['git'])
    rows = []
    for r in d['prefixes']:
        rows.append((str(r['prefix']),
                     [r['prefix'], r['patch'], r['applies'], r['builds'], r['boots'], r['checks'],
                      '-' if r['build_s'] is None else r['build_s'],
                      '-' if r.get('boot_s') is None else r['boot_s'], when, commit, cmd_cell(d)]))
    t = Table(['prefix', 'top patch', 'applies', 'builds', 'boots', 'checks', 'build s',
               'boot + checks s', 'date', 'commit', 'command'], rows,
              key=lambda c: c[0], sort=lambda k: int(k) if k.isdigit() else 10 ** 6)
    return [t]


BENCH_LABEL = {
    'none': 'no tracing',
    'ftrace_raw': 'ftrace raw_syscalls sys_enter+sys_exit',
    'ftrace_syscalls': 'ftrace syscalls:* (strings, knob 63)',
    'ftrace_syscalls_nostr': 'ftrace syscalls:*, `syscall_user_buf_size` 0',
    'perf_stat': 'perf stat -e raw_syscalls:sys_enter',
    'perf_record': 'perf record -e raw_syscalls:sys_enter',
    'bpf_rawtp': 'BPF raw_tp sys_enter counter',
    'bpftrace': 'bpftrace raw_syscalls:sys_enter count()',
    'enable_all': 'enable syscalls/* + raw_syscalls (knob 0)',
    'disable_all': 'disable syscalls/* + raw_syscalls (knob 0)',
    'rawtp_cycle': 'BPF raw_tp attach+detach',
    'openat_none': 'openat() loop, no tracing',
    'openat_ftrace': 'openat(), sys_enter_openat on, path copied (63)',
    'openat_ftrace_nostr': 'openat(), sys_enter_openat on, knob 0',
    'openat64_none': '`openat()` of a 64-byte path, untraced',
    'openat64_bpf_copystr': 'the same, the path copied by a raw_tp program: '
                            '`bpf_probe_read_user_str()`, or sleepable `bpf_copy_from_user_str()` where the kernel has it',
    'openat64_bpf_tpcopy': 'the same, copied by a tracepoint program on `syscalls:sys_enter_openat`: '
                           '`bpf_probe_read_user_str()`, or sleepable `bpf_copy_from_user_str()` where the kernel runs it',
    'openat64_ftrace': '`openat()` of a 64-byte path, `sys_enter_openat` on, path recorded (knob 63)',
    'openat64_ftrace_1': 'the same, knob 1',
    'write64_ftrace': '`write()` of a 64-byte buffer to /dev/null, `sys_enter_write` on, '
                      'its first 63 bytes recorded (knob 63) where the kernel records them',
    'write64_ftrace_1': 'the same, knob 1',
}
CYCLE_STATES = ('enable_all', 'disable_all', 'rawtp_cycle')
COPY_STATES = ('openat64_none', 'openat64_bpf_copystr', 'openat64_bpf_tpcopy')
# ftrace's record of the write() buffer against the path's (the per-byte
# ratio, bench-report.py PER_BYTE): shown with the copy states
RECORD_STATES = ('openat64_ftrace', 'openat64_ftrace_1', 'write64_ftrace', 'write64_ftrace_1')
TRACER_STATES = ('ftrace_raw', 'ftrace_syscalls_nostr', 'perf_stat', 'perf_record', 'bpf_rawtp', 'bpftrace')


def per_hit_ratio(h, v, ref):
    """A per-hit row's ratio for variant v: (median, min, max, boots) of the
    paired boots' ratios where bench-report.py gave them, else (the ratio of
    the medians,) alone; None without v.  Targets are judged on its first."""
    if h.get('ratio', {}).get(v):
        return tuple(h['ratio'][v])
    med = h['median']
    return (med[v] / med[ref],) if v in med and med.get(ref) else None


def fmt_target(t):
    s = f'{t:g}'
    return f'{t:.2f}' if len(s.partition('.')[2]) < 2 else s


def bench_value(mode, state, ns):
    if state in CYCLE_STATES:
        return f'{ns / 1e6:.2f} ms'
    if mode.startswith('icount'):
        return f'{ns:.0f}'
    return f'{ns / 1e3:.1f} µs' if ns >= 1e4 else f'{ns:.0f} ns'


def bench_unit(m):
    return 'instructions' if any('= 1 virtual ns' in s for s in m.get('settings', [])) else 'ns'


def bench_run_line(d, mode, m, what):
    r = m['run']
    guests = m.get('boots', 0) * len(d['variants'])
    return (f"{span(r['start'], r['end'])}, {commit_text(r['git'])}, {guests} guests "
            f"({m.get('boots', '?')} paired boot(s)), {what}: `{r['command']}`")


def bench_table(d, mode, rows, with_target):
    vs = d['variants']
    ref, others = vs[0], vs[1:]
    head = ['state', ref]
    for v in others:
        head += [v, f'{v}/{ref}' + (' (min-max)' if v == vs[-1] else '')]
    if with_target:
        head += ['target', 'met']
    out = []
    for x in rows:
        c = [Raw(BENCH_LABEL.get(x['state'], x['state'])), bench_value(mode, x['state'], x['median'][ref])]
        for v in others:
            q = x['ratio'].get(v)
            c.append(bench_value(mode, x['state'], x['median'][v]) if v in x['median'] else '-')
            if not q:
                c.append('-')
            elif v == vs[-1]:
                c.append(f'{q[0]:.4f} ({q[1]:.4f}-{q[2]:.4f})')
            else:
                c.append(f'{q[0]:.4f}')
        if with_target:
            c += ['-' if x['target'] is None else f"≤ {fmt_target(x['target'])}", x['met']]
        out.append((x['state'], c))
    return Table(head, out, merge=False)


def bench_mode_section(d, mode):
    m = d.get('modes', {}).get(mode)
    if not m or not m.get('run'):
        return None
    rows = [x for x in m['rows'] if not (mode == 'icount' and x['state'] in COPY_STATES + RECORD_STATES)]
    if not rows:
        return None
    with_target = any(x['target'] is not None for x in rows)
    what = {'icount': 'no sleeping probe', 'icountsl': 'a probe that sleeps attached to `sys_enter`',
            'wall': 'wall clock'}.get(mode, mode)
    items = [bench_run_line(d, mode, m, what) + '.', '', bench_table(d, mode, rows, with_target)]
    problems = [p for p in d.get('problems', []) if p.startswith((f'{mode}-', f'{mode} '))]
    if problems:
        items += ['', 'Problems: ' + '; '.join(cell(p) for p in problems[:10])]
    return items


def bench_copy_section(d):
    m = d.get('modes', {}).get('icount')
    if not m or not m.get('run'):
        return None
    rows = [x for x in m['rows'] if x['state'] in COPY_STATES + RECORD_STATES]
    hits = [h for h in m.get('per_hit', []) if h['state'] in COPY_STATES]
    if not rows:
        return None
    vs = d['variants']
    ref, others = vs[0], vs[1:]
    head = ['state', ref]
    for v in others:
        head += [v, f'{v}/{ref}']
    head.append('target')
    out = []
    for x in rows:
        c = [Raw(BENCH_LABEL[x['state']]), bench_value('icount', x['state'], x['median'][ref])]
        for v in others:
            q = x['ratio'].get(v)
            c += [bench_value('icount', x['state'], x['median'].get(v, float('nan'))),
                  f'{q[0]:.4f}' if q else '-']
        t = x['target']
        c.append('-' if t is None else f"≤ {fmt_target(t)} {'met' if x['met'].startswith('yes') else 'NOT met'}")
        out.append((x['state'], c))
    for h in hits:
        med = h['median']
        if ref not in med or not med[ref]:
            continue
        c = [Raw('cost per hit of the copy (copy - untraced, medians; ratio: median of the paired boots\' ratios, min-max)'
                 if h['state'] == 'openat64_bpf_copystr'
                 else 'cost per hit of the tracepoint program\'s copy (tpcopy - untraced, the same)'), f'{med[ref]:.0f}']
        for v in others:
            q = per_hit_ratio(h, v, ref)
            c += [f'{med[v]:.0f}' if v in med else '-',
                  '-' if not q else f'{q[0]:.4f}' if len(q) == 1 else f'{q[0]:.4f} ({q[1]:.4f}-{q[2]:.4f}, {q[3]} boots)']
        t = h.get('target')
        q = per_hit_ratio(h, vs[-1], ref)
        ok = q is not None and t is not None and q[0] <= t
        c.append('-' if t is None else f"≤ {fmt_target(t)} {'met' if ok else 'NOT met'}")
        out.append(('per_hit', c))
    for b in m.get('per_byte', []):
        if b.get('variant') not in others:
            continue
        q = b['ratio']
        c = [Raw('per byte: the `write()` buffer record against the path record '
                 f"((`{b['state']}` - `{b['base']}`) / (`{b['ref_state']}` - `{b['ref_base']}`), "
                 f"knob 63 against 1 (62 bytes more), per boot, {b['variant']} only: buffer / path, ratio (min-max, boots))"), '-']
        for v in others:
            c += [f"{b['buf']:.0f} / {b['path']:.0f}", f"{q[0]:.4f} ({q[1]:.4f}-{q[2]:.4f}, {b['boots']})"] \
                if v == b['variant'] else ['-', '-']
        t = b.get('target')
        c.append('-' if t is None else f"≤ {fmt_target(t)} {'met' if q[0] <= t else 'NOT met'}")
        out.append(('per_byte', c))
    copy = any(x['state'] in COPY_STATES for x in rows)
    record = any(x['state'] in RECORD_STATES for x in rows)
    what = ('the copy and record states' if copy and record else
            'the record states' if record else 'the copy states')
    return [bench_run_line(d, 'icount', m, what) + '.', '',
            Table(head, out, merge=False)]


def robot_cells():
    """The default cells of make robot: config-fragments/robot/cells, the
    list scripts/robot.sh runs."""
    out = []
    with open(os.path.join(TOP, 'config-fragments', 'robot', 'cells'), encoding='utf-8') as f:
        for line in f:     # robot.sh's rule: a comment from #, the first word
            words = line.split('#', 1)[0].split()
            if words:
                out.append(words[0])
    return out


def robot_summary(doc, series_commit):
    """README's robot figure, from the tables of the robot section of DOC
    (every cell's, every walk's and kernel-doc's last run): the cells that
    pass on the series of SERIES_COMMIT (the series as committed then,
    without uncommitted changes), those that fail, are incomplete or were
    run on another series, those not run; then the prefix walks and
    kernel-doc, FAILING where they found something.  A cell passes when
    baseline, the six and the series are built and neither adds a warning,
    or (noperf on x86) when every set is not configurable, as expected."""
    lines = doc.split('\n')
    b = next((i for i, line in enumerate(lines) if line.startswith('<!-- results:robot begin')), None)
    e = next((i for i, line in enumerate(lines) if line.strip() == '<!-- results:robot end -->'), None)
    if b is None or e is None:
        return None
    tables = old_tables(lines[b + 1:e])

    def rows_of(head, width):
        rows = next((r for h, r in tables.items() if h.startswith(head)), [])
        # (a row that does not split into its columns is reported, not
        # read: the texts are the robot's, a stray ` could do it)
        return [[x.replace('\\|', '|') for x in c] if c and len(c) == width else None
                for c in (cells(r) for r in rows)]

    def on(run_):
        m = re.search(r'series of (\w+)( \+ uncommitted changes)?', run_)
        if m and series_commit and m.group(1) == series_commit and not m.group(2):
            return None
        return m.group(1) + (m.group(2) or '') if m else 'unknown series'

    def where(run_):
        other = on(run_)
        return f'on the series of {other}' if other else 'on the series'

    passing, failing, older, incomplete, unread = [], [], [], [], 0
    seen = set()
    for c in rows_of('| cell | baseline', 6):
        if c is None:
            unread += 1
            continue
        name, base, sets, first_bad, run_ = c[0], c[1], c[2:4], c[4], c[5]
        seen.add(name)
        if on(run_):
            older.append(f'{name} ({on(run_)})')
            continue
        expected = 'not configurable (as expected'
        if base.startswith('FAILED') or any(x.startswith('FAILED') for x in sets) or first_bad != '-':
            failing.append(name)
        elif '-' in sets:
            incomplete.append(f"{name} ({', '.join(s for s, x in zip(('the six', 'the series'), sets) if x == '-')} not built)")
        elif all(x.startswith(expected) for x in [base] + sets):
            passing.append(f'{name} (not configurable, as expected)')
        elif base.startswith('built') and all('no warning added' in x for x in sets):
            passing.append(name)
        else:
            failing.append(name)
    all_cells = robot_cells()
    fig = f"{len(passing)} of {len(all_cells)} cells pass on the series of {series_commit or 'unknown'}"
    fig += ': ' + ', '.join(passing) if passing else ''
    if failing:
        fig += '; FAILING: ' + ', '.join(failing)
    if incomplete:
        fig += '; incomplete: ' + ', '.join(incomplete)
    if older:
        fig += '; last run on another series: ' + ', '.join(older)
    missing = [c for c in all_cells if c not in seen]
    if missing:
        fig += '; not run: ' + ', '.join(missing)
    wtext = []
    for c in rows_of('| prefix walk |', 4):
        if c is None:
            unread += 1
            continue
        bad = '' if 'each built, no warning added' in c[1] else 'FAILING: '
        wtext.append(f'{bad}{c[0]} ({c[1]}, {where(c[3])})')
    fig += '; prefix walks: ' + ('; '.join(wtext) if wtext else 'none run')
    for c in rows_of('| check |', 3):
        if c is None:
            unread += 1
            continue
        bad = '' if c[1].endswith(' 0 added') else 'FAILING: '
        fig += f'; {bad}{c[0]}: {c[1]} ({where(c[2])})'
    if unread:
        fig += f'; {unread} rows of the section could not be read'
    return fig + ' (every cell: [measurements.md](docs/measurements.md#make-robot))'


def plain(text):
    """A compiler's text for a table cell: its quotes ` (ld's `sym') made ',
    so that no cell opens code that a later read would take for the rest
    of the row."""
    return text.replace('`', "'")


def robot_section(d):
    """The cells of a make robot run, one row each, and its prefix walks,
    one row per cell walked, merged with the rows of earlier runs (a cell
    measured again is replaced).  A run of baseline alone (the base of a
    prefix walk) says nothing of the series: its cells keep their rows."""
    when, commit = span(d['start'], d['end']), commit_text(d['git'])
    sets = d.get('sets') or []
    rows = []
    for cell, c in d.get('cells', {}).items():
        if set(sets) <= {'baseline'} and c.get('ok'):
            continue        # (a baseline that fails is the cell's news)
        rows.append((cell, [cell] + [plain(c.get('text', {}).get(s, '-')) for s in ('baseline', 'patched', 'faulting')]
                     + [plain(c.get('first_bad', '-')), f'{when} ({commit})']))
    t = Table(['cell', 'baseline', 'patched', 'faulting', 'first failing prefix', 'run'], rows)
    walks = []
    for cell, w in d.get('prefixes', {}).items():
        failed = w.get('failed') or []
        n = w.get('built', 0)
        res = f'{n} prefixes: ' + ('failing: ' + plain(', '.join(failed)) if failed else
                                   'each built, no warning added' if n else 'none built')
        secs = w.get('seconds')
        walks.append((cell, [cell, res, duration(secs and int(secs)), f'{when} ({commit})']))
    pw = Table(['prefix walk', 'prefixes built incrementally in one tree, each against baseline of the cell',
                'time', 'run'], walks,
               caption='Every prefix of the series (`ROBOT_PREFIX_CELLS`), one row per cell walked:')
    kd = d.get('kernel_doc') or {}
    krows = []
    if kd.get('failed'):
        krows.append(('kernel-doc', ['kernel-doc', 'FAILED: ' + plain(kd['failed']), f'{when} ({commit})']))
    elif kd.get('ran'):
        krows.append(('kernel-doc', ['kernel-doc', f"baseline {kd.get('baseline')}, series {kd.get('faulting')} warnings, "
                                     f"{kd.get('added')} added", f'{when} ({commit})']))
    kt = Table(['check', 'on the files the series touches (`kernel-doc -none -v`: 6.1 has no `-Wall`)', 'run'],
               krows, caption='kernel-doc, on the whole series (the first cell of a run that builds it):')
    items = [f"Run of {when} ({commit}), {duration(d.get('total_s') and int(d['total_s']))}: "
             f"`{d.get('command')}` (sets: {', '.join(sets)}).", '', t, pw, kt]
    return items


def stress_section(d):
    when, commit = span(d['start'], d['end']), commit_text(d['git'])
    rows = []
    for v in d['variants']:
        k = d['kernels'][v]
        rows.append((v, [v, when, commit, cmd_cell(d), k['passed'], k['failed'], k['skipped'],
                         k.get('log', 'not run'), k.get('build_s', '?'), k.get('boot_s', '?')]))
    t = Table(['kernel', 'date', 'commit', 'command', 'passed', 'failed', 'skipped', 'console',
               'build s', 'boot + scenarios s'], rows)
    extra = f"harness hang case: {d.get('hang', 'not run')}"
    for v, val in (d.get('rcuidle') or {}).items():
        extra += f'; rcuidle filter storm on {v}: {val}'
    items = [f"Run of {when} ({commit}), {duration(d.get('total_s'))}: `{d.get('command')}`: "
             f"**{d['passed']} passed, {d['failed']} failed, {d['skipped']} skipped**; {extra}.", '', t]
    if d.get('failures'):
        items += ['', 'Failures of that run:', ''] + [f'- {cell(f)}' for f in d['failures'][:20]]
    if d.get('table'):
        items += ['', f'Per scenario, the run of {when}:', ''] + d['table']
    return items


# ---------------------------------------------------------------- README rows

def latest_rows(target, d):
    """The README "Latest figures" rows of a result file: (what, cells)."""
    rows = []

    def when(a, b, git):
        return f'{span(a, b)} ({commit_text(git)})'
    if target == 'check':
        ci = d.get('ci')
        if ci:
            cls = ccache_class(ci.get('ccache') or {}) or 'unknown'
            what = {'warm': 'CI, warm ccache', 'cold': 'CI, cold ccache', 'few hits': 'CI, few ccache hits',
                    'mostly hits': 'CI, mostly ccache hits'}.get(cls, f'CI, {cls}')
            rows.append((what, [what, f"{d['total']['passed']} passed, {d['total']['failed']} failed, "
                                f"{d['total']['skipped']} skipped in {duration(ci.get('seconds'))}",
                                when(ci['start'], d['end'], d['git']), code(ci['command'])]))
        vs = d['variants']
        what = '`make check`' if vs == DEFAULT_CHECK else \
            '`make check`, ' + (f'{vs[0]} alone' if len(vs) == 1 else ' + '.join(vs))
        n = {d['kernels'][v]['results'] for v in vs}
        fig = f"{d['total']['passed']} passed, {d['total']['failed']} failed, {d['total']['skipped']} skipped"
        if len(vs) > 1:
            fig += ': ' + ', '.join(vs) + (f', {n.pop()} results each' if len(n) == 1 else
                                          ' (' + ', '.join(f"{d['kernels'][v]['results']}" for v in vs) + ' results)')
        bad = [v for v in vs if not d['kernels'][v].get('variant_ok', True)]
        if bad:
            fig += '; variant failed: ' + ', '.join(bad)
        cmd = cmd_cell(d)
        if d.get('ci') and not d.get('reconstructed'):
            cmd = Raw(code(d['command']).text + ' (in `.ci/run`)')
        rows.append((what, [what, fig, when(d['start'], d['end'], d['git']), cmd]))
    elif target == 'preempt':
        vs = d['variants']
        fig = (f"{d['total']['passed']} passed, {d['total']['failed']} failed, {d['total']['skipped']} skipped: "
               + ', '.join(f"{v} {d['kernels'][v]['passed']}/{d['kernels'][v]['failed']}/{d['kernels'][v]['skipped']}"
                           for v in vs))
        bad = [v for v in vs if not d['kernels'][v].get('variant_ok', True)]
        if bad:
            fig += '; failed: ' + ', '.join(bad)
        what = '`make check-preempt` (Debian model)'
        rows.append((what, [what, fig, when(d['start'], d['end'], d['git']), cmd_cell(d)]))
    elif target in ('arm64', 'arm64-cfi'):
        vs = d['variants']
        fig = (f"{d['total']['passed']} passed, {d['total']['failed']} failed, {d['total']['skipped']} skipped: "
               + ', '.join(f"{v} {d['kernels'][v]['passed']}/{d['kernels'][v]['failed']}/{d['kernels'][v]['skipped']}"
                           f" (boot + checks {d['kernels'][v]['boot_s']} s)" for v in vs))
        bad = [v for v in vs if not d['kernels'][v].get('variant_ok', True)]
        if bad:
            fig += '; failed: ' + ', '.join(bad)
        what = '`make check-arm64`' + ('' if vs == ['faulting-arm64', 'baseline-arm64'] else ', ' + ' + '.join(vs))
        rows.append((what, [what, fig, when(d['start'], d['end'], d['git']), cmd_cell(d)]))
    elif target == 'bisect':
        ps = d['prefixes']
        if not ps:
            return rows
        n, total = len(ps), d.get('series_length')
        lo, hi = ps[0]['prefix'], ps[-1]['prefix']
        bad = [r for r in ps if not r['ok']]
        if not bad:
            fig = (f'all {total} prefixes apply, build, boot and pass' if lo == 1 and hi == total else
                   f'prefixes {lo}-{hi} of {total}: all apply, build, boot and pass')
        else:
            fig = f'prefixes {lo}-{hi} of {total}: {n - len(bad)} of {n} pass; not: ' + ', '.join(
                f"{r['prefix']} ({r['checks'] if r['boots'] == 'yes' else 'applies ' + r['applies'] + ', builds ' + r['builds'] + ', boots ' + r['boots']})"
                for r in bad)
        if d.get('walk_seconds'):
            fig += f", {duration(d['walk_seconds'])}"
        # only a walk of every prefix replaces the row of the whole series
        # (which may be written by hand from several partial walks); a
        # partial walk has its own row, replaced by the next partial walk
        what = 'bisect' if lo == 1 and hi == total else 'bisect, latest partial walk'
        rows.append((what, [what, fig, when(d['start'], d['end'], d['git']), cmd_cell(d)]))
    elif target == 'robot':
        # one row for every cell: update() fills it from the merged per-cell
        # table of measurements.md (cells are run one session at a time)
        rows.append(('`make robot`', ['`make robot`', None, when(d['start'], d['end'], d['git']), cmd_cell(d)]))
    elif target in ('stress', 'stress-arm64'):
        vs = d['variants']
        what = 'stress, three kernels' if vs == DEFAULT_STRESS else 'stress, ' + ' + '.join(vs)
        splat = [v for v in vs if d['kernels'][v].get('log') != 'ok']
        fig = (f"{d['passed']} passed, {d['failed']} failed, {d['skipped']} skipped, "
               + ('no splat' if not splat else 'console not ok on ' + ', '.join(splat)) + ', guest'
               + ('s ' if len(vs) > 1 else ' ') + ' / '.join(str(d['kernels'][v].get('boot_s', '?')) for v in vs) + ' s')
        if not str(d.get('hang', 'ok')).startswith(('ok', 'skipped')):
            fig += f"; harness hang case: {d['hang']}"
        rows.append((what, [what, fig, when(d['start'], d['end'], d['git']), cmd_cell(d)]))
    elif target == 'bench':
        vs = d.get('variants') or []
        if len(vs) < 2:
            return rows
        ref, last = vs[0], vs[-1]
        mid = vs[1] if len(vs) > 2 else None
        for mode, m in d.get('modes', {}).items():
            r = m.get('run')
            if not r:
                continue
            by = {x['state']: x for x in m['rows']}
            cmd = code(r['command'])
            date = when(r['start'], r['end'], r['git'])
            if mode == 'icount':
                for state, what in (('openat64_bpf_copystr', 'bench: sleepable BPF copy per hit'),
                                    ('openat64_bpf_tpcopy', 'bench: sleepable tracepoint program copy per hit')):
                    hits = [h for h in m.get('per_hit', []) if h['state'] == state]
                    if hits and ref in hits[0]['median'] and last in hits[0]['median'] and hits[0]['median'][ref]:
                        med, t = hits[0]['median'], hits[0].get('target')
                        pb = per_hit_ratio(hits[0], last, ref)
                        q = pb[0]
                        if len(pb) > 1:	# judged on the median of the paired boots' ratios
                            fig = (f"{med[last]:.0f} vs {med[ref]:.0f} {bench_unit(m)} per hit ({last} vs {ref}, medians); "
                                   f"ratio per paired boot: median {pb[0]:.4f}, {pb[1]:.4f}-{pb[2]:.4f} over {pb[3]} boots")
                        else:
                            fig = f"{med[last]:.0f} vs {med[ref]:.0f} {bench_unit(m)} per hit ({last} vs {ref}): {q:.4f}"
                        fig += (f" (target ≤ {fmt_target(t)}{' on the median' if len(pb) > 1 else ''}, "
                                f"{'met' if q <= t else 'NOT met'})" if t is not None else '')
                        rows.append((what, [what, fig, date, cmd]))
                for b in m.get('per_byte', []):
                    if b.get('state') != 'write64_ftrace' or b.get('variant') != last:
                        continue
                    what, q, t = 'bench: write() buffer vs path record, per byte', b['ratio'], b.get('target')
                    fig = (f"write() buffer, 62 bytes more: {b['buf']:.0f} {bench_unit(m)}, path, 62 bytes more: "
                           f"{b['path']:.0f} ({last}): ratio {q[0]:.4f} ({q[1]:.4f}-{q[2]:.4f} over {b['boots']} boots"
                           + (f"; target ≤ {fmt_target(t)}, {'met' if q[0] <= t else 'NOT met'})" if t is not None
                              else ')'))
                    rows.append((what, [what, fig, date, cmd]))
                tr = [by[s] for s in TRACER_STATES if s in by and last in by[s]['ratio']]
                if tr:
                    q = [x['ratio'][last][0] for x in tr]
                    fig = f'{last}/{ref} {min(q):.4f}-{max(q):.4f} over {len(tr)} tracers'
                    if mid and all(mid in x['ratio'] for x in tr):
                        q2 = [x['ratio'][mid][0] for x in tr]
                        fig += f' ({mid}: {min(q2):.4f}-{max(q2):.4f})'
                    tg = [x for x in m['rows'] if x['target'] is not None and x['state'] not in COPY_STATES]
                    fig += f"; targets met: {sum(x['met'].startswith('yes') for x in tg)} of {len(tg)}"
                    rows.append(('bench: tracers, no sleeping probe',
                                 ['bench: tracers, no sleeping probe', fig, date, cmd]))
            elif mode == 'icountsl':
                tr = [by[s] for s in TRACER_STATES if s in by and last in by[s]['ratio']]
                if tr:
                    q = [x['ratio'][last][0] for x in tr]
                    fig = f'{last}/{ref} {min(q):.2f}-{max(q):.2f} per traced hit'
                    if 'rawtp_cycle' in by and last in by['rawtp_cycle']['ratio']:
                        fig += f", raw_tp attach+detach {by['rawtp_cycle']['ratio'][last][0]:.2f}"
                    rows.append(('bench: the price of sleeping', ['bench: the price of sleeping', fig, date, cmd]))
            elif mode == 'wall':
                q = [x['ratio'][last][0] for x in m['rows'] if last in x['ratio']]
                if q:
                    fig = f'{last}/{ref} medians {min(q):.2f}-{max(q):.2f} over {len(q)} states'
                    rows.append(('bench: wall clock', ['bench: wall clock', fig, date, cmd]))
    return rows


# ---------------------------------------------------------------- update

SECTIONS = {
    'check': [('ci', ci_section), ('check', check_section)],
    'bench': [('bench-copy', bench_copy_section),
              ('bench-icount', lambda d: bench_mode_section(d, 'icount')),
              ('bench-icountsl', lambda d: bench_mode_section(d, 'icountsl')),
              ('bench-wall', lambda d: bench_mode_section(d, 'wall'))],
    'stress': [('stress', stress_section)],
    'stress-arm64': [('stress-arm64', stress_section)],
    'robot': [('robot', robot_section)],
    'bisect': [('bisect', bisect_section)],
    'preempt': [('preempt', check_section)],
    'arm64': [('arm64', check_section)],
    'arm64-cfi': [('arm64-cfi', check_section)],
}


def update(paths, targets):
    status = 0
    try:
        doc = open(paths.doc, encoding='utf-8').read()
        readme = open(paths.readme, encoding='utf-8').read()
    except OSError as err:
        warn(f'{err}')
        return 1
    doc0, readme0 = doc, readme
    latest = []
    for target in targets:
        path = paths.result(target)
        rel = os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path
        if not os.path.exists(path):
            print(f'results: {target}: no {rel}; its sections are left as they are')
            continue
        try:
            d = load_json(path)
            if d.get('format') != FORMAT:
                raise ValueError(f"format {d.get('format')}, not {FORMAT}")
            for sid, gen in SECTIONS[target]:
                items = gen(d)
                if items is None:
                    print(f'results: {target}: nothing for section {sid} in {rel}; left as it is')
                    continue
                new = replace_section(doc, sid, items, f"{rel} (run ending {d.get('end')})")
                if new is None:
                    warn(f'{paths.doc}: no markers <!-- results:{sid} begin/end -->')
                    status = 1
                    continue
                doc = new
            latest += latest_rows(target, d)
        except Exception as err:  # noqa: BLE001 - one bad file must not stop the others
            warn(f'{target}: {rel}: {type(err).__name__}: {err}; its sections are left as they are')
            status = 1
    for i, (what, cs) in enumerate(latest):
        if what == '`make robot`' and cs[1] is None:
            cs[1] = robot_summary(doc, git_state().get('series_commit')) or 'no per-cell table'
            cs[2] = f'latest run {cs[2]}'
    if latest:
        t = Table(['what', 'figure', 'date', 'command'], latest)
        res = os.path.relpath(paths.results, TOP) if paths.results.startswith(TOP + os.sep) else paths.results
        new = replace_section(readme, 'latest', [t], os.path.join(res, '*.json'))
        if new is None:
            warn(f'{paths.readme}: no markers <!-- results:latest begin/end -->')
            status = 1
        else:
            readme = new
    for path, old, new in ((paths.doc, doc0, doc), (paths.readme, readme0, readme)):
        if new != old:
            tmp = path + '.tmp'
            with open(tmp, 'w', encoding='utf-8') as f:
                f.write(new)
            os.replace(tmp, path)
            print(f'results: {os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path} '
                  f'updated ({", ".join(targets)})')
    return status


# ---------------------------------------------------------------- main

def main():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument('--build', help='the build directory [$BUILD or build/]')
    common.add_argument('--results', help='the result files [BUILD/results]')
    common.add_argument('--doc', help='the measurements page [docs/measurements.md]')
    common.add_argument('--readme', help='[README.md]')
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('start', parents=[common])
    p.add_argument('target', choices=TARGETS)
    p.add_argument('--pid', type=int, required=True)
    p = sub.add_parser('ccache', parents=[common])
    p.add_argument('target', choices=TARGETS)
    p.add_argument('--pid', type=int, required=True)
    p.add_argument('--since', type=float, required=True, help='epoch the build started after')
    p.add_argument('variant')
    p = sub.add_parser('record', parents=[common])
    p.add_argument('target', choices=TARGETS)
    p.add_argument('--pid', type=int, required=True)
    p.add_argument('--status', type=int, help="the target's exit status so far")
    p.add_argument('--failed', help='check: variants that failed to apply, build or boot')
    p.add_argument('--first', type=int)
    p.add_argument('--last', type=int)
    p.add_argument('--measured', help='bench: the modes measured by this run')
    p.add_argument('--variants', default='', help='check, stress: the kernels, space-separated')
    p = sub.add_parser('import', parents=[common])
    p.add_argument('target', choices=('check', 'bisect'))
    p.add_argument('--command', help='the command of that run, if known')
    p.add_argument('--variants', default='', help='check: the kernels [baseline patched faulting]')
    p = sub.add_parser('update', parents=[common])
    p.add_argument('targets', nargs='*', help=' '.join(TARGETS) + ' [all]')
    args = ap.parse_args()
    if hasattr(args, 'variants'):
        args.variants = args.variants.split()
    if args.cmd == 'update' and set(args.targets) - set(TARGETS):
        ap.error(f"update: unknown target(s) {' '.join(sorted(set(args.targets) - set(TARGETS)))} "
                 f"(choose from {', '.join(TARGETS)})")
    paths = Paths(args)

    if args.cmd == 'start':
        inv = invocation(args.pid)
        rec = {'pid': args.pid, 'start': iso(now()), 'git': git_state(), 'invocation': inv,
               'ccache': ccache_stats(quiet=True) if args.target == 'check' else None}
        write_json(paths.start_file(args.target), rec)
        return 0
    if args.cmd == 'ccache':
        path = paths.start_file(args.target)
        rec = load_json(path)
        if rec.get('pid') != args.pid:
            warn(f'{path} is of another run')
            return 1
        c = ccache_stats()
        if c and c.get('zeroed') and c['zeroed'] >= args.since:
            rec.setdefault('ccache_builds', {})[args.variant] = {'hits': c['hits'], 'misses': c['misses']}
        write_json(path, rec)
        return 0
    if args.cmd in ('record', 'import'):
        fn = {('record', 'check'): record_check, ('record', 'bisect'): record_bisect,
              ('record', 'bench'): record_bench, ('record', 'stress'): record_stress, ('record', 'robot'): record_robot,
              ('record', 'stress-arm64'): lambda a, p: record_stress(a, p, 'stress-arm64'),
              ('record', 'preempt'): lambda a, p: record_check(a, p, 'preempt'),
              ('record', 'arm64'): lambda a, p: record_check(a, p, 'arm64'),
              ('record', 'arm64-cfi'): lambda a, p: record_check(a, p, 'arm64-cfi'),
              ('import', 'check'): import_check, ('import', 'bisect'): import_bisect}[(args.cmd, args.target)]
        if args.cmd == 'record' and args.target == 'check' and not args.variants:
            args.variants = ['baseline', 'patched']     # check.sh's default
        d = fn(args, paths)
        out = paths.result(args.target)
        print(f"results: {args.target}: {os.path.relpath(out, TOP) if out.startswith(TOP + os.sep) else out} written"
              + (' (reconstructed from the logs)' if d.get('reconstructed') else ''))
        if args.cmd == 'record':
            try:
                os.remove(paths.start_file(args.target))
            except OSError:
                pass
            if os.environ.get('RESULTS_DOCS', '1') == '0':
                print('results: RESULTS_DOCS=0: docs/measurements.md and README.md left as they are')
                return 0
            return update(paths, [args.target])
        return 0
    if args.cmd == 'update':
        return update(paths, args.targets or list(TARGETS))
    return 1


if __name__ == '__main__':
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 - a target must get a warning, not a traceback only
        import traceback
        traceback.print_exc()
        print(f'results: error: {type(err).__name__}: {err}', file=sys.stderr)
        sys.exit(1)
