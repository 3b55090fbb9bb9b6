// Aging NAND whose data ages at the die's temperature during the run
// (flash.reliability.run_temperature "die", docs/reliability.md): the thermal model's retention
// meter, the integral of the Arrhenius factor over a node's temperature, against the closed
// form at a constant temperature and an independent integration of a heating node; a page read
// on a hot die meets the errors the formula gives for that age; the rule naming its key.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "config/ReliabilityConfig.h"
#include "model/thermal/ThermalModel.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::FlashOp;
using model::ThermalModel;
using test::Probe;

constexpr uint64_t kPsPerS = 1'000'000'000'000;

config::ReliabilityConfig jedec() {
  config::ReliabilityConfig r;
  r.activation_energy_ev = 1.1;
  r.reference_temperature_c = 25;
  return r;
}

// A node resting at a 55 C ambient ages data 50.1 times as fast as 25 C: the meter is A x t.
TEST(RetentionMeter, AtAConstantTemperatureItIsTheArrheniusFactorTimesTheTime) {
  ThermalModel m(55.0, {{"controller", 10, 1}, {"nand", 4, 0.25}});
  m.meter_retention(jedec());
  const double a = config::retention_acceleration(jedec(), 55.0);
  EXPECT_NEAR(a, 50.105, 0.001);
  EXPECT_NEAR(m.retention_s(1, 10 * kPsPerS), 10 * a, 1e-12 * 10 * a);
  m.add_power(0, 4 * kPsPerS, 1'000'000'000);  // the controller's power: not the NAND node's
  EXPECT_NEAR(m.retention_s(1, 10 * kPsPerS), 10 * a, 1e-12 * 10 * a);
}

// A node heated by 10 W from 25 C towards 65 C (tau 1 s): the meter over 3 s equals the integral
// of A(T(t)) along the closed form, by composite Simpson in 200,000 steps here; stepping the node
// every microsecond for its first half second (where the temperature moves least per step) gives
// the same.
TEST(RetentionMeter, AHeatingNodeAgesDataByTheIntegralOfItsArrheniusFactor) {
  const double amb = 25, p_w = 10, r = 4, c = 0.25;
  const auto a_at = [&](double t_s) {
    const double steady = amb + p_w * r;
    return config::retention_acceleration(jedec(),
                                          steady + (amb - steady) * std::exp(-t_s / (r * c)));
  };
  const auto integral = [&](double to_s) {
    constexpr int kSteps = 200'000;
    const double h = to_s / kSteps;
    double sum = a_at(0) + a_at(to_s);
    for (int k = 1; k < kSteps; ++k) sum += (k % 2 ? 4 : 2) * a_at(k * h);
    return sum * h / 3;
  };
  ThermalModel m(amb, {{"controller", 10, 1}, {"nand", r, c}});
  m.meter_retention(jedec());
  m.add_power(1, 0, 10'000'000'000);
  const double whole = integral(3.0);
  EXPECT_GT(whole, 3.0 * 10);  // most of it hotter than 50 C
  EXPECT_NEAR(m.retention_s(1, 3 * kPsPerS), whole, 1e-9 * whole);

  ThermalModel fine(amb, {{"controller", 10, 1}, {"nand", r, c}});
  fine.meter_retention(jedec());
  fine.add_power(1, 0, 10'000'000'000);
  constexpr uint64_t kUs = 1'000'000;
  for (uint64_t k = 1; k <= 500'000; ++k) fine.add_power(1, k * kUs, 0);
  EXPECT_NEAR(fine.retention_s(1, kPsPerS / 2), integral(0.5), 1e-9 * integral(0.5));
  EXPECT_NEAR(fine.retention_s(1, 3 * kPsPerS), whole, 1e-9 * whole);
}

class HotDie : public test::NandRig {
 protected:
  // Retention alone, linear in the days at the reference temperature; the NAND node at 85 C,
  // its resistance so small the die's own power moves it by under a nano-kelvin.
  void SetUp() override {
    NandRig::SetUp();
    config::ReliabilityConfig& r = drive.flash.reliability;
    r.enabled = true;
    r.rber_retention = 0.4;
    r.retention_wear_exponent = 0;
    r.retention_time_exponent = 1;
    r.correctable_bits = 40;
    r.retry_steps = {{70, 3, 60}, {90, 5, 80}};
    drive.thermal.enabled = true;
    drive.thermal.ambient_c = 85;
    drive.thermal.nand.r_k_per_w = 1e-9;
  }
  // Programs page 0 of block 0, reads it a second later; returns the time between the two.
  sc_core::sc_time program_wait_read() {
    monitor_options.thermal = std::make_shared<ThermalModel>(ThermalModel::from_config(drive));
    sc_core::sc_time programmed, read_at;
    EXPECT_EQ(run([&](Probe& p) {
                programmed = sc_core::sc_time_stamp();
                p.finish(p.send(FlashOp::Program, 0, 0, 0, 1));
                sc_core::wait(sc_core::sc_time(1, sc_core::SC_SEC));
                read_at = sc_core::sc_time_stamp();
                p.finish(p.send(FlashOp::Read, 0, 0, 0));
              }),
              "");
    return read_at - programmed;
  }
};

// The page's data is a second old: at 85 C, 1,300 seconds at 25 C. Its worst codeword has the
// errors the formula and the page's draw give for that age, past the hard decode; at the storage
// temperature (25 C) the same second leaves it none to speak of.
TEST_F(HotDie, DataOfTheRunAgesAtItsDiesTemperature) {
  drive.flash.reliability.run_temperature = config::RunTemperature::Die;
  const sc_core::sc_time held = program_wait_read();
  const config::ReliabilityConfig& r = drive.flash.reliability;
  const double a = config::retention_acceleration(r, 85.0);
  EXPECT_NEAR(a, 1300, 10);
  const model::flash::BitErrors e(r, drive.flash.bits_per_cell(), drive.flash.page_bytes);
  const double rber = e.rber_at_reference(0, a * held.to_seconds() / 86400, 0, 0);
  const uint32_t errors = e.worst_errors(rber, e.uniform(0, 0, 0, 0, 0));
  EXPECT_GT(errors, 40u);
  EXPECT_EQ(probe->sent[1].cmd->retries, e.retries_for(errors));
  EXPECT_EQ(probe->sent[1].cmd->uncorrectable, e.uncorrectable(errors));
}

TEST_F(HotDie, AtTheStorageTemperatureTheSameSecondAgesItLittle) {
  program_wait_read();
  EXPECT_EQ(probe->sent[1].cmd->retries, 0u);
}

// End to end on the small drive at an 85 C ambient, data from before the run fresh, its errors
// growing with age only: a second at 85 C is 1,300 at 25 C, so the firmware's scans (reading the
// dies' sensors) find blocks due for refresh within the run and rewrite them, losing nothing;
// at the storage temperature the same run ages its data by a second and refreshes none.
TEST(RunTemperatureDrive, AHotDriveRefreshesWhatAStoredOneKeeps) {
  const auto refreshed = [](const std::string& mode) {
    const nlohmann::json r = test::cli_report(
        "--config " + test::source_path("configs/small_gc.json") +
            " --precondition --reproducible --workload rw=randread,bs=4096,qd=4,count=20000"
            " --set flash.reliability.enabled=true --set flash.reliability.rber_base=1e-4"
            " --set flash.reliability.rber_retention=0.02"
            " --set flash.reliability.retention_wear_exponent=0"
            " --set flash.reliability.retention_time_exponent=1"
            " --set ftl.read_refresh.enabled=true --set ftl.read_refresh.errors_per_codeword=3"
            " --set ftl.read_refresh.scan_interval_ms=10"
            " --set thermal.enabled=true --set thermal.ambient_c=85"
            " --set flash.reliability.run_temperature=" +
            mode,
        test::temp_dir("run_temperature_" + mode));
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
    EXPECT_EQ(r["reliability"]["uncorrectable_reads"], 0);
    return r["read_refresh"]["blocks_refreshed"].get<uint64_t>();
  };
  EXPECT_EQ(refreshed("storage"), 0u);
  EXPECT_GT(refreshed("die"), 100u);
}

TEST(RunTemperatureConfig, TheDiesTemperatureNeedsTheThermalModel) {
  const std::string base = "--config " + test::source_path("configs/nvme_tlc_1tb.json") +
                           " --set flash.reliability.enabled=true"
                           " --set flash.reliability.run_temperature=die --dump-config";
  EXPECT_NE(test::cli_output(base + " --set thermal.enabled=false")
                .find("flash.reliability.run_temperature: \"die\" needs thermal.enabled"),
            std::string::npos);
  EXPECT_EQ(test::cli_output(base + " --set thermal.enabled=true").find("ssdtlm: error"),
            std::string::npos);
  EXPECT_NE(test::cli_output(base + " --set flash.reliability.run_temperature=hot")
                .find("flash.reliability.run_temperature"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd
