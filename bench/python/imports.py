# Driven by imports.sh inside a private mount namespace; run with Debian's
# /usr/bin/python3.11.  Starts every configuration once per round, in turn,
# so that drift in the machine's load spreads over all of them.
import os
import statistics
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


def run(argv, policy):
    with open("/etc/trustedfor.conf", "w") as f:
        f.write(policy)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ)
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    if status != 0:
        sys.exit(f"{argv}: status {status}")
    # Wall-clock time, and the CPU time of the process and its children
    # (trusted-for run execs, so the interpreter is the same process).
    return (t1 - t0) * 1000, (ru.ru_utime + ru.ru_stime) * 1000


def main():
    build, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tp = os.path.join(build, "interpreters/python/trusted-python")
    tf = os.path.join(build, "tools/trusted-for")
    ref = "/usr/bin/python3.11"
    on = [tf, "run", "--restrict-file", "--"]
    p1 = "policy = 1\nlog = none\n"
    p3 = "policy = 3\nlog = none\n"
    p0 = "policy = 0\nlog = none\n"
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
    configs = [
        ("python3.11", [ref], p1),
        ("trusted-python, enforcement off (policy 1)", [tp], p1),
        ("python3.11 under trusted-for run", on + [ref], p1),
        ("trusted-python, enforcement on (policy 1)", on + [tp], p1),
        ("trusted-python, enforcement off, policy 3 (the default)", [tp], p3),
        ("trusted-python, enforcement off, policy 0 (nothing checked)", [tp], p0),
    ]
    workloads = [("start-up only", startup), (f"{len(MODULES)} stdlib imports", imports)]
    out = os.popen(f"{ref} {imports}").read().split()
    loaded, from_files = int(out[0]), int(out[1])
    sys.stdout.flush()
    saved_stdout = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    times = {(w, c): [] for w, _ in workloads for c, _, _ in configs}
    for _ in range(rounds):
        for w, script in workloads:
            for c, argv, policy in configs:
                times[(w, c)].append(run(argv + [script], policy))
    os.dup2(saved_stdout, 1)
    print(f"{len(MODULES)} import statements load {loaded} modules, "
          f"{from_files} of them from .py files (one checked .pyc read each).")
    print()
    print("| workload | configuration | median ms | mean ms | min ms | vs baseline "
          "| median CPU ms | CPU vs baseline |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for w, _ in workloads:
        base = base_cpu = None
        for i, (c, _, _) in enumerate(configs):
            wall = [t[0] for t in times[(w, c)]]
            cpu = [t[1] for t in times[(w, c)]]
            med, med_cpu = statistics.median(wall), statistics.median(cpu)
            if i in (0, 2):
                base, base_cpu = med, med_cpu
                rel = rel_cpu = "baseline"
            else:
                rel = f"{(med / base - 1) * 100:+.1f}%"
                rel_cpu = f"{(med_cpu / base_cpu - 1) * 100:+.1f}%"
            print(f"| {w} | {c} | {med:.2f} | {statistics.mean(wall):.2f} | "
                  f"{min(wall):.2f} | {rel} | {med_cpu:.2f} | {rel_cpu} |")


main()
