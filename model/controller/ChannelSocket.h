#pragma once
// The controller's initiator socket to the flash channels (one binding per channel), as the
// controller's parts see it.
#include <tlm_utils/multi_passthrough_initiator_socket.h>

namespace ssd::model {

class Controller;
using ChannelSocket = tlm_utils::multi_passthrough_initiator_socket<Controller>;

}  // namespace ssd::model
