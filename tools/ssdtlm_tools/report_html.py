"""SWEEP_DIR/report.html: one self-contained page per sweep (figures embedded as base64 PNG,
the results table, the spec and the provenance), readable offline and mailable as is."""
import base64
import datetime
import html
import io
import json
import os
import platform

import dask
import matplotlib
import pandas

from . import plot

# The columns of the page's table; the full table is results.csv / .parquet and is also
# embedded as a download link.
SUMMARY = [("iops", "IOPS"), ("bandwidth_mbps", "MB/s"),
           ("latency_us.read.mean", "read mean us"), ("latency_us.read.p99", "read p99 us"),
           ("latency_us.write.mean", "write mean us"), ("latency_us.write.p99", "write p99 us"),
           ("waf", "WAF"), ("energy_total_j", "energy J"), ("avg_power_w", "avg W"),
           ("peak_power_w", "peak W"), ("utilisation.bottleneck.name", "bottleneck")]

# Runs in the page: every figure's image must have loaded; a test in headless Chromium reads
# the result from the body's data attributes (tools/test_sweep.py).
CHECK_SCRIPT = """
window.addEventListener('load', function () {
  var imgs = document.querySelectorAll('figure img');
  var ok = 0;
  imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) ok++; });
  document.body.setAttribute('data-figures', String(imgs.length));
  document.body.setAttribute('data-figures-loaded', String(ok));
});
"""

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; } td.t { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; font-size: 12px; overflow-x: auto; }
figure { margin: 1em 0; } figure img { max-width: 100%; }
.failed { color: #a00; }
"""


def _img(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode()


def _cell(v):
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v:.4g}"  # no exponents in the table
    return html.escape(str(v))


def _table(df):
    params = [c for c in df.columns if c.startswith("param.")]
    cols = [("sweep.label", "point"), ("sweep.workload", "workload"),
            ("sweep.repetition", "rep")]
    cols += [(c, c[len("param."):]) for c in params]
    cols += [(c, name) for c, name in SUMMARY if c in df.columns]
    head = "".join(f"<th>{html.escape(name)}</th>" for _, name in cols)
    rows = []
    for _, r in df.iterrows():
        cells = "".join(
            f"<td class='{'t' if isinstance(r[c], str) else ''}'>{_cell(r[c])}</td>"
            for c, _ in cols)
        rows.append(f"<tr>{cells}</tr>")
    return f"<table id='results'><tr>{head}</tr>{''.join(rows)}</table>"


def _provenance(df, manifest):
    first = df[df["sweep.ok"]].iloc[0] if df["sweep.ok"].any() else None
    items = {
        "sweep": manifest["name"],
        "spec": manifest["spec"],
        "ssdtlm binary": manifest["binary"],
        "binary sha256": manifest["binary_sha256"],
        "ssdtlm version": "" if first is None else
        f"{first.get('provenance.version', '')} ({first.get('provenance.git', '')})",
        "report written": datetime.datetime.now(datetime.timezone.utc)
        .isoformat(timespec="seconds"),
        "host": platform.node(),
        "python / pandas / matplotlib / dask": f"{platform.python_version()} / "
        f"{pandas.__version__} / {matplotlib.__version__} / {dask.__version__}",
        "runs": f"{len(df)} ({int(df['sweep.ok'].sum())} with a report)",
    }
    return "".join(f"<tr><th>{html.escape(k)}</th><td class='t'>{html.escape(str(v))}</td></tr>"
                   for k, v in items.items())


def render(out_dir, df):
    with open(os.path.join(out_dir, "sweep.json")) as f:
        manifest = json.load(f)
    figures = plot.make_figures(df, out_dir, manifest.get("plot", {}))
    spec_files = [n for n in os.listdir(out_dir) if n.startswith("spec.")]
    spec_text = ""
    if spec_files:
        with open(os.path.join(out_dir, spec_files[0]), encoding="utf-8") as f:
            spec_text = f.read()
    csv = io.StringIO()
    df.to_csv(csv, index=False)
    csv_link = "data:text/csv;base64," + base64.b64encode(csv.getvalue().encode()).decode()
    failed = manifest.get("failed", [])
    failed_html = "".join(
        f"<li class='failed'>{html.escape(f['label'])} / {html.escape(f['workload'])}: exit "
        f"{f['returncode']}, log {html.escape(f['log'])}</li>" for f in failed)
    figs = "".join(
        f"<figure id='fig-{fid}'><img alt='{html.escape(title)}' src='{_img(figures[fid])}'>"
        f"<figcaption>{html.escape(title)}</figcaption></figure>"
        for fid, title in plot.FIGURES.items() if fid in figures)
    name = html.escape(manifest["name"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ssdtlm sweep {name}</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style><script>{CHECK_SCRIPT}</script></head>
<body>
<h1>ssdtlm sweep: {name}</h1>
<h2>Provenance</h2><table id="provenance">{_provenance(df, manifest)}</table>
{'<h2>Failed points</h2><ul id="failed">' + failed_html + '</ul>' if failed else ''}
<h2>Figures</h2>{figs}
<h2>Results</h2>
<p>One row per run; every report field is in <a download="results.csv" href="{csv_link}">the
full table (CSV)</a>, also <code>results.csv</code> and <code>results.parquet</code> beside
this page.</p>
{_table(df)}
<h2>Spec</h2><pre id="spec">{html.escape(spec_text)}</pre>
</body></html>
"""


def write(out_dir, df):
    path = os.path.join(out_dir, "report.html")
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(out_dir, df))
    os.replace(tmp, path)
    return path
