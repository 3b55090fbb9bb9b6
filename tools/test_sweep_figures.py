"""The sweep's figures without a sweep: error bars, colours past twenty points, the
overlap check, coincident curves.
Run with: python3 -m pytest tools/test_sweep_figures.py."""

import pandas as pd

from ssdtlm_tools import plot


def test_error_bars_of_equal_repetitions_are_not_negative():
    """Three repetitions of one value (a sequential read, whose seed changes nothing) whose
    float mean rounds above them: the bars span nothing, and the figure draws."""
    import matplotlib.pyplot as plt
    df = pd.DataFrame({"sweep.workload": ["w"] * 3, "sweep.label": ["a"] * 3})
    agg = plot._by_config(df, pd.Series([0.1, 0.1, 0.1]))
    assert pd.Series([0.1, 0.1, 0.1]).mean() > 0.1  # what the clip is for
    assert agg.loc[("w", "a"), "mean"] == agg.loc[("w", "a"), "max"] == 0.1
    fig, ax = plt.subplots()
    m = agg["mean"].to_numpy()
    ax.barh([0], m, xerr=[m - agg["min"].to_numpy(), agg["max"].to_numpy() - m])
    plt.close(fig)


def test_point_colours_stay_distinct_past_twenty():
    """tab20 alone repeats from the 21st point or energy state (controller_cores.yaml has 24
    points, 26 states): a legend would name two by one colour. Distinct up to 60; ten or fewer
    points keep tab10, 20 or fewer states tab20."""
    for n in (10, 24, 60):
        c = plot.colours([f"p{i}" for i in range(n)])
        assert len(set(c.values())) == n, n
        assert len(set(plot.palette(n))) == n  # the energy breakdown's states (26 with 5 cores)
    assert plot.colours(["a"])["a"] == plt_colour("tab10", 0)
    assert plot.palette(20) == [plt_colour("tab20", i) for i in range(20)]  # as before


def plt_colour(name, i):
    import matplotlib.pyplot as plt
    return plt.get_cmap(name).colors[i]


def test_overlap_check_sees_overlapping_labels():
    """The check above would fail on crowded labels and on small text."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_xticks(range(10), [f"config=case_{i}x{i}" for i in range(10)])
    ax.text(0.5, 0.5, "one label", transform=ax.transAxes, fontsize=6)
    ax.text(0.5, 0.5, "another", transform=ax.transAxes)
    found = plot.overlapping_texts(fig)
    assert any("x tick" in f for f in found)
    assert any("'one label' overlaps" in f for f in found)
    # A figure title drawn over a panel's title.
    ax.set_title("a panel title")
    assert not any("'a panel title' overlaps" in f for f in plot.overlapping_texts(fig))
    box = ax.title.get_window_extent()
    fig.suptitle("a figure title", y=(box.y0 + box.y1) / 2 / fig.bbox.height, va="center")
    assert any("'a panel title' overlaps figure: 'a figure title'" in f
               for f in plot.overlapping_texts(fig))
    assert plot.small_texts(fig) == ["'one label' at 6.0 pt"]
    plt.close(fig)


def test_coincident_curves_share_their_line_in_turns():
    """Curves equal point for point (four configs that time alike) take their line in turns,
    a dash of each colour, so none hides another; a curve of its own stays solid."""
    a, b = ([1, 2, 3], [0.1, 0.5, 1.0]), ([1, 2, 3], [0.2, 0.5, 1.0])
    styles = plot.coincident_styles([a, a, b, a])
    d = plot.DASH
    assert styles == [(0, (d, 2 * d)), (d, (d, 2 * d)), "-", (2 * d, (d, 2 * d))]
    assert plot.coincident_styles([a, b]) == ["-", "-"]
