#!/usr/bin/env python3
"""Where a Co-Simulation FMU's run time goes: CPU seconds (time.process_time, so load on the
machine does not inflate them) of fmi2Instantiate, initialization, the first DoSteps and the
whole run of the default experiment, in this process (no sandbox: trusted FMUs only).

    python3 bench/start_cost.py FMU [STEPS]     # STEPS communication steps (default 500)

The battery starts many instances (eq-determinism alone five, in two processes); when the
start of an instance (instantiate, initialize, first steps) is most of a run, the battery
costs about (instances started) x (start cost), whatever the horizon of its runs.
Issue 16, README "Benchmarks"."""
import ctypes as C
import os
import re
import sys
import tempfile
import time
import zipfile


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    tmp = tempfile.mkdtemp(prefix="fmuc-start-")
    zipfile.ZipFile(sys.argv[1]).extractall(tmp)
    md = open(os.path.join(tmp, "modelDescription.xml"), encoding="utf-8").read()
    guid = re.search(r'guid="([^"]*)"', md).group(1)
    cs = re.search(r'<CoSimulation[^>]*modelIdentifier="([^"]*)"', md)
    if not cs:
        sys.exit("no CoSimulation interface")
    exp = re.search(r"<DefaultExperiment([^>]*)>", md)
    attr = dict(re.findall(r'(\w+)="([^"]*)"', exp.group(1))) if exp else {}
    t0 = float(attr.get("startTime", 0.0))
    t1 = float(attr.get("stopTime", t0 + 1.0))
    tol = float(attr.get("tolerance", 1e-4))
    lib = C.CDLL(os.path.join(tmp, "binaries", "linux64", cs.group(1) + ".so"))
    libc = C.CDLL(None)
    libc.calloc.restype = C.c_void_p
    libc.calloc.argtypes = [C.c_size_t, C.c_size_t]
    libc.free.argtypes = [C.c_void_p]
    LOG = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p, C.c_int, C.c_char_p, C.c_char_p)
    ALLOC = C.CFUNCTYPE(C.c_void_p, C.c_size_t, C.c_size_t)
    FREE = C.CFUNCTYPE(None, C.c_void_p)

    class Callbacks(C.Structure):
        _fields_ = [("logger", LOG), ("alloc", ALLOC), ("free", FREE), ("step", C.c_void_p),
                    ("env", C.c_void_p)]

    cb = Callbacks(LOG(lambda *a: None), ALLOC(lambda n, s: libc.calloc(n, s)),
                   FREE(lambda p: libc.free(p)), None, None)
    f = lib.fmi2Instantiate
    f.restype = C.c_void_p
    f.argtypes = [C.c_char_p, C.c_int, C.c_char_p, C.c_char_p, C.c_void_p, C.c_int, C.c_int]
    lib.fmi2SetupExperiment.argtypes = [C.c_void_p, C.c_int, C.c_double, C.c_double, C.c_int,
                                        C.c_double]
    for n in ("fmi2EnterInitializationMode", "fmi2ExitInitializationMode", "fmi2Terminate",
              "fmi2FreeInstance"):
        getattr(lib, n).argtypes = [C.c_void_p]
    lib.fmi2DoStep.argtypes = [C.c_void_p, C.c_double, C.c_double, C.c_int]

    def cpu(fn, *a):
        s = time.process_time()
        r = fn(*a)
        return r, time.process_time() - s

    uri = ("file://" + os.path.join(tmp, "resources")).encode()
    c, t_inst = cpu(f, b"start-cost", 1, guid.encode(), uri, C.byref(cb), 0, 0)
    if not c:
        sys.exit("fmi2Instantiate returned NULL")
    s = time.process_time()
    lib.fmi2SetupExperiment(c, 1, tol, t0, 1, t1)
    lib.fmi2EnterInitializationMode(c)
    lib.fmi2ExitInitializationMode(c)
    t_init = time.process_time() - s
    h = (t1 - t0) / steps
    per = []
    worst = 0
    for k in range(steps):
        st, dt = cpu(lib.fmi2DoStep, c, t0 + k * h, h, 1)
        worst = max(worst, st)
        per.append(dt)
        if st > 1:
            break
    lib.fmi2Terminate(c)
    lib.fmi2FreeInstance(c)
    run = t_inst + t_init + sum(per)
    start = t_inst + t_init + sum(per[:10])
    print(f"{os.path.basename(sys.argv[1])}: {len(per)} steps of {h:g} s, worst status {worst}")
    print(f"  CPU s: instantiate {t_inst:.4f}, initialize {t_init:.4f}, first step "
          f"{per[0]:.4f}, first 10 steps {sum(per[:10]):.4f}, whole run {run:.4f}")
    print(f"  start (instantiate + initialize + 10 steps) = {100 * start / run:.0f} % of the run")


if __name__ == "__main__":
    main()
