// Fuzz-style robustness of every trace format: valid lines with random byte mutations,
// truncated, empty and binary files, truncated and corrupt gzip. Reading must end either
// normally or with an ssd::InputError whose message names the file and is printable; nothing
// else may escape, crash or hang.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {
namespace {

using test::write_file;

constexpr int kMutationsPerFormat = 400;

// The first lines of a valid file of each format.
struct Base {
  const char* format;
  std::string text;
};

std::string head(const std::string& excerpt, int lines) {
  const std::string all = test::slurp(test::source_path("traces/" + excerpt));
  size_t end = 0;
  for (int i = 0; i < lines && end != std::string::npos; ++i) end = all.find('\n', end + 1);
  return all.substr(0, end == std::string::npos ? all.size() : end + 1);
}

std::vector<Base> bases() {
  return {{"spc", head("umass_financial1.head10k.spc", 40)},
          {"csv", head("umass_financial1.head1k.csv", 30) + "40000000000,trim,8192,8192\n"},
          {"disksim", head("ms_msnfs.disk5.head20k.ascii", 40)},
          {"msr", head("msr_hm_0.slice.csv", 40)},
          {"fiu", head("fiu_mail.head10k.txt", 40)},
          {"blkparse", head("fiu_mail.head2k.blkparse.txt", 30) +
                           "  8,0    3        9     2.000000000     0  m   N cfq4162 insert\n"
                           "  8,0    3       10     2.100000000  4162  Q  DS 8192 + 2048 [x]\n"
                           "  8,0    3       11     2.200000000  4162  D  DS 8192 + 2048 [x]\n"
                           "CPU0 (8,0):\n Reads Queued: 1, 8KiB\n"}};
}

// Every option that transforms records turned on, so they see malformed input too.
TraceOptions everything(const std::string& format) {
  TraceOptions o = test::with_format(format);
  o.capacity_bytes = uint64_t{1} << 30;
  o.page_bytes = 4096;
  o.volume_map = VolumeMap::kConcat;
  o.volume_count = 64;
  o.fit = Fit::kScale;
  o.trace_capacity = uint64_t{1} << 40;
  o.align_to_page = true;
  o.reorder_window = 4;
  o.time_scale = 3.7;
  o.start_ps = 1000;
  return o;
}

bool printable(const std::string& s) {
  for (const char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      return false;
    }
  }
  return true;
}

// Reads `path` to its end; fails the test unless that ends normally or with a clear
// InputError. Returns the message ("" if none).
std::string read_checked(const std::string& path, const TraceOptions& opts,
                         const std::string& what) {
  try {
    const std::unique_ptr<TraceReader> reader = open_trace(path, opts);
    HostRequest r;
    uint64_t n = 0;
    while (reader->next(r)) {
      EXPECT_GT(r.length_bytes, 0u) << what;
      if (opts.capacity_bytes != 0) {
        EXPECT_LE(r.offset_bytes + r.length_bytes, opts.capacity_bytes) << what;
      }
      ++n;
    }
    EXPECT_EQ(n, reader->counters().requests) << what;
  } catch (const BadLineError& e) {
    std::string m = e.what();
    EXPECT_FALSE(opts.skip_bad_lines) << what << ": " << m;
    // "<path>:<line>: <field>: <reason>"
    EXPECT_EQ(m.rfind(path + ":", 0), 0u) << what << ": " << m;
    const size_t colon = m.find(": ", path.size() + 1);
    EXPECT_NE(colon, std::string::npos) << what << ": " << m;
    EXPECT_NE(m.find(": ", colon + 2), std::string::npos) << what << ": " << m;
    EXPECT_TRUE(printable(m)) << what << ": " << m;
    return m;
  } catch (const InputError& e) {
    std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ":", 0), 0u) << what << ": " << m;
    EXPECT_TRUE(printable(m)) << what << ": " << m;
    EXPECT_GT(m.size(), path.size() + 5) << what;
    return m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": not an InputError: " << e.what();
  }
  return "";
}

void read_every_way(const std::string& path, const std::string& format, const std::string& what) {
  read_checked(path, test::with_format(format), what + " as " + format);
  read_checked(path, test::with_format("auto"), what + " auto");
  read_checked(path, everything(format), what + " with every option");
  TraceOptions skip = everything(format);
  skip.skip_bad_lines = true;
  read_checked(path, skip, what + " skipping bad lines");
}

std::string mutate(std::string text, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  const int kind = static_cast<int>(rng() % 4);
  const int edits = 1 + static_cast<int>(rng() % 6);
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const size_t at = rng() % text.size();
    switch (kind) {
      case 0:  // any byte
        text[at] = static_cast<char>(byte(rng));
        break;
      case 1:  // a byte that keeps the line looking like text
        text[at] = "0123456789,. \t-+eE:xX\n\rRWrw#"[rng() % 29];
        break;
      case 2:  // insert
        text.insert(at, 1 + rng() % 20, static_cast<char>(byte(rng)));
        break;
      case 3:  // delete
        text.erase(at, 1 + rng() % 30);
        break;
    }
  }
  return text;
}

TEST(TraceFuzz, ValidBasesReadCleanly) {
  for (const Base& b : bases()) {
    const std::string path = write_file("base." + std::string(b.format), b.text);
    EXPECT_EQ(read_checked(path, test::with_format(b.format), b.format), "") << b.format;
    EXPECT_EQ(read_checked(path, test::with_format("auto"), b.format), "") << b.format;
    EXPECT_EQ(read_checked(path, everything(b.format), b.format), "") << b.format;
  }
}

TEST(TraceFuzz, RandomByteMutations) {
  std::mt19937 rng(20240611);
  for (const Base& b : bases()) {
    for (int i = 0; i < kMutationsPerFormat; ++i) {
      const std::string path = write_file("mutated", mutate(b.text, rng));
      read_every_way(path, b.format, std::string(b.format) + " mutation " + std::to_string(i));
    }
  }
}

TEST(TraceFuzz, TruncatedFiles) {
  std::mt19937 rng(7);
  for (const Base& b : bases()) {
    for (int i = 0; i < 40; ++i) {
      const std::string path = write_file("cut", b.text.substr(0, rng() % b.text.size()));
      read_every_way(path, b.format, std::string(b.format) + " cut " + std::to_string(i));
    }
  }
}

TEST(TraceFuzz, EmptyFiles) {
  for (const Base& b : bases()) {
    for (const char* text : {"", "\n", "\r\n\r\n", "   \t\n", "# only a comment\n"}) {
      const std::string path = write_file("empty", text);
      // An explicit format reads an empty trace; detection has nothing to go by.
      EXPECT_EQ(read_checked(path, test::with_format(b.format), b.format), "") << b.format;
      EXPECT_EQ(read_checked(path, test::with_format("auto"), "auto"),
                path + ": no record to detect the trace format from; give --format");
    }
  }
}

TEST(TraceFuzz, BinaryGarbage) {
  std::mt19937 rng(99);
  for (const size_t size : {size_t{1}, size_t{17}, size_t{4096}, size_t{300000}}) {
    std::string garbage(size, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    const std::string path = write_file("garbage", garbage);
    for (const Base& b : bases()) read_every_way(path, b.format, "garbage " + std::to_string(size));
  }
  // A NUL-filled file and one line of 2 MiB without a newline.
  const std::string zeros = write_file("zeros", std::string(5000, '\0'));
  const std::string huge = write_file("huge", std::string(2 << 20, 'x'));
  for (const Base& b : bases()) {
    read_every_way(zeros, b.format, "zeros");
    EXPECT_NE(read_checked(huge, test::with_format(b.format), "huge").find("line longer than"),
              std::string::npos);
  }
}

TEST(TraceFuzz, TruncatedAndCorruptGzip) {
  std::mt19937 rng(5);
  for (const Base& b : bases()) {
    const std::string gz = test::slurp(test::write_gzip("whole.gz", b.text));
    for (int i = 0; i < 30; ++i) {
      const std::string cut = write_file("cut.gz", gz.substr(0, rng() % gz.size()));
      const std::string m =
          read_checked(cut, test::with_format(b.format), std::string(b.format) + " gzip cut");
      EXPECT_NE(m, "") << b.format << " gzip cut " << i;  // never taken for a whole file
      read_every_way(cut, b.format, std::string(b.format) + " gzip cut " + std::to_string(i));
    }
    for (int i = 0; i < 30; ++i) {
      std::string bad = gz;
      bad[10 + rng() % (bad.size() - 10)] ^= static_cast<char>(1 + rng() % 255);
      const std::string path = write_file("bad.gz", bad);
      read_every_way(path, b.format, std::string(b.format) + " gzip corrupt " + std::to_string(i));
    }
  }
}

}  // namespace
}  // namespace ssd::tb
