"""python -m devtensor: the devices found, the listings of D2L's "GPUs"
section on them (the cells of examples/gpus.ipynb, devtensor/_chapter.py),
then a quick run of the section's four exercises."""
import devtensor as dt
from devtensor import _chapter, _exercises


def main():
    print(f"devtensor {dt.__version__}")
    print("devices: cpu" + "".join(f", cuda:{i}" for i in range(dt.cuda.device_count())))
    if dt.cuda.is_emulated():
        print("(emulated CUDA devices: DEVTENSOR_EMULATE_CUDA is set; the CUDA backend runs on "
              "the CPU)")
    print()
    _chapter.run_cells()
    print("# The exercises, quick sizes (python bench/d2l_exercises.py for the full ones)")
    print(_exercises.format_table(_exercises.run(quick=True)))
    print(_exercises.meaning())


if __name__ == "__main__":
    main()
