// The file at the end of an output chain (the request log's): a write the disk refuses
// (/dev/full) is an error naming the file, whether it comes while writing or at the final flush,
// plain or through the gzip compressor; a whole file reads back as written.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "common/Errors.h"
#include "tb/host/CheckedSink.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {
namespace {

namespace io = boost::iostreams;

// `bytes` that do not compress: past the gzip compressor's buffers too.
std::string noise(std::size_t bytes) {
  std::mt19937 rng(1);
  std::string s(bytes, '\0');
  for (char& c : s) c = char(rng());
  return s;
}

// The message finish() throws, "" when it does not.
std::string finish_error(tb::CheckedSink& sink, io::filtering_ostream& out) {
  try {
    sink.finish(out);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(CheckedSink, AFullDiskIsAnErrorNamingTheFile) {
  for (const bool gzip : {false, true}) {
    for (const std::size_t bytes : {std::size_t(10), std::size_t(1) << 20}) {
      SCOPED_TRACE(std::string(gzip ? "gzip, " : "plain, ") + std::to_string(bytes) + " bytes");
      tb::CheckedSink sink("/dev/full");
      io::filtering_ostream out;
      if (gzip) out.push(io::gzip_compressor());
      out.push(sink);
      out << noise(bytes);
      // 10 bytes stay in the buffers until finish() flushes them; 1 MiB fails on the way (the
      // stream keeps the error as badbit).
      EXPECT_EQ(bool(out), bytes == 10);
      EXPECT_EQ(finish_error(sink, out), "/dev/full: write failed: No space left on device");
    }
  }
}

TEST(CheckedSink, AWholeFileReadsBackAsWritten) {
  const std::string text = noise(1 << 20);
  for (const bool gzip : {false, true}) {
    SCOPED_TRACE(gzip);
    const std::string path = temp_dir("sink") + "/log";
    {
      tb::CheckedSink sink(path);
      io::filtering_ostream out;
      if (gzip) out.push(io::gzip_compressor());
      out.push(sink);
      out << text;
      EXPECT_EQ(finish_error(sink, out), "");
    }
    if (!gzip) {
      EXPECT_EQ(slurp(path), text);
      continue;
    }
    io::filtering_istream in;
    in.push(io::gzip_decompressor());
    in.push(io::file_source(path, std::ios::binary));
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
  }
}

TEST(CheckedSink, ACreateThatFailsNamesTheFile) {
  const std::string path = temp_dir("sink") + "/missing/log";
  try {
    tb::CheckedSink sink(path);
    ADD_FAILURE() << "opened " << path;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open for writing: No such file or directory");
  }
}

}  // namespace
}  // namespace ssd::test
