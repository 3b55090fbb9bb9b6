#pragma once
// The output files of one run, replaced as a set: they are written into a fresh staging
// directory next to the target and moved in at the end, report.json last, after the files an
// earlier run left there are removed (report.json first). So the target never mixes two
// runs, and a report.json there always belongs to the files beside it. SIGINT and SIGTERM
// remove the staging directory before the process dies of the signal; while the files are
// moved in they are held back, so they find the target with one whole set. Only SIGKILL
// during those few renames can leave a target without report.json (part of the earlier set
// removed, or part of the new one moved in), never with files of both runs.
#include <string>

namespace ssd::tb {

// Throws ssd::UsageError("--out: ...") unless `dir` can name an output directory: not empty
// and not an existing file of another kind.
void check_output_dir(const std::string& dir);

class OutputSet {
 public:
  // The names a run may write, in the order they are moved in (report.json last).
  static constexpr const char* kFiles[] = {"energy.csv",   "current.vcd",     "current.fst",
                                           "requests.csv", "requests.csv.gz", "report.json"};

  // Creates the staging directory (and the target's parent). Throws as check_output_dir(),
  // or ssd::InputError when nothing can be created.
  explicit OutputSet(std::string dir);
  // Without commit(), removes the staging directory and leaves the target as it was.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Where the run writes its files.
  const std::string& staging() const { return staging_; }
  // Replaces the target's outputs by the staged ones.
  void commit();

 private:
  std::string dir_;
  std::string staging_;
  bool committed_ = false;
};

}  // namespace ssd::tb
