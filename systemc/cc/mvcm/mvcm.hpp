// MVCM (paper 001, Ferrer et al., IEEE TC 2012): the network parameters the mechanism derives
// from the configuration (section 4.3; notes sections 1.7 and 1.8 V1/V2). The mechanism itself is
// in mvcm.cpp; docs/mechanisms/mvcm.md describes it.
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace ccnet {

class Topology;
struct RouterConfig;
struct LinkConfig;
struct NicConfig;

namespace mvcm {

// The paper's round trip (section 4.3.2): RTT_min = 2 h t_hop + (L_data + L_ack) / B, for h
// switch traversals of t_hop cycles, packet lengths in bytes and B bytes per cycle.
double paper_rtt_min(std::uint32_t h, double t_hop, double l_data, double l_ack, double bytes_per_cycle);
// omega = RTT_min / (L_data / B): packets a flow needs in flight to keep its link busy.
double omega(double rtt_min, double l_data, double bytes_per_cycle);
// The window the paper chooses: the nearest integer not below omega (section 4.3.2).
std::uint32_t dw_max_of(double omega);

// What the mechanism derives from a network configuration (flits and cycles of the model).
struct NetworkParams {
  std::uint32_t radix = 1;          // k: hosts on one switch (node 0's), the waiting-slot factor
  std::uint32_t stages = 1;         // n: smallest n with k^n >= nodes, the waiting-slot cap
  std::uint32_t switch_hops = 1;    // h: switches on the longest minimal route (2n - 1 in a k-ary n-tree)
  std::uint32_t hop_cycles = 0;     // router pipeline per switch: routing + vc_alloc + sw_alloc + traversal
  std::uint32_t terminal_latency = 1, link_latency = 1;  // NIC <-> switch, switch <-> switch (largest class)
  std::uint32_t data_flits = 1, ack_flits = 1;
  Cycle rtt_min = 0;                // data out + ACK back, unloaded, longest route
  double omega = 1;
  std::uint32_t dw_max = 1;
};
// RTT_min = 2 (2 L_terminal + h d_pipeline + (h - 1) L_link) + L_data + L_ack: the zero-load
// latency of the data packet plus that of its ACK over the longest minimal route
// (tests/net/test_zero_load.cpp checks the one-way formula against the model).
NetworkParams derive(const Topology& topology, const RouterConfig& router, const LinkConfig& link, const NicConfig& nic);

}  // namespace mvcm
}  // namespace ccnet
