#include "report/Summary.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/LifetimeReport.h"
#include "report/LowPowerReport.h"
#include "report/PlacementReport.h"

namespace ssd::report {
namespace {

using nlohmann::ordered_json;

// The summary's text, a printf-style line at a time.
class Lines {
 public:
  template <class... Args>
  void operator()(const char* fmt, Args... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    if (n <= 0) return;
    std::string buf(std::size_t(n) + 1, '\0');
    std::snprintf(buf.data(), buf.size(), fmt, args...);
    buf.pop_back();
    text += buf;
  }
  std::string text;
};

std::string number_text(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string number(double v) { return number_text(v, "%.3g"); }

// Bytes in decimal units, as drives are sold: "732.8 GB".
std::string bytes_text(double b) {
  static constexpr std::pair<double, const char*> kUnits[] = {
      {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
  for (const auto& [size, unit] : kUnits)
    if (b >= size) return number_text(b / size, "%.4g") + " " + unit;
  return number_text(b, "%.4g") + " B";
}

// A page or unit size, in binary units: "16 KiB".
std::string size_text(uint64_t b) {
  return b >= 1024 && b % 1024 == 0 ? std::to_string(b / 1024) + " KiB" : std::to_string(b) + " B";
}

// "<lead> us: mean ..., max ..." for one kind of request.
void latency_line(Lines& line, const std::string& lead, const ordered_json& l) {
  line("%s us: mean %.6g, p50 %.6g, p99 %.6g, p99.9 %.6g, max %.6g\n", lead.c_str(),
       l["mean"].get<double>(), l["p50"].get<double>(), l["p99"].get<double>(),
       l["p999"].get<double>(), l["max"].get<double>());
}

// The three stages that took most of a part's mean latency, as "stage NN %, ...".
std::string top_stages(const ordered_json& part) {
  std::vector<std::pair<double, std::string>> stages;
  double total = 0;
  for (const auto& [stage, us] : part["mean"].items()) {
    stages.emplace_back(us.get<double>(), stage);
    total += us.get<double>();
  }
  std::stable_sort(stages.begin(), stages.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, stages.size()); ++i) {
    if (stages[i].first <= 0 || total <= 0) break;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.0f %%", out.empty() ? "" : ", ",
                  stages[i].second.c_str(), 100 * stages[i].first / total);
    out += buf;
  }
  return out;
}

// Where one kind's time went (docs/report.md#latency-breakdown): over all its requests, and
// over the slowest.
void breakdown_line(Lines& line, const ordered_json& b) {
  const auto& slow = b["slowest"];
  line("             time in %s\n", top_stages(b).c_str());
  line("             slowest %llu (from %.6g us) in %s\n", slow["count"].get<unsigned long long>(),
       slow["from_us"].get<double>(), top_stages(slow).c_str());
}

std::string padded(const char* kind, std::size_t width) {
  std::string k = kind;
  return k + std::string(width > k.size() ? width - k.size() : 0, ' ');
}

// What ran: the drive and its FTL, the traces, the state it started from, the requests and
// their latency.
void run_lines(Lines& line, const ordered_json& r) {
  const auto& q = r["requests"];
  line("ssdtlm: %s, %s FTL, %s\n", r["drive"]["config"].get<std::string>().c_str(),
       r["drive"]["ftl"].get<std::string>().c_str(), r["workload"].get<std::string>().c_str());
  // What was simulated: a config's name stays as written when --set changes its drive.
  const auto& d = r["drive"];
  std::string overrides;
  if (r.contains("provenance") && r["provenance"].contains("overrides"))
    for (const auto& o : r["provenance"]["overrides"])
      overrides += (overrides.empty() ? "; changed by --set " : ", ") + o.get<std::string>();
  line("  capacity   %s logical of %s raw: %llu channels x %llu ways, %llu dies, %s pages%s\n",
       bytes_text(d["logical_bytes"].get<double>()).c_str(),
       bytes_text(d["raw_bytes"].get<double>()).c_str(), d["channels"].get<unsigned long long>(),
       d["ways_per_channel"].get<unsigned long long>(), d["dies"].get<unsigned long long>(),
       size_text(d["page_bytes"].get<uint64_t>()).c_str(), overrides.c_str());
  ordered_json traces = r.contains("traces") ? r["traces"] : ordered_json::array();
  if (r.contains("trace")) traces.push_back(r["trace"]);
  for (const auto& t : traces) {
    line(
        "  trace      %s%s%s%s: %llu records, %llu bad lines skipped, %llu wrapped, %llu "
        "scaled, %llu aligned\n",
        t["format"].get<std::string>().c_str(), t["detected"].get<bool>() ? " (detected)" : "",
        traces.size() > 1 ? " " : "", traces.size() > 1 ? t["file"].get<std::string>().c_str() : "",
        t["records"].get<unsigned long long>(), t["skipped_lines"].get<unsigned long long>(),
        t["wrapped"].get<unsigned long long>(), t["scaled"].get<unsigned long long>(),
        t["aligned"].get<unsigned long long>());
  }
  // The state the run started from: what its reads and GC met.
  const auto& pre = r["precondition"];
  if (pre["done"].get<bool>()) {
    const double fill = pre["fill_fraction"].get<double>();
    if (fill == 1.0)
      line(
          "  drive      aged (--precondition): every logical page written, then %.6g x the "
          "logical capacity at random\n",
          pre["random_fraction"].get<double>());
    else
      line(
          "  drive      aged (--precondition): the first %.6g %% of the logical pages written, "
          "then %.6g x those at random among them\n",
          100 * fill, pre["random_fraction"].get<double>());
  }
  // Where that state came from (CLI runs: the provenance says).
  if (r.contains("provenance") && r["provenance"].contains("aged_drive")) {
    const auto& aged = r["provenance"]["aged_drive"];
    const std::string from = aged["from"].get<std::string>();
    const std::string file = aged.contains("file") ? aged["file"].get<std::string>() : "";
    if (from == "cache")
      line("             loaded from the state cache: %s\n", file.c_str());
    else if (from == "stored")
      line("             preconditioned and stored in the state cache: %s\n", file.c_str());
    else if (from == "file")
      line("             loaded from %s\n", file.c_str());
  }
  if (!pre["done"].get<bool>()) line("%s", "  drive      fresh: nothing written before the run\n");
  line(
      "  requests   %llu (read %llu, write %llu, trim %llu) in %.6g s simulated: %.6g IOPS, %.6g "
      "MB/s\n",
      q["count"].get<unsigned long long>(), q["read"].get<unsigned long long>(),
      q["write"].get<unsigned long long>(), q["trim"].get<unsigned long long>(),
      r["sim_time_s"].get<double>(), r["iops"].get<double>(), r["bandwidth_mbps"].get<double>());
  if (q.contains("append"))
    line(
        "             zoned: appends %llu (among the writes), zone actions %llu, zone reports "
        "%llu, refused %llu\n",
        q["append"].get<unsigned long long>(), q["zone_action"].get<unsigned long long>(),
        q["zone_report"].get<unsigned long long>(), q["failed_status"].get<unsigned long long>());
  for (const char* kind : {"read", "write", "zone_action"}) {
    if (!r["latency_us"].contains(kind)) continue;  // zone actions: zoned namespaces only
    const auto& l = r["latency_us"][kind];
    if (l["count"].get<uint64_t>() == 0) continue;
    latency_line(line, "  " + padded(kind, 10) + " latency", l);
    breakdown_line(line, r["latency_breakdown_us"][kind]);
  }
}

// Each flow's requests and latency, alone and shared, when there are several.
void flow_lines(Lines& line, const ordered_json& r) {
  if (r["flows"].size() <= 1) return;
  for (const auto& fl : r["flows"]) {
    line("  flow %-5s queue %llu: %llu requests, %.6g IOPS, %.6g MB/s\n",
         fl["name"].get<std::string>().c_str(), fl["queue"].get<unsigned long long>(),
         fl["requests"].get<unsigned long long>(), fl["iops"].get<double>(),
         fl["bandwidth_mbps"].get<double>());
    if (fl.contains("alone"))
      line("    alone    mean latency %.6g us (shared %.6g us): slowdown %.4g\n",
           fl["alone"]["mean_latency_us"].get<double>(), fl["mean_latency_us"].get<double>(),
           fl["slowdown"].get<double>());
    for (const char* kind : {"read", "write"}) {
      if (fl["latency_us"][kind]["count"].get<uint64_t>() == 0) continue;
      latency_line(line, "    " + padded(kind, 8) + " latency", fl["latency_us"][kind]);
      if (fl.contains("alone"))
        latency_line(line, "    " + padded(kind, 8) + " alone  ", fl["alone"]["latency_us"][kind]);
    }
  }
  if (r.contains("fairness"))
    line("  fairness   %.4g (least slowdown over the greatest)\n", r["fairness"].get<double>());
}

// Each namespace the host's zone translation layer serves: its host requests, their latency and
// the write amplification of the host's side and end to end.
void translation_lines(Lines& line, const ordered_json& r) {
  if (!r.contains("namespaces")) return;
  for (const auto& n : r["namespaces"]) {
    if (!n.contains("zone_translation")) continue;
    const auto& t = n["zone_translation"];
    line(
        "  ns %-7s through the host's zone translation: %llu requests (read %llu, write %llu, "
        "trim %llu), %llu zones reset\n",
        n["name"].get<std::string>().c_str(), t["requests"].get<unsigned long long>(),
        t["read"].get<unsigned long long>(), t["write"].get<unsigned long long>(),
        t["trim"].get<unsigned long long>(), t["zones_reset"].get<unsigned long long>());
    if (!t["waf_host"].is_null())
      line("    WAF      host side %.4g, end to end %.4g\n", t["waf_host"].get<double>(),
           t["waf_end_to_end"].get<double>());
    for (const char* kind : {"read", "write"})
      if (t["latency_us"][kind]["count"].get<uint64_t>() != 0)
        latency_line(line, "    host " + padded(kind, 5) + " latency", t["latency_us"][kind]);
  }
}

// The flash operations and, for the block-mapped FTLs, the merges.
void flash_lines(Lines& line, const ordered_json& r) {
  const auto& f = r["flash_ops"];
  const auto waf = [](const ordered_json& w) {
    return w.is_null() ? std::string("-") : std::to_string(w.get<double>());
  };
  const std::string end_to_end =
      r.contains("waf_end_to_end") ? " (end to end " + waf(r["waf_end_to_end"]) + ")" : "";
  line("  flash      reads %llu, programs %llu, erases %llu, GC copies %llu, WAF %s%s\n",
       f["read"].get<unsigned long long>(), f["program"].get<unsigned long long>(),
       f["erase"].get<unsigned long long>(), f["gc_copy"].get<unsigned long long>(),
       waf(r["waf"]).c_str(), end_to_end.c_str());
  // Only the block-mapped FTLs have merges: every figure the FTL registered, in the report's
  // order (a figure added to an FTL shows here without a change here).
  const auto m = r.value("merges", ordered_json::object());
  std::string merges;
  bool any = false;
  for (const auto& [name, value] : m.items()) {
    std::string label = name;
    std::replace(label.begin(), label.end(), '_', ' ');
    merges += (merges.empty() ? "" : ", ") + label + " " + value.dump();
    any = any || value.get<double>() != 0;
  }
  if (any) line("  merges     %s\n", merges.c_str());
}

// Energy, the rails and the power analyser.
void energy_lines(Lines& line, const ordered_json& r) {
  line("  energy     %.6g J, average %.6g W, peak %.6g W (%.6g mA at %.3g V) for %.6g s\n",
       r["energy_total_j"].get<double>(), r["avg_power_w"].get<double>(),
       r["peak_power_w"].get<double>(), r["peak_current_ma"].get<double>(),
       r["drive_voltage_v"].get<double>(), r["time_at_peak_s"].get<double>());
  for (const auto& rail : r["rails"])
    line(
        "  rail       %s at %.3g V: %.6g J (baseline %.6g J, regulator losses %.6g J), average "
        "%.6g mA, peak %.6g mA\n",
        rail["name"].get<std::string>().c_str(), rail["voltage_v"].get<double>(),
        rail["energy_j"].get<double>(), rail["baseline_j"].get<double>(),
        rail["regulator_loss_j"].get<double>(), rail["avg_current_ma"].get<double>(),
        rail["peak_current_ma"].get<double>());
  const auto& a = r["power_analyser"];
  char buf[512];
  std::string analyser;
  for (const auto& w : a["peak_windows"]) {
    std::snprintf(buf, sizeof buf, "%s%.6g us %.6g W (%.6g mA)", analyser.empty() ? "" : ", ",
                  w["window_us"].get<double>(), w["peak_power_w"].get<double>(),
                  w["peak_current_ma"].get<double>());
    analyser += buf;
  }
  if (!analyser.empty()) line("  analyser   peak averaged over %s\n", analyser.c_str());
  std::string above;
  for (const auto& l : a["time_above"]) {
    std::snprintf(buf, sizeof buf, "%s%.6g mA %.6g s (%.3g %%)", above.empty() ? "" : ", ",
                  l["level_ma"].get<double>(), l["time_s"].get<double>(),
                  100 * l["fraction"].get<double>());
    above += buf;
  }
  line("  analyser   time above %s; every die active %.6g s (%.3g %%)\n",
       above.empty() ? "no level set" : above.c_str(), a["all_dies_active_s"].get<double>(),
       100 * a["all_dies_active_fraction"].get<double>());
}

// The power budget's waits and the thermal model's peaks and throttling, when on.
void limit_lines(Lines& line, const ordered_json& r) {
  if (r.contains("power_budget")) {
    const auto& b = r["power_budget"];
    line(
        "  budget     cap %s (floor %.6g W): %llu of %llu flash operations waited %.6g s "
        "(mean %.6g us, max %.6g us; %.6g us per operation)\n",
        b["cap_w"].is_null() ? "only while throttled"
                             : (number(b["cap_w"].get<double>()) + " W").c_str(),
        b["floor_w"].get<double>(), b["operations_waited"].get<unsigned long long>(),
        b["operations"].get<unsigned long long>(), b["wait_s"].get<double>(),
        b["wait_mean_us"].get<double>(), b["wait_max_us"].get<double>(),
        b["wait_per_operation_us"].get<double>());
  }
  if (r.contains("thermal")) {
    const auto& t = r["thermal"];
    const auto& th = t["throttle"];
    std::string nodes;
    for (const auto& n : t["nodes"])
      nodes += (nodes.empty() ? "" : ", ") + n["name"].get<std::string>() + " " +
               number(n["peak_c"].get<double>());
    line("  thermal    peak %.4g C (%s); throttle %s above %.4g C: %llu entries, %.6g s (%.3g %%)",
         t["peak_c"].get<double>(), nodes.c_str(), th["action"].get<std::string>().c_str(),
         th["t_on_c"].get<double>(), th["entries"].get<unsigned long long>(),
         th["time_s"].get<double>(), 100 * th["fraction"].get<double>());
    if (!th["power_cut"].is_null() && !th["performance_loss"].is_null())
      line(", power cut %.3g %%, performance lost %.3g %%", 100 * th["power_cut"].get<double>(),
           100 * th["performance_loss"].get<double>());
    line("%s", "\n");
  }
}

// Where the wall-clock time went: each phase that took a tenth of the whole or more (a run
// whose aging dominates says so), and the requests per wall second of the run itself.
void wall_line(Lines& line, const ordered_json& r) {
  const double total = r["wall_time_s"].get<double>();
  std::string parts;
  static constexpr std::pair<const char*, const char*> kNames[] = {
      {"build", "building"},
      {"load", "loading the aged drive"},
      {"precondition", "preconditioning"},
      {"save", "saving the aged drive"},
      {"run", "the run"},
      {"outputs", "closing the outputs"}};
  for (const auto& [key, name] : kNames) {
    if (!r["phases"].contains(key)) continue;
    const double s = r["phases"][key]["wall_s"].get<double>();
    if (key == std::string_view("run") || s >= 0.1 * total)
      parts += std::string(parts.empty() ? "" : ", ") + name + " " + number_text(s, "%.3f") + " s";
  }
  line("  wall       %.3f s: %s (%.0f requests per wall second of the run)\n", total, parts.c_str(),
       r["requests_per_wall_s"].get<double>());
}

// How busy each resource was: the host phase's figures when the host finished, else the
// whole span's.
void busy_lines(Lines& line, const ordered_json& r) {
  const auto& whole = r["utilisation"];
  const bool phased = !whole["host_phase"].is_null();
  const auto& u = phased ? whole["host_phase"] : whole;
  double bus_busy = 0;
  for (const auto& c : u["channels"]) bus_busy += c["busy"].get<double>();
  if (!u["channels"].empty()) bus_busy /= double(u["channels"].size());
  // A full-duplex link: each direction (reads fill the one to the host).
  const auto percent = [](const ordered_json& e) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100 * e["busy"].get<double>());
    return std::string(buf);
  };
  std::string link = percent(u["host_link"]);
  if (u.contains("host_link_to_host"))
    link = "to drive " + link + ", to host " + percent(u["host_link_to_host"]);
  // The controller's one core, or each of its cores (controller.cores).
  std::string cores =
      "controller " + (r["drive"].contains("cores") ? "cores" : percent(u["controller"]));
  if (r["drive"].contains("cores"))
    for (const auto& name : r["drive"]["cores"])
      cores += " " + name.get<std::string>() + " " + percent(u[name.get<std::string>()]);
  // The hardware assists beside them (controller.hw_read_path, controller.issue_engine).
  for (const char* engine : {"read_engine", "issue_engine"})
    if (u.contains(engine)) cores += std::string(", ") + engine + " " + percent(u[engine]);
  line(
      "  busy       %sdies %.1f %%, channel buses %.1f %%, %s, host link "
      "%s; busiest: %s (%.1f %%)\n",
      phased ? "while the host ran: " : "", 100 * u["dies_busy_mean"].get<double>(), 100 * bus_busy,
      cores.c_str(), link.c_str(), u["bottleneck"]["name"].get<std::string>().c_str(),
      100 * u["bottleneck"]["busy"].get<double>());
  if (phased && whole["tail"]["span_s"].get<double>() > 0)
    line("  after host %.6g s more (folding, destaging, GC): dies %.1f %% busy\n",
         whole["tail"]["span_s"].get<double>(),
         100 * whole["tail"]["dies_busy_mean"].get<double>());
}

}  // namespace

std::string summarize(const ordered_json& r) {
  Lines line;
  run_lines(line, r);
  flow_lines(line, r);
  translation_lines(line, r);
  flash_lines(line, r);
  energy_lines(line, r);
  limit_lines(line, r);
  busy_lines(line, r);
  if (r.contains("low_power")) line.text += low_power_summary(r["low_power"]);
  line.text += lifetime_summary(r);
  line.text += placement_summary(r);
  if (r.contains("reliability")) {
    const auto& a = r["reliability"];
    line(
        "  aging      retry steps per read %.4g, retry reads %llu, uncorrectable reads %llu; %llu "
        "ECC "
        "engines %.1f %% busy (busiest %.1f %%)\n",
        a["retry_steps_mean"].get<double>(), a["retry_reads"].get<unsigned long long>(),
        a["uncorrectable_reads"].get<unsigned long long>(),
        a["ecc"]["engines"].get<unsigned long long>(), 100 * a["ecc"]["busy_mean"].get<double>(),
        100 * a["ecc"]["busy_max"].get<double>());
  }
  if (r.contains("read_refresh")) {
    const auto& f = r["read_refresh"];
    const auto& reads = f["host_wait"]["read"];
    line(
        "  refresh    %llu blocks rewritten, %llu units moved (queued by reads %llu, by scans "
        "%llu); host reads waited behind it %llu times, %g s in all (longest %g us), and %g s "
        "on the core\n",
        f["blocks_refreshed"].get<unsigned long long>(), f["units_moved"].get<unsigned long long>(),
        f["queued_by_reads"].get<unsigned long long>(),
        f["queued_by_scan"].get<unsigned long long>(), reads["waited"].get<unsigned long long>(),
        reads["total_s"].get<double>(), reads["max_us"].get<double>(),
        f["host_core_s"].get<double>());
  }
  if (r.contains("faults")) {
    const auto& f = r["faults"];
    line(
        "  faults     %llu erases and %llu programs failed, each retiring its block; spare blocks "
        "left %.0f of %.0f (most retired on a die %.0f); dies out of room %.0f%s\n",
        f["erase_failures"].get<unsigned long long>(),
        f["program_failures"].get<unsigned long long>(), f["spare_blocks_left"].get<double>(),
        f["spare_blocks"].get<double>(), f["most_retired_on_a_die"].get<double>(),
        f["dies_out_of_room"].get<double>(),
        f["read_only_at_s"].is_null()
            ? ""
            : ("; read-only from " + number_text(f["read_only_at_s"].get<double>(), "%.6g") +
               " s: " + std::to_string(r["requests"]["failed_read_only"].get<uint64_t>()) +
               " writes and trims refused")
                  .c_str());
    if (f.contains("dead_die_at_s") && !f["dead_die_at_s"].is_null())
      line(
          "  dead die   die %.0f gone from %s s: %llu units lost in %.0f ranges, %llu reads "
          "failed%s\n",
          f["dead_die"].get<double>(),
          number_text(f["dead_die_at_s"].get<double>(), "%.6g").c_str(),
          f["units_lost"].get<unsigned long long>(), f["lost_ranges"].get<double>(),
          r["requests"]["failed_lost"].get<unsigned long long>(),
          r["requests"].value("failed_write_fault", uint64_t{0}) > 0
              ? (", " + std::to_string(r["requests"]["failed_write_fault"].get<uint64_t>()) +
                 " writes failed (Write Fault)")
                    .c_str()
              : "");
  }
  if (r.contains("power_loss")) {
    const auto& p = r["power_loss"];
    line(
        "  power loss at %.3f ms: flush %.3f ms of %llu pages, %.3f mJ needed of %.3f mJ held "
        "(margin %s ms); %llu acknowledged units lost\n",
        p["at_s"].get<double>() * 1e3, p["flush_s"].get<double>() * 1e3,
        p["pages_flushed"].get<unsigned long long>(), p["energy_needed_j"].get<double>() * 1e3,
        p["energy_held_j"].get<double>() * 1e3,
        p["time_margin_s"].is_null()
            ? "-"
            : number_text(p["time_margin_s"].get<double>() * 1e3, "%.3f").c_str(),
        p.value("acknowledged_units_lost", 0ULL));
  }
  const auto& sb = r["scoreboard"];
  // Units lost and counted (a dead die, no room, a power loss): reported, never silent.
  uint64_t reported_lost = 0;
  for (const char* cause : {"lost_by_dead_die", "lost_by_no_room", "lost_by_power_loss"})
    reported_lost += sb.value(cause, uint64_t{0});
  const std::string verdict =
      sb["mismatches"].get<uint64_t>() != 0 ? ": DATA LOST"
      : reported_lost != 0                  ? ": " + std::to_string(reported_lost) +
                                 " units lost and counted (scoreboard.lost_by_*), none silently"
                           : ": no data lost";
  line("  scoreboard %llu page reads checked, %llu mismatches%s%s\n",
       sb["pages_checked"].get<unsigned long long>(), sb["mismatches"].get<unsigned long long>(),
       verdict.c_str(),
       sb.value("reported_errors", uint64_t{0}) == 0
           ? ""
           : ("; " + std::to_string(sb["reported_errors"].get<uint64_t>()) +
              " pages failed with a reported read error")
                 .c_str());
  if (r.contains("phases")) wall_line(line, r);
  return line.text;
}

}  // namespace ssd::report
