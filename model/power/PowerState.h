#pragma once
// Power states shared by every component. Each component declares the subset it has and the
// current it draws in each (from config).
#include <array>
#include <cstdint>

namespace ssd::model {

enum class PowerState : uint8_t {
  Off,
  Idle,
  Active,
  Read,
  Program,
  Erase,
  Transfer,
  // A NAND die working on several planes at once.
  ReadMultiplane,
  ProgramMultiplane,
  EraseMultiplane,
  // The board's baseline: drawn whenever the drive is powered.
  On,
  // The host link's low-power states, shallowest first (host.link_states names them).
  Low1,
  Low2,
  Low3,
  // DRAM keeping its contents with its clock stopped.
  SelfRefresh,
  // A NAND die reading a page's spare (out-of-band) area (flash.i_oob_read_ma).
  SpareRead,
  // The controller core with its clock stopped (controller.clock_gating).
  ClockGated,
  // A NAND die programming a word line at once (one-shot programming), on one plane or several.
  ProgramWordLine,
  ProgramWordLineMultiplane
};
inline constexpr std::size_t kPowerStateCount = 19;

inline const char* to_string(PowerState s) {
  static constexpr std::array<const char*, kPowerStateCount> kNames = {
      "off",
      "idle",
      "active",
      "read",
      "program",
      "erase",
      "transfer",
      "read_multiplane",
      "program_multiplane",
      "erase_multiplane",
      "on",
      "low1",
      "low2",
      "low3",
      "self_refresh",
      "spare_read",
      "clock_gated",
      "program_word_line",
      "program_word_line_multiplane"};
  return kNames[static_cast<std::size_t>(s)];
}

// A NAND die's program state: on one plane or several, a page or (one-shot) a word line.
inline PowerState program_state(bool multiplane, bool word_line) {
  if (word_line)
    return multiplane ? PowerState::ProgramWordLineMultiplane : PowerState::ProgramWordLine;
  return multiplane ? PowerState::ProgramMultiplane : PowerState::Program;
}

// A state in which a component does no work: idle, off or a low-power state.
inline bool resting(PowerState s) {
  switch (s) {
    case PowerState::Idle:
    case PowerState::Off:
    case PowerState::Low1:
    case PowerState::Low2:
    case PowerState::Low3:
    case PowerState::SelfRefresh:
    case PowerState::ClockGated:
      return true;
    default:
      return false;
  }
}

// Power x time in nanowatt-picoseconds (1e-21 J), the monitor's exact unit of energy: a 5 W
// drive over a day is 4e26, beyond 64 bits.
__extension__ typedef __int128 EnergyNwPs;

// One state a component can be in and its supply current.
struct StateCurrent {
  PowerState state;
  double current_ma;
};

}  // namespace ssd::model
