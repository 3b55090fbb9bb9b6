#pragma once
// The output files of one run, replaced as a set: they are written into a fresh staging
// directory next to the target, which then takes the target's place in one step (Linux
// renameat2 RENAME_EXCHANGE; the target's other files go with it as hard links), so even
// SIGKILL finds the target with the earlier set or the new one, whole. The target is a new
// directory after that: a shell working in it sees it empty until it changes directory again.
// Where the swap cannot be made (the target holds a subdirectory, this process works in it,
// the file system cannot exchange), the files are moved in one by one, report.json last,
// after the earlier run's are removed (report.json first): the target never mixes two runs and
// a report.json there always belongs to the files beside it, but SIGKILL during those few
// renames can leave it without report.json. SIGINT and SIGTERM remove the staging directory
// before the process dies of the signal; while the set is moved in they are held back.
#include <string>

namespace ssd::tb {

// Throws ssd::UsageError("--out: ...") unless `dir` can name an output directory: not empty
// and not an existing file of another kind.
void check_output_dir(const std::string& dir);

class OutputSet {
 public:
  // The names a run may write, in the order they are moved in (report.json last).
  static constexpr const char* kFiles[] = {"energy.csv",        "current.vcd",     "current.fst",
                                           "requests.csv",      "requests.csv.gz", "timeline.csv",
                                           "timeline_dies.csv", "report.json"};

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
  std::string target_;  // dir_ as a path with no symbolic link at its end
  std::string staging_;
  bool committed_ = false;
};

}  // namespace ssd::tb
