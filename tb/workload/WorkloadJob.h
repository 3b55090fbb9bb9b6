#pragma once
// One job of a synthetic workload: its settings, parsed from key=value text by the same code
// for the --workload string and the jobs of a --workload-file, and the requests it generates.
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/NamespaceConfig.h"
#include "tb/host/HostRequest.h"
#include "tb/workload/Zipf.h"
#include "tb/workload/ZoneAppends.h"

namespace ssd::tb {

enum class AddressDistribution { kUniform, kZipf, kHotspot };

// What a workload may address: the drive's namespaces (config order), or one of a capacity.
struct AddressSpace {
  std::vector<config::NamespaceRange> namespaces;
  // One namespace of the whole capacity, as a drive with none listed has.
  AddressSpace(uint64_t capacity_bytes)  // implicit: a capacity is the common case
      : namespaces{config::NamespaceRange{"ns1", 0, capacity_bytes}} {}
  explicit AddressSpace(std::vector<config::NamespaceRange> ns) : namespaces(std::move(ns)) {}
};

struct JobSpec {
  std::string name;
  // The namespace its requests address (index into the drive's) and its name as given (empty:
  // the first, by default).
  uint32_t ns = 0;
  std::string ns_name;
  // Its writes' placement identifier (ftl.fdp: a reclaim unit handle); given or not.
  std::optional<uint16_t> placement;
  // After every this many bytes it wrote, a Reclaim Unit Handle Update of its placement
  // identifier (NVMe FDP's I/O Management Send): each such span of its data in reclaim units
  // of its own. 0: none.
  uint64_t placement_update_bytes = 0;
  std::string rw = "read";
  bool random = false;
  bool mixed = false;    // op drawn per request: a read with probability mix
  IoOp op = IoOp::Read;  // when not mixed
  double mix = 0.5;
  // Request sizes: uniform over the multiples of 512 in [bs_min, bs_max], or, when bs_split
  // is not empty, drawn from its (size, weight) pairs.
  uint64_t bs_min = 4096;
  uint64_t bs_max = 4096;
  std::vector<std::pair<uint64_t, uint64_t>> bs_split;
  uint32_t qd = 1;
  uint64_t count = 0;    // requests; 0: no limit
  uint64_t io_size = 0;  // bytes; 0: no limit (at least one of the two is set)
  uint64_t seed = 1;
  uint32_t queue = 0;   // submission queue (host.queues index)
  uint64_t offset = 0;  // the span the offsets fall in
  uint64_t size = 0;
  uint64_t align = 0;  // random offsets are multiples of it
  AddressDistribution distribution = AddressDistribution::kUniform;
  double zipf_theta = 0;
  double hot_fraction = 0;       // of the span
  double hot_probability = 0;    // of a request going there
  double rate_iops = 0;          // as given, for describe()
  double thinktime_us = 0;       // as given, for describe()
  uint64_t interval_ps = 0;      // between two arrivals; 0: closed loop
  bool content = false;          // writes carry fingerprints
  double dedupe_percentage = 0;  // of writes repeating an earlier write's content
  uint8_t compress_percentage = 0;
  // rw=zoneappend (zone_appends): its span's zones and how many it writes side by side (`zones`).
  bool zone_appends = false;
  ZoneSpan zone_span;
  // With zone appends: a Report Zones of the span after every this many requests (0: none).
  uint64_t zone_report_every = 0;
};

// Where a job's keys come from, for its messages and which keys it may use.
struct JobSyntax {
  std::string prefix;  // messages read "<prefix><key>: <reason>"
  bool extended;       // a --workload-file job: every key; else the --workload string's
};

// Validates every key (each at most once) against the drive's namespaces (the span within the
// job's namespace). Throws ssd::InputError("<prefix><key>: <reason>").
JobSpec parse_job(const std::vector<std::pair<std::string_view, std::string_view>>& keys,
                  const AddressSpace& space, const JobSyntax& syntax);

// "rw=randwrite,bs=4096,qd=32,count=1000,seed=7,offset=0,size=1073741824,align=4096": every
// setting, defaults resolved.
std::string describe_job(const JobSpec& spec);

// The --workload keys, and what workload-file jobs add, one per line, for --help.
std::string job_keys_help();
std::string file_keys_help();

// The requests of one job. The draws use std::mt19937_64 (fully specified by the standard),
// exact integer arithmetic and portable floating point only, so a spec gives the same stream
// with every compiler and standard library. Per request: the op (mixed patterns), the size
// (variable sizes), the offset (random patterns; two draws for hotspot), then the content
// (writes with content settings).
class JobStream {
 public:
  explicit JobStream(JobSpec spec);

  // The next request, or false when the job's count or io_size is reached. Its arrival is
  // the job's request index times interval_ps (zero for closed-loop jobs). A placement update
  // goes with the request after the write that reached placement_update_bytes, and a zone
  // report after every zone_report_every requests (neither counted in count or io_size).
  bool next(HostRequest& out);
  const JobSpec& spec() const { return spec_; }
  uint64_t issued() const { return issued_; }

 private:
  uint64_t uniform(uint64_t n);  // in [0, n), n > 0
  uint64_t draw_size();
  uint64_t draw_slot();
  void draw_content(HostRequest& out);

  JobSpec spec_;
  std::mt19937_64 rng_;
  uint64_t split_total_ = 0;  // sum of the bs_split weights
  uint64_t first_slot_ = 0;   // lowest aligned random offset
  uint64_t slots_ = 0;        // number of aligned random offsets
  uint64_t hot_slots_ = 0;    // hotspot: the first ones
  std::unique_ptr<ZipfSampler> zipf_;
  std::unique_ptr<ZoneAppends> zones_;
  uint64_t cursor_ = 0;  // next sequential offset
  uint64_t issued_ = 0;
  uint64_t bytes_ = 0;
  uint64_t written_ = 0;       // bytes written since the last placement update
  uint64_t since_report_ = 0;  // requests since the last zone report (zone_report_every)
  uint64_t contents_ = 0;      // distinct contents written so far
};

// Another job's seed, derived from a spec seed by SplitMix64, so jobs draw independent
// streams.
uint64_t derive_seed(uint64_t seed, uint64_t job_index);

}  // namespace ssd::tb
