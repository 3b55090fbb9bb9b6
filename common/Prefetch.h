#pragma once
// A hint to bring the cache line at `p` in ahead of a look-up. An asm statement, because GCC
// 12 at -O3 drops __builtin_prefetch where it likes: in the page tables' prefetch (one
// builtin in each arm of a branch) and, under link-time optimisation, in the host's
// prefetch of scoreboard slots; both look-ups then missed the cache on every request.
namespace ssd {

inline void prefetch(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace ssd
