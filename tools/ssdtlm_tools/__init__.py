"""Design-space exploration of the ssdtlm SSD model (docs/sweeps.md).

spec: the sweep spec and its points; sweep: runs them (ssdtlm-sweep); table: one tidy table
of every report field; plot: the figures (ssdtlm-plot); html: the self-contained report.
"""
