#include "tb/workload/JsonWorkload.h"

#include <algorithm>
#include <array>
#include <limits>
#include <sstream>
#include <string_view>
#include <utility>
#include <nlohmann/json.hpp>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "config/json/JsonFile.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {

namespace {

using nlohmann::json;

// A value as the text the key parsers read: numbers as JSON writes them.
std::string value_text(const json& v, const std::string& where) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  throw InputError(where + ": expected a number or a string, got " +
                   (v.is_structured() ? std::string(v.type_name()) : v.dump()));
}

// Requests a job makes, when known before generating them; 0 if not.
uint64_t known_count(const JobSpec& s) {
  uint64_t by_bytes = 0;
  if (s.io_size != 0 && s.bs_split.empty() && s.bs_min == s.bs_max) {
    by_bytes = (s.io_size + s.bs_min - 1) / s.bs_min;
  } else if (s.io_size != 0 && s.count == 0) {
    return 0;
  }
  if (s.count == 0) return by_bytes;
  return by_bytes == 0 ? s.count : std::min(s.count, by_bytes);
}

}  // namespace

JsonWorkload::JsonWorkload(const std::string& path, const AddressSpace& space,
                           uint64_t max_requests, int only_job)
    : path_(path), max_requests_(max_requests) {
  const json doc = config::read_json_file<InputError>(path);
  if (!doc.is_object()) throw InputError(path + ": expected a JSON object with \"jobs\"");
  for (const auto& [key, value] : doc.items()) {
    if (key == "seed") {
      const std::string text = value_text(value, path + ": seed");
      if (const char* reason = parse_unsigned(text, seed_)) {
        throw InputError(path + ": seed: " + reason + got(text));
      }
    } else if (key != "jobs" && key != "description") {
      throw InputError(path + ": " + key + ": unknown key (description, seed, jobs)" +
                       did_you_mean(key, std::array{"description", "seed", "jobs"}));
    }
  }
  const auto jobs = doc.find("jobs");
  if (jobs == doc.end() || !jobs->is_array() || jobs->empty()) {
    throw InputError(path + ": jobs: expected a non-empty array of jobs");
  }
  jobs_.reserve(jobs->size());
  uint64_t depth = 0;
  bool all_known = true;
  for (size_t i = 0; i < jobs->size(); ++i) {
    const std::string where = path + ": jobs[" + std::to_string(i) + "]";
    const json& job = (*jobs)[i];
    if (!job.is_object()) throw InputError(where + ": expected an object of key: value");
    std::vector<std::string> texts;  // the views below point into it
    texts.reserve(job.size() + 2);
    std::vector<std::pair<std::string_view, std::string_view>> keys;
    for (const auto& [key, value] : job.items()) {
      texts.push_back(value_text(value, where + "." + key));
      keys.emplace_back(key, texts.back());
    }
    if (!job.contains("seed")) {
      texts.push_back(std::to_string(derive_seed(seed_, i)));
      keys.emplace_back("seed", texts.back());
    }
    if (!job.contains("name")) {
      texts.push_back("job" + std::to_string(i));
      keys.emplace_back("name", texts.back());
    }
    JobSpec spec = parse_job(keys, space, JobSyntax{where + ".", true});
    const bool timed = spec.interval_ps != 0;
    if (i == 0) {
      timed_ = timed;
    } else if (timed != timed_) {
      throw InputError(
          where + ": " +
          (timed ? "a timed job among closed-loop ones" : "a closed-loop job among timed ones") +
          ": the host replays one stream, either by arrival time (every job has "
          "rate_iops or thinktime_us) or closed loop (none has)");
    }
    if (only_job >= 0 && i != std::size_t(only_job)) continue;
    depth += spec.qd;
    const uint64_t count = known_count(spec);
    all_known = all_known && count != 0;
    expected_ += count;
    jobs_.push_back(Job{JobStream(std::move(spec)), HostRequest{}, false, 0});
  }
  queue_depth_ =
      static_cast<uint32_t>(std::min<uint64_t>(depth, std::numeric_limits<uint32_t>::max()));
  if (!all_known) expected_ = 0;
  if (max_requests_ != 0 && (expected_ == 0 || expected_ > max_requests_)) {
    expected_ = max_requests_;
  }
  for (Job& j : jobs_) j.has_head = j.stream.next(j.head);
}

bool JsonWorkload::next(HostRequest& out) {
  Job* pick = nullptr;
  if (timed_) {
    for (Job& j : jobs_) {
      if (j.has_head && (pick == nullptr || j.head.arrival < pick->head.arrival)) pick = &j;
    }
  } else {
    for (size_t k = 0; k < jobs_.size() && pick == nullptr; ++k) {
      Job& j = jobs_[(turn_ + k) % jobs_.size()];
      if (j.has_head) {
        pick = &j;
        turn_ = (turn_ + k + 1) % jobs_.size();
      }
    }
  }
  return pick != nullptr && take(*pick, out);
}

bool JsonWorkload::take(Job& j, HostRequest& out) {
  if (!j.has_head) return false;
  if (max_requests_ != 0 && emitted_ == max_requests_) {
    stopped_early_ = true;
    return false;
  }
  out = j.head;
  j.has_head = j.stream.next(j.head);
  ++j.emitted;
  ++emitted_;
  return true;
}

std::vector<RequestSource*> JsonWorkload::flows() {
  if (flows_.empty())
    for (std::size_t i = 0; i < jobs_.size(); ++i) flows_.emplace_back(*this, i);
  std::vector<RequestSource*> out;
  for (JobFlow& f : flows_) out.push_back(&f);
  return out;
}

std::string JsonWorkload::describe() const {
  return "workload file " + path_ + " (" + std::to_string(jobs_.size()) +
         (jobs_.size() == 1 ? " job)" : " jobs)");
}

void JsonWorkload::add_to_report(nlohmann::ordered_json& report) const {
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const Job& j : jobs_) {
    jobs.push_back({{"name", j.stream.spec().name},
                    {"spec", describe_job(j.stream.spec())},
                    {"requests", j.emitted}});
  }
  report["workload_file"] = {{"file", path_},
                             {"seed", seed_},
                             {"timed", timed_},
                             {"queue_depth", queue_depth_},
                             {"max_requests", max_requests_},
                             {"stopped_early", stopped_early_},
                             {"jobs", jobs}};
}

}  // namespace ssd::tb
