#!/usr/bin/env python3
"""inputs_table.py - an input CSV (hilstep-sim --inputs's format) as the board's C table.

    inputs_table.py [--hold] [--max-bytes N] FILE.csv OUT.c
    inputs_table.py --empty OUT.c

Reads FILE.csv by hilstep-sim's rules (port/host/sim_main.c, load_inputs): '#' comments and
blank lines skipped, a header row 't,NAME,...' (t first, in s; a column per input, optionally
'in_' in front and a unit in [] or ()), then rows of finite numbers with as many fields as the
header and t strictly increasing. Writes a C file defining hs_replay_inputs
(port/cortex-m/hs_replay.h) with every number as a hex literal: the bits strtod gives the host
(Python's float() rounds decimal strings correctly, as glibc's strtod does). The columns are
bound to the model's inputs on the board, at start (the model is chosen at run time).
Errors name the file, the line and the field or the limit; exit 2, OUT not written.
"""
import re
import sys

MAX_COLS = 16            # hs_replay.h HS_REPLAY_MAX_COLS (the boards' HS_MB_MAX_NIN)
MAX_ROWS = 65536         # hs_replay.h HS_REPLAY_MAX_ROWS
MAX_BYTES = 1 << 20      # table bytes in flash (t and values, 8 bytes each): 1 MiB of 4 MiB
LINE_MAX = 4094          # hilstep-sim reads lines of at most 4094 characters

# What strtod takes as a whole field (after trimming blanks): decimal or hex floating
# constants; inf and nan parse but are not finite, and hex floats are refused before they
# are parsed (both as hilstep-sim does).
DEC = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')
HEX = re.compile(r'^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?$')
DBL_MIN = 2.2250738585072014e-308


class Refused(Exception):
    pass


def parse_real(s):
    """strtod's value of s, or None where hilstep-sim's parse_real refuses it (not a number,
    not finite, or out of range: ERANGE on overflow and on underflow)."""
    if DEC.match(s):
        try:
            v = float(s)
        except (ValueError, OverflowError):
            return None
        digits = re.sub(r'[eE].*$', '', s)
    elif HEX.match(s):
        h = s if re.search(r'[pP]', s) else s + 'p0'
        try:
            v = float.fromhex(h)
        except (ValueError, OverflowError):
            return None
        digits = re.sub(r'^[+-]?0[xX]', '', re.sub(r'[pP].*$', '', s))
    else:
        return None
    if v != v or v in (float('inf'), float('-inf')):
        return None
    nonzero = re.search(r'[1-9a-fA-F]', digits) is not None
    if (v == 0.0 and nonzero) or (v != 0.0 and abs(v) < DBL_MIN):
        return None
    return v


def split_label(s):
    """hilstep-sim's split_label: 'name [unit]' / 'name (unit)' into (name, unit), trimmed."""
    s = s.lstrip(' \t')
    m = re.match(r'^([^\[(]*)(.*)$', s)
    name = m.group(1)[:63].rstrip(' \t')
    rest = m.group(2)
    unit = ''
    if rest[:1] in ('[', '('):
        close = ']' if rest[0] == '[' else ')'
        body = rest[1:].lstrip(' ')
        end = body.find(close)
        unit = (body if end < 0 else body[:end])[:63].rstrip(' ')
    return name, unit


def load(path):
    try:
        with open(path, 'rb') as f:
            raw = f.read()
    except OSError as e:
        raise Refused('cannot open %s: %s' % (path, e.strerror))
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError:
        raise Refused('%s: not UTF-8 text' % path)
    header = None
    names, units, rows = [], [], []
    ln = 0
    for line in text.split('\n'):
        ln += 1
        if len(line.rstrip('\r')) > LINE_MAX:
            raise Refused('%s:%d: line longer than %d characters' % (path, ln, LINE_MAX))
        line = line.rstrip('\r\n')
        if '\0' in line:  # hilstep-sim refuses a NUL byte (it would cut the value short)
            raise Refused('%s:%d: a NUL byte: text only' % (path, ln))
        if line.lstrip(' \t') == '' or line.lstrip(' \t').startswith('#'):
            continue
        fld = line.split(',')
        if len(fld) > MAX_COLS + 1:
            raise Refused('%s:%d: more than %d columns (t and one per input)' % (path, ln, MAX_COLS + 1))
        if header is None:
            header = fld
            name, unit = split_label(fld[0])
            if not ((name == 't' and unit in ('', 's')) or name == 't_s'):
                raise Refused("%s:%d: the first column must be the time 't' (s), not '%s'" % (path, ln, fld[0]))
            for f in fld[1:]:
                n, u = split_label(f[3:] if f.startswith('in_') else f)
                if n in names:
                    raise Refused('%s:%d: input %s has two columns' % (path, ln, n))
                names.append(n)
                units.append(u)
            continue
        if len(fld) != len(header):
            raise Refused('%s:%d: %d fields, the header has %d' % (path, ln, len(fld), len(header)))
        row = []
        for j, f in enumerate(fld):
            q = f.strip(' \t')
            if HEX.match(q):  # hilstep-sim refuses hex floats, as the .hsm parser does
                raise Refused("%s:%d: field %d ('%s') is a hexadecimal float: decimal numbers only"
                              % (path, ln, j + 1, q))
            v = parse_real(q)
            if v is None:
                raise Refused("%s:%d: field %d ('%s') is not a finite number" % (path, ln, j + 1, q))
            if j == 0 and rows and not v > rows[-1][0]:
                raise Refused("%s:%d: t = %.17g is not after the previous row's %.17g" % (path, ln, v, rows[-1][0]))
            row.append(v)
        rows.append(row)
        if len(rows) > MAX_ROWS:
            raise Refused('%s:%d: more than %d rows, the board replay\'s limit (HS_REPLAY_MAX_ROWS)'
                          % (path, ln, MAX_ROWS))
    if header is None:
        raise Refused("%s:%d: no header row 't,NAME,...'" % (path, ln))
    if not rows:
        raise Refused('%s:%d: no data rows after the header' % (path, ln))
    return names, units, rows


def c_str(s):
    return '"' + ''.join(c if c.isalnum() or c in ' _-.[]()/^*+:' else '\\%03o' % ord(c) for c in s) + '"'


def c_num(v):
    return v.hex() if v != 0.0 else ('-0.0' if str(v).startswith('-') else '0.0')


def write(out, path, names, units, rows, hold):
    cols = len(names)
    lines = ['/* generated by port/cortex-m/inputs_table.py from %s: %d rows x %d inputs */'
             % (path.replace('*/', '* /'), len(rows), cols),
             '#include "hs_replay.h"', '']
    if cols:
        lines.append('static const char *const col_name[%d] = {%s};' % (cols, ', '.join(c_str(n) for n in names)))
        lines.append('static const char *const col_unit[%d] = {%s};' % (cols, ', '.join(c_str(u) for u in units)))
    lines.append('static const double row_t[%d] = {' % len(rows))
    lines += ['    %s,' % c_num(r[0]) for r in rows]
    lines.append('};')
    if cols:
        lines.append('static const double row_v[%d] = {' % (len(rows) * cols))
        lines += ['    ' + ', '.join(c_num(v) for v in r[1:]) + ',' for r in rows]
        lines.append('};')
    lines.append('const hs_replay_table hs_replay_inputs = {%s, %du, %du, %d, %s, %s, row_t, %s};'
                 % (c_str(path), len(rows), cols, 1 if hold else 0,
                    'col_name' if cols else 'NULL', 'col_unit' if cols else 'NULL',
                    'row_v' if cols else 'NULL'))
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv):
    hold = False
    max_bytes = MAX_BYTES
    args = argv[1:]
    if args[:1] == ['--empty'] and len(args) == 2:
        with open(args[1], 'w') as f:
            f.write('/* generated by port/cortex-m/inputs_table.py: no INPUTS (every input on its fallback) */\n'
                    '#include "hs_replay.h"\n'
                    'const hs_replay_table hs_replay_inputs = {"", 0u, 0u, 0, NULL, NULL, NULL, NULL};\n')
        return 0
    while args and args[0].startswith('--'):
        if args[0] == '--hold':
            hold = True
            args = args[1:]
        elif args[0] == '--max-bytes' and len(args) > 1 and args[1].isdigit():
            max_bytes = int(args[1])
            args = args[2:]
        else:
            break
    if len(args) != 2:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 1
    path, out = args
    try:
        names, units, rows = load(path)
        size = len(rows) * (1 + len(names)) * 8
        if size > max_bytes:
            raise Refused('%s: %d rows x (t + %d inputs) = %d bytes of table, more than the board\'s %d '
                          '(INPUTS_MAX_BYTES)' % (path, len(rows), len(names), size, max_bytes))
        write(out, path, names, units, rows, hold)
    except Refused as e:
        sys.stderr.write('INPUTS=%s\n' % e)
        return 2
    except OSError as e:
        sys.stderr.write('%s: %s\n' % (out, e.strerror))
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
