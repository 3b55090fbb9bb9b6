#pragma once
// The current simulation time, inline. SystemC's sc_time_stamp() is an out-of-line call
// into the library (through sc_get_curr_simcontext()), and the model asks for the time a few
// dozen times per host request.
#include <systemc>

namespace ssd {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_curr_simcontext->time_stamp(); }

// sc_time::to_seconds(), inline, at the model's 1 ps resolution (the energy monitor refuses
// any other): the library multiplies the value by the resolution in femtoseconds, then by
// 1e-15, and the same operations in the same order give the same double.
inline double to_seconds(const sc_core::sc_time& t) { return double(t.value()) * 1000.0 * 1e-15; }

}  // namespace ssd
