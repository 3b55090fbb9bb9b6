#pragma once
// Typed description of a whole drive, parsed once from JSON (configs/*.json): one section per
// block of the drive, each in its own file pair with its field table and its own rules
// (config/HostConfig.h ... ThermalConfig.h); here the whole, and the rules across sections.
// Units are part of every field name; the model converts times to sc_time once, at
// construction. Every field is documented in docs/config.md.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/Choices.h"
#include "config/ControllerConfig.h"
#include "config/DramConfig.h"
#include "config/FlashConfig.h"
#include "config/FtlConfig.h"
#include "config/HostConfig.h"
#include "config/LifetimeConfig.h"
#include "config/NamespaceConfig.h"
#include "config/PowerConfig.h"
#include "config/ThermalConfig.h"

namespace ssd::config {

// The SLC cache region (ftl.slc_cache_blocks_per_plane): the first blocks of every plane.
struct SlcRegion {
  uint32_t blocks_per_plane = 1;
  uint32_t blocks_in_plane = 0;  // 0: no SLC cache
  uint32_t pages_per_block = 0;  // in SLC mode: a native block's pages / bits per cell
  // Whether the block (numbered within its die) lies in the region.
  bool contains(uint32_t block) const { return block % blocks_per_plane < blocks_in_plane; }
};

struct DriveConfig {
  std::string name;
  std::string description;
  std::vector<std::string> sources;  // where the figures come from
  HostConfig host;
  ControllerConfig controller;
  DramConfig dram;
  FlashConfig flash;
  FtlConfig ftl;
  PowerConfig power;
  PowerBudgetConfig power_budget;
  ThermalConfig thermal;
  LifetimeConfig lifetime;
  std::vector<NamespaceConfig> namespaces;  // empty: one of the whole logical capacity

  // The flash the FTL manages: every plane's blocks but the zoned namespaces' at its end
  // (config/NamespaceConfig.h); the whole flash when no namespace is zoned.
  FlashConfig ftl_flash() const {
    FlashConfig f = flash;
    f.blocks_per_plane -= zoned_blocks_per_plane(namespaces, flash);
    return f;
  }
  // The drive as its FTL sees it: flash = ftl_flash(), no zoned namespace.
  DriveConfig ftl_view() const;
  bool has_zoned() const;
  // The capacity the FTL serves (the conventional namespaces'): whole pages of ftl_flash() left
  // after over-provisioning.
  uint64_t logical_pages() const;
  SlcRegion slc_region() const {
    return {flash.blocks_per_plane, ftl.slc_cache_blocks_per_plane,
            flash.pages_per_block / flash.bits_per_cell()};
  }
  uint64_t logical_bytes() const { return logical_pages() * flash.page_bytes; }
  // The mapping unit (ftl.mapping_unit_bytes, or the page) and how many a page holds.
  uint32_t unit_bytes() const {
    return ftl.mapping_unit_bytes != 0 ? ftl.mapping_unit_bytes : flash.page_bytes;
  }
  uint32_t units_per_page() const { return flash.page_bytes / unit_bytes(); }
  uint64_t logical_units() const { return logical_pages() * units_per_page(); }
  // The units the firmware's write buffer holds: dram.write_buffer_mb's, else with units
  // smaller than the page the controller SRAM's packing buffer (a few pages per die), else none.
  uint64_t write_buffer_units() const;
  // Where each namespace lies in the logical capacity (config/NamespaceConfig.h).
  std::vector<NamespaceRange> namespace_layout() const {
    return config::namespace_layout(namespaces, flash, logical_bytes(), placement_handles());
  }
  // Flexible data placement's reclaim unit handles (ftl.fdp); 0 without it.
  uint32_t placement_handles() const { return ftl.fdp.enabled ? ftl.fdp.handles : 0; }
  // What the conventional namespaces cover, from byte 0: what the host can write through the
  // FTL (preconditioning fills it).
  uint64_t allocated_bytes() const;
  uint64_t allocated_units() const { return allocated_bytes() / unit_bytes(); }
  // The units of the drive's byte space: the logical capacity's, and with zoned namespaces up to
  // the end of the last (the scoreboard keeps them all).
  uint64_t addressed_units() const;
  // Whether the firmware reads pages' spare areas (the block FTL's replacement blocks): the
  // dies then have a spare-read state (flash.t_oob_read_us, i_oob_read_ma).
  bool reads_spare_areas() const {
    return ftl.type == FtlType::Block && ftl.block_update == BlockUpdate::Replacement;
  }
};

// The most mapping units a flash page holds (a 64 KiB page of 4 KiB units).
inline constexpr uint32_t kMaxUnitsPerPage = 16;

// Parses and validates; throws ssd::ConfigError whose message starts with
// "<origin>: <key.path>: " (origin is the file name, or what the caller passes).
DriveConfig parse_drive_config(const nlohmann::json& doc, const std::string& origin);
// The file's JSON, unvalidated (missing file, bad JSON with line/column: ConfigError).
nlohmann::json read_config_json(const std::string& path);
// Reads the file (read_config_json, then parse_drive_config).
DriveConfig load_drive_config(const std::string& path);
// The effective config with every default resolved; parse_drive_config(to_json(c)) == c.
nlohmann::ordered_json to_json(const DriveConfig& cfg);
// Every key a config may hold, as dotted paths in field-table order ("flash.t_prog_us"; a list's
// items as "power.rails[i].name"); docs/config.md documents each (ConfigDocsTest).
std::vector<std::string> config_keys();
// The same keys described (config/json/KeyDescriber.h): each an object with "key", "type" (bool,
// choice, integer, number, string, numbers, strings, list, comment), "default" (the struct's),
// and "min"/"max" ("min_open"/"max_open" when excluded), "choices", "required", "min_items"
// where they apply. What `ssdtlm config-keys` prints.
nlohmann::ordered_json config_key_table();

// The config the model's components are built from: each group whose currents are measured at
// its rail (currents_at rail) gets that rail's voltage as its supply voltage, so every power,
// energy and attribution figure is I x V_rail.
DriveConfig referred_to_rails(const DriveConfig& cfg);

}  // namespace ssd::config
