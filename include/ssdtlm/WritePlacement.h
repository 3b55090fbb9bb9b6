#pragma once
// A write's placement identifier under flexible data placement (the drive's ftl.fdp;
// docs/embedding.md): set it on a TLM_WRITE_COMMAND payload to a conventional namespace, as an
// NVMe write carries one in its DSPEC field with the data placement directive. The drive puts
// the data in the reclaim unit of that handle; an identifier past the drive's handles is placed
// by handle 0 and counted (report.json fdp.invalid_placement_ids). A drive without FDP, or a
// zoned namespace, answers such a write TLM_COMMAND_ERROR_RESPONSE (NVMe: the directive is not
// enabled); a target other than ssdtlm ignores the extension.
#include <cstdint>

#include <tlm>

namespace ssdtlm {

struct WritePlacement : tlm::tlm_extension<WritePlacement> {
  uint16_t identifier = 0;

  WritePlacement() = default;
  explicit WritePlacement(uint16_t id) : identifier(id) {}
  tlm::tlm_extension_base* clone() const override { return new WritePlacement(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    identifier = static_cast<const WritePlacement&>(other).identifier;
  }
};

}  // namespace ssdtlm
