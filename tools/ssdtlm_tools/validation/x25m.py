"""The X25-M class drive (Intel X25-M G1 80 GB): its runs, sources, figures X1-X12 and the
explanations of the figures that disagree."""
from .common import (
    CALIBRATED,
    FILLED,
    POWER,
    THROUGHPUT,
    Figure,
    Run,
    busy_power_w,
    idle_w,
    iops,
    mbps,
    mean_us,
    peak_ma,
    report,
    step_us,
)

X25M = "configs/x25m.json"
DRIVE = ("x25m", "X25-M class: Intel X25-M G1 80 GB", X25M)

RUNS = [
    Run("x25m-seqread", X25M, "rw=read,bs=128k,qd=32,count=5000", FILLED),
    Run("x25m-seqwrite", X25M, "rw=write,bs=128k,qd=32,count=5000", series=True),
    Run("x25m-randread-qd1", X25M, "rw=randread,bs=4k,qd=1,count=5000", FILLED),
    Run("x25m-randread-qd32", X25M, "rw=randread,bs=4k,qd=32,count=50000", FILLED),
    Run("x25m-randread-qd32-perdie", X25M, "rw=randread,bs=4k,qd=32,count=50000",
        FILLED + ("--set", "controller.issue_order=per_die_queues")),
    Run("x25m-randwrite-qd1", X25M, "rw=randwrite,bs=4k,qd=1,count=5000"),
    Run("x25m-randwrite-qd32", X25M, "rw=randwrite,bs=4k,qd=32,count=20000"),
    Run("x25m-randwrite-qd32-aged", X25M, "rw=randwrite,bs=4k,qd=32,count=20000",
        ("--precondition",), full_only=True),
    Run("x25m-write-80k", X25M, "rw=write,bs=80k,qd=1,count=1"),
    Run("x25m-idle", X25M, "idle", series=True),
]

RUN_NOTES = {
    "x25m-seqread": "filled in order first",
    "x25m-seqwrite": "fresh drive",
    "x25m-randread-qd1": "filled in order first",
    "x25m-randread-qd32": "filled in order first",
    "x25m-randread-qd32-perdie": "as x25m-randread-qd32, the core queueing per die instead of "
                                 "issuing in order",
    "x25m-randwrite-qd1": "fresh drive",
    "x25m-randwrite-qd32": "fresh drive",
    "x25m-randwrite-qd32-aged": "filled, then the capacity overwritten once at random "
                                "(steady state)",
    "x25m-write-80k": "one 80 KiB write (20 pages of 4 KiB) on an idle drive",
    "x25m-idle": "two reads 10 s apart; power over 5-9.9 s",
}

SOURCES = {
    "mynavi": "Mynavi News (news.mynavi.jp), article 20090731-x25g2 (31 July 2009), page 2: "
              "Intel's published specifications of the X25-M G1 and G2 side by side. G1: "
              "sequential read 250 MB/s, write 70 MB/s; read latency 85, write latency 115 "
              "(printed \"ms\": microseconds, as 85 ms could not give the same table's 35,000 "
              "IOPS); random 4 KB read 35,000 IOPS, write 3,300 IOPS; power active 0.15 W, "
              "idle 0.06 W",
    "trustedreviews": "Trusted Reviews, \"Intel X25-M 80GB SSD Review\" (2008): Intel's "
                      "250 MB/s read and 70 MB/s write for the 80 GB X25-M",
    "xbitlabs": "X-bit labs, Aleksey Meyev, \"First Look at Intel X25-M SSD\" (15 October "
                "2008): twenty 4 GB 50 nm MLC chips on ten channels, a 16 MB SDRAM (Samsung "
                "K4S281632I)",
    "cho-fig6": "Cho et al., \"Design Tradeoffs of SSDs: From Energy Consumption's "
                "Perspective\", ACM Transactions on Storage, 2015, Fig. 6: one write of 4 KB to "
                "160 KB on an idle X25-M, the 5 V current rising 17 mA per page in flight to "
                "520 mA with 20 pages in flight",
    "cho-active": "Cho et al., ACM Transactions on Storage, 2015: SSDs of the period drew about "
                  "800 mA at 5 V when active (15 % above a 3.5\" hard disk's 690 mA)",
    "empirical-idle": "The empirical studies of flash SSD energy (Seo, Park and Urgaonkar, "
                      "HotPower 2008; Park, Kim, Urgaonkar, Lee and Seo, Journal of Systems "
                      "Architecture 57(4), 2011): SATA SSDs of 2008-2010 idled at 0.5-1.1 W",
}


def x25m_page_cmd_us(c):
    """Controller time to start one 4 KiB page command: the channel switch delay and the
    firmware's per-page step (the per-command step is shared by a request's pages)."""
    return step_us(c, "t_cmd_issue_us") + step_us(c, "t_fw_per_page_us")


def why_x_seqread(res, cfg):
    c = cfg[X25M]
    per = x25m_page_cmd_us(c)
    busy = report(res, "x25m-seqread")["utilisation"]["controller"]["busy"]
    return ("The model's one controller core starts every flash command with the founding "
            f"study's channel switch delay (controller.t_cmd_issue_us = "
            f"{step_us(c, 't_cmd_issue_us')} us) and its firmware step "
            f"({step_us(c, 't_fw_per_page_us')} us a page), one command after another: "
            f"4 KiB every {per:.0f} us is {4096 / per:.0f} MB/s at most, whatever the ten "
            f"channels could do (the core is {busy:.1%} busy in this run). 250 MB/s means the "
            "real controller starts a 4 KiB page command at least every 16 us.")


def why_x_seqwrite(res, cfg):
    c = cfg[X25M]
    dies = c["flash"]["channels"] * c["flash"]["ways_per_channel"]
    prog = c["flash"]["t_prog_us"]
    per = x25m_page_cmd_us(c)
    t_real = dies * 4096 / 70e6 * 1e3
    return ("The model writes faster than the drive. Its "
            f"{dies} dies program 4 KiB in the study's {prog} us (flash.t_prog_us): "
            f"{dies} x 4 KiB / {prog} us = {dies * 4096 / prog:.0f} MB/s, which the "
            f"controller's {per:.0f} us a page command caps at {4096 / per:.0f} MB/s. 70 MB/s "
            f"from {dies} dies is one 4 KiB program every {t_real:.2f} ms on each die: the "
            "X25-M's 50 nm MLC programs slower than the study's X25-M figure (the study's "
            "later case study uses 900 us).")


def why_x_randwrite_fresh(res, cfg):
    c = cfg[X25M]
    per = x25m_page_cmd_us(c)
    r = report(res, "x25m-randwrite-qd32")
    extra = ""
    if "x25m-randwrite-qd32-aged" in res:
        extra = (" after a fill (the next row) the model gives "
                 f"{report(res, 'x25m-randwrite-qd32-aged')['iops']:,.0f}.")
    else:
        extra = " the next row (not run in the reduced form) gives the model after a fill."
    return ("On a fresh drive a write is one program and no garbage collection, and the model "
            f"is bound by the controller's {per:.0f} us a flash command ({1e6 / per:,.0f} IOPS "
            f"at most; the core is {r['utilisation']['controller']['busy']:.0%} busy). The "
            "table does not say in which state the drive was for its 3,300 IOPS;" + extra)


def why_x_randwrite_aged(res, cfg):
    c = cfg[X25M]
    r = report(res, "x25m-randwrite-qd32-aged")
    ops = r["flash_ops"]
    writes = r["requests"]["write"]
    per = ops["program"] / writes, ops["gc_copy"] / writes
    cmds = (ops["program"] + ops["read"] + ops["erase"]) / writes
    core = cmds * x25m_page_cmd_us(c)
    return ("After a fill and one random overwrite of the capacity, greedy collection with "
            f"{c['ftl']['overprovisioning']:.0%} over-provisioning programs {per[0]:.2f} pages "
            f"per host page and copies {per[1]:.2f}, each copy a read and a program. Every "
            f"flash command takes the controller {x25m_page_cmd_us(c):.0f} us (the study's "
            f"channel switch delay), so a host write holds the core for about {core:.0f} us: "
            f"{1e6 / core:,.0f} IOPS at most, and foreground collection stalls the writes "
            f"behind it ({r['iops']:,.0f}). The real drive hides about 7 % (80 GB on 20 x 4 GiB "
            "of NAND), less than the model's 10 %, so collection alone would make it slower, "
            "not faster: its controller starts commands faster than the study's 30 us (see "
            "the sequential read).")


def why_x_read_latency(res, cfg):
    c = cfg[X25M]
    lat = report(res, "x25m-randread-qd1")["latency_us"]["read"]["mean"]
    link = 4096 / c["host"]["link_mb_per_s"]
    bus = 4096 * c["flash"]["bus_ns_per_byte"] / 1e3
    fw = step_us(c, "t_fw_per_cmd_us") + step_us(c, "t_fw_per_page_us")
    return (f"The model's {lat:.1f} us is the founding study's parameter set added up: the "
            f"channel switch delay ({step_us(c, 't_cmd_issue_us')} us), firmware ({fw} us), "
            f"the array read ({c['flash']['t_read_us']} us), the page over the flash bus at "
            f"{c['flash']['bus_ns_per_byte']} ns a byte ({bus:.1f} us) and over the SATA link "
            f"({link:.1f} us). The published 85 us is less than the array read and the bus "
            "transfer alone, so the real drive moves a page faster than the study's 20 ns a "
            "byte and starts its command faster than 30 us.")


def why_x_write_latency(res, cfg):
    lat = report(res, "x25m-randwrite-qd1")["latency_us"]["write"]["mean"]
    prog = cfg[X25M]["flash"]["t_prog_us"]
    return ("configs/x25m.json completes a write when its page is programmed "
            "(dram.write_buffer_mb = 0, as the founding study's drives do): "
            f"{lat:.0f} us, of which the program is {prog} us. 115 us is shorter than any "
            "program of the period's MLC (the study uses 500 and 900 us), so the X25-M "
            "acknowledges a write before it is programmed. The model has a DRAM write buffer; "
            "this config leaves it off.")


def why_x_random_read(res, cfg):
    in_order = iops("x25m-randread-qd32")(res)
    per_die = iops("x25m-randread-qd32-perdie")(res)
    return ("configs/x25m.json issues flash commands in order, as the founding study's "
            "controller does (controller.issue_order in_order): a read whose channel bus is "
            "moving another page's data waits for it, and the core with it, so 32 outstanding "
            f"reads give {in_order:,.0f} IOPS. With per-die queues (the core never waits for a "
            f"bus) the same run gives {per_die:,.0f} IOPS (run x25m-randread-qd32-perdie). The "
            "config follows the study's controller, which the real drive's need not.")


def why_x_active(res, cfg):
    p = busy_power_w(res, "x25m-seqwrite")
    return (f"Busy, the model draws {p:.2f} W (sequential writes, the run above). The founding "
            "study measured 520 mA at 5 V (2.6 W) on an X25-M with 20 pages in flight (row "
            "X10). Intel's 0.15 W is far below what the drive draws while it moves data, so it "
            "must be an average over a workload with idle time; the table gives no "
            "conditions, and the model is not run on a guess of them.")


def why_x_idle(res, cfg):
    c = cfg[X25M]
    base = c["power"]["rails"][0]["i_baseline_ma"]
    return (f"The config's board baseline ({base} mA at 5 V) comes from the founding study's "
            "current measurement of the X25-M (Fig. 6: 520 mA with 20 pages in flight at 17 mA "
            "a page leaves 180 mA at 5 V with no page in flight, of which the idle components "
            "draw 83.1 mA with the dies' currents at the 5 V input), which puts the idle "
            "drive at 0.9 W, inside the 0.5-1.1 W the empirical studies measured on SATA SSDs "
            "of 2008-2010 (row X11). Intel's 0.06 W is a fifteenth of that and the table gives "
            "no conditions for it (a low-power state of the SATA link would be one); "
            "configs/x25m_lowpower.json models the link's states but keeps the measured "
            "baseline.")


def why_x_active_class(res, cfg):
    avg = busy_power_w(res, "x25m-seqwrite") / 5.0 * 1e3
    peak = report(res, "x25m-seqwrite")["peak_current_ma"]
    return ("The model's currents are the founding study's X25-M parameter set (20 dies at 20 "
            "mA at the 5 V input, where its Fig. 6 measured their 17 mA step, a 30 mA "
            "controller at 3.3 V, and the 180 mA at 5 V with no page in flight): writing "
            f"sequentially it draws {avg:.0f} mA on average and {peak:.0f} mA at most. 800 mA "
            "is the study's figure for SSDs of the period in general, not for the X25-M, whose "
            "own measured 520 mA with 20 pages in flight the model comes within tolerance of "
            "(row X10).")


FIGURES = [
    Figure("X1", "x25m", "Sequential read, 128 KiB, QD32", 250, "MB/s",
           ("mynavi", "trustedreviews"), ("x25m-seqread",), mbps("x25m-seqread"), THROUGHPUT,
           why=why_x_seqread),
    Figure("X2", "x25m", "Sequential write, 128 KiB, QD32", 70, "MB/s",
           ("mynavi", "trustedreviews"), ("x25m-seqwrite",), mbps("x25m-seqwrite"), THROUGHPUT,
           why=why_x_seqwrite),
    Figure("X3", "x25m", "4 KiB random read, QD32", 35000, "IOPS", ("mynavi",),
           ("x25m-randread-qd32", "x25m-randread-qd32-perdie"), iops("x25m-randread-qd32"),
           THROUGHPUT, why=why_x_random_read),
    Figure("X4", "x25m", "4 KiB random write, QD32, fresh drive", 3300, "IOPS", ("mynavi",),
           ("x25m-randwrite-qd32",), iops("x25m-randwrite-qd32"), THROUGHPUT,
           why=why_x_randwrite_fresh),
    Figure("X5", "x25m", "4 KiB random write, QD32, after a fill (steady state)", 3300, "IOPS",
           ("mynavi",), ("x25m-randwrite-qd32-aged",), iops("x25m-randwrite-qd32-aged"),
           THROUGHPUT, why=why_x_randwrite_aged),
    Figure("X6", "x25m", "Read latency, 4 KiB, QD1 (mean)", 85, "us", ("mynavi",),
           ("x25m-randread-qd1",), mean_us("x25m-randread-qd1", "read"), THROUGHPUT,
           why=why_x_read_latency),
    Figure("X7", "x25m", "Write latency, 4 KiB, QD1 (mean)", 115, "us", ("mynavi",),
           ("x25m-randwrite-qd1",), mean_us("x25m-randwrite-qd1", "write"), THROUGHPUT,
           why=why_x_write_latency),
    Figure("X8", "x25m", "Active power (sequential write run)", 0.15, "W", ("mynavi",),
           ("x25m-seqwrite",), lambda res: busy_power_w(res, "x25m-seqwrite"), POWER,
           why=why_x_active),
    Figure("X9", "x25m", "Idle power", 0.06, "W", ("mynavi",), ("x25m-idle",),
           idle_w("x25m-idle"), CALIBRATED, why=why_x_idle),
    Figure("X10", "x25m", "5 V current, 80 KiB write on an idle drive (20 pages in flight)", 520,
           "mA", ("cho-fig6",), ("x25m-write-80k",), peak_ma("x25m-write-80k"), THROUGHPUT),
    Figure("X11", "x25m", "Idle power, SATA SSDs of 2008-2010 (class)", 0.8, "W",
           ("empirical-idle",), ("x25m-idle",), idle_w("x25m-idle"), (0.5 / 0.8, 1.1 / 0.8),
           published_text="0.5-1.1 W", tol_text="the range"),
    Figure("X12", "x25m", "Current while active, SSDs of the period (class)", 800, "mA",
           ("cho-active",), ("x25m-seqwrite",),
           lambda res: busy_power_w(res, "x25m-seqwrite") / 5.0 * 1e3, POWER,
           why=why_x_active_class),
]
