#include "router/router_config.hpp"

namespace ccnet {

using config::Declare;
using config::Schema;

const Schema& StageDelays::schema() {
  static Schema s(
      "Router pipeline stage delays in cycles. A head flit arriving at cycle a can be allocated an "
      "output VC at a + routing, bid for the switch at a + routing + vc_alloc, and is written on the "
      "output link at (switch grant) + sw_alloc + traversal. A freed buffer slot is sent upstream "
      "as a credit after `credit` cycles (see docs/architecture.md, timing).");
  static bool init = [] {
    Declare<StageDelays>(s)
        .field("routing", &StageDelays::routing, 1u, "route computation", {0, 64})
        .field("vc_alloc", &StageDelays::vc_alloc, 1u, "VC allocation", {0, 64})
        .field("sw_alloc", &StageDelays::sw_alloc, 1u, "switch allocation", {0, 64})
        .field("traversal", &StageDelays::traversal, 1u, "switch traversal", {0, 64})
        .field("credit", &StageDelays::credit, 1u, "credit processing before the credit leaves", {0, 64});
    return true;
  }();
  (void)init;
  return s;
}

const Schema& RouterConfig::schema() {
  static Schema s("Input-queued virtual-channel router (optionally combined input/output queued).");
  static bool init = [] {
    Declare<RouterConfig>(s)
        .choice("flow_control", &RouterConfig::flow_control, FlowControl::VirtualCutThrough,
                {{"vct", FlowControl::VirtualCutThrough}, {"wormhole", FlowControl::Wormhole}},
                "virtual cut-through (a packet advances only into room for all of it) or wormhole")
        .field("vcs_per_level", &RouterConfig::vcs_per_level, 1u,
               "VCs per (vnet, routing VC level); VCs per port = vnets x levels x this", {1, 16})
        .named("buffer", &RouterConfig::buffer, {{"terminal", 16u}, {"local", 16u}, {"global", 64u}},
               "input buffer depth per VC in flits, by the class of the link feeding the input (the topology's classes: "
               "docs/topologies.md; a class without a default must be set)",
               {1, 1u << 20})
        .field("voq", &RouterConfig::voq, false,
               "split each input VC buffer into virtual output queues (shared storage)")
        .field("speedup", &RouterConfig::speedup, 1u,
               "crossbar speedup (flits per cycle an input can send and an output can accept); >1 needs output_buffer",
               {1, 3})
        .field("output_buffer", &RouterConfig::output_buffer, 0u,
               "output queue depth per VC in flits (0 = no output queues)", {0, 1u << 20})
        .section("delays", &RouterConfig::delays, "pipeline stage delays")
        .field("control_queue", &RouterConfig::control_queue, 64u,
               "capacity in flits of the switch's own control-packet source per vnet", {1, 1u << 16});
    return true;
  }();
  (void)init;
  return s;
}

const Schema& LinkConfig::schema() {
  static Schema s("Links between routers and NICs.");
  static bool init = [] {
    Declare<LinkConfig>(s).named(
        "latency", &LinkConfig::latency, {{"terminal", 1u}, {"local", 1u}, {"global", 10u}},
        "link latency in cycles (wire + serialisation pipeline) by link class, credits return with the same latency (the "
        "topology's classes: docs/topologies.md; a class without a default must be set)",
        {1, 1u << 20});
    return true;
  }();
  (void)init;
  return s;
}

}  // namespace ccnet
