#!/usr/bin/python3
"""MISRA C:2012 gate: classifies every finding of cppcheck's misra addon as covered by an
inline deviation tag, covered by a scoped deviation record, or open; fails on any open one.

Usage: misra_gate.py FINDINGS DEVIATIONS.md [--table [--baseline FILE] [--report FILE]] [--expect-open N]
                    [--tags DIR,DIR...]
  FINDINGS     lines "file:line:misra-c2012-R.N" (cppcheck --template='{file}:{line}:{id}')
  --table      print the per-rule markdown table after the summary
  --baseline   per-rule finding counts ("R.N count" lines) of an earlier tree: the table's
               "fixed" column is baseline - findings (test/misra/baseline.txt: issue 16's tree)
  --report     also write the table, with the command that makes it, to this file
  --expect-open N   self-test mode: exactly N open findings are the expected outcome
  --tags DIRS  every inline tag in the .c/.h files under these directories must cover a
               finding of its rule (on its line, or on the code line its comment block is
               above): a tag left behind after the code changed is a failure, so no tag
               outlives the finding it was written for
Inline tag (FreeRTOS style), on the flagged line or in the comment lines directly above it:
    /* MISRA Ref 11.5.1 [parameter block is void * by design] */
where 11.5.1 is a permit listed in DEVIATIONS.md with its full reason. Scoped records in
DEVIATIONS.md cover one rule in the files matching their globs. Mandatory rules cannot be
deviated (MISRA Compliance:2020); a record for one is an error. Required rules are deviated
only at their sites (issue 16): a scoped record for one is an error too.
Ends with "misra: N passed, N failed" (checks: the addon ran, every rule's findings covered,
every permit and record well formed)."""
import fnmatch
import re
import sys
from collections import OrderedDict, defaultdict

MANDATORY = {"9.1", "12.5", "13.6", "17.3", "17.4", "17.6", "19.1", "21.13", "21.17", "21.18",
             "21.19", "21.20", "22.2", "22.4", "22.5", "22.6"}
ADVISORY = {"1.2", "2.3", "2.4", "2.5", "2.6", "2.7", "4.2", "5.9", "8.7", "8.9", "8.11", "8.13",
            "10.5", "11.4", "11.5", "12.1", "12.3", "12.4", "13.3", "13.4", "15.1", "15.4", "15.5",
            "17.5", "17.8", "18.4", "18.5", "19.2", "20.1", "20.5", "20.10", "21.12"}
TAG = re.compile(r"MISRA Ref (\d+\.\d+)\.(\d+) \[([^\]]+)\]")


def category(rule):
    return "mandatory" if rule in MANDATORY else "advisory" if rule in ADVISORY else "required"


def rule_key(r):
    return tuple(int(x) for x in r.split("."))


def load_records(path):
    """Rows of the two tables in DEVIATIONS.md: | id | rule | scope | reason |.
    id "S-R.N" = scoped record (scope = space-separated globs); "R.N.k" = inline permit."""
    scoped, permits, errors = [], {}, []
    sites.clear()
    for ln, line in enumerate(open(path), 1):
        # cells split on unescaped bars: a site pattern writes its alternatives as \|
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if not line.startswith("|") or len(cells) < 4 or not re.match(r"^(S-)?\d+\.\d+(\.\d+)?$", cells[0]):
            continue
        rid, rule, scope, reason = cells[0], cells[1], cells[2], cells[3]
        site = cells[4].strip("`") if len(cells) > 4 and cells[4] not in ("", "-", "\u2014") else ""
        if not rid.startswith("S-"):
            if category(rule) == "required" and not site:
                errors.append("%s:%d: permit %s of required rule %s names no site construct (the pattern every "
                              "site it covers must show)" % (path, ln, rid, rule))
            if site:
                try:
                    sites[rid] = re.compile(site)
                except re.error as e:
                    errors.append("%s:%d: permit %s: site pattern %s: %s" % (path, ln, rid, site, e))
        if len(reason) < 20:
            errors.append("%s:%d: record %s has no real reason" % (path, ln, rid))
        if category(rule) == "mandatory":
            errors.append("%s:%d: rule %s is mandatory and cannot be deviated" % (path, ln, rule))
        if rid.startswith("S-") and category(rule) == "required":
            errors.append("%s:%d: rule %s is required: deviate it at its sites (MISRA Ref %s.k), not by a scoped record"
                          % (path, ln, rule, rule))
        if rid.startswith("S-"):
            if rid[2:] != rule:
                errors.append("%s:%d: record %s is not for rule %s" % (path, ln, rid, rule))
            scoped.append((rule, scope.replace("`", "").split(), reason))
        else:
            if not rid.startswith(rule + "."):
                errors.append("%s:%d: permit %s is not for rule %s" % (path, ln, rid, rule))
            permits[rid] = reason
    return scoped, permits, errors


_src = {}
sites = {}  # permit id -> compiled site pattern (the construct its reason is about)


def statement(f, line):
    """The flagged line and its continuation: up to 4 lines, to the first ';', '{' or '}'."""
    lines = source(f)
    out = []
    for k in range(line - 1, min(len(lines), line + 3)):
        out.append(lines[k])
        if re.search(r"[;{}]\s*(/\*.*)?$", lines[k]):
            break
    return "\n".join(out)


def source(f):
    if f not in _src:
        try:
            _src[f] = open(f, errors="replace").read().split("\n")
        except OSError:
            _src[f] = []
    return _src[f]


def inline_tag(f, line, rule, permits, bad):
    """The permit id covering (f, line, rule), or None. Looks at the line itself and the
    comment-only lines directly above it."""
    lines = source(f)
    i = line - 1
    cand = [i] if 0 <= i < len(lines) else []
    j = i - 1
    while 0 <= j < len(lines) and j >= i - 6:
        s = lines[j].strip()
        if s.startswith("/*") or s.startswith("*") or s.startswith("//"):
            cand.append(j)
            j -= 1
        else:
            break
    for k in cand:
        for m in TAG.finditer(lines[k]):
            if m.group(1) == rule:
                pid = "%s.%s" % (m.group(1), m.group(2))
                if pid not in permits:
                    bad.add("%s:%d: tag MISRA Ref %s has no permit in DEVIATIONS.md" % (f, k + 1, pid))
                    continue
                return pid
    return None


def is_comment(s):
    return s.startswith("/*") or s.startswith("*") or s.startswith("//")


def stale_tags(dirs, findings):
    """Tags under dirs that cover no finding of their rule: [(file, line, permit)]. A tag
    covers its own line and, on a comment-only line, the comment lines below it and the
    first code line after them (the lines inline_tag looks up from a finding)."""
    import os
    at = defaultdict(set)
    for f, l, r in findings:
        at[(os.path.normpath(f), r)].add(l)
    out = []
    for d in dirs:
        for root, _, names in sorted(os.walk(d)):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                f = os.path.normpath(os.path.join(root, name))
                lines = source(f)
                for i, line in enumerate(lines):
                    for m in TAG.finditer(line):
                        cov = {i + 1}
                        if is_comment(line.strip()):
                            j = i + 1
                            while j < len(lines) and j <= i + 6:
                                cov.add(j + 1)
                                if not is_comment(lines[j].strip()):
                                    break
                                j += 1
                        if not cov & at.get((f, m.group(1)), set()):
                            out.append((f, i + 1, "%s.%s" % (m.group(1), m.group(2))))
    return out


def main():
    args = sys.argv[1:]
    table = "--table" in args
    expect_open = None
    if "--expect-open" in args:
        expect_open = int(args[args.index("--expect-open") + 1])
    findings_path, dev_path = args[0], args[1]
    scoped, permits, errors = load_records(dev_path)
    findings = []
    for line in open(findings_path):
        m = re.match(r"^(.+?):(\d+):misra-c2012-(\d+\.\d+)\s*$", line.strip())
        if m:
            findings.append((m.group(1), int(m.group(2)), m.group(3)))
        elif "misra" in line:
            errors.append("unparsed addon output: " + line.strip())
    per = defaultdict(lambda: {"n": 0, "inline": 0, "record": 0, "open": []})
    used_rules = set()
    bad = set()
    use = defaultdict(int)
    for f, l, r in findings:
        p = per[r]
        p["n"] += 1
        pid = inline_tag(f, l, r, permits, bad)
        if pid:
            p["inline"] += 1
            use[pid] += 1
            if pid in sites and not sites[pid].search(statement(f, l)):
                bad.add("%s:%d: tag MISRA Ref %s: the flagged code shows none of the permit's construct /%s/ "
                        "(its reason does not apply here: fix the code or write a permit for this site)"
                        % (f, l, pid, sites[pid].pattern))
        elif any(rule == r and any(fnmatch.fnmatch(f, g) for g in globs) for rule, globs, _ in scoped):
            p["record"] += 1
            used_rules.add(r)
        else:
            p["open"].append("%s:%d" % (f, l))
    errors += sorted(bad)
    if "--tags" in args:
        for f, l, pid in stale_tags(args[args.index("--tags") + 1].split(","), findings):
            errors.append("%s:%d: tag MISRA Ref %s covers no finding of rule %s: remove it" % (
                f, l, pid, pid.rsplit(".", 1)[0]))
    n_open = sum(len(p["open"]) for p in per.values())
    passed = failed = 0
    if expect_open is not None:
        ok = n_open == expect_open and not errors
        print("misra-selftest: %d findings, %d open (expected %d)%s" % (
            len(findings), n_open, expect_open, "" if not errors else "; " + "; ".join(errors)))
        print("misra-selftest: %d passed, %d failed" % (int(ok), int(not ok)))
        return 0 if ok else 1
    for r in sorted(per, key=rule_key):
        p = per[r]
        if p["open"]:
            failed += 1
            print("  FAIL rule %s (%s): %d finding(s) neither fixed nor deviated: %s%s" % (
                r, category(r), len(p["open"]), " ".join(p["open"][:8]),
                " ..." if len(p["open"]) > 8 else ""))
        else:
            passed += 1
    for e in errors:
        failed += 1
        print("  FAIL " + e)
    for rule, globs, _ in scoped:
        if rule not in used_rules:
            print("  info record S-%s covers no finding any more: narrow or remove it" % rule)
    print("misra: %d findings over %d rules: %d deviated inline, %d by scoped records, %d open" % (
        len(findings), len(per), sum(p["inline"] for p in per.values()),
        sum(p["record"] for p in per.values()), n_open))
    if table or "--report" in args:
        base = {}
        if "--baseline" in args:
            for line in open(args[args.index("--baseline") + 1]):
                m = re.match(r"^\s*(\d+\.\d+)\s+(\d+)\s*$", line)
                if m:
                    base[m.group(1)] = int(m.group(2))
        rules = sorted(set(per) | set(base), key=rule_key)
        out = ["| rule | category | fixed | findings | deviated inline | deviated by record | open |",
               "|---|---|---:|---:|---:|---:|---:|"]
        for r in rules:
            p = per[r] if r in per else {"n": 0, "inline": 0, "record": 0, "open": []}
            fixed = max(0, base.get(r, p["n"]) - p["n"])
            out.append("| %s | %s | %d | %d | %d | %d | %d |" % (r, category(r), fixed, p["n"], p["inline"],
                                                               p["record"], len(p["open"])))
        tot = lambda k: sum(per[r][k] for r in per)
        fixed_all = sum(max(0, base.get(r, per[r]["n"] if r in per else 0) - (per[r]["n"] if r in per else 0)) for r in rules)
        out.append("| **total** | | %d | %d | %d | %d | %d |" % (fixed_all, len(findings), tot("inline"), tot("record"), n_open))
        req = [r for r in per if category(r) == "required"]
        out.append("")
        out.append("| permit | rule | category | sites | site construct checked |")
        out.append("|---|---|---|---:|---|")
        for pid in sorted(permits, key=lambda x: tuple(int(v) for v in x.split("."))):
            rr = pid.rsplit(".", 1)[0]
            out.append("| %s | %s | %s | %d | %s |" % (pid, rr, category(rr), use.get(pid, 0),
                                                      "yes" if pid in sites else "no"))
        out.append("")
        out.append("Required rules: %d findings, %d deviated at their sites, %d by scoped records, %d open; "
                   "fixed = findings of test/misra/baseline.txt (the tree of issue 16) minus findings now." % (
                       sum(per[r]["n"] for r in req), sum(per[r]["inline"] for r in req),
                       sum(per[r]["record"] for r in req), sum(len(per[r]["open"]) for r in req)))
        if table:
            print()
            print("\n".join(out))
            print()
        if "--report" in args:
            with open(args[args.index("--report") + 1], "w") as fh:
                fh.write("# MISRA C:2012 findings of rt/, model/ and hil/ per rule\n\n"
                         "Written by `make misra` (test/misra/misra.sh --table: cppcheck's misra addon, "
                         "classified by test/misra/misra_gate.py against test/misra/DEVIATIONS.md).\n\n")
                fh.write("\n".join(out) + "\n")
    print("misra: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
