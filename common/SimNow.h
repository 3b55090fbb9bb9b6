#pragma once
// The current simulation time, inline. SystemC's sc_time_stamp() is an out-of-line call
// into the library (through sc_get_curr_simcontext()), and the model asks for the time a few
// dozen times per host request.
#include <systemc>

namespace ssd {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_curr_simcontext->time_stamp(); }

}  // namespace ssd
