#include "ip/BackingStore.h"

#include <algorithm>
#include <cstring>

namespace ssd::ip {

void BackingStore::write(uint64_t address, const uint8_t* data, uint64_t length) {
  while (length != 0) {
    const uint64_t in = address % kChunkBytes;
    const uint64_t n = std::min(length, kChunkBytes - in);
    std::unique_ptr<Chunk>& c = chunks_[address / kChunkBytes];
    if (!c) c = std::make_unique<Chunk>(Chunk{});
    std::memcpy(c->data() + in, data, n);
    address += n;
    data += n;
    length -= n;
  }
}

void BackingStore::read(uint64_t address, uint8_t* data, uint64_t length) const {
  while (length != 0) {
    const uint64_t in = address % kChunkBytes;
    const uint64_t n = std::min(length, kChunkBytes - in);
    const auto it = chunks_.find(address / kChunkBytes);
    if (it == chunks_.end())
      std::memset(data, 0, n);
    else
      std::memcpy(data, it->second->data() + in, n);
    address += n;
    data += n;
    length -= n;
  }
}

void BackingStore::discard(uint64_t address, uint64_t length) {
  while (length != 0) {
    const uint64_t in = address % kChunkBytes;
    const uint64_t n = std::min(length, kChunkBytes - in);
    const auto it = chunks_.find(address / kChunkBytes);
    if (it != chunks_.end()) {
      if (n == kChunkBytes)
        chunks_.erase(it);
      else
        std::memset(it->second->data() + in, 0, n);
    }
    address += n;
    length -= n;
  }
}

}  // namespace ssd::ip
