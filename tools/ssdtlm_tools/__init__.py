"""Design-space exploration of the ssdtlm SSD model (docs/sweeps.md).

spec: the sweep spec and its points; sweep: runs them; table: one tidy table of every report
field; plot: the figures; report_html: the self-contained report; cli: the command lines
ssdtlm-sweep and ssdtlm-plot. Imports go one way: cli -> sweep -> report_html -> plot, with
spec and table below them all.
"""
