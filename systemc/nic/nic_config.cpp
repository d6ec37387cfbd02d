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
               "ejection buffer per VC in flits (the NIC drains one flit per cycle, or 1/port_speedup)", {1, 1u << 20})
        .field("credit_delay", &NicConfig::credit_delay, 0u, "cycles before an ejection credit leaves the NIC", {0, 64})
        .field("port_speedup", &NicConfig::port_speedup, 1.0,
               "fabric speedup s over the host port: new data flits are injected, and data flits leave the "
               "ejection buffer, at 1/s per cycle, exactly (at most three decimals); 1 = off",
               {1.0, 64.0});
    return true;
  }();
  (void)init;
  return s;
}

}  // namespace ccnet
