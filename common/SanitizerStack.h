#pragma once
// AddressSanitizer's idea of the stack in use, put right when the kernel hands back to the
// main thread (nothing in builds without ASan).
//
// SystemC 2.3.4 tells ASan of a switch between coroutines in yield() but not in abort() (a
// thread process whose function returns, as a host flow does at its workload's end), and gives
// the main coroutine no stack bounds; so once sc_start returns, ASan takes the main stack for a
// coroutine's. An exception thrown then leaves the frames it unwinds poisoned ("ignoring
// requested __asan_handle_no_return"), and a later call on them is reported as a
// stack-buffer-overflow that is not there.

#include <pthread.h>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define SSDTLM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SSDTLM_ASAN 1
#endif
#endif

#ifdef SSDTLM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace ssd {

// Call on the thread that runs the kernel, after sc_start returns.
inline void sanitizer_on_thread_stack() {
#ifdef SSDTLM_ASAN
  struct Bounds {
    void* bottom = nullptr;
    std::size_t size = 0;
  };
  thread_local const Bounds bounds = [] {
    Bounds b;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &b.bottom, &b.size);
      pthread_attr_destroy(&attr);
    }
    return b;
  }();
  if (bounds.size == 0) return;
  // A switch to the stack already in use: its fake stack (use-after-return) is kept.
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bounds.bottom, bounds.size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace ssd
