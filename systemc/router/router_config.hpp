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

// A value per link class, by class name (the topology declares its classes: topology.hpp).
using PerLinkClass = config::NamedValues<std::uint32_t>;

struct RouterConfig {
  FlowControl flow_control = FlowControl::VirtualCutThrough;
  std::uint32_t vcs_per_level = 1;
  PerLinkClass buffer;            // input buffer depth per VC, by the class of the input's link
  bool voq = false;
  std::uint32_t speedup = 1;
  std::uint32_t output_buffer = 0;  // flits per VC of the output queues (0 = input-queued only)
  StageDelays delays;
  std::uint32_t control_queue = 64;  // flits of the switch's own control-packet source (NACKs, CNPs)
  static const config::Schema& schema();
};

struct LinkConfig {
  PerLinkClass latency;           // cycles, by link class
  static const config::Schema& schema();
};

}  // namespace ccnet
