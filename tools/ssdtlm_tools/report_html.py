"""SWEEP_DIR/report.html: one self-contained page per sweep (figures embedded as base64 PNG,
the results table, the spec and the provenance), readable offline and mailable as is."""
import base64
import datetime
import html
import io
import json
import math
import os
import platform

import dask
import matplotlib
import pandas

from . import cheapest, describe, findings, plot, tail

# The columns of the page's table; the full table is results.csv / .parquet and is also
# embedded as a download link.
SUMMARY = [("iops", "IOPS"), ("bandwidth_mbps", "MB/s"),
           ("latency_us.read.mean", "read mean us"), ("latency_us.read.p99", "read p99 us"),
           ("latency_us.read.p999", "read p99.9 us"),
           ("latency_us.write.mean", "write mean us"), ("latency_us.write.p99", "write p99 us"),
           ("latency_us.write.p999", "write p99.9 us"),
           ("waf_end_to_end", "WAF"), ("energy_total_j", "energy J"), ("avg_power_w", "avg W"),
           ("peak_power_w", "peak W"), ("peak_current_ma", "peak mA"),
           ("utilisation.host_phase.bottleneck.name", "bottleneck"),
           ("utilisation.host_phase.bottleneck.busy", "bottleneck busy")]

# Runs in the page: every figure's image must have loaded; a test in headless Chromium reads
# the result from the body's data attributes (tools/test_sweep.py, test_sweep_findings.py).
CHECK_SCRIPT = """
window.addEventListener('load', function () {
  var imgs = document.querySelectorAll('figure img');
  var ok = 0;
  imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) ok++; });
  var b = document.body;
  b.setAttribute('data-figures', String(imgs.length));
  b.setAttribute('data-figures-loaded', String(ok));
  b.setAttribute('data-findings-rows',
                 String(document.querySelectorAll('#findings table.findings tr.figure').length));
  b.setAttribute('data-warnings-listed',
                 String(document.querySelectorAll('#warnings li').length));
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
#findings { border: 2px solid #468; padding: 0.3em 1em 1em; background: #f7f9fc; }
#findings h3 { margin-bottom: 0.2em; } #findings .summary { margin-top: 0.2em; }
tr.tie td { color: #777; } .warn { color: #a60; font-weight: bold; } code { font-size: 11px; }
.na { color: #888; }
table.cheapest tr.cheapest td { font-weight: bold; } table.cheapest { margin-bottom: 0.4em; }
table.grid td.reach { background: #dfd; } table.grid td.pick { outline: 2px solid #262; }
table.grid { margin-bottom: 1em; }
"""


def _img(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode()


def _cell(v):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "<span class='na'>n/a</span>"
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v:.4g}"  # no exponents in the table
    return html.escape(str(v))


def _table(df):
    """The page's results table: a row per run; n/a where a figure does not apply to the run
    (the latency of an op it did not issue, the WAF of a run that programmed nothing)."""
    params = [c for c in df.columns if c.startswith("param.")]
    cols = [("sweep.label", "point"), ("sweep.workload", "workload"),
            ("sweep.repetition", "rep")]
    cols += [(c, c[len("param."):]) for c in params]
    cols += [(c, name) for c, name in SUMMARY if c in df.columns]
    values = {c: describe.applicable(df, c) for c, _ in cols
              if c in df.columns and pandas.api.types.is_numeric_dtype(df[c])
              and not c.startswith(("sweep.", "param."))}
    head = "".join(f"<th title='{html.escape(c)}'>{html.escape(name)}</th>" for c, name in cols)
    head += "<th title='warnings'>warnings</th>"
    _, warning_id, _ = findings.warning_index(df)
    rows = []
    for i, r in df.iterrows():
        ids = [warning_id[t] for t in findings.run_warnings(r)] if r["sweep.ok"] else []
        cells = []
        for c, _ in cols:
            v = values[c][i] if values.get(c) is not None else r[c]
            if not r["sweep.ok"] and not c.startswith(("sweep.", "param.")):
                v = None
            cls = "t" if isinstance(v, str) else ""
            cells.append(f"<td class='{cls}'>{_cell(v)}</td>")
        cells.append("<td class='t'>" + ", ".join(f"<a class='warn' href='#{x}'>{x}</a>"
                                                   for x in ids) + "</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table id='results'><tr>{head}</tr>{''.join(rows)}</table>"


def _cheapest(c):
    """The cheapest point that reaches the requirement (cheapest.cheapest): near the best
    throughput, or within a field's bound (findings.meets). The cheapest and the best point
    with their figure and power, then the best figure at each cost combination."""
    esc = html.escape
    name, req = c["name"], cheapest.requirement_text(c)
    meets = bool(c["meets"])
    head = ("<tr><th></th><th>point</th><th>" + esc(name) + "</th>"
            + ("<th>IOPS</th>" if meets else "") + "<th>MB/s</th>"
            + ("" if meets else "<th>of the best</th>")
            + "<th>controller J</th><th>controller W (average)</th><th>drive J</th>"
            "<th>drive peak W</th><th>bottleneck</th></tr>")
    rows = []
    pick = c["cheapest"]["label"] if c["cheapest"] else None
    for role, p in (("cheapest", c["cheapest"]), ("best", c["best"])):
        if p is None or (role == "best" and p["label"] == pick):
            continue
        cells = [describe.fmt(p["value"], "")]
        cells += [describe.fmt(p["iops"], "")] if meets else []
        cells += [describe.fmt(p["bandwidth_mbps"], "")]
        cells += [] if meets else [describe.percent(p["of_best"])]
        cells += [describe.fmt(p["energy_by_group_j.controller"], ""),
                  describe.fmt(p["controller_w"], ""), describe.fmt(p["energy_total_j"], ""),
                  describe.fmt(p["peak_power_w"], "")]
        rows.append(f"<tr class='{role}'><th>{role}</th><td class='t'>{esc(p['label'])}</td>"
                    + "".join(f"<td>{esc(x)}</td>" for x in cells)
                    + f"<td class='t'>{esc(describe.describe_bottleneck(p['bottleneck']))}"
                    "</td></tr>")
    g = c["grid"]
    short = [k.rsplit(".", 1)[-1] for k in c["cost"]]
    corner = f"{', '.join(short[:-1]) or name} \\ {short[-1]}"  # rows \ columns
    grid = [f"<tr><th>{esc(corner)}</th>" + "".join(f"<th>{esc(str(col))}</th>"
                                                   for col in g["cols"]) + "</tr>"]
    for row, cells in zip(g["rows"], g["cells"]):
        tds = []
        for cell in cells:
            if cell is None:
                tds.append("<td class='na'>n/a</td>")
                continue
            cls = " ".join(x for x in ("reach" if cell["reaches"] else "",
                                       "pick" if cell["label"] == pick else "") if x)
            tds.append(f"<td class='{cls}' title='{esc(cell['label'])}'>"
                       f"{esc(cheapest.cell_text(c, cell))}</td>")
        grid.append(f"<tr><th>{esc(str(row))}</th>{''.join(tds)}</tr>")
    title = f"Cheapest meeting {esc(req)}" if meets else f"Cheapest {esc(req)}"
    none = "" if pick else " none does"
    shown = ("its value" if meets else "as a share of the best")
    return (f"<p class='cheapest'><b>{title}</b> (fewest "
            f"{esc(', then '.join(c['cost']))}; {c['reaching']} of {c['points']} points reach "
            f"it):{none}</p><table class='cheapest'>{head}{''.join(rows)}"
            f"</table><p class='note'>Best {esc(name)} at each cost, over the other axes, "
            f"{shown} (green: {esc(req)}; framed: the cheapest; hover for the point):</p>"
            f"<table class='grid'>{''.join(grid)}</table>")


def _tail(t):
    """Where a stage takes the slowest requests over (tail.tail): its share of their latency
    at each point along the axes, each row's answer beside it."""
    esc = html.escape
    g = t["grid"]
    short = [k.rsplit(".", 1)[-1] for k in t["along"]]
    corner = f"{', '.join(short[:-1]) or t['stage']} \\ {short[-1]}"  # rows \ columns
    head = (f"<tr><th>{esc(corner)}</th>" + "".join(f"<th>{esc(str(c))}</th>" for c in g["cols"])
            + "<th></th></tr>")
    rows = []
    for i, (row, cells) in enumerate(zip(g["rows"], g["cells"])):
        tds = "".join("<td class='na'>n/a</td>" if c is None else
                      f"<td class='{'reach' if c['leads'] else ''}' title='{esc(c['label'])}: "
                      f"{esc(describe.fmt(c['us'], 'us'))}'>{esc(describe.percent(c['share']))}"
                      "</td>" for c in cells)
        rows.append(f"<tr><th>{esc(str(row))}</th>{tds}"
                    f"<td class='t'>{esc(tail.onset_text(t, i))}</td></tr>")
    return (f"<p class='cheapest'><b>{esc(tail.heading(t))}</b> (green: its largest stage; "
            f"hover for the point and the stage's mean):</p>"
            f"<table class='grid'>{head}{''.join(rows)}</table>")


def _findings(f):
    """The findings block (findings.compute) as HTML: the answer first."""
    esc = html.escape
    parts = ["<p class='note'>Per workload: the best and the worst point of each headline "
             "figure (mean over repetitions; the report.json field is in the second column), "
             "how far apart they are (the larger over the smaller); below the table, for each "
             "point named, the busiest resource while the host ran (<code>utilisation."
             "host_phase.bottleneck</code>) and where its requests waited most (the largest "
             "stage of <code>latency_breakdown_us</code>). Grey rows: every point within "
             "1 %.</p>"]
    for w in f["workloads"]:
        parts.append(f"<h3>{esc(w['workload'])}</h3><p class='summary'>{esc(w['summary'])}</p>")
        if w.get("cheapest"):
            parts.append(_cheapest(w["cheapest"]))
        if w.get("tail"):
            parts.append(_tail(w["tail"]))
        rows = ["<tr><th>figure</th><th>field</th><th>better</th><th>best point</th>"
                "<th>worst point</th><th>gap</th><th>warnings</th></tr>"]
        # Each point named best or worst, once: what limited it (with no difference anywhere,
        # the first point's, as the summary line gives it).
        necks = {}
        for r in w["rows"]:
            for side in () if r["tie"] else ("best", "worst"):
                necks.setdefault(r[side]["label"], r[side]["bottleneck"])
        if not necks and w["rows"]:
            necks[w["rows"][0]["best"]["label"]] = w["rows"][0]["best"]["bottleneck"]
        for r in w["rows"]:
            gap = ("n/a (one point)" if r["points"] < 2 else
                   "none (within 1 %)" if r["tie"] else findings.ratio_text(r["ratio"]))
            warn = ", ".join(f"<a class='warn' href='#{i}'>{i}</a>" for i in r["warnings"])
            if r["tie"]:
                best = worst = f"all {esc(r['best']['text'])}" if r["points"] > 1 else \
                    esc(r["best"]["text"])
            else:
                best = f"{esc(r['best']['label'])}: {esc(r['best']['text'])}"
                worst = f"{esc(r['worst']['label'])}: {esc(r['worst']['text'])}"
            rows.append(
                f"<tr class='figure{' tie' if r['tie'] else ''}'>"
                f"<td class='t'>{esc(r['name'])}</td><td class='t'><code>{esc(r['field'])}"
                f"</code></td><td class='t'>{r['better']}er</td><td class='t'>{best}</td>"
                f"<td class='t'>{worst}</td><td>{gap}</td><td class='t'>{warn}</td></tr>")
        parts.append(f"<table class='findings'>{''.join(rows)}</table>")
        if necks:
            items = "".join(f"<li><b>{esc(lab)}</b>: {esc(describe.describe_bottleneck(b))}</li>"
                            for lab, b in necks.items())
            parts.append(f"<p>What limited each point named above (its busiest resource while "
                         f"the host ran, and where its requests waited most):</p>"
                         f"<ul class='necks'>{items}</ul>")
        if w["na"]:
            parts.append(f"<p class='na'>n/a (does not apply to this workload): "
                         f"{esc(', '.join(w['na']))}</p>")
    if f["warnings"]:
        items = "".join(
            f"<li id='{x['id']}'><span class='warn'>{x['id']}</span> {esc(x['text'])}<br>"
            f"in: {esc('; '.join(p['name'] for p in x['points']))}</li>" for x in f["warnings"])
        parts.append("<h3>Warnings of the runs</h3><p class='note'>Each run's report.json "
                     "<code>warnings</code>, once per text, with the points that gave it: the "
                     f"figures of those points are suspect.</p><ul id='warnings'>{items}</ul>")
    else:
        parts.append("<p id='no-warnings'>No run gave a warning.</p><ul id='warnings'></ul>")
    if f["flagged"]:
        items = "".join(f"<li class='{'failed' if 'fail' in p['reason'] else 'warn'}'>"
                        f"{esc(p['name'])}: {esc(p['reason'])}</li>" for p in f["flagged"])
        parts.append(f"<h3>Flagged points</h3><ul id='flagged'>{items}</ul>")
    return f"<section id='findings'><h2>Findings</h2>{''.join(parts)}</section>"


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
    found = findings.compute(df, manifest)
    _write(os.path.join(out_dir, "findings.json"), json.dumps(found, indent=1) + "\n")
    _write(os.path.join(out_dir, "findings.txt"), findings.to_text(found))
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
{_findings(found)}
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


def _write(path, text):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write(out_dir, df):
    path = os.path.join(out_dir, "report.html")
    _write(path, render(out_dir, df))
    return path
