"""The four exercises of D2L's "GPUs" section (../shared/seeds/DIGEST.md),
timed on every device devtensor finds and printed as a table:

    python bench/d2l_exercises.py [--quick] [--json FILE]

(1) matrix products on each device, large and small; (2) reading and writing
a model's parameters on the device; (3) 1000 products of 100x100 logging the
Frobenius norm to the host each step, against keeping the log on the device
and moving it once; (4) two products on two GPUs at once against one after
the other on one GPU.  What the figures mean without a GPU, or on emulated
devices: Note [What the exercise figures mean] in devtensor/_exercises.py.
"""
import argparse
import datetime
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import devtensor as dt  # noqa: E402
from devtensor import _exercises  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer steps")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    rows = _exercises.run(quick=args.quick)
    print(_exercises.format_table(rows))
    print()
    print(_exercises.meaning())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": datetime.date.today().isoformat(), "quick": args.quick,
                       "devices": [str(d) for d in _exercises.devices()],
                       "emulated": dt.cuda.is_emulated(), "meaning": _exercises.meaning(),
                       "rows": [dict(zip(("exercise", "device", "measurement", "value", "unit"),
                                         r)) for r in rows]}, f, indent=1)


if __name__ == "__main__":
    main()
