#include "model/controller/Preconditioning.h"

#include <exception>
#include <string>

#include <systemc>

#include "common/CpuTime.h"
#include "firmware/PreconditionStream.h"

namespace ssd::model::controller {

namespace {
constexpr uint64_t kProgressEvery = 1 << 16;  // page writes between progress calls
}  // namespace

void Preconditioning::run(fw::Firmware& firmware, uint64_t logical_pages) {
  const Stopwatch clock;
  const uint64_t page = firmware.page_bytes();
  // The drive that full: its first pages, all of them with fill_fraction 1.
  const uint64_t pages = uint64_t(fill_fraction_ * double(logical_pages));
  fw::HostCommand cmd{fw::CommandOp::Write, 0, page, 0};  // version 0: "never written" data
  try {
    const uint64_t random = uint64_t(random_fraction_ * double(pages));
    const auto tell = [&](uint64_t done) {
      if (progress_ && done % kProgressEvery == 0 && done < pages + random)
        progress_(done, pages + random);
    };
    tell(0);
    stats_.bulk = mode_ == Mode::Bulk && firmware.precondition_bulk(pages, random);
    if (!stats_.bulk) {
      for (uint64_t lpn = 0; lpn < pages; ++lpn) {
        cmd.offset_bytes = lpn * page;
        firmware.execute(cmd, nullptr);
        tell(lpn + 1);
      }
      fw::PreconditionStream addresses(pages);  // fixed seed: repeatable
      for (uint64_t i = 0; i < random; ++i) {
        cmd.offset_bytes = addresses.next() * page;
        firmware.execute(cmd, nullptr);
        tell(pages + i + 1);
      }
      firmware.settle();  // the measured run starts with an empty write buffer and SLC cache
    }
    if (progress_) progress_(pages + random, pages + random);
    stats_.pages_written = pages + random;
    stats_.fill_fraction = fill_fraction_;
    stats_.random_fraction = random_fraction_;
    stats_.done = true;
  } catch (const std::exception& e) {
    SC_REPORT_ERROR("/ssdtlm/controller",
                    (std::string("precondition: firmware: ") + e.what()).c_str());
  }
  firmware.reset_stats();
  const PhaseTime took = clock.elapsed();
  stats_.wall_s = took.wall_s;
  stats_.cpu_s = took.cpu_s;
}

}  // namespace ssd::model::controller
