#pragma once
// The config's choices: each an enum with one name table, the names config files use. Parsing
// (an unknown name is an error listing the known ones), writing configs and the report's echo
// of them all go through the table, so a new choice is one enumerator and one name.
#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace ssd::config {

// The host side's protocol (host.interface): SATA's one NCQ queue of up to 32, or NVMe.
enum class HostProtocol { Sata, Nvme };
// How the drive picks the next submission queue to fetch from (host.arbitration).
enum class Arbitration { RoundRobin, WeightedRoundRobin };
// A submission queue's class under weighted round robin (host.queues[].priority).
enum class QueuePriority { Urgent, High, Medium, Low };
// Which ready command a free die starts and which ready die gets its channel's bus
// (controller.scheduler_policy): the oldest in issue order, or reads before programs/erases.
enum class SchedulerPolicy { OldestReady, ReadFirst };
// Which queued commands to one block may pass each other (controller.block_order): none, or
// the NAND part's rules.
enum class BlockOrder { InOrder, Nand };
// How the controller sends flash commands to the channels (controller.issue_order): each die
// has its queue at its channel and the core never waits for a bus; or in order, each command
// issued only once the bus it needs can take it, the core waiting meanwhile (head-of-line
// blocking), as the founding study's controller does.
enum class IssueOrder { PerDieQueues, InOrder };
// Which FTL core takes a host command's FTL work (controller.ftl_placement), with several:
// the one free first (shared mapping tables, any core may take any command), or by data, each
// core owning stripes of logical units (controller.stripe_units) in turn.
enum class FtlPlacement { Shared, Stripes };
// What NAND dies do while the drive has nothing to do (flash.idle_policy).
enum class NandIdlePolicy { AlwaysOn, OffWhenIdle };
// What powers down together (flash.die_power_down.scope): a die, or a channel's dies.
enum class PowerDownScope { Die, Channel };
// Who owns the ECC engines that decode page reads (flash.reliability.ecc_scope): each channel
// its own, or the controller, its engines shared by every channel.
enum class EccScope { Channel, Controller };
// The temperature the data on aging NAND is kept at during the run
// (flash.reliability.run_temperature): the storage temperature, or the thermal model's NAND node.
enum class RunTemperature { Storage, Die };
// What the firmware does when injected faults leave a die out of room
// (flash.faults.die_out_of_room; docs/reliability.md#when-a-die-runs-out-of-room): the drive
// turns read-only at once, or host data goes to the other dies until every die is out.
enum class DieOutOfRoom { ReadOnly, OtherDies };
// Bits per cell (flash.cell_type).
enum class CellType { Slc, Mlc, Tlc, Qlc };
// What one program of a native-mode block writes (flash.program_unit): a page, or all the
// pages of a word line at once (one-shot programming).
enum class ProgramUnit { Page, WordLine };
// The FTL the firmware runs (ftl.type; firmware/ftl/).
enum class FtlType { Page, Dftl, Block, Bast, BastStar, Fast, Last };
// The order host pages take over dies and planes (ftl.allocation; docs/ftl.md#allocation).
enum class Allocation { ChannelFirst, PlaneFirst, DieFirst };
// How garbage collection shares the dies with the host (ftl.gc_mode; docs/ftl.md#gc-modes).
enum class GcMode { Foreground, Incremental };
// Page-level GC's victim choice (ftl.gc_policy).
enum class GcPolicy { Greedy, CostBenefit, Random, Window };
// Wear levelling of the page-level FTLs (ftl.wear_leveling).
enum class WearLeveling { None, Static };
// When the SLC cache is folded into the main region (ftl.slc_fold): once idle, or also when
// a die's cache is full.
enum class SlcFold { Idle, OnFull };
// The reclaim unit handles' type under flexible data placement (ftl.fdp.isolation; NVMe FDP):
// initially isolated, garbage collection may put data of several handles into one reclaim unit;
// persistently isolated, it keeps each handle's data apart.
enum class FdpIsolation { Initially, Persistently };
// How the block FTL takes an update of a page below its data block's write pointer
// (ftl.block_update; docs/ftl.md#block-mapping). Replacement: Ban 1999's replacement block, as
// Kuo et al. 2008 describe it and the founding study built it. CopyOnUpdate: the block rebuilt
// at once.
enum class BlockUpdate { Replacement, CopyOnUpdate };
// How a host read of the block FTL finds a page's current copy in its replacement block
// (ftl.block_read_lookup; docs/ftl.md#read-look-up). Scan: it reads the replacement block's
// spare areas, newest first. Sram (the founding study's): the firmware keeps the offset of each
// replacement-block page in SRAM, written as it writes the page, and searches it there.
enum class BlockReadLookup { Scan, Sram };
// Where a group's currents were measured (power.regulators.<group>.currents_at): at the
// components' own supply (their section's voltage_v, through the regulator), or at the rail
// feeding them, as a probe at the drive's input sees them (the founding study's 5 V probe).
enum class CurrentsAt { Supply, Rail };
// The thermal model's NAND nodes (thermal.nand_nodes): one for all packages, or per channel.
enum class NandNodes { One, PerChannel };
// What the firmware does when hot (thermal.throttle.action).
enum class ThrottleAction { None, PowerBudget, Dies };
// The integrated lifetime manager's mode (lifetime.mode; docs/lifetime.md).
enum class LifetimeMode { Off, Baseline, Throttling, Compression, Dedup, Integrated };
// What a namespace is (namespaces[].kind): a conventional one, which the FTL serves, or a zoned
// one (NVMe ZNS), which the zoned firmware serves on blocks of its own.
enum class NamespaceKind { Conventional, Zoned };
// Which dies a zoned namespace's zone takes a block on (namespaces[].zones.stripe): every die,
// a group of group_dies dies, or one die (config/ZoneConfig.h).
enum class ZoneStripe { AllDies, DieGroup, OneDie };
// A zone's size against its capacity (namespaces[].zones.size): the next power of two (what
// Linux's zoned block devices need), or equal (no unwritable blocks between zones).
enum class ZoneSizeRule { PowerOfTwo, Capacity };

// Choice<E>::kWhat names the choice in error messages; Choice<E>::kNames maps each value to
// its name in config files.
template <class E>
struct Choice;

template <class E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;

template <>
struct Choice<HostProtocol> {
  static constexpr const char* kWhat = "host interface";
  static constexpr Names<HostProtocol, 2> kNames = {
      {{HostProtocol::Sata, "sata"}, {HostProtocol::Nvme, "nvme"}}};
};
template <>
struct Choice<Arbitration> {
  static constexpr const char* kWhat = "arbitration";
  static constexpr Names<Arbitration, 2> kNames = {
      {{Arbitration::RoundRobin, "round_robin"},
       {Arbitration::WeightedRoundRobin, "weighted_round_robin"}}};
};
template <>
struct Choice<QueuePriority> {
  static constexpr const char* kWhat = "queue priority";
  static constexpr Names<QueuePriority, 4> kNames = {{{QueuePriority::Urgent, "urgent"},
                                                      {QueuePriority::High, "high"},
                                                      {QueuePriority::Medium, "medium"},
                                                      {QueuePriority::Low, "low"}}};
};
template <>
struct Choice<SchedulerPolicy> {
  static constexpr const char* kWhat = "scheduler policy";
  static constexpr Names<SchedulerPolicy, 2> kNames = {
      {{SchedulerPolicy::OldestReady, "oldest_ready"}, {SchedulerPolicy::ReadFirst, "read_first"}}};
};
template <>
struct Choice<BlockOrder> {
  static constexpr const char* kWhat = "block order";
  static constexpr Names<BlockOrder, 2> kNames = {
      {{BlockOrder::InOrder, "in_order"}, {BlockOrder::Nand, "nand"}}};
};
template <>
struct Choice<IssueOrder> {
  static constexpr const char* kWhat = "issue order";
  static constexpr Names<IssueOrder, 2> kNames = {
      {{IssueOrder::PerDieQueues, "per_die_queues"}, {IssueOrder::InOrder, "in_order"}}};
};
template <>
struct Choice<FtlPlacement> {
  static constexpr const char* kWhat = "FTL placement";
  static constexpr Names<FtlPlacement, 2> kNames = {
      {{FtlPlacement::Shared, "shared"}, {FtlPlacement::Stripes, "stripes"}}};
};
template <>
struct Choice<NandIdlePolicy> {
  static constexpr const char* kWhat = "NAND idle policy";
  static constexpr Names<NandIdlePolicy, 2> kNames = {
      {{NandIdlePolicy::AlwaysOn, "always_on"}, {NandIdlePolicy::OffWhenIdle, "off_when_idle"}}};
};
template <>
struct Choice<PowerDownScope> {
  static constexpr const char* kWhat = "power-down scope";
  static constexpr Names<PowerDownScope, 2> kNames = {
      {{PowerDownScope::Die, "die"}, {PowerDownScope::Channel, "channel"}}};
};
template <>
struct Choice<EccScope> {
  static constexpr const char* kWhat = "ECC scope";
  static constexpr Names<EccScope, 2> kNames = {
      {{EccScope::Channel, "channel"}, {EccScope::Controller, "controller"}}};
};
template <>
struct Choice<RunTemperature> {
  static constexpr const char* kWhat = "run temperature";
  static constexpr Names<RunTemperature, 2> kNames = {
      {{RunTemperature::Storage, "storage"}, {RunTemperature::Die, "die"}}};
};
template <>
struct Choice<DieOutOfRoom> {
  static constexpr const char* kWhat = "out-of-room policy";
  static constexpr Names<DieOutOfRoom, 2> kNames = {
      {{DieOutOfRoom::ReadOnly, "read_only"}, {DieOutOfRoom::OtherDies, "other_dies"}}};
};
template <>
struct Choice<CellType> {
  static constexpr const char* kWhat = "cell type";
  static constexpr Names<CellType, 4> kNames = {{{CellType::Slc, "slc"},
                                                 {CellType::Mlc, "mlc"},
                                                 {CellType::Tlc, "tlc"},
                                                 {CellType::Qlc, "qlc"}}};
};
template <>
struct Choice<ProgramUnit> {
  static constexpr const char* kWhat = "program unit";
  static constexpr Names<ProgramUnit, 2> kNames = {
      {{ProgramUnit::Page, "page"}, {ProgramUnit::WordLine, "word_line"}}};
};
template <>
struct Choice<FtlType> {
  static constexpr const char* kWhat = "FTL type";
  static constexpr Names<FtlType, 7> kNames = {{{FtlType::Page, "page"},
                                                {FtlType::Dftl, "dftl"},
                                                {FtlType::Block, "block"},
                                                {FtlType::Bast, "bast"},
                                                {FtlType::BastStar, "bast_star"},
                                                {FtlType::Fast, "fast"},
                                                {FtlType::Last, "last"}}};
};
template <>
struct Choice<Allocation> {
  static constexpr const char* kWhat = "allocation order";
  static constexpr Names<Allocation, 3> kNames = {{{Allocation::ChannelFirst, "channel_first"},
                                                   {Allocation::PlaneFirst, "plane_first"},
                                                   {Allocation::DieFirst, "die_first"}}};
};
template <>
struct Choice<GcMode> {
  static constexpr const char* kWhat = "GC mode";
  static constexpr Names<GcMode, 2> kNames = {
      {{GcMode::Foreground, "foreground"}, {GcMode::Incremental, "incremental"}}};
};
template <>
struct Choice<GcPolicy> {
  static constexpr const char* kWhat = "GC policy";
  static constexpr Names<GcPolicy, 4> kNames = {{{GcPolicy::Greedy, "greedy"},
                                                 {GcPolicy::CostBenefit, "cost_benefit"},
                                                 {GcPolicy::Random, "random"},
                                                 {GcPolicy::Window, "window"}}};
};
template <>
struct Choice<WearLeveling> {
  static constexpr const char* kWhat = "wear-levelling mode";
  static constexpr Names<WearLeveling, 2> kNames = {
      {{WearLeveling::None, "none"}, {WearLeveling::Static, "static"}}};
};
template <>
struct Choice<FdpIsolation> {
  static constexpr const char* kWhat = "FDP isolation";
  static constexpr Names<FdpIsolation, 2> kNames = {
      {{FdpIsolation::Initially, "initially_isolated"},
       {FdpIsolation::Persistently, "persistently_isolated"}}};
};
template <>
struct Choice<SlcFold> {
  static constexpr const char* kWhat = "SLC fold policy";
  static constexpr Names<SlcFold, 2> kNames = {
      {{SlcFold::Idle, "idle"}, {SlcFold::OnFull, "on_full"}}};
};
template <>
struct Choice<BlockUpdate> {
  static constexpr const char* kWhat = "block update";
  static constexpr Names<BlockUpdate, 2> kNames = {
      {{BlockUpdate::Replacement, "replacement"}, {BlockUpdate::CopyOnUpdate, "copy_on_update"}}};
};
template <>
struct Choice<BlockReadLookup> {
  static constexpr const char* kWhat = "block read look-up";
  static constexpr Names<BlockReadLookup, 2> kNames = {
      {{BlockReadLookup::Scan, "scan"}, {BlockReadLookup::Sram, "sram"}}};
};
template <>
struct Choice<CurrentsAt> {
  static constexpr const char* kWhat = "current reference";
  static constexpr Names<CurrentsAt, 2> kNames = {
      {{CurrentsAt::Supply, "supply"}, {CurrentsAt::Rail, "rail"}}};
};
template <>
struct Choice<NandNodes> {
  static constexpr const char* kWhat = "NAND node layout";
  static constexpr Names<NandNodes, 2> kNames = {
      {{NandNodes::One, "one"}, {NandNodes::PerChannel, "per_channel"}}};
};
template <>
struct Choice<ThrottleAction> {
  static constexpr const char* kWhat = "throttle action";
  static constexpr Names<ThrottleAction, 3> kNames = {
      {{ThrottleAction::None, "none"},
       {ThrottleAction::PowerBudget, "power_budget"},
       {ThrottleAction::Dies, "dies"}}};
};
template <>
struct Choice<LifetimeMode> {
  static constexpr const char* kWhat = "lifetime mode";
  static constexpr Names<LifetimeMode, 6> kNames = {{{LifetimeMode::Off, "off"},
                                                     {LifetimeMode::Baseline, "baseline"},
                                                     {LifetimeMode::Throttling, "throttling"},
                                                     {LifetimeMode::Compression, "compression"},
                                                     {LifetimeMode::Dedup, "dedup"},
                                                     {LifetimeMode::Integrated, "integrated"}}};
};

template <>
struct Choice<NamespaceKind> {
  static constexpr const char* kWhat = "namespace kind";
  static constexpr Names<NamespaceKind, 2> kNames = {
      {{NamespaceKind::Conventional, "conventional"}, {NamespaceKind::Zoned, "zoned"}}};
};
template <>
struct Choice<ZoneStripe> {
  static constexpr const char* kWhat = "zone stripe";
  static constexpr Names<ZoneStripe, 3> kNames = {{{ZoneStripe::AllDies, "all_dies"},
                                                   {ZoneStripe::DieGroup, "die_group"},
                                                   {ZoneStripe::OneDie, "one_die"}}};
};
template <>
struct Choice<ZoneSizeRule> {
  static constexpr const char* kWhat = "zone size rule";
  static constexpr Names<ZoneSizeRule, 2> kNames = {
      {{ZoneSizeRule::PowerOfTwo, "power_of_two"}, {ZoneSizeRule::Capacity, "capacity"}}};
};

// The value's name in config files.
template <class E>
const char* to_string(E value) {
  for (const auto& [v, name] : Choice<E>::kNames) {
    if (v == value) return name;
  }
  throw std::invalid_argument(std::string("invalid ") + Choice<E>::kWhat);
}

// The value a config file's name stands for; nullopt for a name no value has.
template <class E>
std::optional<E> parse_choice(std::string_view name) {
  for (const auto& [v, value_name] : Choice<E>::kNames) {
    if (name == value_name) return v;
  }
  return std::nullopt;
}

// "a, b, c": the known names, for error messages.
template <class E>
std::string known_names() {
  std::string out;
  for (const auto& entry : Choice<E>::kNames) {
    out += (out.empty() ? "" : ", ") + std::string(entry.second);
  }
  return out;
}

}  // namespace ssd::config
