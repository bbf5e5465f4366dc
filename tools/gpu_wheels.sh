#!/usr/bin/env bash
# tools/gpu_wheels.sh - fetch, on a machine with network, the wheels that the
# lent GPU machine lacks into .whl/ (ignored by git), for tools/gpu_check.sh
# there: scipy-openblas64 (the build reads its headers and _C opens its
# library) and the test extras that its image does not hold (ndindex, Dask).
# The GPU machine runs CPython 3.12 on x86-64 (see the device tool's KINDS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .whl
PY="${PYTHON:-python3}"
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl \
    scipy-openblas64 ndindex dask partd locket distributed tblib zict tornado
ls .whl
