#include "model/LatencyBreakdown.h"

namespace ssd::model {
namespace {

struct StageText {
  const char* name;
  const char* meaning;
};
constexpr StageText kStages[kStageCount] = {
    {"host_queue", "From its arrival to the host sending it: queued in the host."},
    {"submission", "From sent to fetched: in its submission queue, then the fetch."},
    {"link_in",
     "From fetched to at the controller: the link's wake, the command (and a write's first page) "
     "over the link, an earlier overlapping command still on its way."},
    {"core_queue",
     "Waiting for the controller core (with several cores, a host core) while it worked on earlier "
     "commands or background work."},
    {"firmware",
     "The core working on it (firmware, DRAM) up to the flash command on its critical path; with "
     "several cores, the host core's part, up to handing the command's FTL work over."},
    {"messages",
     "Several cores: the messages between the host core and the FTL core on its critical path "
     "(t_message_ns each way)."},
    {"ftl_queue",
     "Several cores: waiting for the FTL core while it worked on other commands' FTL work."},
    {"ftl_firmware",
     "Several cores: the FTL core working on it (look-ups and updates, DRAM, flash command issue) "
     "up to the flash command on its critical path."},
    {"core_wait_flash",
     "The core blocked on flash (mapping-table reads, write buffer room, the bus under in-order "
     "issue), for this command or, while it waited for the core, for earlier ones."},
    {"core_wait_gc",
     "The core blocked on flash while collecting garbage (foreground GC), for this command or, "
     "while it waited for the core, for earlier ones."},
    {"data_wait",
     "Its flash program waiting for its data: a write's data still crossing the link (or into "
     "the write buffer), or the read of a read-modify-write."},
    {"throttle",
     "Its program held back by lifetime throttling (lifetime.mode throttling: the drive paces "
     "programs to last its rated life), once its data was there."},
    {"flash_wait_host", "Queued at the die, or for the channel bus, behind other host work."},
    {"flash_wait_gc",
     "Queued at the die behind background work (GC, wear levelling, merges, folding), or for "
     "the room an erase of garbage collection frees."},
    {"flash_wait_power",
     "Queued while its die woke from power-down or the power budget held it back."},
    {"flash",
     "The flash command itself, from its start at the die to its end (its data phase's wait for "
     "the bus included; a cache program from when it was staged behind the one before it)."},
    {"read_retry",
     "Aging NAND: a read's retry steps after its first decode failed, each an array read at "
     "shifted voltages and its data out (their waits for the bus included)."},
    {"ecc_decode",
     "Aging NAND: its read's decodes at an ECC engine (its channel's or the controller's), their "
     "queue behind other reads' decodes included."},
    {"transfer_back",
     "From done in the drive to completed at the host: read data over the link, the completion "
     "post and the interrupt."},
};

}  // namespace

const char* to_string(Stage s) { return kStages[static_cast<std::size_t>(s)].name; }
const char* meaning(Stage s) { return kStages[static_cast<std::size_t>(s)].meaning; }

}  // namespace ssd::model
