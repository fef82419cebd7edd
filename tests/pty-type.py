#!/usr/bin/python3
"""Types on a terminal: runs COMMAND on a pseudo-terminal of its own, waits
until it has written PROMPT, types KEYS (Python escapes: "\\x1b\\x05" is
ESC C-e), and prints what the terminal showed, carriage returns dropped.
Exits with COMMAND's status (128 + N for signal N), or 124 when COMMAND
has not ended 60 seconds after it started (a bug in the test: the run is
waited for by what it prints, never by time).

    pty-type.py PROMPT KEYS COMMAND...
"""
import errno
import os
import pty
import select
import signal
import sys


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: pty-type.py PROMPT KEYS COMMAND...")
    prompt = argv[1].encode()
    keys = argv[2].encode().decode("unicode_escape").encode("latin-1")
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execvp(argv[3], argv[3:])
        finally:
            os._exit(127)
    ended = os.pidfd_open(pid)
    signal.signal(signal.SIGALRM, lambda *_: (os.kill(pid, signal.SIGKILL), sys.exit(124)))
    signal.alarm(60)
    seen, typed = b"", False
    while True:
        try:
            data = os.read(master, 4096)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            # EIO: no process has the terminal open.  That is the end once
            # COMMAND has ended, but login(1)'s vhangup() closes it for a
            # moment before login opens it again: read on until COMMAND
            # ends, looking again every 10 ms (the terminal gives no event
            # when it is opened again).
            if select.select([ended], [], [], 0.01)[0]:
                break
            continue
        if not data:
            break
        seen += data
        if not typed and prompt in seen:
            os.write(master, keys)
            typed = True
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(seen.decode("utf-8", "replace").replace("\r", ""))
    sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status)
             else 128 + os.WTERMSIG(status))


if __name__ == "__main__":
    main(sys.argv)
