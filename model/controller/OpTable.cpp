#include "model/controller/OpTable.h"

#include <algorithm>

namespace ssd::model::controller {

FlashPath Op::path() const {
  FlashPath f{issued,     issued,   started,    end,      gc_wait,
              power_wait, throttle, retry_time, ecc_time, core};
  // A read from the buffer waits for the program's data, unless that comes from GC's read.
  if (buffer)
    f.data_at = from_gc ? issued : end;
  else
    f.data_at = std::max(issued, data_floor);
  return f;
}

}  // namespace ssd::model::controller
