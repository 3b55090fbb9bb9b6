// `ssdtlm --check-overrides FILE` (tb/run/CheckOverrides.h): a line of overrides in, the answer
// --dump-config gives for them out, in one process; a line that is not a JSON array of
// "KEY=VALUE" strings ends it with an error naming the line, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "tb/tests/TraceTestUtil.h"

namespace ssd::test {
namespace {

const std::string kConfig = source_path("configs/small_gc.json");

std::vector<nlohmann::json> answers(const std::string& output) {
  std::vector<nlohmann::json> out;
  std::size_t at = 0;
  for (std::size_t end; (end = output.find('\n', at)) != std::string::npos; at = end + 1)
    if (output.compare(at, 15, "ssdtlm: error: ") != 0)
      out.push_back(nlohmann::json::parse(output.substr(at, end - at)));
  return out;
}

// What --dump-config prints (stdout and stderr) for the command line's --set and `line`'s.
std::string dump_config(const std::string& sets, const nlohmann::json& line) {
  std::string args = "--config " + kConfig + sets;
  for (const auto& o : line) args += " --set '" + o.get<std::string>() + "'";
  std::string out;
  run_ssdtlm(args + " --dump-config", out);
  return out;
}

// The answer as --dump-config prints it: the config, or the refusal a line each.
std::string as_printed(const nlohmann::json& answer) {
  if (answer.contains("config")) return answer["config"];
  std::string out;
  const std::string error = answer["error"];
  std::size_t at = 0;
  for (std::size_t end; at <= error.size(); at = end + 1) {
    end = std::min(error.find('\n', at), error.size());
    out += "ssdtlm: error: " + error.substr(at, end - at) + "\n";
  }
  return out;
}

// Accepted, refused by the config's rules (two problems at once), refused by the model as it
// is built, accepted again after a refusal, with and without the command line's --set.
TEST(CliCheckOverrides, AnswersAsDumpConfigDoes) {
  const std::vector<nlohmann::json> lines = {
      nlohmann::json::array(),
      {"ftl.type=dftl", "flash.t_prog_us=500"},
      {"flash.page_bytes=3", "host.queue_depth=0"},
      {"power_budget.enabled=true", "power_budget.max_power_w=0.001"},
      {"ftl.type=bast"},
  };
  std::string text;
  for (const auto& line : lines) text += line.dump() + "\n";
  const std::string file = write_file("lines.jsonl", text);
  for (const std::string sets : {"", " --set controller.issue_order=in_order"}) {
    std::string out;
    ASSERT_EQ(run_ssdtlm("--config " + kConfig + sets + " --check-overrides " + file, out), 0)
        << out;
    const std::vector<nlohmann::json> got = answers(out);
    ASSERT_EQ(got.size(), lines.size()) << out;
    for (std::size_t i = 0; i < lines.size(); ++i)
      EXPECT_EQ(as_printed(got[i]), dump_config(sets, lines[i])) << lines[i];
    EXPECT_TRUE(got[2].contains("error") && got[3].contains("error")) << out;
    EXPECT_NE(got[3]["error"].get<std::string>().find("leaves no room"), std::string::npos);
  }
  // Read from stdin, the same.
  std::string from_file, from_stdin;
  ASSERT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides " + file, from_file), 0);
  ASSERT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides - <" + file, from_stdin), 0);
  EXPECT_EQ(from_file, from_stdin);
}

TEST(CliCheckOverrides, EmptyInputAnswersNothing) {
  const std::string file = write_file("empty.jsonl", "");
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides " + file, out), 0);
  EXPECT_EQ(out, "");
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides - </dev/null", out), 0);
  EXPECT_EQ(out, "");
}

// The lines before the bad one are answered; the error names its line; exit 1.
TEST(CliCheckOverrides, AMalformedLineIsAnErrorNamingIt) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ":2:1: invalid JSON: syntax error while parsing value"},
      {"[\"ftl.type=dftl\"", ":2:17: invalid JSON: syntax error while parsing array"},
      {"[1e400]", ":2: invalid JSON: "},
      {"{\"ftl.type\": \"dftl\"}",
       ":2: expected a JSON array of \"KEY=VALUE\" strings, got \"{\\\"ftl.type\\\": "},
      {"[\"ftl.type=dftl\", 3]", ":2: expected a JSON array of \"KEY=VALUE\" strings"},
      {"[\"novalue\"]", ":2: --set: expected KEY=VALUE, got \"novalue\""},
      {"[\"ftl..type=dftl\"]", ":2: --set ftl..type: empty part in the key"},
      {std::string(100, '['), ":2: JSON nested more than 64 levels deep"},
  };
  for (const auto& [line, want] : cases) {
    const std::string file = write_file("bad.jsonl", "[]\n" + line + "\n[]\n");
    std::string out;
    EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides " + file, out), 1) << line;
    EXPECT_EQ(answers(out).size(), 1u) << line << "\n" << out;
    EXPECT_NE(out.find("ssdtlm: error: " + file + want), std::string::npos) << line << "\n" << out;
  }
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides /nonexistent.jsonl", out), 1);
  EXPECT_NE(out.find("ssdtlm: error: /nonexistent.jsonl: cannot open"), std::string::npos) << out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --check-overrides - --dump-config", out), 2);
  EXPECT_NE(out.find("--check-overrides: not with --dump-config"), std::string::npos) << out;
}

}  // namespace
}  // namespace ssd::test
