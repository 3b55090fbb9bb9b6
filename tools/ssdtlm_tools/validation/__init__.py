"""The validation page's parts (tools/validate.py): what a run and a figure are and how a
figure is measured (common), each drive's runs, sources, figures and explanations (nvme_tlc,
x25m), all of them together (catalogue), running the simulator (running), judging and writing
the page (page)."""
