"""The KTAP results a guest writes (tests/guest/ktap.sh), as read by
report.py and stress-report.py (imported from scripts/, which is
sys.path[0] when they run as `python3 scripts/NAME.py`).
"""
import re

LINE = re.compile(r'^(not ok|ok) (\d+) (\S+)(?: # (SKIP|TODO)\b ?(.*))?$')


def parse(path, unit=''):
    """Parse the KTAP file PATH.

    Returns (results, diags, twice, problems):
      results   {name: (status, why)}, status PASS, FAIL or SKIP; why is the
                SKIP reason, or for a FAIL the last '# NAME: WHY' diagnostic
                before it (else ''); a name reported again keeps the last
      diags     every diagnostic line ('# TEXT'), TEXT stripped, in order
      twice     the names reported again, once per repeat
      problems  what is wrong with the file as a whole: unreadable, no
                KTAP header, no plan line, or a plan of N when M results
                came ('plan says N{unit}, M reported')
    """
    results, diags, twice, plan, header = {}, [], [], None, False
    try:
        text = open(path, encoding='utf-8', errors='replace').read()
    except OSError as err:
        return {}, [], [], [f'no results: {err}']
    for raw in text.splitlines():
        line = raw.strip('\r')
        if line.startswith('KTAP version'):
            header = True
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
                    twice.append(name)
                why = m.group(5) or ''
                if status == 'FAIL':
                    why = next((d.split(': ', 1)[1] for d in reversed(diags)
                                if d.startswith(name + ': ')), '')
                results[name] = (status, why)
    problems = []
    if not header:
        problems.append('no KTAP header')
    if plan is None:
        problems.append('no plan line: the guest did not finish')
    elif plan != len(results):
        problems.append(f'plan says {plan}{unit}, {len(results)} reported')
    return results, diags, twice, problems
