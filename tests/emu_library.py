"""What the tests of the emulated CUDA libraries share (test_emu_fft.py;
Note [CUDA libraries on the CPU] in csrc/emu/emu_runtime.h): building a
test program from csrc/emu and tests/emu_runtime with g++ (optionally under
a sanitizer), running one of its cases with only the DEVTENSOR_EMULATE_*
settings given, and comparing our headers in csrc/emu/include with the
CUDA toolkit's: numeric values and prototypes."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMU = os.path.join(ROOT, "csrc", "emu")
INCLUDE = os.path.join(EMU, "include")
TESTS = os.path.join(ROOT, "tests", "emu_runtime")
TOOLKIT = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")


def compiler(name):
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def build(tmp_path_factory, name, sources, san=None):
    """g++ -Werror of sources into a program named name; san: None,
    "address" (with UBSan) or "thread"; skips where g++ or the sanitizer
    is missing."""
    gxx = compiler("g++")
    out = str(tmp_path_factory.mktemp(name) / name)
    cmd = [gxx, "-std=c++17", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-pthread", "-I" + INCLUDE,
           "-I" + EMU, "-I" + os.path.join(ROOT, "csrc", "core")]
    if san:
        cmd += ["-fsanitize=" + ("address,undefined" if san == "address" else san),
                "-fno-omit-frame-pointer"]
    res = subprocess.run(cmd + list(sources) + ["-o", out], capture_output=True, text=True)
    if res.returncode != 0 and san and "sanitize" in res.stderr:
        pytest.skip(f"the {san} sanitizer is not available: {res.stderr[-300:]}")
    assert res.returncode == 0, res.stderr
    return out


def run(program, case, **env):
    """The program on one case, with only the DEVTENSOR_EMULATE_* settings
    given (the caller's own are dropped, and its LD_PRELOAD unless the
    program is the sanitized one DEVTENSOR_EMU_SANITIZE asks for)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("DEVTENSOR_EMULATE")}
    if not os.environ.get("DEVTENSOR_EMU_SANITIZE"):
        full.pop("LD_PRELOAD", None)
    full.update(env)
    return subprocess.run([program, case], capture_output=True, text=True, env=full, timeout=300)


def assert_passes(program, case, env=None):
    """The program's case passes (exit 0, "PASS case"); what it printed
    otherwise (the end of a sanitizer's report)."""
    res = run(program, case, **(env or {}))
    assert res.returncode == 0 and ("PASS " + case) in res.stdout, res.stdout + res.stderr[-3000:]


def cases_listed(program):
    return subprocess.run([program], capture_output=True, text=True).stdout.split()


def ours(name):
    with open(os.path.join(INCLUDE, name)) as f:
        return f.read()


def toolkit_or_skip(header):
    if not os.path.isfile(os.path.join(TOOLKIT, header)):
        pytest.skip(f"no CUDA toolkit headers at {TOOLKIT} to compare with")
    return compiler("g++")


def toolkit_values(tmp_path, header, names):
    """{name: value} of each enumerator or macro in names, compiled against
    the toolkit's header."""
    gxx = toolkit_or_skip(header)
    src = tmp_path / "values.cpp"
    src.write_text(f"#include <cstdio>\n#include <{header}>\nint main() {{\n" +
                   "".join(f'    std::printf("{k} %d\\n", (int)({k}));\n' for k in sorted(names)) + "}\n")
    exe = str(tmp_path / "values")
    res = subprocess.run([gxx, "-std=c++17", "-I" + TOOLKIT, str(src), "-o", exe], capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stderr
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}


def same_prototypes(tmp_path, header, declarations):
    """Whether the declarations, repeated after the toolkit's header inside
    extern "C", are the same functions (a C++ compiler rejects two C
    functions of one name with different types); (ok, compiler output)."""
    gxx = toolkit_or_skip(header)
    src = tmp_path / "protos.cpp"
    src.write_text(f'#include <{header}>\nextern "C" {{\n' + "\n".join(declarations) + "\n}\n")
    res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + TOOLKIT, str(src)],
                         capture_output=True, text=True)
    return res.returncode == 0, res.stderr


def compiles_alone(tmp_path, header, lang):
    """Our header alone in a C11 or C++17 translation unit, -pedantic
    -Werror: (ok, compiler output)."""
    cc, std, ext = ("gcc", "-std=c11", "c") if lang == "c" else ("g++", "-std=c++17", "cpp")
    src = tmp_path / f"alone.{ext}"
    src.write_text(f"#include <{header}>\n")
    res = subprocess.run([compiler(cc), std, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                          "-I" + INCLUDE, str(src)], capture_output=True, text=True)
    return res.returncode == 0, res.stderr


def enumerators(text):
    """{NAME: value} of the `NAME = value` enumerators and `#define NAME
    value` macros with integer values in a header's text."""
    found = {k: int(v, 0) for k, v in re.findall(r"^\s*(CU\w+)\s*=\s*(-?(?:0x[0-9a-fA-F]+|\d+))", text, re.M)}
    found.update({k: int(v, 0) for k, v in
                  re.findall(r"^#define\s+(CU\w+)\s+(-?(?:0x[0-9a-fA-F]+|\d+))\s*$", text, re.M)})
    return found
