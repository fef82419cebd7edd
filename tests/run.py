#!/usr/bin/python3
"""Runs every test registered with Meson in each build directory, and any
extra TAP-producing command, and ends with one line: N passed, N failed.

A TAP line "ok N - what # SKIP why" is a case that did not run; with CI=true
or TRUSTEDFOR_NO_SKIP=1 it counts as a failure, so that a missing privilege
or package can never pass.  A test that exits non-zero, prints no case, or
prints fewer cases than its plan counts as a failure too.
"""
import json
import os
import re
import subprocess
import signal
import sys
import threading
import time

STRICT = os.environ.get("CI") == "true" or bool(os.environ.get("TRUSTEDFOR_NO_SKIP"))
TAP = re.compile(r"^(not ok|ok)\b(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)")


class Totals:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures = []


def run_tap(totals, label, cmd, env=None, cwd=None, timeout=600):
    print(f"# === {label}", flush=True)
    start = time.monotonic()
    cases = failed = 0
    plan = None
    timed_out = []

    def kill():
        timed_out.append(True)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    try:
        # A session of its own, so that a hung test dies with all its children.
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env, cwd=cwd, text=True,
                                errors="replace", start_new_session=True)
        watchdog = threading.Timer(timeout, kill)
        watchdog.start()
        for line in proc.stdout:
            line = line.rstrip("\n")
            print(f"    {line}", flush=True)
            p = PLAN.match(line)
            if p:
                plan = int(p.group(1))
            m = TAP.match(line)
            if not m:
                continue
            cases += 1
            skipped = "# SKIP" in m.group(2)
            if m.group(1) == "not ok" or (skipped and STRICT):
                failed += 1
                totals.failures.append(f"{label}:{m.group(2)}")
            elif skipped:
                totals.skipped += 1
            else:
                totals.passed += 1
        status = proc.wait()
        watchdog.cancel()
        if timed_out:
            status = f"killed after {timeout}s"
    except OSError as e:
        status = f"cannot run: {e}"
    totals.failed += failed
    problems = []
    if status != 0:
        problems.append(f"exited with status {status}")
    if cases == 0:
        problems.append("reported no test case")
    if plan is not None and plan != cases:
        problems.append(f"planned {plan} cases, reported {cases}")
    if problems and not failed:
        totals.failed += 1
        totals.failures.append(f"{label}: {', '.join(problems)}")
    print(f"# --- {label}: {cases} cases, {failed} failed, "
          f"{time.monotonic() - start:.1f}s{'; ' + ', '.join(problems) if problems else ''}",
          flush=True)


def meson_tests(totals, build):
    out = subprocess.run(["meson", "introspect", "--tests", build], check=True,
                         capture_output=True, text=True).stdout
    for test in json.loads(out):
        env = dict(os.environ)
        env.update(test.get("env") or {})
        run_tap(totals, f"{os.path.basename(build)}/{test['name']}", test["cmd"], env=env,
                cwd=test.get("workdir") or build, timeout=test.get("timeout") or 300)


def main(argv):
    totals = Totals()
    i = 0
    while i < len(argv):
        if argv[i] == "--build":
            meson_tests(totals, argv[i + 1])
        elif argv[i] == "--cmd":
            run_tap(totals, argv[i + 1], ["sh", "-c", argv[i + 2]], timeout=1800)
            i += 1
        else:
            sys.exit(f"usage: run.py [--build DIR]... [--cmd LABEL COMMAND]...")
        i += 2
    if totals.failures:
        print("# failures:")
        for f in totals.failures:
            print(f"#   {f}")
    skipped = f", {totals.skipped} skipped" if totals.skipped else ""
    print(f"{totals.passed} passed, {totals.failed} failed{skipped}")
    return 1 if totals.failed or not totals.passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
