// Router and link settings (one declaration each: defaults, ranges and docs live here).
#pragma once

#include <cstdint>

#include "core/config.hpp"

namespace ccnet {

enum class FlowControl : std::uint8_t { VirtualCutThrough, Wormhole };

struct StageDelays {
  std::uint32_t routing = 1;
  std::uint32_t vc_alloc = 1;
  std::uint32_t sw_alloc = 1;
  std::uint32_t traversal = 1;
  std::uint32_t credit = 1;
  static const config::Schema& schema();
};

// Per link class (terminal = NIC<->router, local, global) values.
struct PerLinkClass {
  std::uint32_t terminal = 0;
  std::uint32_t local = 0;
  std::uint32_t global = 0;
  std::uint32_t get(int link_class) const { return link_class == 0 ? terminal : link_class == 1 ? local : global; }
};

struct BufferDepths : PerLinkClass {
  static const config::Schema& schema();
};

struct RouterConfig {
  FlowControl flow_control = FlowControl::VirtualCutThrough;
  std::uint32_t vcs_per_level = 1;
  BufferDepths buffer;            // input buffer depth per VC, by the class of the input's link
  bool voq = false;
  std::uint32_t speedup = 1;
  std::uint32_t output_buffer = 0;  // flits per VC of the output queues (0 = input-queued only)
  StageDelays delays;
  std::uint32_t control_queue = 64;  // flits of the switch's own control-packet source (NACKs, CNPs)
  static const config::Schema& schema();
};

struct LinkLatencies : PerLinkClass {
  static const config::Schema& schema();
};

struct LinkConfig {
  LinkLatencies latency;
  static const config::Schema& schema();
};

}  // namespace ccnet
