#!/usr/bin/python3
"""Runs every test registered with Meson in each build directory, and any
extra TAP-producing command, and ends with one line: N passed, N failed.

A TAP line "ok N - what # SKIP why" is a case that did not run; with CI=true
or TRUSTEDFOR_NO_SKIP=1 it counts as a failure, so that a missing privilege
or package can never pass.  This is the one place that rule is decided:
tests/lib.sh's not_run and tests/tap.h's tap_not_run only report the skip.
A test that exits non-zero, prints no case, or prints fewer cases than its
plan counts as a failure too.

A line "ok N - what # N/A not applicable on this kernel: why" is a case the
running kernel cannot have (decided by a probe: tests/lib.sh's kernel_lacks,
tests/tap.h's tap_kernel_lacks).  It counts neither as passed nor as failed
nor as skipped, and each kernel's summary line gives the count.

  --build DIR            every Meson test of DIR
  --cmd LABEL COMMAND    a command that prints TAP
  --section LABEL        what follows runs on another kernel (a guest): its
                         cases get a summary line of their own; the first
                         section is this machine's, "<version> host"
  --exclude NAME         leave out the Meson test NAME of the next --build
                         (kernel/userspace.sh: the tests left to the host)
  --only NAME            run only the Meson tests so named of the next --build
                         (a NAME that is no test there counts as a failure)
  --suite SUITE          run only the Meson tests of SUITE of the next --build
  --no-suite SUITE       leave out the Meson tests of SUITE of the next --build
                         (--only, --suite and --no-suite are Meson's own
                         selection: meson test --list; after the last --build,
                         these and --exclude apply to that one)
  --start LABEL COMMAND  start a command that prints TAP now, beside what
                         follows (80 minutes' time limit: a kernel build and a
                         guest); its output is read where "--wait LABEL"
                         stands, in that section
  --timeout-factor N     multiply every time limit by N (under emulation)
  --tap                  print one TAP stream of every case, labelled, for a
                         harness that reads it back (kernel/userspace.sh)
"""
import atexit
import json
import os
import re
import subprocess
import signal
import sys
import tempfile
import threading
import time

STRICT = os.environ.get("CI") == "true" or bool(os.environ.get("TRUSTEDFOR_NO_SKIP"))
TAP = re.compile(r"^(not ok|ok)\b(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)")
NA = re.compile(r"#\s*N/A\b")
NUMBER = re.compile(r"^\s*\d+\s*(-\s*)?")


class Section:
    def __init__(self, label):
        self.label = label
        self.passed = self.failed = self.skipped = self.na = 0


class Totals:
    def __init__(self, tap=False):
        self.passed = self.failed = self.skipped = self.na = 0
        self.failures = []
        self.sections = []
        self.tap = tap
        self.tap_n = 0
        release = os.uname().release.split(".")
        self.section(f"{'.'.join(release[:2])} host")

    def section(self, label):
        self.sections.append(Section(label))

    def count(self, kind, n=1):
        setattr(self, kind, getattr(self, kind) + n)
        setattr(self.sections[-1], kind, getattr(self.sections[-1], kind) + n)

    def emit(self, ok, label, rest):
        """--tap: one case of the whole run, numbered afresh."""
        if self.tap:
            self.tap_n += 1
            print(f"{'ok' if ok else 'not ok'} {self.tap_n} - {label}: "
                  f"{NUMBER.sub('', rest, count=1)}", flush=True)


class Started:
    """A command running from now on, under a time limit: read as it goes
    (run_tap), or its output kept in a file for later (start_tap), so that a
    guest boots under emulation while the host's tests run beside it."""

    def __init__(self, cmd, env=None, cwd=None, timeout=600, stdout=subprocess.PIPE):
        self.start = time.monotonic()
        self.timeout = timeout
        self.timed_out = False
        self.error = None
        self.proc = None
        try:
            # A session of its own, so that a hung test dies with all its children.
            self.proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                         text=True, errors="replace", start_new_session=True)
        except OSError as e:
            self.error = f"cannot run: {e}"
            return
        self.watchdog = threading.Timer(timeout, self.kill)
        self.watchdog.daemon = True
        self.watchdog.start()

    def kill(self):
        if not self.proc or self.proc.returncode is not None:
            return
        self.timed_out = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def status(self):
        if self.error:
            return self.error
        self.proc.wait()
        self.watchdog.cancel()
        return f"killed after {self.timeout}s" if self.timed_out else self.proc.returncode


def run_tap(totals, label, cmd, env=None, cwd=None, timeout=600):
    print(f"# === {label}", flush=True)
    run = Started(cmd, env=env, cwd=cwd, timeout=timeout)
    read_tap(totals, label, run, run.proc.stdout if run.proc else [])


def start_tap(cmd, timeout):
    out = tempfile.TemporaryFile("w+", errors="replace")
    return Started(["sh", "-c", cmd], timeout=timeout, stdout=out), out


def wait_tap(totals, label, started):
    print(f"# === {label} (started with the run)", flush=True)
    run, out = started
    run.status()
    out.seek(0)
    read_tap(totals, label, run, out)
    out.close()


def read_tap(totals, label, run, lines):
    cases = failed = na = 0
    plan = None
    for line in lines:
        line = line.rstrip("\n")
        m = TAP.match(line)
        if not totals.tap:
            print(f"    {line}", flush=True)
        elif not m:
            print(f"#   {line}", flush=True)
        p = PLAN.match(line)
        if p:
            plan = int(p.group(1))
        if not m:
            continue
        cases += 1
        skipped = "# SKIP" in m.group(2)
        if m.group(1) == "not ok" or (skipped and STRICT):
            failed += 1
            totals.failures.append(f"{label}:{m.group(2)}")
            totals.emit(False, label, m.group(2))
            continue
        totals.emit(True, label, m.group(2))
        if NA.search(m.group(2)):
            na += 1
            totals.count("na")
        elif skipped:
            totals.count("skipped")
        else:
            totals.count("passed")
    status = run.status()
    totals.count("failed", failed)
    problems = []
    if status != 0:
        problems.append(f"exited with status {status}")
    if cases == 0:
        problems.append("reported no test case")
    if plan is not None and plan != cases:
        problems.append(f"planned {plan} cases, reported {cases}")
    if problems and not failed:
        totals.count("failed")
        totals.failures.append(f"{label}: {', '.join(problems)}")
        totals.emit(False, label, ", ".join(problems))
    print(f"# --- {label}: {cases} cases, {failed} failed, "
          f"{f'{na} not applicable, ' if na else ''}"
          f"{time.monotonic() - run.start:.1f}s{'; ' + ', '.join(problems) if problems else ''}",
          flush=True)


def selected(build, select):
    """The names of the tests that meson test would run with SELECT: its
    --suite and --no-suite options and test names."""
    out = subprocess.run(["meson", "test", "-C", build, "--list", "--no-rebuild"] + select,
                         check=True, capture_output=True, text=True).stdout
    return {line.rsplit(" / ", 1)[-1] for line in out.splitlines() if " / " in line}


def meson_tests(totals, build, exclude, only, suites, factor):
    out = subprocess.run(["meson", "introspect", "--tests", build], check=True,
                         capture_output=True, text=True).stdout
    tests = json.loads(out)
    names = {test["name"] for test in tests}
    for name in sorted(only - names):
        label = f"{os.path.basename(build)}/{name}"
        print(f"# --- {label}: no such test", flush=True)
        totals.count("failed")
        totals.failures.append(f"{label}: no such test")
        totals.emit(False, label, "no such test")
    chosen = names
    if only and not only & names:
        chosen = set()
    elif only or suites:
        chosen = selected(build, suites + sorted(only & names))
    for test in tests:
        if test["name"] in exclude or test["name"] not in chosen:
            print(f"# --- {os.path.basename(build)}/{test['name']}: left out", flush=True)
            continue
        env = dict(os.environ)
        env.update(test.get("env") or {})
        run_tap(totals, f"{os.path.basename(build)}/{test['name']}", test["cmd"], env=env,
                cwd=test.get("workdir") or build,
                timeout=(test.get("timeout") or 300) * factor)


def summary(c):
    skipped = f", {c.skipped} skipped" if c.skipped else ""
    return f"{c.passed} passed, {c.failed} failed{skipped}"


# Each option and the number of arguments it takes.
ARITY = {"--section": 1, "--exclude": 1, "--only": 1, "--suite": 1, "--no-suite": 1,
         "--timeout-factor": 1, "--build": 1, "--start": 2, "--wait": 1, "--cmd": 2}
SELECTION = ("--exclude", "--only", "--suite", "--no-suite")
USAGE = ("usage: run.py [--tap] [--timeout-factor N] [--section LABEL] "
         "[--exclude NAME | --only NAME | --suite SUITE | --no-suite SUITE]... [--build DIR]... "
         "[--cmd LABEL COMMAND]... [--start LABEL COMMAND ... --wait LABEL]")


def parse(argv):
    """The options in order, each with its arguments; the selection given
    after the last --build moved before it ("--build build --only cli.sh")."""
    actions = []
    i = 0
    while i < len(argv):
        n = ARITY.get(argv[i])
        if n is None or i + n >= len(argv):
            sys.exit(USAGE)
        actions.append((argv[i], argv[i + 1:i + 1 + n]))
        i += 1 + n
    builds = [k for k, (option, _) in enumerate(actions) if option == "--build"]
    if builds:
        last = builds[-1]
        rest = actions[last + 1:]
        actions = (actions[:last] + [a for a in rest if a[0] in SELECTION] + [actions[last]]
                   + [a for a in rest if a[0] not in SELECTION])
    return actions


def main(argv):
    # Interrupted, the run takes its started commands (a guest) down with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    totals = Totals(tap="--tap" in argv)
    actions = parse([a for a in argv if a != "--tap"])
    exclude, only, suites = set(), set(), []
    started = {}
    atexit.register(lambda: [run.kill() for run, _ in started.values()])
    factor = 1
    for option, args in actions:
        if option == "--section":
            totals.section(args[0])
        elif option == "--exclude":
            exclude.add(args[0])
        elif option == "--only":
            only.add(args[0])
        elif option in ("--suite", "--no-suite"):
            suites += [option, args[0]]
        elif option == "--timeout-factor":
            factor = int(args[0])
        elif option == "--build":
            meson_tests(totals, args[0], exclude, only, suites, factor)
            exclude, only, suites = set(), set(), []
        elif option == "--start":
            started[args[0]] = start_tap(args[1], timeout=4800 * factor)
        elif option == "--wait" and args[0] in started:
            wait_tap(totals, args[0], started.pop(args[0]))
        elif option == "--cmd":
            run_tap(totals, args[0], ["sh", "-c", args[1]], timeout=1800 * factor)
        else:
            sys.exit(USAGE)
    for label, (run, _) in started.items():
        run.kill()
        sys.exit(f"run.py: --start {label} without --wait {label}")
    if totals.failures:
        print("# failures:")
        for f in totals.failures:
            print(f"#   {f}")
    if totals.tap:
        print(f"1..{totals.tap_n}")
    for c in totals.sections:
        if c.passed or c.failed or c.skipped or c.na:
            print(f"{'# ' if totals.tap else ''}{c.label}: {summary(c)}"
                  f" ({c.na} not applicable)")
    print(summary(totals))
    return 1 if totals.failed or not totals.passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
