"""gunicorn settings for `make bench load`: each worker notes the CPU of every request.

The load bench reads whole-process CPU from /proc, which cannot tell apart requests that run
at the same moment (a move's POST and the pages around it). Here each sync worker reads its
own CPU clock around each request (gunicorn's pre_request and post_request hooks: the WSGI
call and writing the response; only reading the request line and headers is outside) and
appends it, with the label the client put in its X-Bench header, to a file the bench reads.
"""

import os
import time

CPU_DIR = os.environ.get("BENCH_CPU_DIR", "")
_notes = {}


def pre_request(worker, req):
    worker.bench_cpu_start = time.process_time()


def post_request(worker, req, environ, resp):
    spent = time.process_time() - getattr(worker, "bench_cpu_start", time.process_time())
    label = next((value for name, value in req.headers if name == "X-BENCH"), "")
    if not CPU_DIR or not label:
        return
    notes = _notes.get(os.getpid())
    if notes is None:
        notes = _notes[os.getpid()] = open(os.path.join(CPU_DIR, f"cpu-{os.getpid()}.tsv"), "a", buffering=1)  # noqa: SIM115
    notes.write(f"{label}\t{spent:.6f}\n")
