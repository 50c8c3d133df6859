#!/usr/bin/python3
"""Mechanical, idempotent fixes of MISRA C:2012 required rules over rt/ model/ hil/ (issue 16).
Run through test/misra/fix_required.sh, which chains the passes and then runs the gate.

  fix_required.py braces          rule 15.6: every if/else/for/while/do body in braces
  fix_required.py bool            rule 14.4: controlling expressions essentially Boolean
  fix_required.py tags FINDINGS   every finding of a required rule that is neither fixed nor
                                  tagged gets the site record of its permit (or is fixed when
                                  the fix is mechanical: 10.4 `u == 0` -> `u == 0u`)

braces: clang-tidy's readability-braces-around-statements finds the bodies (it knows where a
statement ends, comments and else-chains included); its replacements are not applied as is
but re-laid out in the project's style: a body on its `if` line becomes `if (c) { s; }`, a body
on its own line(s) gets ` {` on the header line and `}` on a line of its own at the header's
indentation (`} else` joined). Line count grows only for multi-line bodies.

bool: clang's JSON AST of every translation unit, in the two preprocessor configurations
the project builds (default, and -DHS_REAL_FLOAT -DHS_SPARSE_TALLY), gives each controlling
expression of if/while/do/for with its type. Through `( )`, `!`, `&&`, `||` every operand that is
not essentially Boolean (comparison, logical operator, _Bool) is compared with the zero of its
own type: pointer `NULL`, unsigned `0u`, signed `0`, plain char `'\\0'`, hs_real `HS_R(0.0)`
(double in one configuration and float in the other), double `0.0`, float `0.0f`; `!e` becomes
`e == 0`. The value of the condition is unchanged in every case (C defines `if (e)` as
`e != 0`, `!e` as `e == 0`). Nothing spelled inside a macro body is touched (reported).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

DIRS = ("rt", "model", "hil")
CONFIGS = [[], ["-DHS_REAL_FLOAT", "-DHS_SPARSE_TALLY"]]
CFLAGS = ["-std=c99", "-Irt", "-Imodel", "-Ihil", "-Iport/host", "-D_POSIX_C_SOURCE=200809L"]


def sources():
    out = []
    for d in DIRS:
        for f in sorted(os.listdir(d)):
            if f.endswith(".c"):
                out.append(os.path.join(d, f))
    return out


def ours(path):
    p = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    return p.split(os.sep)[0] in DIRS and p.endswith((".c", ".h")), p


def apply_inserts(path, edits):
    """edits: list of (begin, end, text, order); replaces [begin,end) of the file's bytes.
    Pure insertions at one offset are applied in `order` (smaller first in the text)."""
    data = open(path, "rb").read()
    edits = sorted(set(edits), key=lambda e: (e[0], e[1], e[3]))
    out, pos = [], 0
    for b, e, t, _ in edits:
        if b < pos:
            raise SystemExit("fix_required: overlapping edits in %s at byte %d" % (path, b))
        out.append(data[pos:b])
        out.append(t.encode())
        pos = e
    out.append(data[pos:])
    new = b"".join(out)
    if new != data:
        open(path, "wb").write(new)
        return True
    return False


# ---------------------------------------------------------------- rule 15.6
def tidy_fixes(src, cfg):
    with tempfile.TemporaryDirectory() as td:
        fx = os.path.join(td, "fx.yaml")
        cmd = ["clang-tidy", "--quiet", "--checks=-*,readability-braces-around-statements",
               "--header-filter=^(rt|model|hil)/", "--export-fixes=" + fx, src, "--"] + CFLAGS + cfg
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.exists(fx):
            return []
        return parse_fixes_yaml(open(fx).read())


def parse_fixes_yaml(text):
    """The replacement pairs of clang-tidy's export-fixes file (no PyYAML in the base image):
    [(file, open_offset, close_offset)]."""
    out, reps = [], []
    cur = {}
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("- DiagnosticName:"):
            if len(reps) == 2:
                out.append(tuple(reps))
            reps = []
        m = re.match(r"^- FilePath:\s+'?(.*?)'?$", s)
        if m:
            cur = {"file": m.group(1)}
        m = re.match(r"^Offset:\s+(\d+)$", s)
        if m and "file" in cur:
            cur["off"] = int(m.group(1))
        m = re.match(r"^ReplacementText:\s+(.*)$", s)
        if m and "off" in cur:
            cur["text"] = m.group(1)
            reps.append((cur["file"], cur["off"], cur["text"]))
            cur = {}
    if len(reps) == 2:
        out.append(tuple(reps))
    pairs = []
    for (f1, o1, t1), (f2, o2, t2) in out:
        if f1 == f2 and "{" in t1 and "}" in t2:
            pairs.append((f1, o1, o2))
    return pairs


def line_start(data, off):
    return data.rfind(b"\n", 0, off) + 1


def line_end(data, off):
    e = data.find(b"\n", off)
    return len(data) if e < 0 else e


def indent_of(data, off):
    s = line_start(data, off)
    m = re.match(rb"[ \t]*", data[s:])
    return m.group(0).decode()


def header_indent(data, open_off):
    """Indentation of the line holding the statement's keyword. For a header continued over
    several lines, walk back to the line with `if`/`for`/`while`/`else`/`do`."""
    s = line_start(data, open_off)
    for _ in range(8):
        ln = data[s:line_end(data, s)]
        if re.match(rb"\s*(\}\s*)?(if|for|while|else|do)\b", ln):
            return indent_of(data, s)
        if s == 0:
            break
        s = line_start(data, s - 1)
    return indent_of(data, open_off)


def stmt_end(data, c):
    """clang-tidy puts the close of a body that an `else` or a do-while's `while` follows
    at that keyword; the body itself ends at its last non-blank byte before."""
    while c > 0 and data[c - 1:c] in (b" ", b"\t", b"\n"):
        c -= 1
    return c


def brace_edits(path, pairs):
    data = open(path, "rb").read()
    ends = [(o, stmt_end(data, c)) for o, c in pairs]
    # a close placed at an `else` or a do-while's `while` belongs on that keyword's line
    joins = {o for o, c in pairs if re.match(rb"(else|while)\b", data[c:c + 6])}
    edits = []
    for o, c in ends:
        body = data[o:c]
        edits.append((o, o, " {", 0))
        if b"\n" not in body:
            edits.append((c, c, " }", -o))  # inner bodies (later open) close first
            continue
        eol = line_end(data, c)
        rest = data[c:eol].strip()
        if rest and not (rest.startswith(b"/*") and rest.endswith(b"*/")) and not rest.startswith(b"//"):
            edits.append((c, c, " }", -o))
            continue
        ind = header_indent(data, o)
        nxt_s = eol + 1
        nxt = data[nxt_s:line_end(data, nxt_s)] if nxt_s < len(data) else b""
        m = re.match(rb"([ \t]*)(else|while)\b", nxt)
        if m and o in joins and indent_of(data, nxt_s) == ind and not any(e == c and oo < o for oo, e in ends):
            # `} else` / `} while (..);` on one line, the project's style
            edits.append((eol, nxt_s + len(m.group(1)), "\n" + ind + "} ", -o))
        else:
            edits.append((eol, eol, "\n" + ind + "}", -o))
    return edits


def cmd_braces():
    total = 0
    for cfg in CONFIGS:
        per = defaultdict(set)
        for src in sources():
            for f, o, c in tidy_fixes(src, cfg):
                ok, rel = ours(f)
                if ok:
                    per[rel].add((o, c))
        n = 0
        for f, pairs in sorted(per.items()):
            pairs = sorted(pairs)
            if apply_inserts(f, brace_edits(f, pairs)):
                n += len(pairs)
                print("  15.6 %s: %d bodies braced" % (f, len(pairs)))
        total += n
    print("fix_required braces: %d bodies braced" % total)


# ---------------------------------------------------------------- rule 14.4
class Loc:
    """Tracks clang's JSON location compression: file and line are printed only when they
    change, in document order."""

    def __init__(self):
        self.file = None

    def walk(self, node):
        if isinstance(node, dict):
            if "offset" in node:
                if "file" in node:
                    self.file = node["file"]
                node["_file"] = self.file
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    self.walk(v)
        elif isinstance(node, list):
            for v in node:
                self.walk(v)


def loc_of(loc, end=False):
    """(file, offset, in_macro_body) of a source location dict; the expansion site for a
    token from a macro, with in_macro_body when the token is spelled in a macro definition."""
    if not loc:
        return None
    if "spellingLoc" in loc:
        ex = loc["expansionLoc"]
        sp = loc["spellingLoc"]
        if ex.get("isMacroArgExpansion"):
            return (sp.get("_file"), sp["offset"], sp.get("tokLen", 0), False)
        return (ex.get("_file"), ex["offset"], ex.get("tokLen", 0), True)
    return (loc.get("_file"), loc["offset"], loc.get("tokLen", 0), False)


def macro_call_end(data, off, toklen):
    """End offset of a macro invocation whose name starts at off: the name, and its
    balanced argument list when one follows."""
    e = off + toklen
    j = e
    while j < len(data) and data[j:j + 1] in (b" ", b"\t"):
        j += 1
    if data[j:j + 1] != b"(":
        return e
    depth = 0
    while j < len(data):
        ch = data[j:j + 1]
        if ch == b"(":
            depth += 1
        elif ch == b")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return e


def strip_casts(n):
    while n.get("kind") == "ImplicitCastExpr" and n.get("inner"):
        n = n["inner"][0]
    return n


def qtype(n):
    # the operand's own type: && || ! operands carry clang's promotion (char -> int) on top
    while n.get("kind") == "ImplicitCastExpr" and n.get("castKind") == "IntegralCast" and n.get("inner"):
        n = n["inner"][0]
    t = n.get("type", {})
    return t.get("qualType", ""), t.get("desugaredQualType", t.get("qualType", ""))


COMPARE = {"==", "!=", "<", ">", "<=", ">="}


def shape(n):
    """cmp: essentially Boolean as it stands; logic/not: && || or ! whose leaves decide;
    leaf: any other expression."""
    n0 = strip_casts(n)
    k = n0.get("kind")
    if k == "ParenExpr":
        return shape(n0["inner"][0])
    if k == "BinaryOperator" and n0.get("opcode") in COMPARE:
        return "cmp"
    if k == "BinaryOperator" and n0.get("opcode") in ("&&", "||"):
        return "logic"
    if k == "UnaryOperator" and n0.get("opcode") == "!":
        return "not"
    q, d = qtype(n)
    return "cmp" if "_Bool" in (q, d) else "leaf"


def bare(d):
    return re.sub(r"\b(const|volatile)\s+", "", d).strip()


class BoolPass:
    def __init__(self):
        self.sites = {}     # (file, b, e) -> dict(kind, neg, paren, types:set, q)
        self.skipped = set()
        self.data = {}

    def text(self, f):
        if f not in self.data:
            self.data[f] = open(f, "rb").read()
        return self.data[f]

    def span(self, n):
        r = n.get("range", {})
        b = loc_of(r.get("begin"))
        e = loc_of(r.get("end"))
        if not b or not e or b[0] is None:
            return None
        ok, f = ours(b[0])
        if not ok:
            return None
        if b[3] and e[3] and b[1] == e[1]:
            # one macro invocation as a whole, e.g. `if (HS_FLAG(x))`
            return (f, b[1], macro_call_end(self.text(f), b[1], b[2]))
        if b[3] or (e[3] and not e[0]):
            return ("MACRO", f, b[1])
        eoff = e[1] + e[2]
        if e[3]:
            eoff = macro_call_end(self.text(f), e[1], e[2])
        return (f, b[1], eoff)

    def leaf(self, n, neg, parent_not, cfg_i):
        sp = self.span(n)
        if sp is None:
            return
        if sp[0] == "MACRO":
            self.skipped.add((sp[1], sp[2]))
            return
        n0 = strip_casts(n)
        k = n0.get("kind")
        paren = k in ("BinaryOperator", "CompoundAssignOperator", "ConditionalOperator")
        q, d = qtype(n)
        key = sp
        s = self.sites.setdefault(key, {"neg": neg, "paren": paren, "types": {}, "q": q,
                                        "outer": parent_not, "not": None})
        s["types"][cfg_i] = bare(d)
        if "hs_real" in q:
            s["q"] = q

    def visit_cond(self, n, cfg_i, parent_not=False):
        """Rewrites every leaf of the condition's Boolean structure (parentheses, !, &&, ||)
        that is not essentially Boolean; comparisons and _Bool values stay."""
        if not n or "kind" not in n:
            return
        sh = shape(n)
        if sh == "cmp":
            return
        n0 = strip_casts(n)
        k = n0.get("kind")
        if k == "ParenExpr" and sh != "leaf":
            self.visit_cond(n0["inner"][0], cfg_i, parent_not)
            return
        if sh == "logic":
            for c in n0["inner"]:
                self.visit_cond(c, cfg_i)
            return
        if sh == "not":
            op = n0["inner"][0]
            if shape(op) != "leaf":
                self.visit_cond(op, cfg_i, True)
                return
            # `!e` -> `e == 0`: the site is the whole `!e`, the operand's type decides the zero
            sp = self.span(n0)
            osp = self.span(op)
            if sp is None or osp is None:
                return
            if sp[0] == "MACRO" or osp[0] == "MACRO":
                self.skipped.add(sp[1:] if sp[0] == "MACRO" else osp[1:])
                return
            o0 = strip_casts(op)
            q, d = qtype(op)
            paren = o0.get("kind") in ("BinaryOperator", "CompoundAssignOperator", "ConditionalOperator")
            s = self.sites.setdefault(sp, {"neg": True, "paren": paren, "types": {}, "q": q,
                                           "outer": parent_not, "not": osp})
            s["types"][cfg_i] = bare(d)
            if "hs_real" in q:
                s["q"] = q
            return
        self.leaf(n, False, parent_not, cfg_i)

    def walk(self, node, cfg_i):
        if isinstance(node, dict):
            k = node.get("kind")
            inner = node.get("inner", [])
            cond = None
            if k in ("IfStmt", "WhileStmt") and inner:
                cond = inner[0]
            elif k == "DoStmt" and len(inner) >= 2:
                cond = inner[1]
            elif k == "ForStmt" and len(inner) >= 3:
                cond = inner[2] if inner[2] else None
            if cond:
                self.visit_cond(cond, cfg_i)
            for v in inner:
                self.walk(v, cfg_i)
        elif isinstance(node, list):
            for v in node:
                self.walk(v, cfg_i)

    def zero(self, s):
        types = set(s["types"].values())
        q = s["q"]
        d = next(iter(types)) if len(types) == 1 else None
        if types and all(t.endswith("*") or "(*)" in t or t.endswith("]") for t in types):
            return "NULL"
        if re.fullmatch(r"(const )?hs_real", bare(q)) or types == {"double", "float"}:
            return "HS_R(0.0)"
        if d is None:
            return None
        if d == "double":
            return "0.0"
        if d == "float":
            return "0.0f"
        if d == "char":
            return "'\\0'"
        if d.startswith("unsigned") or d in ("size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t"):
            return "0u"
        if d in ("int", "long", "long long", "short", "signed char") or d.startswith("int"):
            return "0"
        return None

    def edits(self):
        per = defaultdict(list)
        bad = []
        for (f, b, e), s in sorted(self.sites.items()):
            z = self.zero(s)
            if z is None:
                bad.append("%s@%d: type %s" % (f, b, s["types"]))
                continue
            data = self.text(f)
            if s["neg"]:
                of, ob, oe = s["not"]
                inner = data[ob:oe].decode()
                if s["paren"]:
                    inner = "(" + inner + ")"
                t = "%s == %s" % (inner, z)
            else:
                inner = data[b:e].decode()
                if s["paren"]:
                    inner = "(" + inner + ")"
                t = "%s != %s" % (inner, z)
            if s["outer"]:
                t = "(" + t + ")"
            per[f].append((b, e, t, 0))
        return per, bad


def cmd_bool():
    bp = BoolPass()
    for i, cfg in enumerate(CONFIGS):
        for src in sources():
            p = subprocess.run(["clang", "-fsyntax-only", "-Xclang", "-ast-dump=json"] + CFLAGS + cfg + [src],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                sys.stderr.write(p.stderr.decode())
                raise SystemExit("fix_required: clang cannot parse %s" % src)
            ast = json.loads(p.stdout)
            Loc().walk(ast)
            bp.walk(ast, i)
    per, bad = bp.edits()
    n = 0
    for f, ed in sorted(per.items()):
        apply_inserts(f, ed)
        n += len(ed)
        print("  14.4 %s: %d operands compared with their zero" % (f, len(ed)))
    for s in sorted(bp.skipped):
        print("  14.4 not touched (spelled in a macro body): %s@%d" % s)
    for b in bad:
        print("  14.4 not touched (type without a known zero): " + b)
    print("fix_required bool: %d operands rewritten, %d left" % (n, len(bad) + len(bp.skipped)))



# ---------------------------------------------------------------- site records
# Findings of required rules that stay after the passes above: each gets the inline record
# (`/* MISRA Ref R.N.k [short reason] */`) of the first permit whose pattern matches the
# flagged line; the permit's full reason goes into DEVIATIONS.md's inline table. A rule
# without a permit here (or a line no pattern matches, for a rule without a catch-all) stays
# open: the gate fails and a person decides.
PERMITS = [
    # id, regex on the flagged line, short reason (the tag), full reason (DEVIATIONS.md)
    ("7.2.1", r"UINT(8|16|32|64)_C|INT64_MIN|INT64_MAX|HS_HASH_INIT", "stdint.h constant macro, suffixed in its expansion",
     "*tool*: `UINT32_C(..)`, `UINT64_C(..)`, `INT64_MIN` and `HS_HASH_INIT` (an `UINT64_C`) expand to suffixed constants in `<stdint.h>`; the addon runs without the system headers (the tree is freestanding) and sees the bare literal."),
    ("9.2.1", r"\{\s*\"", "braced array of string pointers",
     "*tool*: `{\"name (unit)\"}` initializes an array of string pointers and is braced as the rule asks; the addon reads the string literal as a nested aggregate."),
    ("9.3.1", r"\[\w*\]\s*=\s*\{", "every element listed",
     "*tool*: the flagged initializers list every element of their array (its size comes from the list, or equals the list's length; the registries end with their NULL terminator); nothing is left implicitly zero."),
    ("10.3.1", r"(\+=|&=|\|=|(?<![=!<>+\-*/&|^])=(?!=)).*(==|!=|<=|>=|<|>|&&|\|\||!\s*[\w(])", "truth value kept in an int flag",
     "The C99 API keeps truth values in `int` (0 or 1; `<stdbool.h>` is not part of the freestanding interface of rt/ and model/): a comparison or logical result stored in an `int` flag keeps its value, and flags are only ever compared with 0."),
    ("10.3.2", r"\?.*:", "hs_real selected by ?:",
     "Both arms of the conditional are `hs_real` (constants through `HS_R()`), and so is the destination; `-Wconversion -Wdouble-promotion -Werror` on gcc and clang in both real types (make lint-test, float-test) show no conversion takes place."),
    ("10.3.3", r"\b\w+\s*\+=\s*\w+\s*\)", "pointer advanced by a stride",
     "*tool*: `p += w` in a loop header advances a pointer through a packed block by an `int` stride: pointer arithmetic (rule 18.4, deviated as S-18.4), not an assignment between essential type categories."),
    ("10.4.1", r"\bHS_[A-Z0-9_]+\b", "int code vs the enumerator naming it",
     "Status codes, body/joint kinds and flags are carried as `int` through the C99 API (a status is an `hs_status` value or a negative error of a model); comparing such an `int` with the enumerator that names the value compares two values of one set."),
    ("10.4.2", r"'(\\.|[^'\\])'", "character code vs character constant",
     "Character arithmetic and comparisons on text of the ASCII `.hsm` format and signal names (`c - '0'`, `s[i] == '='`, `c < 32`): the operands are character codes 0..127, the result is the same in any essential type."),
    ("10.4.3", r"size_t|sizeof|\bu\b|\d+u\b|cap|nbuf|ntmp", "size_t arithmetic with a small constant",
     "Size arithmetic mixing `size_t` values with small non-negative `int` constants or counts checked non-negative first; the conversion to `size_t` keeps the value (`-Wsign-compare -Wconversion -Werror` on gcc and clang)."),
    ("10.4.9", r".", "signed/unsigned operands, values checked in range",
     "Operands of different essential signedness where the signed one is a constant or a count checked non-negative before; `-Wsign-compare -Wconversion -Werror` on gcc and clang in both real types flag every comparison or conversion that could change a value. Placed by test/misra/fix_required.sh: review when it appears."),
    ("10.6.1", r"HS_[A-Z_]*BYTES|sizeof", "unsigned size macro widened to size_t",
     "Size macros (`HS_FRAME_BYTES(n)`) evaluate in `unsigned int` and are widened to `size_t`; widening an unsigned value cannot change it."),
    ("10.6.2", r"\?\s*-?\d+\s*:\s*-?\d+|\?.*:", "*tool*: c ? 1 : 0 into an int",
     "*tool*: `cond ? 2 : 3`, `cond ? 1 : 0` and `cond ? D->bodies[b].kind == K : 1` assigned to an `int`: both arms are `int`, no widening takes place."),
    ("10.6.9", r".", "widening of a non-negative composite value",
     "A composite expression of non-negative counts widened to a wider type; the value is unchanged (checked by `-Wconversion -Werror`). Placed by test/misra/fix_required.sh: review when it appears."),
    ("10.8.1", r"sizeof", "table length, compile-time constant",
     "`(int)(sizeof a / sizeof a[0])`: the length of a table of a few entries, a compile-time constant far below INT_MAX."),
    ("10.8.2", r"\(unsigned\)", "bit-set word between int storage and unsigned ops",
     "Bit-set words live in the `int` workspace and are operated on as `unsigned`; the composite unsigned result is stored back as `int` (two's complement, value modulo 2^32 on every supported compiler, as gcc and clang document)."),
    ("10.8.3", r".", "composite count widened after its bounds check",
     "A composite expression of non-negative counts (`2 * n + 1`, `k - a`, `t1 - t0`, `s[i] - '0'`) cast to a wider or unsigned type after the operands were checked in range; the value is unchanged (`-Wconversion -Werror` on gcc and clang)."),
    ("20.7.1", r"#\s*define\s+HS_", "X-macro parameter is an identifier",
     "X-macro parameters that are identifiers (field names, the list's callback `X`) cannot be parenthesized; expression parameters (sizes) are, e.g. `w += (count)`."),
]

VOID_CALL = re.compile(r"(^\s*|[{;]\s*)(memset|memcpy|memmove)\s*\(")


def cmd_tags(args):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import misra_gate as G
    findings_path, dev_path = args[0], args[1]
    _, permits, _ = G.load_records(dev_path)
    todo = defaultdict(set)
    voids = defaultdict(set)
    open_ = []
    for line in open(findings_path):
        m = re.match(r"^(.+?):(\d+):misra-c2012-(\d+\.\d+)\s*$", line.strip())
        if not m:
            continue
        f, ln, rule = m.group(1), int(m.group(2)), m.group(3)
        if G.category(rule) != "required" or not ours(f)[0]:
            continue
        if G.inline_tag(f, ln, rule, dict((p[0], p[3]) for p in PERMITS) | permits, set()):
            continue
        text = G.source(f)[ln - 1] if ln - 1 < len(G.source(f)) else ""
        if rule == "17.7" and VOID_CALL.search(text):
            voids[f].add(ln)
            continue
        for pid, rx, short, _ in PERMITS:
            if pid.rsplit(".", 1)[0] == rule and re.search(rx, text):
                todo[f].add((ln, pid, short))
                break
        else:
            open_.append("%s:%d: rule %s: %s" % (f, ln, rule, text.strip()))
    used = set()
    for f in sorted(set(todo) | set(voids)):
        lines = open(f).read().split("\n")
        for ln in sorted(voids[f], reverse=True):
            lines[ln - 1] = VOID_CALL.sub(lambda m: m.group(1) + "(void)" + m.group(2) + "(", lines[ln - 1], count=1)
        by_line = defaultdict(list)
        for ln, pid, short in sorted(todo[f]):
            by_line[ln].append("MISRA Ref %s [%s]" % (pid, short))
            used.add(pid)
        for ln in sorted(by_line, reverse=True):
            tag = "/* " + "; ".join(by_line[ln]) + " */"
            cur = lines[ln - 1]
            prev = lines[ln - 2] if ln >= 2 else ""
            if cur.rstrip().endswith("\\") or prev.rstrip().endswith("\\"):
                # inside a macro definition: a line of its own would end the macro
                body = cur.rstrip()
                if body.endswith("\\"):
                    lines[ln - 1] = body[:-1].rstrip() + " " + tag + " \\"
                else:
                    lines[ln - 1] = body + " " + tag
            else:
                ind = re.match(r"[ \t]*", cur).group(0)
                lines.insert(ln - 1, ind + tag)
        open(f, "w").write("\n".join(lines))
        print("  records %s: %d site records, %d (void) casts" % (f, sum(len(v) for v in by_line.values()), len(voids[f])))
    # the permits the tags name, with their full reasons, in DEVIATIONS.md (idempotent)
    dev = open(dev_path).read()
    rows = []
    for pid, _, _, full in PERMITS:
        if pid in used and pid not in permits:
            rows.append("| %s | %s | inline | %s |" % (pid, pid.rsplit(".", 1)[0], full))
    if rows:
        dev = dev.rstrip("\n") + "\n" + "\n".join(rows) + "\n"
        open(dev_path, "w").write(dev)
    for o in open_:
        print("  OPEN " + o)
    print("fix_required tags: %d site records, %d (void) casts, %d findings left open (no permit fits)" % (
        sum(len(v) for v in todo.values()), sum(len(v) for v in voids.values()), len(open_)))
    return 1 if open_ else 0


# ---------------------------------------------------------------- behaviour check
def functions(path):
    """{function: [instruction text]} of an `objdump -d --no-show-raw-insn` listing, with
    addresses dropped so a shift of the function does not count."""
    d, cur = {}, None
    for line in open(path):
        m = re.match(r"^[0-9a-f]+ <(.+)>:", line)
        if m:
            cur = m.group(1)
            d[cur] = []
            continue
        if cur and line.strip():
            t = line.split("\t", 1)[-1].strip()
            d[cur].append(re.sub(r"\b[0-9a-f]+ <", "<", t))
    return d


def cmd_samecode(before, after):
    same = gcc_bad = 0
    clang_diff = []
    for f in sorted(os.listdir(after)):
        if not f.endswith(".dis"):
            continue
        b = os.path.join(before, f)
        if not os.path.exists(b):
            continue
        fa, fb = functions(os.path.join(after, f)), functions(b)
        diff = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
        name = f[:-len(".o.dis")]
        if not diff:
            same += 1
        elif name.startswith("gcc."):
            gcc_bad += 1
            print("  FAIL gcc machine code changed: %s: %s" % (name, " ".join(diff)))
        else:
            clang_diff.append("%s: %s" % (name, " ".join(diff)))
    for c in clang_diff:
        print("  clang block layout differs (review): " + c)
    print("fix_required verify: %d objects with the same instructions, %d gcc objects changed, "
          "%d clang objects with a function laid out differently" % (same, gcc_bad, len(clang_diff)))
    return 1 if gcc_bad else 0

if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "braces":
        cmd_braces()
    elif cmd == "bool":
        cmd_bool()
    elif cmd == "samecode":
        sys.exit(cmd_samecode(sys.argv[2], sys.argv[3]))
    elif cmd == "tags":
        sys.exit(cmd_tags(sys.argv[2:]))
    else:
        sys.exit(__doc__)
