"""The Dask cluster a sweep or the soak runs its points on: a LocalCluster of one single-threaded
worker process per core (or an existing scheduler), and a Ctrl-C that stops it without a word."""
import logging
import os
import signal

from dask.distributed import Client, LocalCluster

# Dask's logging level for `distributed`, read by each worker process as it starts.
WORKER_LOG_ENV = "DASK_LOGGING__DISTRIBUTED"


def client_for(scheduler, workers):
    if scheduler:
        return Client(scheduler), None
    # One single-threaded worker process per core by default: each point is one ssdtlm
    # process, which uses one core. The workers ignore Ctrl-C (their processes inherit it from
    # here): the sweep shuts them down itself, where each would print its tracebacks. The
    # simulations they run still stop on it (ssdtlm handles SIGINT itself). Their log is
    # Dask's internals and stays quiet: each point's failure comes back as its status, while
    # the tasks a Ctrl-C cuts short would each warn, and a worker's heartbeat racing the
    # scheduler's close logs an error with a traceback (seen on a loaded machine).
    n = workers or os.cpu_count() or 1
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    level = os.environ.get(WORKER_LOG_ENV)
    os.environ[WORKER_LOG_ENV] = "critical"
    try:
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    finally:
        signal.signal(signal.SIGINT, previous)
        if level is None:
            del os.environ[WORKER_LOG_ENV]
        else:
            os.environ[WORKER_LOG_ENV] = level
    return Client(cluster), cluster


def quiet_after_ctrl_c():
    """A sweep stopped by Ctrl-C shuts its cluster down without a word: a second Ctrl-C is
    ignored, and so are Dask's warnings about the tasks cut short, and the errors of callbacks
    its event loop runs while closing (distributed 2026.8 can raise a NameError in one as the
    client closes, which tornado logs with its traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("distributed", "tornado.application"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def stop_quietly(signum, frame):
    """The sweep's Ctrl-C: quiet first, then stop. Dask's client thread may log a warning about
    a result it could no longer gather (the simulations stop on the same Ctrl-C) before the
    main thread would otherwise see the KeyboardInterrupt (seen on a loaded machine)."""
    quiet_after_ctrl_c()
    raise KeyboardInterrupt
