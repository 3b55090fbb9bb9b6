"""The NVMe QLC 2 TB drive (Intel SSD 670p 2 TB class): its runs, sources, figures Q1-Q9 and
the explanations of the figures that disagree."""
from .common import (
    CALIBRATED,
    FILLED,
    THROUGHPUT,
    Figure,
    Run,
    iops,
    knee,
    mbps,
    report,
    why_qd1_write,
)

QLC = "configs/nvme_qlc_2tb.json"
DRIVE = ("qlc", "NVMe QLC 2 TB: Intel SSD 670p 2 TB class", QLC)
SEQWRITE_32G = "qlc-seqwrite-32g"  # past the static SLC cache alone (Q4)
SEQWRITE_320G = "qlc-seqwrite-320g"  # past the whole SLC cache, static and dynamic (Q5)
# The static region alone: a drive more than 75 % full has no dynamic cache (the config's
# curve gives it none); switching the dynamic part off gives the same cache on a fresh drive.
STATIC_ONLY = ("--set", "ftl.slc_dynamic=[]")
# The read runs use the 2 TB drive cut to 200 of its 2100 blocks a plane (its static SLC cache
# to 9 of 90 blocks a plane, the same share), filled first: reads do not depend on the number
# of blocks, and filling the whole drive is the cost of a 2 TB write.
QLC_SCALED = ("--set", "flash.blocks_per_plane=200", "--set", "ftl.slc_cache_blocks_per_plane=9")
NO_INDEPENDENT = ("--set", "flash.independent_plane_reads=false")
# No SLC cache: the fill goes to QLC blocks directly, none of it folded (Q1's explanation).
NO_SLC = ("--set", "ftl.slc_cache_blocks_per_plane=0", "--set", "ftl.slc_dynamic=[]")
QD256 = ("--set", "host.queue_depth=256")
SEQREAD_MBPS = 3500  # Q1: Intel's sequential read

RUNS = [
    Run("qlc-seqread", QLC, "rw=read,bs=128k,qd=32,count=20000", QLC_SCALED + FILLED),
    Run("qlc-seqread-no-slc", QLC, "rw=read,bs=128k,qd=32,count=20000",
        QLC_SCALED + NO_SLC + FILLED),
    Run("qlc-seqwrite", QLC, "rw=write,bs=128k,qd=32,count=20000"),
    Run(SEQWRITE_32G, QLC, "rw=write,bs=128k,qd=32,count=245000", STATIC_ONLY,
        request_log=True, full_only=True),
    Run(SEQWRITE_320G, QLC, "rw=write,bs=128k,qd=32,count=2450000", request_log=True,
        full_only=True),
    Run("qlc-randread-qd1", QLC, "rw=randread,bs=4k,qd=1,count=5000", QLC_SCALED + FILLED),
    Run("qlc-randread-qd256", QLC, "rw=randread,bs=4k,qd=256,count=100000",
        QLC_SCALED + FILLED + QD256),
    Run("qlc-randread-qd256-joined", QLC, "rw=randread,bs=4k,qd=256,count=100000",
        QLC_SCALED + FILLED + QD256 + NO_INDEPENDENT),
    Run("qlc-randwrite-qd1", QLC, "rw=randwrite,bs=4k,qd=1,count=5000"),
    Run("qlc-randwrite-qd256", QLC, "rw=randwrite,bs=4k,qd=256,count=200000", QD256),
]

RUN_NOTES = {
    "qlc-seqread": "2 TB drive scaled to 200 blocks a plane (SLC cache and cached mapping "
                   "table in proportion), filled in order first",
    "qlc-seqwrite": "fresh drive; 2.6 GB, inside the SLC cache",
    SEQWRITE_32G: "fresh drive, the static SLC cache alone (as on a drive more than 75 % "
                  "full); 32 GB, past it; per-request log",
    SEQWRITE_320G: "fresh drive; 321 GB, past the whole SLC cache (static and dynamic); "
                   "per-request log",
    "qlc-seqread-no-slc": "as qlc-seqread, the drive without an SLC cache (its fill folded "
                          "nowhere)",
    "qlc-randread-qd1": "scaled and filled as qlc-seqread",
    "qlc-randread-qd256": "scaled and filled as qlc-seqread; the host keeps 256 outstanding",
    "qlc-randread-qd256-joined": "as qlc-randread-qd256, without independent plane reads (a "
                                 "die's planes read together or one at a time)",
    "qlc-randwrite-qd1": "fresh drive",
    "qlc-randwrite-qd256": "fresh drive; the host keeps 256 outstanding",
}

SOURCES = {
    "tpu-670p": "TechPowerUp news, \"Intel Rolls Out SSD 670p Mainstream NVMe SSD Series\" "
                "(1 March 2021): SM2265G 8-channel controller, 256 MB DDR3L for every "
                "capacity, 144-layer QLC; 2 TB: sequential read up to 3500 MB/s, write up "
                "to 2700 MB/s",
    "toms-670p": "Tom's Hardware, \"Intel SSD 670p M.2 NVMe SSD Review: Scaling QLC to New "
                 "Heights\" (2 TB, March 2021; text as reposted on csblackdevil.com, 2 March "
                 "2021): Intel's figures, up to 3.5/2.7 GBps sequential read/write, "
                 "20,000/54,000 random read/write IOPS at QD1, 310,000/340,000 at QD256, "
                 "\"based on the SSD's dynamic SLC cache\"",
    "anandtech-670p": "AnandTech, Billy Tallis, \"The Intel SSD 670p Review\" (2 TB, March "
                      "2021), page 4, \"Whole-Drive Fill\": SLC cache writes \"just above and "
                      "just below 3 GB/s\"; after the cache \"SATA territory\" (no figure)",
    "computerbase-665p": "ComputerBase, \"Intel SSD 665p: Intel traut 96-Layer-QLC mehr "
                         "Leistung und Haltbarkeit zu\" (November 2019): the SLC cache is "
                         "140 GB (1 TB) and 280 GB (2 TB) while at most half the capacity "
                         "holds data, the fixed part alone from 75 % full",
    "etb-660p": "Evan Tech Book, \"Intel SSD 660p: The first QLC SSD for residential "
                "customers is here\" (August 2018): a static SLC part of 6 to 24 GB (512 GB "
                "to 2 TB) always available, growing to 76 to 280 GB",
}


def why_seqread(res, cfg):
    r = report(res, "qlc-seqread")
    u = r["utilisation"]
    flat = report(res, "qlc-seqread-no-slc")
    lo, hi = THROUGHPUT
    ratio = flat["bandwidth_mbps"] / SEQREAD_MBPS
    there = ("within tolerance of Intel's figure" if lo <= ratio <= hi
             else f"{ratio:.2f} of Intel's figure, still outside its tolerance")
    return ("The dies bound the model's sequential read: the busiest, "
            f"{u['bottleneck']['name']}, is {u['bottleneck']['busy']:.1%} busy (all "
            f"{u['dies_busy_mean']:.0%} on average) while the channels are "
            f"{max(c['busy'] for c in u['channels']):.0%} busy and the controller "
            f"{u['controller']['busy']:.0%}. Why: the fill went through the SLC cache, and the "
            "model folds an SLC block into the die's one open block for copies (GC and fold "
            "copies are single-plane, filled in page order: docs/ftl.md#allocation), so pages "
            "a multi-plane program had put side by side on four planes end up on one plane, "
            "far apart; a 128 KiB read then queues its pages on one or two planes, and the "
            "independent plane reads have little to overlap. The same read of the drive "
            "filled without an SLC cache (qlc-seqread-no-slc: nothing folded) gives "
            f"{flat['bandwidth_mbps']:,.0f} MB/s, bound by the controller "
            f"({flat['utilisation']['controller']['busy']:.0%} busy), {there}: a fold that "
            "keeps each page's plane, as NAND copy-back must, "
            "would bring the model there (not modelled yet). Each page is a QLC array read of "
            f"{cfg[QLC]['flash']['t_read_us']} us (an assumption: no read time is published "
            "for this part).")


def why_randwrite_qd1(res, cfg):
    return why_qd1_write(res, cfg[QLC], "qlc-randwrite-qd1",
                         "Intel's 54,000 IOPS is 18.5 us a write (as N8: Samsung's 60,000 IOPS "
                         "for the TLC drive).")


def why_randwrite_qd256(res, cfg):
    r = report(res, "qlc-randwrite-qd256")
    wb = r["write_buffer"]
    seq = report(res, "qlc-seqwrite")["bandwidth_mbps"]
    u = r["utilisation"]["host_phase"]  # the whole span ends with the idle fold of the cache
    c = cfg[QLC]["controller"]
    per_write_us = c["t_cmd_issue_us"] + c["t_fw_per_cmd_us"] + c["t_fw_per_page_us"]
    dram_mbps = wb["dram_burst_bytes"] / 1e6 / u["span_s"]
    return ("The controller bounds the model's random writes: each 4 KiB write costs it "
            f"{per_write_us:g} us (t_cmd_issue_us + t_fw_per_cmd_us + t_fw_per_page_us, "
            f"assumptions), at most {1e6 / per_write_us:,.0f} writes a second, and it is "
            f"{u['controller']['busy']:.0%} busy while the host writes. Next would come the "
            f"dies ({u['dies_busy_mean']:.0%} busy programming SLC pages) and the DRAM "
            f"(the write buffer's page bursts in and out, {dram_mbps:,.0f} MB/s of "
            f"dram.burst_mb_per_s {cfg[QLC]['dram']['burst_mb_per_s']:,}); the full buffer "
            f"held {wb['full_stalls']:,} writes ({wb['stall_s'] * 1e3:.2f} ms in all). "
            f"The model writes {r['bandwidth_mbps']:,.0f} MB/s, near its sequential write in "
            f"the cache ({seq:,.0f} MB/s, Q2). Intel's 340,000 IOPS is 1,390 MB/s, about half "
            "its own sequential write in the cache: what bounds the real drive's 4 KiB writes "
            "(firmware per command, mapping updates of a reduced-DRAM design) is not "
            "published, and the model's per-command costs are assumptions.")


def why_randread_qd1(res, cfg):
    r = report(res, "qlc-randread-qd1")
    c = cfg[QLC]["flash"]
    return ("A QD1 read waits for one QLC array read: the model's mean read latency is "
            f"{r['latency_us']['read']['mean']:.1f} us, of which the array read is "
            f"{c['t_read_us']} us on average (t_read_by_page_type_us "
            f"{c['t_read_by_page_type_us']}). Intel's 20,000 IOPS is 50 us a read, less "
            "than any QLC array read; Intel states its figures are \"based on the SSD's "
            "dynamic SLC cache\", i.e. data read back from SLC-mode blocks (t_read_slc_us "
            f"{c['t_read_slc_us']} us), where the model reads the filled drive's data from "
            "QLC blocks (none of it in the SLC cache: slc_cache.host_pages "
            f"{r['slc_cache']['host_pages']}).")


def why_randread_qd256(res, cfg):
    r = report(res, "qlc-randread-qd256")
    j = report(res, "qlc-randread-qd256-joined")
    return ("With independent plane reads each of the 16 dies senses its 4 planes at "
            "different addresses at once: the dies are "
            f"{r['utilisation']['dies_busy_mean']:.0%} busy, the mean read latency "
            f"{r['latency_us']['read']['mean']:.0f} us. Without them (run "
            f"qlc-randread-qd256-joined) a die reads one address at a time and the model "
            f"gives {j['iops']:,.0f} IOPS (ratio {j['iops'] / 310000:.2f}, dies "
            f"{j['utilisation']['dies_busy_mean']:.0%} busy): Intel's 310,000 lies between "
            "the two, so the real drive uses part of its dies' plane parallelism; how much is "
            "not published.")


FIGURES = [
    Figure("Q1", "qlc", "Sequential read, 128 KiB, QD32", SEQREAD_MBPS, "MB/s",
           ("tpu-670p", "toms-670p"), ("qlc-seqread",), mbps("qlc-seqread"), THROUGHPUT,
           why=why_seqread),
    Figure("Q2", "qlc", "Sequential write, 128 KiB, QD32, within the SLC cache", 2700, "MB/s",
           ("tpu-670p", "toms-670p"), ("qlc-seqwrite",), mbps("qlc-seqwrite"), THROUGHPUT),
    Figure("Q3", "qlc", "Sequential write within the SLC cache (review, whole-drive fill)",
           3000, "MB/s", ("anandtech-670p",), ("qlc-seqwrite",), mbps("qlc-seqwrite"),
           THROUGHPUT, published_text="about 3000"),
    Figure("Q4", "qlc", "SLC cache: data written at full speed (static part)", 24, "GB",
           ("etb-660p",), (SEQWRITE_32G,), lambda res: knee(res, SEQWRITE_32G)[0],
           CALIBRATED),
    Figure("Q5", "qlc", "SLC cache: data written at full speed (empty drive, with the "
           "dynamic part)", 280, "GB", ("computerbase-665p", "etb-660p"), (SEQWRITE_320G,),
           lambda res: knee(res, SEQWRITE_320G)[0], CALIBRATED),
    Figure("Q6", "qlc", "4 KiB random read, QD1", 20000, "IOPS", ("toms-670p",),
           ("qlc-randread-qd1",), iops("qlc-randread-qd1"), THROUGHPUT, why=why_randread_qd1),
    Figure("Q7", "qlc", "4 KiB random read, QD256", 310000, "IOPS", ("toms-670p",),
           ("qlc-randread-qd256", "qlc-randread-qd256-joined"), iops("qlc-randread-qd256"),
           THROUGHPUT,
           why=why_randread_qd256),
    Figure("Q8", "qlc", "4 KiB random write, QD1", 54000, "IOPS", ("toms-670p",),
           ("qlc-randwrite-qd1",), iops("qlc-randwrite-qd1"), THROUGHPUT,
           why=why_randwrite_qd1),
    Figure("Q9", "qlc", "4 KiB random write, QD256", 340000, "IOPS", ("toms-670p",),
           ("qlc-randwrite-qd256",), iops("qlc-randwrite-qd256"), THROUGHPUT,
           why=why_randwrite_qd256),
]
