#include "nic/nic_config.hpp"

namespace ccnet {

const config::Schema& NicConfig::schema() {
  static config::Schema s(
      "Network interface: per-destination send queues served round-robin per packet by the "
      "injection engine, segmentation, ACKs, reassembly.");
  static bool init = [] {
    config::Declare<NicConfig>(s)
        .field("max_packet", &NicConfig::max_packet, 16u, "maximum packet size in flits (messages are segmented)", {1, 4096})
        .field("acks", &NicConfig::acks, true, "acknowledge every data packet with a 1-flit ACK")
        .field("ejection_buffer", &NicConfig::ejection_buffer, 16u,
               "ejection buffer per VC in flits (the NIC drains one flit per cycle)", {1, 1u << 20})
        .field("credit_delay", &NicConfig::credit_delay, 0u, "cycles before an ejection credit leaves the NIC", {0, 64});
    return true;
  }();
  (void)init;
  return s;
}

}  // namespace ccnet
