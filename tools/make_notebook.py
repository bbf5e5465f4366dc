"""Write examples/gpus.ipynb from the cells in devtensor/_chapter.py (the
one source of the chapter; tests/test_chapter.py checks the two agree):

    python tools/make_notebook.py

The notebook is written without outputs: the tests execute it, with and
without (emulated) CUDA devices, and check what the cells print.
"""
import os
import sys

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from devtensor._chapter import CELLS  # noqa: E402

PATH = os.path.join(ROOT, "examples", "gpus.ipynb")


def notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    make = {"markdown": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell}
    nb.cells = [make[kind](source) for kind, source in CELLS]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: regenerating changes nothing
    return nb


if __name__ == "__main__":
    nbformat.write(notebook(), PATH)
    print(f"wrote {os.path.relpath(PATH, ROOT)}")
