#pragma once
// The SC_REPORT message types ssdtlm reports under, for sc_report_handler::set_actions.
// Every type starts with "/ssdtlm/"; these are the ones a platform meets at the boundary.
namespace ssdtlm::msg {

// Building the drive: an unreadable or invalid config (SC_REPORT_FATAL).
inline constexpr const char* kConfig = "/ssdtlm/config";
// The target socket: a base-protocol violation by the initiator (SC_REPORT_ERROR; the
// transaction gets TLM_GENERIC_ERROR_RESPONSE where one can still be given).
inline constexpr const char* kProtocol = "/ssdtlm/target/protocol";
// The drive returned data other than the bytes written (the backing store's scoreboard,
// SC_REPORT_ERROR): a model error.
inline constexpr const char* kData = "/ssdtlm/data";
// Ssd::write_report: the report could not be written (SC_REPORT_ERROR).
inline constexpr const char* kReport = "/ssdtlm/report";

}  // namespace ssdtlm::msg
