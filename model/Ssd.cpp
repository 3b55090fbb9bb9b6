#include "model/Ssd.h"

#include <string>

namespace ssd::model {

Ssd::Ssd(sc_core::sc_module_name name, const config::DriveConfig& cfg, EnergyMonitor& monitor)
    : sc_module(name),
      host_if_("host_if", cfg.host, cfg.flash.page_bytes, monitor),
      controller_("controller", cfg, monitor),
      dram_("dram", controller_.dram_config(), monitor) {
  host_if_.ctrl_socket.bind(controller_.host_socket);
  controller_.dram_socket.bind(dram_.socket);
  for (uint32_t ch = 0; ch < cfg.flash.channels; ++ch) {
    const std::string n = "ch" + std::to_string(ch);
    channels_.push_back(std::make_unique<FlashChannel>(n.c_str(), ch, cfg, monitor));
    controller_.flash_socket.bind(channels_.back()->socket);
  }
}

}  // namespace ssd::model
