"""Every drive on the page, in the page's order: their runs, notes, sources and figures."""
from . import nvme_tlc, qlc, x25m

_DRIVES = (nvme_tlc, qlc, x25m)

RUNS = [r for d in _DRIVES for r in d.RUNS]
RUN_BY_ID = {r.id: r for r in RUNS}
RUN_NOTES = {k: v for d in _DRIVES for k, v in d.RUN_NOTES.items()}
SOURCES = {k: v for d in _DRIVES for k, v in d.SOURCES.items()}
FIGURES = [f for d in _DRIVES for f in d.FIGURES]
DRIVES = {d.DRIVE[0]: d.DRIVE[1:] for d in _DRIVES}
