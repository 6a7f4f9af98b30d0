#!/usr/bin/env python3
"""The catalogue of KTAP check names against the names the checks can emit.

The catalogue is docs/tests.md: every table whose header is
`| name | proves | fails when |` holds one row per KTAP name, the name
alone and backticked in the first cell; the table's source is the first
`*.sh` file named in the heading above it (`### 60-maysleep.sh ...`,
`### ... (tests/stress/run.sh)`).  A name may be a pattern with
`<placeholder>` parts (`stress.uffd.<mode>.entered`) for a name the
extractor can not resolve statically; none is needed today.

The emitted names are extracted statically from every shell script under
tests/ (recursively), without running anything:

  - the scripts are parsed (words, quotes, $(...), for loops, functions,
    case, if/while bodies; heredocs and redirections skipped) and walked
    as the shell would run them, every branch taken: variables hold every
    value assigned to them (`ORD="entered live ..."`, `ftname=$ftname.instance`),
    for loops run once per word (`for tp in sys_enter sys_exit ...`,
    globs such as /tests/checks/*.sh resolved in the repository), and a
    call of a function runs its body with the call's arguments as $1...
    and "$@" (`pd_check preempt_depth_syscalls ...`, `st_checks PREFIX
    OUT RC NAME...`);
  - the KTAP helpers are not special: tests/guest/ktap.sh (the file that
    defines ktap_line) is loaded into every script as /tests/run-checks.sh
    and the stress suite load it, and its functions (ktap_pass, ktap_fail,
    ktap_skip, ktap_check, ktap_check_lines, ktap_skip_all ...) are walked
    like any other, down to `ktap_line "ok N NAME"`, `"not ok N NAME"`,
    `"ok N NAME # SKIP WHY"`: each such line is one name, with its status
    (pass, fail, skip).  A name that is only ever written as "not ok" is
    reported only on failure (maysleep.module_load, script.NAME...).  A
    KTAP result line written any other way (echo "ok ..." > ..., a program
    printing "ok N ...") fails the extraction: it would not be seen;
  - a name built from what a script reads at run time stays a pattern
    (`ftracetest.<c>`), unless a resolver below knows the list: the
    ftracetest cases of 50-ftracetest.sh are what its ft_cases() echoes,
    its globs resolved in the kernel tree's tools/testing/selftests/ftrace
    (build/pristine, else build/trees/*, else the tarball), and `.instance`
    for the cases whose `# flags:` say instance, as the script greps them
    (with no tree and no tarball the two patterns are checked against the
    catalogue's ftracetest names only, and a note says so);
  - the programs' "check NAME ok|fail|skip" lines become results only
    through the NAME lists given to ktap_check_lines: the extractor notes
    every list name that no C source under tests/ prints (a literal
    "NAME", or "PREFIX.%s" and "REST"), and every literal
    check("NAME"...)/skip("NAME"...) name that no list reports.  These are
    notes, not failures.

Usage:
  catalogue.py check            catalogue vs extracted names (make hygiene)
  catalogue.py list             every extracted name: source, status, line
  catalogue.py validate KTAP... extracted guest-check names vs the names
                                those KTAP files report
  catalogue.py unknown KTAP...  names in KTAP files not in the catalogue
Options: --kernel-tree DIR (the ftrace selftests), --catalogue FILE.

report.py imports load_catalogue() and Catalogue.has().
"""
import atexit
import bisect
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(TOP, 'docs', 'tests.md')
HEADER = re.compile(r'^\|\s*name\s*\|\s*proves\s*\|\s*fails when\s*\|\s*$')
NAME_OK = re.compile(r'^(?:[A-Za-z0-9_.+-]|<[A-Za-z_][A-Za-z0-9_]*>)+$')
PLACEHOLDER = re.compile(r'<[A-Za-z_][A-Za-z0-9_]*>')

# Where the guest finds the repository's files (scripts/initramfs.sh).
GUEST_PATHS = [
    ('/tests/ktap.sh', 'tests/guest/ktap.sh'),
    ('/tests/run-checks.sh', 'tests/guest/run-checks.sh'),
    ('/tests/checks/', 'tests/guest/checks/'),
    ('/tests/bench/', 'tests/bench/'),
    ('/tests/stress/', 'tests/stress/'),
    ('/tests/ftrace/', '@FTRACE@/'),     # the kernel tree's selftests
]
MAX_ALTS = 256       # alternatives kept per expansion
MAX_DEPTH = 16       # function call depth


class ParseError(Exception):
    pass


# --------------------------------------------------------------------------
# shell: tokens


class Word:
    __slots__ = ('raw', 'pos')

    def __init__(self, raw, pos):
        self.raw, self.pos = raw, pos

    def __repr__(self):
        return f'Word({self.raw!r})'


# The quotes and expansions a word may hold, by what opens them (see
# _opening): the ones that may nest inside (escaped characters aside),
# what closes it, and what it is called when it does not end.  A single
# quote is apart: nothing is escaped or nested in it.
_NEST = {
    '`': ((), '`', 'backquote'),
    '"': (('`', '$(', '${'), '"', 'double quote'),
    '$(': (("'", '"', '`', '$(', '${'), ')', '$('),    # '(' nests too
    '${': (("'", '"', '$(', '${'), '}', '${'),
}


def _opening(s, i):
    """The quote or expansion that opens at s[i]: "'", '"', '`', '$('
    (also for '$(('), '${'; None if none does."""
    c = s[i]
    if c in '\'"`':
        return c
    if c == '$' and s[i + 1:i + 2] in ('(', '{'):
        return s[i:i + 2]
    return None


def _skip(s, i, kind):
    """The index just after the end of the quote or expansion KIND (an
    _opening) whose opening ends just before s[i]."""
    if kind == "'":
        j = s.find("'", i)
        if j < 0:
            raise ParseError(f'unterminated single quote at {i}')
        return j + 1
    nests, close, what = _NEST[kind]
    depth = 1
    while i < len(s):
        c = s[i]
        if c == '\\':
            i += 2
        elif c == close:
            i += 1
            depth -= 1
            if depth == 0:
                return i
        elif c == '(' and kind == '$(':
            depth += 1
            i += 1
        else:
            k = _opening(s, i)
            i = _skip(s, i + len(k), k) if k in nests else i + 1
    raise ParseError(f'unterminated {what}')


OPS = ['&&', '||', ';;', '<<<', '<<-', '<<', '>>', '>&', '<&', '>|', '<>',
       ';', '&', '|', '(', ')', '<', '>']
REDIRS = {'<<<', '<<-', '<<', '>>', '>&', '<&', '>|', '<>', '<', '>'}


def tokenize(s):
    """[('w', Word) | ('op', str, pos) | ('nl', pos)]; comments,
    redirections (with their targets) and heredoc bodies dropped."""
    toks, i, n = [], 0, len(s)
    heredocs = []
    drop_next = False
    while i < n:
        c = s[i]
        if c == '\\' and i + 1 < n and s[i + 1] == '\n':
            i += 2
            continue
        if c in ' \t\r':
            i += 1
            continue
        if c == '\n':
            toks.append(('nl', i))
            i += 1
            for delim, strip in heredocs:
                while i < n:
                    j = s.find('\n', i)
                    j = n if j < 0 else j
                    line = s[i:j]
                    i = j + 1
                    if (line.lstrip('\t') if strip else line) == delim:
                        break
            heredocs = []
            continue
        if c == '#':
            j = s.find('\n', i)
            i = n if j < 0 else j
            continue
        op = next((o for o in OPS if s.startswith(o, i)), None)
        if op:
            i += len(op)
            if op in REDIRS:
                drop_next = op
            else:
                toks.append(('op', op, i - len(op)))
            continue
        start = i
        while i < n:
            c = s[i]
            if c in ' \t\r\n;&|()<>':
                break
            if c == '\\':
                i += 2
                continue
            k = _opening(s, i)
            i = _skip(s, i + len(k), k) if k else i + 1
        raw = s[start:i]
        if drop_next:
            if drop_next in ('<<', '<<-'):
                heredocs.append((raw.strip('\'"'), drop_next == '<<-'))
            drop_next = False
            continue
        if raw.isdigit() and i < n and s[i] in '<>':
            continue            # an fd number: 2>/dev/null
        toks.append(('w', Word(raw, start)))
    return toks


# --------------------------------------------------------------------------
# shell: syntax tree (if/while/case/{ }/( ) flattened; for and functions kept)


class Cmd:
    def __init__(self, words, pos):
        self.words, self.pos = words, pos


class For:
    def __init__(self, var, words, body, pos):
        self.var, self.words, self.body, self.pos = var, words, body, pos


class Func:
    def __init__(self, name, body, pos):
        self.name, self.body, self.pos = name, body, pos


SEPS = {';', '&', '&&', '||', '|'}
MARKERS = {'then', 'else', 'elif', 'do', '!'}


class Parser:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    @staticmethod
    def val(tok):
        if tok is None:
            return None
        return tok[1].raw if tok[0] == 'w' else (tok[1] if tok[0] == 'op' else '\n')

    def expect(self, v):
        tok = self.peek()
        if self.val(tok) != v:
            raise ParseError(f'expected {v!r}, got {self.val(tok)!r} at {self.pos(tok)}')
        self.i += 1

    @staticmethod
    def pos(tok):
        if tok is None:
            return -1
        return tok[1].pos if tok[0] == 'w' else tok[-1]

    def skip_seps(self):
        while True:
            tok = self.peek()
            if tok and (tok[0] == 'nl' or (tok[0] == 'op' and tok[1] in SEPS)):
                self.i += 1
            else:
                return

    def parse_list(self, stops):
        nodes = []
        while True:
            self.skip_seps()
            tok = self.peek()
            if tok is None:
                if stops:
                    raise ParseError(f'end of file, expected {sorted(stops)}')
                return nodes
            v = self.val(tok)
            if v in stops:
                return nodes
            if tok[0] == 'op':
                self.i += 1
                if v == '(':
                    nodes.extend(self.parse_list({')'}))
                    self.expect(')')
                continue
            if v in MARKERS:
                self.i += 1
                continue
            if v in ('if', 'while', 'until'):
                self.i += 1
                nodes.extend(self.parse_list({'fi'} if v == 'if' else {'done'}))
                self.i += 1
                continue
            if v in ('fi', 'done', 'esac', '}'):
                raise ParseError(f'unexpected {v!r} at {self.pos(tok)}')
            if v == '{':
                self.i += 1
                nodes.extend(self.parse_list({'}'}))
                self.expect('}')
                continue
            if v == 'for':
                nodes.append(self.parse_for())
                continue
            if v == 'case':
                nodes.extend(self.parse_case())
                continue
            if (self.val(self.peek(1)) == '(' and self.val(self.peek(2)) == ')'
                    and tok[0] == 'w'):
                nodes.append(self.parse_func())
                continue
            nodes.append(self.parse_simple())

    def parse_simple(self):
        words = []
        while True:
            tok = self.peek()
            if tok is None or tok[0] != 'w':
                break
            words.append(tok[1])
            self.i += 1
        return Cmd(words, words[0].pos)

    def parse_for(self):
        pos = self.pos(self.peek())
        self.i += 1
        var = self.peek()[1].raw
        self.i += 1
        while self.val(self.peek()) == '\n':
            self.i += 1
        words = []
        if self.val(self.peek()) == 'in':
            self.i += 1
            while self.peek() and self.peek()[0] == 'w':
                words.append(self.peek()[1])
                self.i += 1
        else:
            words = [Word('"$@"', pos)]
        self.skip_seps()
        self.expect('do')
        body = self.parse_list({'done'})
        self.expect('done')
        return For(var, words, body, pos)

    def parse_case(self):
        self.i += 1
        subject = self.peek()[1]
        self.i += 1
        self.expect('in')
        nodes = [Cmd([Word(':', subject.pos), subject], subject.pos)]
        while True:
            while self.val(self.peek()) in ('\n', ';;'):
                self.i += 1
            if self.val(self.peek()) == 'esac':
                self.i += 1
                return nodes
            if self.val(self.peek()) == '(':
                self.i += 1
            while self.val(self.peek()) != ')':
                if self.peek() is None:
                    raise ParseError('unterminated case pattern')
                self.i += 1
            self.i += 1
            nodes.extend(self.parse_list({';;', 'esac'}))

    def parse_func(self):
        tok = self.peek()
        name = tok[1].raw
        self.i += 3
        while self.val(self.peek()) == '\n':
            self.i += 1
        if self.val(self.peek()) == '{':
            self.i += 1
            body = self.parse_list({'}'})
            self.expect('}')
        else:
            self.expect('(')
            body = self.parse_list({')'})
            self.expect(')')
        return Func(name, body, tok[1].pos)


def parse_sh(text):
    return Parser(tokenize(text)).parse_list(set())


# --------------------------------------------------------------------------
# shell: expansion

def _cap(items):
    out = []
    seen = set()
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
            if len(out) >= MAX_ALTS:
                break
    return out


def _product(parts):
    """parts: list of lists of strings -> list of concatenations (capped)"""
    acc = ['']
    for alts in parts:
        acc = _cap(a + b for a in acc for b in alts)
    return acc


SPLIT = '\x01'


def _split_parts(raw):
    """The parts of a word: ('lit', text, quoted), ('sq', text),
    ('var', body, quoted), ('cmd', text, quoted), ('arith', text, quoted)."""
    parts, n = [], len(raw)

    def scan(s, i, end, quoted):
        while i < end:
            c = s[i]
            if c == '\\':
                if quoted and i + 1 < end and s[i + 1] not in '$`"\\\n':
                    parts.append(('lit', c, quoted))
                    i += 1
                    continue
                parts.append(('lit', s[i + 1:i + 2], True))
                i += 2
                continue
            k = _opening(s, i)
            if k and not (quoted and k in ("'", '"')):
                j = _skip(s, i + len(k), k)
                if k == "'":
                    parts.append(('sq', s[i + 1:j - 1]))
                elif k == '"':
                    parts.append(('dq', None))
                    scan(s, i + 1, j - 1, True)
                elif s.startswith('$((', i):
                    parts.append(('arith', s[i + 3:j - 2], quoted))
                else:
                    parts.append(('var' if k == '${' else 'cmd',
                                  s[i + len(k):j - 1], quoted))
                i = j
            elif c == '$' and i + 1 < end and (s[i + 1].isalnum() or s[i + 1] in '_@*#?$!-'):
                m = re.match(r'[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]', s[i + 1:end])
                parts.append(('var', m.group(0), quoted))
                i += 1 + len(m.group(0))
            else:
                parts.append(('lit', c, quoted))
                i += 1
    scan(raw, 0, n, False)
    return parts


def word_is_quoted(raw):
    """True when every expansion of the word is inside double quotes (one
    field, no splitting)."""
    return not any(p[0] in ('var', 'cmd', 'arith') and not p[2]
                   for p in _split_parts(raw))


class Ctx:
    """Where a word is expanded: the frames (function frames and loop
    bindings, innermost last), the positional parameters, the unit."""

    def __init__(self, unit, frames, posargs, stack):
        self.unit, self.frames, self.posargs, self.stack = unit, frames, posargs, stack

    def snapshot(self):
        return Ctx(self.unit, [(k, dict(f)) for k, f in self.frames],
                   list(self.posargs), self.stack)


class Thunk:
    """A value computed on demand (a set of strings), once."""
    __slots__ = ('fn', 'val', 'busy')

    def __init__(self, fn):
        self.fn, self.val, self.busy = fn, None, False

    def __call__(self):
        if self.val is None:
            if self.busy:
                return None
            self.busy = True
            try:
                self.val = self.fn()
            finally:
                self.busy = False
        return self.val


def const(values):
    t = Thunk(None)
    t.val = list(values)
    return t


def lookup(name, ctx, _busy=set()):
    """Every value variable NAME may have: a list of strings."""
    if name.isdigit():
        k = int(name)
        if k == 0:
            return ['<0>']
        if k <= len(ctx.posargs):
            return ctx.posargs[k - 1]() or [f'<{name}>']
        return ['']
    if name in ('@', '*'):
        parts = []
        for k, p in enumerate(ctx.posargs):
            if k:
                parts.append([' '])
            parts.append(p() or [''])
        return _product(parts)
    if name in ('?', '$', '!', '#', '-'):
        return ['<status>']
    for _, frame in reversed(ctx.frames):
        if name in frame:
            vals = []
            for th in frame[name]:
                v = th()
                vals.extend(v if v is not None else [f'<{name}>'])
            return _cap(vals)
    # not assigned on this path (yet): every assignment in the file
    unit = ctx.unit
    if name in unit.globals and name not in _busy:
        _busy.add(name)
        try:
            gctx = Ctx(unit, [], [], ctx.stack)
            vals = []
            for raw, loop in unit.globals[name]:
                if loop:
                    vals.extend(expand_fields_all(raw, gctx))
                else:
                    vals.extend(expand(raw, gctx))
            return _cap(vals)
        finally:
            _busy.discard(name)
    return [f'<{name}>']


def _strip(vals, op, pat):
    out = []
    for v in vals:
        if op in ('#', '##'):
            idx = range(len(v) + 1) if op == '#' else range(len(v), -1, -1)
            cut = next((k for k in idx if fnmatch.fnmatchcase(v[:k], pat)), None)
            out.append(v if cut is None else v[cut:])
        else:
            idx = range(len(v), -1, -1) if op == '%' else range(len(v) + 1)
            cut = next((k for k in idx if fnmatch.fnmatchcase(v[k:], pat)), None)
            out.append(v if cut is None else v[:cut])
    return out


def expand_param(body, ctx):
    if body.startswith('#') and len(body) > 1:
        return ['<length>']
    m = re.match(r'([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)$', body, re.S)
    if not m:
        return ['<param>']
    name, rest = m.group(1), m.group(2)
    vals = lookup(name, ctx)
    if not rest:
        return vals
    m = re.match(r'(:?[-=?+]|##|#|%%|%)(.*)$', rest, re.S)
    if not m:
        return ['<param>']
    op, arg = m.group(1), m.group(2)
    if op in (':-', '-', ':='):
        keep = [v for v in vals if v not in ('', f'<{name}>')]
        if not keep or len(keep) < len(vals):
            return _cap(keep + expand(arg, ctx))
        return keep
    if op in (':?', '?'):
        return [v for v in vals if v != ''] or vals
    if op in (':+', '+'):
        return _cap(expand(arg, ctx) + [''])
    pats = expand(arg, ctx)
    return _cap(_strip(vals, op, pats[0] if pats else ''))


def _part_alts(p, ctx, split):
    kind = p[0]
    if kind == 'lit':
        return [p[1]]
    if kind == 'sq':
        return [p[1]]
    if kind == 'dq':
        return ['']
    if kind in ('cmd', 'arith'):
        return ['<cmd>' if kind == 'cmd' else '<arith>']
    vals = expand_param(p[1], ctx)
    if split and not p[2]:
        vals = [re.sub(r'[ \t\n]+', SPLIT, v) for v in vals]
    return vals


def _alts(raw, ctx, split):
    parts = _split_parts(raw)
    return _product([_part_alts(p, ctx, split) for p in parts]), parts


def expand(raw, ctx):
    """A word as one string (an assignment, a quoted argument): its
    alternatives."""
    vals, _ = _alts(raw, ctx, False)
    return vals


def expand_fields(raw, ctx):
    """A word split into fields: a list of alternatives, each a tuple."""
    vals, parts = _alts(raw, ctx, True)
    quoted = any(p[0] in ('sq', 'dq') or (p[0] == 'lit' and p[2]) for p in parts)
    out = []
    for v in vals:
        fields = [f for f in v.split(SPLIT) if f != '']
        if not fields and quoted:
            fields = ['']
        out.append(tuple(fields))
    return _cap(out)


def expand_fields_all(raw, ctx):
    return _cap(f for alt in expand_fields(raw, ctx) for f in alt)


def arg_fields(words, ctx):
    """A command's arguments as positional parameters: a list of thunks,
    each the values of one field.  "$@" passes the caller's on; a quoted
    word is one field, expanded when used; any other word is expanded
    now, field by field."""
    out = []
    for w in words:
        raw = w.raw
        if raw in ('"$@"', '$@', '"${@}"'):
            out.extend(ctx.posargs)
        elif word_is_quoted(raw):
            snap = ctx.snapshot()
            out.append(Thunk(lambda raw=raw, snap=snap: expand(raw, snap)))
        else:
            alts = expand_fields(raw, ctx)
            width = max((len(a) for a in alts), default=0)
            for k in range(width):
                out.append(const(_cap(a[k] for a in alts if len(a) > k)))
    return out


# --------------------------------------------------------------------------
# shell: walking a script


class Unit:
    def __init__(self, path, tree):
        self.path = path            # relative to TOP
        self.tree = tree
        self.funcs = {}
        self.globals = {}           # var -> [(raw, is_loop_list)]
        self.emits = []             # (name, status, line)
        self.check_lines = []       # (prefixes, names, line)
        self.notes = []
        self.lines = None


LOCALS = '\0local'
ASSIGN = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)=(.*)$', re.S)


def _collect(nodes, unit):
    for nd in nodes:
        if isinstance(nd, Func):
            unit.funcs.setdefault(nd.name, nd)
            _collect(nd.body, unit)
        elif isinstance(nd, For):
            for w in nd.words:
                unit.globals.setdefault(nd.var, []).append((w.raw, True))
            _collect(nd.body, unit)
        else:
            ws = nd.words
            k = 1 if ws and ws[0].raw in ('local', 'export', 'readonly') else 0
            for w in ws[k:]:
                m = ASSIGN.match(w.raw)
                if not m:
                    break
                unit.globals.setdefault(m.group(1), []).append((m.group(2), False))


class Extractor:
    def __init__(self, top=TOP, kernel_tree=None):
        self.top = top
        self.kernel_tree = kernel_tree
        self.ftrace_dir = None
        self.units = {}
        self.errors = []
        self.notes = []
        self.library = None         # the unit defining ktap_line

    # where a guest path is in the repository
    def repo_path(self, guest):
        for g, r in GUEST_PATHS:
            if guest == g or (g.endswith('/') and guest.startswith(g)):
                if r.startswith('@FTRACE@'):
                    ft = self.find_ftrace()
                    if not ft:
                        return None
                    return ft + guest[len(g) - 1:]
                return os.path.join(self.top, r + guest[len(g):])
        return None

    def guest_path(self, path):
        for g, r in GUEST_PATHS:
            if r.startswith('@FTRACE@'):
                ft = self.find_ftrace()
                if ft and path.startswith(ft + '/'):
                    return g + path[len(ft) + 1:]
                continue
            full = os.path.join(self.top, r)
            if path == full or (r.endswith('/') and path.startswith(full)):
                return g + path[len(full):]
        return path

    def series_new_file(self, path):
        """The text of PATH where a patch of patches/ creates it (a case
        the series adds to the kernel's ftracetest), else None."""
        for pf in sorted(glob.glob(os.path.join(self.top, 'patches', '*.patch'))):
            lines = open(pf, encoding='utf-8', errors='replace').read().split('\n')
            for i, ln in enumerate(lines):
                if ln == f'+++ b/{path}' and i and lines[i - 1] == '--- /dev/null':
                    out = []
                    for body in lines[i + 2:]:
                        if not body.startswith('+'):
                            break
                        out.append(body[1:])
                    return '\n'.join(out) + '\n'
        return None

    def find_ftrace(self):
        """tools/testing/selftests/ftrace of a kernel tree: --kernel-tree,
        build/pristine, build/trees/*, else unpacked from the tarball
        (about 10 s) into a temporary directory."""
        if self.ftrace_dir is not None:
            return self.ftrace_dir or None
        sub = 'tools/testing/selftests/ftrace'
        build = os.environ.get('BUILD', os.path.join(self.top, 'build'))
        cands = ([self.kernel_tree] if self.kernel_tree else []) + \
            [os.path.join(build, 'pristine', 'linux-source-6.1')] + \
            sorted(glob.glob(os.path.join(build, 'trees', '*')))
        for c in cands:
            if c and os.path.isdir(os.path.join(c, sub, 'test.d')):
                self.ftrace_dir = os.path.join(c, sub)
                return self.ftrace_dir
        tarball = os.environ.get('SRC_TARBALL', '/usr/src/linux-source-6.1.tar.xz')
        if not self.kernel_tree and os.path.isfile(tarball):
            tmp = tempfile.mkdtemp(prefix='catalogue-ftrace.')
            atexit.register(shutil.rmtree, tmp, True)
            r = subprocess.run(['tar', '-C', tmp, '-xJf', tarball, '--wildcards',
                                f'linux-source-6.1/{sub}/*'],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            d = os.path.join(tmp, 'linux-source-6.1', sub)
            if r.returncode == 0 and os.path.isdir(d):
                self.ftrace_dir = d
                self.notes.append(f'ftrace selftests from {tarball} (no kernel tree in build/)')
                return d
        self.ftrace_dir = ''
        return None

    def load(self):
        for d, _, files in os.walk(os.path.join(self.top, 'tests')):
            for f in sorted(files):
                p = os.path.join(d, f)
                if not (f.endswith('.sh') or self._shebang_sh(p)):
                    continue
                rel = os.path.relpath(p, self.top)
                text = open(p, encoding='utf-8', errors='replace').read()
                try:
                    tree = parse_sh(text)
                except (ParseError, IndexError, AttributeError) as err:
                    # fatal only where it may hide a KTAP name
                    (self.errors if 'ktap' in text else self.notes).append(
                        f'{rel}: can not parse: {err}')
                    continue
                u = Unit(rel, tree)
                u.lines = [m.start() for m in re.finditer('\n', text)]
                _collect(tree, u)
                self.units[rel] = u
                if 'ktap_line' in u.funcs:
                    if self.library:
                        self.errors.append(f'{rel}: a second ktap_line() (first: {self.library.path})')
                    self.library = u
        if not self.library:
            self.errors.append('no shell file under tests/ defines ktap_line()')

    @staticmethod
    def _shebang_sh(p):
        try:
            with open(p, 'rb') as fh:
                head = fh.read(64)
        except OSError:
            return False
        return bool(re.match(rb'#!\s*/\S*/(env\s+)?(ba|da)?sh\b', head))

    def line_of(self, unit, pos):
        return bisect.bisect_right(unit.lines, pos) + 1 if pos >= 0 else 0

    def run(self):
        for rel in sorted(self.units):
            u = self.units[rel]
            funcs = dict(self.library.funcs) if self.library else {}
            funcs.update(u.funcs)
            u.funcs = funcs
            gframe = {}
            ctx = Ctx(u, [('func', gframe)], [], [])
            self.walk(u.tree, ctx, top=True)
        self.stray_results()
        self.resolve()

    def walk(self, nodes, ctx, top=False):
        for nd in nodes:
            if isinstance(nd, Func):
                continue
            if isinstance(nd, For):
                vals = []
                for w in nd.words:
                    if w.raw in ('"$@"', '$@', '"${@}"'):
                        for p in ctx.posargs:
                            vals.extend(p() or ['<@>'])
                        continue
                    for v in expand_fields_all(w.raw, ctx):
                        vals.extend(self.glob(v))
                for v in _cap(vals):
                    ctx.frames.append(('loop', {nd.var: (const([v]),)}))
                    try:
                        self.walk(nd.body, ctx)
                    finally:
                        ctx.frames.pop()
                continue
            self.command(nd, ctx)

    def glob(self, v):
        if not any(ch in v for ch in '*?[') or PLACEHOLDER.search(v):
            return [v]
        rp = self.repo_path(v) if v.startswith('/') else None
        if not rp:
            return [v]
        hits = sorted(glob.glob(rp))
        return [self.guest_path(h) for h in hits] or [v]

    def command(self, nd, ctx):
        u = ctx.unit
        words = nd.words
        if not words:
            return
        line = self.line_of(u, nd.pos) if not ctx.stack else ctx.stack[0]
        # command substitutions run too
        for w in words:
            for p in _split_parts(w.raw):
                if p[0] == 'cmd':
                    try:
                        inner = parse_sh(p[1])
                    except (ParseError, IndexError, AttributeError):
                        continue
                    self.walk(inner, Ctx(u, ctx.frames, ctx.posargs,
                                         ctx.stack or [line]))
        k = 0
        while k < len(words) and ASSIGN.match(words[k].raw):
            k += 1
        if k == len(words):
            for w in words:
                self.assign(w.raw, ctx)
            return
        if k:
            words = words[k:]       # VAR=x cmd: the command's environment only
        name = words[0].raw
        args = words[1:]
        if name in ('local', 'export', 'readonly'):
            for w in args:
                if name == 'local':
                    var = w.raw.split('=', 1)[0]
                    for kind, frame in reversed(ctx.frames):
                        if kind == 'func':
                            frame.setdefault(LOCALS, set()).add(var)
                            break
                if ASSIGN.match(w.raw):
                    self.assign(w.raw, ctx)
            return
        if name == 'read':
            for w in args:
                if not w.raw.startswith('-') and re.match(r'^[A-Za-z_]\w*$', w.raw):
                    self.bind(w.raw, const([f'<{w.raw}>']), ctx)
            return
        if name == 'shift':
            n = int(args[0].raw) if args and args[0].raw.isdigit() else 1
            ctx.posargs = ctx.posargs[n:]
            return
        if name == 'set' and args and args[0].raw == '--':
            ctx.posargs = arg_fields(args[1:], ctx)
            return
        if name == 'ktap_line':
            self.emit(args, ctx, line)
            return
        if name in ('.', 'source') and args:
            for g in expand(args[0].raw, ctx):
                p = self.repo_path(g) if g.startswith('/') else None
                rel = os.path.relpath(p, self.top) if p else None
                if rel in self.units and rel != u.path:
                    for fn, f in self.units[rel].funcs.items():
                        u.funcs.setdefault(fn, f)
            return
        if name in u.funcs:
            if len(ctx.stack) >= MAX_DEPTH or name in ctx.stack[1:]:
                return
            pos = arg_fields(args, ctx)
            if name == 'ktap_check_lines' and len(pos) >= 3:
                u.check_lines.append((pos[0]() or [], [p() or [] for p in pos[3:]], line))
            sub = Ctx(u, ctx.frames + [('func', {})], pos,
                      (ctx.stack or [line]) + [name])
            self.walk(u.funcs[name].body, sub)
            # assignments in a function are global, as in sh
            frame = sub.frames[-1][1]
            for var, ths in frame.items():
                if var != LOCALS and var not in frame.get(LOCALS, ()):
                    self.bind_many(var, ths, ctx)

    def assign(self, raw, ctx):
        m = ASSIGN.match(raw)
        var, val = m.group(1), m.group(2)
        snap = ctx.snapshot()
        self.bind(var, Thunk(lambda: expand(val, snap)), ctx)

    @staticmethod
    def bind(var, th, ctx):
        for kind, frame in reversed(ctx.frames):
            if kind == 'func':
                frame[var] = frame.get(var, ()) + (th,)
                return

    def bind_many(self, var, ths, ctx):
        for th in ths:
            self.bind(var, th, ctx)

    def emit(self, args, ctx, line):
        if not args:
            return
        raw = args[0].raw
        lead = raw.lstrip('"\'')
        if lead and lead[0] != '$' and not re.match(r'(not )?ok ', lead):
            return
        for s in expand(raw, ctx):
            m = re.match(r'^(not ok|ok) (\S+) (\S+)(.*)$', s, re.S)
            if not m:
                continue
            name, rest = m.group(3), m.group(4)
            if rest and not rest.startswith(' # '):
                self.errors.append(f'{ctx.unit.path}:{line}: a KTAP result line with more than a '
                                   f'name before its directive: {s!r}')
                continue
            status = ('fail' if m.group(1) == 'not ok' else
                      'skip' if re.match(r'\s*#\s*SKIP\b', rest) else 'pass')
            ctx.unit.emits.append((name, status, line))

    def stray_results(self):
        """A KTAP result written other than through ktap_line is not seen."""
        pat_sh = re.compile(r'''\b(echo|printf)\s+["']?(not )?ok \S''')
        pat_c = re.compile(r'"(not )?ok [%0-9]')
        for d, _, files in os.walk(os.path.join(self.top, 'tests')):
            for f in files:
                p = os.path.join(d, f)
                rel = os.path.relpath(p, self.top)
                try:
                    text = open(p, encoding='utf-8', errors='replace').read()
                except OSError:
                    continue
                if rel in self.units:
                    pat = pat_sh
                elif f.endswith(('.c', '.h', '.py')):
                    pat = pat_c
                else:
                    continue
                for i, ln in enumerate(text.splitlines(), 1):
                    if pat.search(ln):
                        self.errors.append(f'{rel}:{i}: writes a KTAP result line itself, '
                                           f'not through ktap_line (the extractor would not see it): {ln.strip()}')

    # names read at run time, resolved here ----------------------------------
    def resolve(self):
        for u in self.units.values():
            if os.path.basename(u.path) != '50-ftracetest.sh':
                continue
            if not any(PLACEHOLDER.search(n) for n, _, _ in u.emits):
                continue
            cases = self.echo_output(u, 'ft_cases')
            ft = self.find_ftrace()
            if not ft or cases is None:
                u.notes.append('ftracetest cases not resolved (no kernel tree, no tarball): '
                               'ftracetest.<c> matched against the catalogue only')
                continue
            inst = re.compile(r'^#[ \t]*flags:.*instance', re.M)
            out = []
            for name, status, line in u.emits:
                if name == 'ftracetest.<c>':
                    out += [(f'ftracetest.{os.path.basename(c)}', status, line) for c in cases]
                elif name == 'ftracetest.<c>.instance':
                    for c in cases:
                        try:
                            text = open(os.path.join(ft, c), encoding='utf-8').read()
                        except OSError:
                            text = self.series_new_file('tools/testing/selftests/ftrace/' + c)
                        if text is None:
                            self.errors.append(f'{u.path}: ftracetest case {c} neither in {ft} '
                                               'nor added by a patch of the series')
                            continue
                        if inst.search(text):
                            out.append((f'ftracetest.{os.path.basename(c)}.instance', status, line))
                else:
                    out.append((name, status, line))
            u.emits = out
            u.notes.append(f'ftracetest.<c>: {len(cases)} cases from ft_cases() in {ft}')

    def echo_output(self, u, fname):
        """What function FNAME of unit U echoes: one string a line."""
        f = u.funcs.get(fname)
        if not f:
            return None
        out = []
        ext = self

        def walk(nodes, ctx):
            for nd in nodes:
                if isinstance(nd, For):
                    vals = []
                    for w in nd.words:
                        for v in expand_fields_all(w.raw, ctx):
                            vals.extend(ext.glob(v))
                    for v in vals:
                        if any(ch in v for ch in '*?['):
                            return False
                        ctx.frames.append(('loop', {nd.var: (const([v]),)}))
                        ok = walk(nd.body, ctx)
                        ctx.frames.pop()
                        if ok is False:
                            return False
                elif isinstance(nd, Cmd) and nd.words and nd.words[0].raw == 'echo':
                    alts = [expand_fields_all(w.raw, ctx) for w in nd.words[1:]]
                    if any(len(a) != 1 for a in alts):
                        return False
                    out.append(' '.join(a[0] for a in alts))
            return True
        ok = walk(f.body, Ctx(u, [('func', {})], [], ['echo']))
        if ok is False or any(PLACEHOLDER.search(x) for x in out):
            return None
        return out

    # the results ------------------------------------------------------------
    def names(self):
        """{name: {'sources': {path}, 'status': {pass|fail|skip}, 'lines': {(path, line)}}}"""
        out = {}
        for u in self.units.values():
            for name, status, line in u.emits:
                e = out.setdefault(name, {'sources': set(), 'status': set(), 'lines': set()})
                e['sources'].add(u.path)
                e['status'].add(status)
                e['lines'].add((u.path, line))
        for name in out:
            if not NAME_OK.match(name):
                self.errors.append(f'{name!r} ({", ".join(sorted(f"{p}:{l}" for p, l in out[name]["lines"]))}): '
                                   'not a KTAP name the extractor can resolve')
        return out


# --------------------------------------------------------------------------
# the programs behind ktap_check_lines

def program_names(top=TOP):
    """(literals, checks): every C string literal under tests/, and the
    names passed as literals to a *check()/*skip() call or printed as
    "check NAME ..." (the names a program reports)."""
    lits, checks = set(), {}
    lit = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    call = re.compile(r'\b\w*(?:check|skip)\s*\(\s*"([A-Za-z0-9_.]+)"')
    pr = re.compile(r'"check ([A-Za-z0-9_.]+) (?:ok|fail|skip)\b')
    for d, _, files in os.walk(os.path.join(top, 'tests')):
        for f in files:
            if not f.endswith(('.c', '.h')):
                continue
            p = os.path.join(d, f)
            text = open(p, encoding='utf-8', errors='replace').read()
            rel = os.path.relpath(p, top)
            lits.update(lit.findall(text))
            for m in list(call.finditer(text)) + list(pr.finditer(text)):
                if m.group(1) != m.group(1).upper():     # not "check NAME ..."
                    checks.setdefault(m.group(1), set()).add(rel)
    return lits, checks


def printed(name, lits):
    if name in lits:
        return True
    for lt in lits:
        if '%s' in lt and lt.count('%') == 1:
            head, tail = lt.split('%s')
            if name.startswith(head) and name.endswith(tail) and \
                    name[len(head):len(name) - len(tail) or None] in lits:
                return True
    return False


def program_notes(ext):
    lits, checks = program_names(ext.top)
    notes, listed = [], set()
    for u in ext.units.values():
        for prefixes, fields, line in u.check_lines:
            for f in fields:
                for n in f:
                    listed.add(n)
                    if not PLACEHOLDER.search(n) and not printed(n, lits):
                        notes.append(f'{u.path}:{line}: ktap_check_lines {"/".join(prefixes)} lists '
                                     f'{n}, which no program under tests/ prints (always "no result")')
    for n, files in sorted(checks.items()):
        if n not in listed:
            notes.append(f'{", ".join(sorted(files))}: reports check {n}, which no '
                         'ktap_check_lines list turns into a result')
    return _cap(notes)


# --------------------------------------------------------------------------
# the catalogue


class Catalogue:
    def __init__(self):
        self.entries = []       # dicts: name, source, line, pattern
        self.errors = []
        self.path = None
        self._names = self._res = None

    def names(self):
        return {e['name'] for e in self.entries if not e['pattern']}

    def patterns(self):
        return [e for e in self.entries if e['pattern']]

    def has(self, name):
        """NAME is catalogued, by name or by a pattern."""
        if self._names is None:
            self._names = self.names()
            self._res = [pattern_re(e['name']) for e in self.patterns()]
        return name in self._names or any(rx.match(name) for rx in self._res)


def pattern_re(p):
    out, i = '', 0
    for m in PLACEHOLDER.finditer(p):
        out += re.escape(p[i:m.start()]) + r'\S+?'
        i = m.end()
    return re.compile('^' + out + re.escape(p[i:]) + '$')


def _cells(row):
    cells, cur, i, tick = [], '', 0, False
    row = row.strip()
    if row.startswith('|'):
        row = row[1:]
    if row.endswith('|') and not row.endswith('\\|'):
        row = row[:-1]
    while i < len(row):
        c = row[i]
        if c == '\\' and i + 1 < len(row) and row[i + 1] == '|':
            cur += '|'
            i += 2
            continue
        if c == '`':
            tick = not tick
        if c == '|' and not tick:
            cells.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


def load_catalogue(path=CATALOGUE):
    cat = Catalogue()
    cat.path = path
    shown = os.path.relpath(path) if os.path.isabs(path) else path
    try:
        lines = open(path, encoding='utf-8').read().splitlines()
    except OSError as err:
        cat.errors.append(f'no catalogue: {err}')
        return cat
    source, table, fence, seen = None, False, False, {}
    for i, line in enumerate(lines, 1):
        if line.startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        if line.startswith('#'):
            m = re.search(r'([\w./-]+\.sh)\b', line.replace('`', ''))
            source = m.group(1) if m else None
            table = False
            continue
        if HEADER.match(line):
            table = True
            if not source:
                cat.errors.append(f'{shown}:{i}: a catalogue table under a heading that names no *.sh source')
            continue
        if table and line.startswith('|'):
            if re.match(r'^\|[\s|:-]+\|?\s*$', line):
                continue
            cells = _cells(line)
            m = re.fullmatch(r'`([^`\s]+)`', cells[0]) if cells else None
            if len(cells) != 3 or not all(cells) or not m:
                cat.errors.append(f'{shown}:{i}: a catalogue row is | `name` | proves | fails when |, '
                                  f'one name a row: {line.strip()[:100]}')
                continue
            name = m.group(1)
            if not NAME_OK.match(name):
                cat.errors.append(f'{shown}:{i}: {name!r} is not a KTAP name or <pattern>')
                continue
            if name in seen:
                cat.errors.append(f'{shown}:{i}: {name} already catalogued at line {seen[name]}')
                continue
            seen[name] = i
            cat.entries.append({'name': name, 'source': source, 'line': i,
                                'pattern': bool(PLACEHOLDER.search(name))})
            continue
        table = False
    return cat


def _norm(p):
    return PLACEHOLDER.sub('<>', p)


def _from(source, paths):
    return source is not None and any(p == source or p.endswith('/' + source) for p in paths)


def compare(cat, names):
    """The catalogue against the extracted names: (errors, notes)."""
    errors, notes = [], []
    cpath = os.path.relpath(cat.path or CATALOGUE, TOP)
    concrete = {n: e for n, e in names.items() if not PLACEHOLDER.search(n)}
    patterns = {n: e for n, e in names.items() if PLACEHOLDER.search(n)}
    cnames = {e['name']: e for e in cat.entries}
    cpats = {_norm(e['name']): e for e in cat.patterns()}
    for n, e in sorted(concrete.items()):
        where = ', '.join(sorted(f'{p}:{l}' for p, l in e['lines']))
        if n in cnames:
            ent = cnames[n]
            if not _from(ent['source'], e['sources']):
                errors.append(f'{n}: catalogued under {ent["source"]} ({cpath}:{ent["line"]}), '
                              f'emitted by {", ".join(sorted(e["sources"]))}')
            continue
        pat = next((c for c in cat.patterns() if pattern_re(c['name']).match(n)), None)
        if pat:
            notes.append(f'{n} ({where}): catalogued as the pattern {pat["name"]}')
            continue
        errors.append(f'{n}: emitted ({where}), not in the catalogue {cpath}')
    for n, e in sorted(patterns.items()):
        where = ', '.join(sorted(f'{p}:{l}' for p, l in e['lines']))
        if _norm(n) in cpats:
            continue
        rx = pattern_re(n)
        hits = sorted(c for c in cat.names() if rx.match(c))
        if hits:
            notes.append(f'{n} ({where}) not resolved statically: catalogue names '
                         f'{", ".join(hits)} taken as its values')
            for h in hits:
                concrete.setdefault(h, e)
            continue
        errors.append(f'{n}: emitted ({where}), a name not resolved statically and not in the '
                      f'catalogue {cpath} (as this pattern, or names it matches)')
    emitted_pats = [pattern_re(p) for p in patterns]
    for ent in cat.entries:
        n = ent['name']
        if ent['pattern']:
            if not any(_norm(p) == _norm(n) for p in patterns):
                rx = pattern_re(n)
                if not any(rx.match(c) for c in concrete):
                    errors.append(f'{n}: in the catalogue ({cpath}:{ent["line"]}), emitted by no check')
            continue
        if n in concrete:
            continue
        if any(rx.match(n) for rx in emitted_pats):
            continue
        errors.append(f'{n}: in the catalogue ({cpath}:{ent["line"]}, under {ent["source"]}), '
                      'emitted by no check')
    return errors, notes


# --------------------------------------------------------------------------
# command line

def extract(kernel_tree=None):
    ext = Extractor(kernel_tree=kernel_tree)
    ext.load()
    ext.run()
    names = ext.names()
    return ext, names


def summary(names):
    per = {}
    for n, e in names.items():
        for s in e['sources']:
            key = (s, n.split('.')[0])
            per.setdefault(key, [0, 0])
            per[key][0] += 1
            if e['status'] == {'fail'}:
                per[key][1] += 1
    out = []
    for (s, pfx), (c, f) in sorted(per.items()):
        out.append(f'  {s:40} {pfx + ".*":18} {c:4}' + (f'  ({f} only on failure)' if f else ''))
    return out


def main(argv):
    args = list(argv)
    ktree, cpath = None, CATALOGUE
    if '--kernel-tree' in args:
        k = args.index('--kernel-tree')
        ktree = args[k + 1]
        del args[k:k + 2]
    if '--catalogue' in args:
        k = args.index('--catalogue')
        cpath = args[k + 1]
        del args[k:k + 2]
    cmd = args[0] if args else 'check'
    rest = args[1:]
    if cmd == 'unknown':
        cat = load_catalogue(cpath)
        import ktap
        bad = 0
        for e in cat.errors:
            print(f'catalogue: {e}')
            bad += 1
        for f in rest:
            for n in ktap.parse(f)[0]:
                if not cat.has(n):
                    print(f'{f}: {n}: not in the catalogue {cpath}')
                    bad += 1
        return 1 if bad else 0
    ext, names = extract(ktree)
    for n in ext.notes:
        print(f'catalogue: note: {n}')
    for u in ext.units.values():
        for n in u.notes:
            print(f'catalogue: note: {u.path}: {n}')
    if cmd == 'list':
        for n in sorted(names):
            e = names[n]
            print(f'{n:50} {"/".join(sorted(e["status"])):15} '
                  + ', '.join(sorted(f'{p}:{l}' for p, l in e['lines'])))
        for e in ext.errors:
            print(f'ERROR: {e}')
        return 1 if ext.errors else 0
    if cmd == 'validate':
        import ktap
        emitted = {}
        for f in rest:
            for n in ktap.parse(f)[0]:
                emitted.setdefault(n, set()).add(os.path.basename(f))
        guest = {n: e for n, e in names.items()
                 if any(s.startswith('tests/guest/') for s in e['sources'])}
        always = {n for n, e in guest.items() if e['status'] != {'fail'}}
        failonly = set(guest) - always
        bad = 0
        for n in sorted(set(emitted) - set(guest)):
            print(f'emitted, not extracted: {n} ({", ".join(sorted(emitted[n]))})')
            bad += 1
        for n in sorted(always - set(emitted)):
            print(f'extracted (reported on pass or skip), not emitted: {n}')
            bad += 1
        for n in sorted(failonly & set(emitted)):
            print(f'note: {n} is reported only on failure, and was: {", ".join(sorted(emitted[n]))}')
        print(f'validate: {len(emitted)} names emitted in {len(rest)} file(s); extracted from tests/guest: '
              f'{len(guest)} = {len(always)} reported on every run + {len(failonly)} only on failure '
              f'({", ".join(sorted(failonly))}); {"equal" if not bad else f"{bad} difference(s)"}')
        for e in ext.errors:
            print(f'ERROR: {e}')
        return 1 if bad or ext.errors else 0
    if cmd != 'check':
        print(__doc__)
        return 2
    cat = load_catalogue(cpath)
    errors, notes = compare(cat, names)
    errors = ext.errors + cat.errors + errors
    for n in notes + program_notes(ext):
        print(f'catalogue: note: {n}')
    print('catalogue: names the checks can emit, per source and prefix:')
    for line in summary(names):
        print(line)
    for e in errors:
        print(f'catalogue: ERROR: {e}')
    ncat = len(cat.entries)
    if errors:
        print(f'catalogue: FAILED: {len(errors)} problem(s); {len(names)} names extracted, '
              f'{ncat} catalogued in {os.path.relpath(cpath, TOP)}')
        return 1
    npat = sum(1 for n in names if PLACEHOLDER.search(n))
    print(f'catalogue: {len(names) - npat} names extracted from tests/'
          + (f' (and {npat} unresolved patterns)' if npat else '')
          + f', {ncat} catalogued in {os.path.relpath(cpath, TOP)}: they agree')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
