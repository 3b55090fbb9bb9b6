#pragma once
// Power states shared by every component. Each component declares the subset it has and the
// current it draws in each (from config).
#include <array>
#include <cstdint>

namespace ssd::model {

enum class PowerState : uint8_t {
  Off, Idle, Active, Read, Program, Erase, Transfer,
  // A NAND die working on several planes at once.
  ReadMultiplane, ProgramMultiplane, EraseMultiplane,
  // The board's baseline: drawn whenever the drive is powered.
  On
};
inline constexpr std::size_t kPowerStateCount = 11;

inline const char* to_string(PowerState s) {
  static constexpr std::array<const char*, kPowerStateCount> kNames = {
      "off", "idle", "active", "read", "program", "erase", "transfer",
      "read_multiplane", "program_multiplane", "erase_multiplane", "on"};
  return kNames[static_cast<std::size_t>(s)];
}

// One state a component can be in and its supply current.
struct StateCurrent {
  PowerState state;
  double current_ma;
};

}  // namespace ssd::model
