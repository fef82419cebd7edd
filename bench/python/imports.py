# Driven by imports.sh inside a private mount namespace; run with Debian's
# /usr/bin/python3.X, the CPython the build embeds (TF_BENCH_PYTHON, from
# imports.sh; python3.11 below).  Starts every configuration once per round, in turn,
# so that drift in the machine's load spreads over all of them.
import os
import statistics
import subprocess
import sys
import time

MODULES = """
argparse ast asyncio base64 bisect bz2 calendar cmd codecs collections
concurrent.futures configparser contextlib copy csv ctypes dataclasses
datetime decimal difflib dis email email.mime.multipart email.mime.text
email.parser enum fnmatch fractions ftplib functools getopt gettext glob gzip
hashlib heapq hmac html html.parser http.client http.cookies http.server
imaplib importlib importlib.metadata inspect ipaddress json logging
logging.handlers lzma mailbox mimetypes multiprocessing numbers optparse
pathlib pickle pkgutil platform plistlib pprint pydoc queue quopri random re
sched secrets selectors shelve shlex shutil smtplib socket socketserver
sqlite3 ssl statistics string struct subprocess tarfile tempfile textwrap
threading timeit tokenize tomllib traceback typing unittest unittest.mock
urllib.parse urllib.request uuid wave xml.dom.minidom xml.etree.ElementTree
xml.sax zipfile zoneinfo
""".split()
GENERATED = 40
PY = os.environ.get("TF_BENCH_PYTHON", "python3.11")


def run(argv, policy):
    with open("/etc/trustedfor.conf", "w") as f:
        f.write("trustedfor-policy 1\n" + policy + "end\n")
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ)
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    if status != 0:
        sys.exit(f"{argv}: status {status}")
    # Wall-clock time, and the CPU time of the process and its children
    # (trusted-for run execs, so the interpreter is the same process).
    return (t1 - t0) * 1000, (ru.ru_utime + ru.ru_stime) * 1000


def write_workloads(work):
    """The workloads' scripts in WORK: start-up, imports, compiled."""
    startup = os.path.join(work, "startup.py")
    imports = os.path.join(work, "imports.py")
    with open(startup, "w") as f:
        f.write("pass\n")
    with open(imports, "w") as f:
        f.write("import sys\n")
        for m in MODULES:
            f.write(f"import {m}\n")
        f.write("n = sum(1 for m in list(sys.modules.values())\n"
                "        if (getattr(m, '__file__', None) or '').endswith('.py'))\n"
                "print(len(sys.modules), n)\n")
    # Modules that no .pyc caches: every import compiles its source, which
    # is where trusted-python compares the compiled code with the checked
    # file (the rule for code compiled under a file's name).
    gen = os.path.join(work, "gen")
    os.mkdir(gen)
    for i in range(GENERATED):
        with open(os.path.join(gen, f"gen{i}.py"), "w") as f:
            for j in range(40):
                f.write(f"def f{j}(a, b=1):\n    c = [a * k + b for k in range({j})]\n"
                        f"    return sum(c) if c else {{'a': a, 'b': b}}\n\n")
            f.write(f"class C{i}:\n    x = {i}\n    def m(self):\n        return self.x\n")
    compiled = os.path.join(work, "compiled.py")
    with open(compiled, "w") as f:
        f.write(f"import sys\nsys.path.insert(0, {gen!r})\n")
        for i in range(GENERATED):
            f.write(f"import gen{i}\n")
    return startup, imports, compiled


def interpreters(build):
    """Debian's python3.11, trusted-python and the control, as run here."""
    if os.environ.get("TF_BENCH_INSTALLED"):
        # imports.sh laid the build over /usr/bin/python3.11, Debian's
        # binary and the control beside it.
        return (f"/usr/bin/{PY}-debian", f"/usr/bin/{PY}", f"/usr/bin/{PY}-control")
    return (f"/usr/bin/{PY}",
            os.path.join(build, "interpreters/python/trusted-python"),
            os.path.join(build, "interpreters/python/python-main-control"))


def main():
    build, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ref, tp, control = interpreters(build)
    tf = os.path.join(build, "tools/trusted-for")
    on = [tf, "run", "--restrict-file", "--"]
    p1 = "policy = 1\nlog = none\n"
    p3 = "policy = 3\nlog = none\n"
    p0 = "policy = 0\nlog = none\n"
    startup, imports, compiled = write_workloads(work)
    control_shared = os.path.join(build, "bench/python-main-control-shared")
    # (name, command, policy file, the row it is compared with)
    configs = [
        (PY, [ref], p1, None),
        ("control: CPython's main linked as trusted-python is", [control], p1, PY),
        (f"control linked to the shared lib{PY}.so", [control_shared], p1, PY),
        ("trusted-python, enforcement off (policy 1)", [tp], p1, PY),
        ("trusted-python, enforcement off, policy 3 (the default)", [tp], p3, PY),
        ("trusted-python, enforcement off, policy 0 (nothing checked)", [tp], p0, PY),
        (f"{PY} under trusted-for run", on + [ref], p1, None),
        ("control under trusted-for run", on + [control], p1, f"{PY} under trusted-for run"),
        ("trusted-python, enforcement on (policy 1)", on + [tp], p1,
         f"{PY} under trusted-for run"),
    ]
    # Another build of trusted-python (TF_BENCH_BASELINE: its build
    # directory, e.g. the previous commit's), interleaved with this one.
    before = os.environ.get("TF_BENCH_BASELINE")
    if before:
        btp = os.path.join(before, "interpreters/python/trusted-python")
        configs += [
            ("baseline build of trusted-python, enforcement off (policy 1)", [btp], p1,
             PY),
            ("baseline build of trusted-python, enforcement on (policy 1)", on + [btp], p1,
             f"{PY} under trusted-for run"),
        ]
    # The build linked to build-libpython.sh's profile-guided, link-time
    # optimised libpython (TF_BENCH_PGO: its build directory, configured
    # with -Dlibpython), interleaved with this one: its control and its
    # trusted-python against python3.11, and against its own control.
    pgo = os.environ.get("TF_BENCH_PGO")
    pgo_rows = {}
    if pgo:
        ptp = os.path.join(pgo, "interpreters/python/trusted-python")
        pctl = os.path.join(pgo, "interpreters/python/python-main-control")
        off_ctl = "PGO+LTO build: control"
        on_ctl = "PGO+LTO build: control under trusted-for run"
        configs += [
            (off_ctl, [pctl], p1, PY),
            ("PGO+LTO build: trusted-python, enforcement off (policy 1)", [ptp], p1,
             PY),
            ("PGO+LTO build: trusted-python, enforcement off, policy 3 (the default)",
             [ptp], p3, PY),
            (on_ctl, on + [pctl], p1, f"{PY} under trusted-for run"),
            ("PGO+LTO build: trusted-python, enforcement on (policy 1)", on + [ptp], p1,
             f"{PY} under trusted-for run"),
        ]
        pgo_rows = {
            "PGO+LTO build: trusted-python, enforcement off (policy 1)": off_ctl,
            "PGO+LTO build: trusted-python, enforcement off, policy 3 (the default)": off_ctl,
            "PGO+LTO build: trusted-python, enforcement on (policy 1)": on_ctl,
        }
    # The same rows against the control instead.
    against_control = {
        "trusted-python, enforcement off (policy 1)": "control: CPython's main linked as trusted-python is",
        "trusted-python, enforcement off, policy 3 (the default)": "control: CPython's main linked as trusted-python is",
        "trusted-python, enforcement off, policy 0 (nothing checked)": "control: CPython's main linked as trusted-python is",
        "trusted-python, enforcement on (policy 1)": "control under trusted-for run",
    }
    if before:
        against_control = {
            "trusted-python, enforcement off (policy 1)":
                "baseline build of trusted-python, enforcement off (policy 1)",
            "trusted-python, enforcement on (policy 1)":
                "baseline build of trusted-python, enforcement on (policy 1)",
        }
    against_control.update(pgo_rows)
    workloads = [("start-up only", startup), (f"{len(MODULES)} stdlib imports", imports),
                 (f"{GENERATED} imports compiled from source", compiled)]
    out = os.popen(f"{ref} {imports}").read().split()
    loaded, from_files = int(out[0]), int(out[1])
    sys.stdout.flush()
    saved_stdout = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    times = {(w, c): [] for w, _ in workloads for c, _, _, _ in configs}
    # Each round starts one configuration later than the one before, so
    # that none always runs after the same other one (bench/shells.md:
    # that alone moved a start-up by up to 1.8 points).
    for r in range(rounds):
        for w, script in workloads:
            for k in range(len(configs)):
                c, argv, policy, _ = configs[(r + k) % len(configs)]
                times[(w, c)].append(run(argv + [script], policy))
    os.dup2(saved_stdout, 1)
    print(f"{len(MODULES)} import statements load {loaded} modules, "
          f"{from_files} of them from .py files (one checked .pyc read each).")
    print()
    def med(w, c, i):
        return statistics.median(t[i] for t in times[(w, c)])

    def rel(w, c, base, i):
        return "" if base is None else f"{(med(w, c, i) / med(w, base, i) - 1) * 100:+.1f}%"

    last = "baseline build" if before else "control"
    print("| workload | configuration | median ms | min ms | median CPU ms "
          f"| CPU vs {PY} | CPU vs {last} |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for w, _ in workloads:
        for c, _, _, base in configs:
            wall = [t[0] for t in times[(w, c)]]
            print(f"| {w} | {c} | {statistics.median(wall):.2f} | {min(wall):.2f} "
                  f"| {med(w, c, 1):.2f} | {rel(w, c, base, 1) or 'baseline'} "
                  f"| {rel(w, c, against_control.get(c), 1)} |")
    print()
    print("Wall-clock medians against the same baselines:")
    print()
    print(f"| workload | configuration | wall vs {PY} | wall vs {last} |")
    print("|---|---|---:|---:|")
    for w, _ in workloads:
        for c, _, _, base in configs:
            if base is not None:
                print(f"| {w} | {c} | {rel(w, c, base, 0)} | {rel(w, c, against_control.get(c), 0)} |")


PER_CALL = """
import io, sys, time
path = sys.argv[1]
n = 20000
for _ in range(2000):
    with io.open_code(path) as f:
        f.read()
best = None
for _ in range(5):
    t0 = time.perf_counter()
    for _ in range(n):
        with io.open_code(path) as f:
            f.read()
    t = (time.perf_counter() - t0) / n * 1e6
    best = t if best is None else min(best, t)
print(f"{best:.2f}")
"""


def per_call(build):
    """The cost of one io.open_code() of a standard-library .pyc, in-process."""
    ref, tp, _ = interpreters(build)
    tf = os.path.join(build, "tools/trusted-for")
    pyc = f"/usr/lib/{PY}/__pycache__/os.cpython-{PY[6:].replace('.', '')}.pyc"
    rows = [
        (f"{PY} (io.open, no check)", [ref], "policy = 1\n"),
        ("trusted-python, policy 0", [tp], "policy = 0\nlog = none\n"),
        ("trusted-python, policy 1, enforcement off", [tp], "policy = 1\nlog = none\n"),
        ("trusted-python, policy 1, enforcement on",
         [tf, "run", "--restrict-file", "--", tp], "policy = 1\nlog = none\n"),
        ("trusted-python, policy 3, enforcement off", [tp], "policy = 3\nlog = none\n"),
    ]
    print()
    print(f"One io.open_code() and read() of {pyc} in a loop (best of 5 x 20000):")
    print()
    print("| configuration | us per call |")
    print("|---|---:|")
    for name, argv, policy in rows:
        with open("/etc/trustedfor.conf", "w") as f:
            f.write("trustedfor-policy 1\n" + policy + "end\n")
        us = subprocess.run(argv + ["-c", PER_CALL, pyc], check=True,
                            capture_output=True, text=True).stdout.strip()
        print(f"| {name} | {us} |")


if __name__ == "__main__":
    main()
    per_call(sys.argv[1])
