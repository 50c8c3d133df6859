#!/usr/bin/python3
"""Worst-case main-stack bound of the test firmware from gcc's -fcallgraph-info=su output.

Usage: stack_bound.py OBJ_DIR [ELF]   (build/cortex-m/<board>/obj, its hilstep-test.elf)

With ELF, an object of rt/, model/ (every room, model/ROOMS) or hil/ none of whose global
symbols is in the image is left out: --gc-sections dropped all of it.

Everything runs on the main stack: thread mode (main), PendSV (the frame) on top of it, the
SysTick tick preempting PendSV, and a fault preempting all three. The bound is
    path(main) + path(PendSV) + path(SysTick) + path(fault report) + 3 exception frames,
each frame counted with the FP extension (26 words) plus 4 bytes of alignment padding.

Indirect calls (model callbacks, the application table, test hooks) may go to any function
whose address the image takes: a function symbol referenced by a relocation that is not a
branch (objdump -r). A cycle of direct calls (recursion) voids the bound and is an error; a
cycle that passes through an indirect call is cut (the code has no recursion through
pointers). A callee without stack information (libgcc helpers) is charged LIBGCC_ALLOWANCE.
"""
import re
import subprocess
import sys
from pathlib import Path

EXC_FRAME = 26 * 4 + 4
LIBGCC_ALLOWANCE = 64
ROOTS = ["main", "hs_pendsv_handler", "hs_systick_handler", "hs_fault_report"]
BRANCH_RELOCS = {"R_ARM_THM_CALL", "R_ARM_THM_JUMP24", "R_ARM_THM_JUMP19", "R_ARM_CALL",
                 "R_ARM_JUMP24", "R_ARM_THM_JUMP11", "R_ARM_THM_JUMP8"}
# The objects of hilstep-test(-stop).elf; hs_tick_stop is the superset of the two policies;
# the plant application's hil/ objects and the board's own sources (CM_SRC_<board>, under
# port/cortex-m/boards/) are globbed below like rt/ and model/.
FILES = ["port/cortex-m/core/hs_core", "port/cortex-m/hs_app", "port/cortex-m/core/hs_tick_stop",
         "port/cortex-m/core/libc_min", "test/qemu/fw_test"]

NODE_RE = re.compile(r'node: \{ title: "([^"]+)" label: "[^"]*\\n(\d+) bytes \(([^)]*)\)')
EDGE_RE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')


def address_taken(obj, titles):
    out = subprocess.run(["arm-none-eabi-objdump", "-r", str(obj)], capture_output=True,
                         text=True, check=True).stdout
    taken, section = set(), ""
    for line in out.splitlines():
        if line.startswith("RELOCATION RECORDS FOR"):
            section = line
            continue
        f = line.split()
        if len(f) != 3 or "debug" in section or f[1] in BRANCH_RELOCS:
            continue
        sym = f[2]
        if sym in titles:
            taken.add(sym)
        else:
            taken.update(t for t in titles if t.endswith(":" + sym))
    return taken


def nm_globals(path, defined_only):
    args = ["arm-none-eabi-nm", "-g"] + (["--defined-only"] if defined_only else []) + [str(path)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    obj = Path(sys.argv[1])
    lib = sorted(p.with_suffix("") for p in (obj / "rt").glob("*.ci")) \
        + sorted(p.with_suffix("") for p in (obj / "model").rglob("*.ci")) \
        + sorted(p.with_suffix("") for p in (obj / "hil").glob("*.ci"))
    board = sorted(p.with_suffix("") for p in (obj / "port/cortex-m/boards").rglob("*.ci"))
    if len(sys.argv) > 2:
        image = nm_globals(sys.argv[2], True)
        lib = [b for b in lib if nm_globals(b.with_suffix(".o"), True) & image]
    # The model layer lives in rooms (model/ROOMS: model/mb, model/vehicle, ...), hence rglob:
    # a flat glob of model/ found none of them and left every model callback out of the bound.
    if not any(b.relative_to(obj).parts[0] == "model" for b in lib):
        print(f"no model/ object under {obj} in the image: the bound would leave the model layer out")
        return 1
    bases = [obj / f for f in FILES] + board + lib
    size, edges, taken = {}, {}, set()
    for b in bases:
        text = b.with_suffix(".ci").read_text()
        local = set()
        for m in NODE_RE.finditer(text):
            if m.group(3) != "static" and not m.group(3).startswith("dynamic,bounded"):
                print(f"unbounded dynamic stack in {m.group(1)}")
                return 1
            size[m.group(1)] = int(m.group(2))
            local.add(m.group(1))
        for m in EDGE_RE.finditer(text):
            edges.setdefault(m.group(1), set()).add(m.group(2))
        taken |= address_taken(b.with_suffix(".o"), local | set(size))
    for r in ROOTS:
        if r not in size:
            print(f"root {r} not found")
            return 1
    unknown = set()

    # Longest path by depth-first search with one memo per function: linear in the graph.
    # (Re-walking every address-taken function at every indirect call site was exponential
    # once the model library grew: minutes, then hours.) A cycle that passes through
    # __indirect_call is cut there; a cycle of direct calls is recursion and voids the bound.
    memo, stack = {}, []

    def depth(fn):
        if fn in memo:
            return memo[fn]
        if fn != "__indirect_call" and fn not in size:
            unknown.add(fn)
            return LIBGCC_ALLOWANCE
        if fn in stack:
            if "__indirect_call" in stack[stack.index(fn):]:
                return 0
            raise RecursionError(fn)
        stack.append(fn)
        if fn == "__indirect_call":
            d = max([depth(c) for c in sorted(taken)] or [0])
        else:
            d = size[fn] + max([depth(c) for c in sorted(edges.get(fn, ()))] or [0])
        stack.pop()
        memo[fn] = d
        return d

    sys.setrecursionlimit(100000)
    try:
        parts = {r: depth(r) for r in ROOTS}
    except RecursionError as e:
        print(f"recursion through {e}: no static bound")
        return 1
    total = sum(parts.values()) + 3 * EXC_FRAME
    detail = " + ".join(f"{r} {parts[r]}" for r in ROOTS)
    print(f"static worst-case bound {total} bytes ({detail} + 3 exception frames of {EXC_FRAME};"
          f" {len(taken)} indirect-call targets; {len(unknown)} libgcc callees at "
          f"{LIBGCC_ALLOWANCE} each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
