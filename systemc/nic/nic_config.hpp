// NIC settings.
#pragma once

#include <cstdint>

#include "core/config.hpp"

namespace ccnet {

struct NicConfig {
  std::uint32_t max_packet = 16;     // flits; longer messages are segmented
  bool acks = true;                  // destination acknowledges every data packet
  std::uint32_t ejection_buffer = 16;  // flits per VC of the NIC's ejection buffer
  std::uint32_t credit_delay = 0;    // cycles before a freed ejection slot's credit leaves
  double port_speedup = 1.0;         // fabric rate / host port rate (nic/port_rate.hpp); 1 = off
  static const config::Schema& schema();
};

}  // namespace ccnet
