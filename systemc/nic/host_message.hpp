// What a host posts to its NIC through the TLM-2.0 socket (generic payload data pointer,
// command WRITE): one message. Shared by the NIC (target) and the traffic generator (initiator).
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace ccnet {

struct MessageRequest {
  NodeId dst = 0;
  std::uint32_t size = 1;  // flits
  std::uint8_t traffic_class = 0;
};

}  // namespace ccnet
