#include "topology/topology.hpp"

#include <limits>

namespace ccnet {

LinkClassId Topology::link_class(const std::string& name) const {
  const auto& classes = link_classes();
  for (std::size_t i = 0; i < classes.size(); ++i)
    if (classes[i].name == name) return static_cast<LinkClassId>(i);
  return kNoLinkClass;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

std::uint64_t checked_pow(std::uint64_t base, std::uint32_t exp) {
  std::uint64_t v = 1;
  for (std::uint32_t i = 0; i < exp; ++i) v = checked_mul(v, base);
  return v;
}

void check_topology_size(const std::string& key, std::uint64_t nodes, std::uint64_t routers, std::uint64_t ports_per_router) {
  auto text = [](std::uint64_t v) {
    return v == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64") : std::to_string(v);
  };
  if (nodes > kMaxTopologyNodes)
    throw config::ConfigError(key + ": the topology would have " + text(nodes) + " nodes; at most " +
                              std::to_string(kMaxTopologyNodes) + " are supported");
  if (routers > kMaxTopologyRouters)
    throw config::ConfigError(key + ": the topology would have " + text(routers) + " routers; at most " +
                              std::to_string(kMaxTopologyRouters) + " are supported");
  if (ports_per_router > kMaxTopologyPorts)
    throw config::ConfigError(key + ": a router would have " + text(ports_per_router) + " ports; at most " +
                              std::to_string(kMaxTopologyPorts) + " are supported");
}

namespace {
// `routing: {algorithm: auto}` resolves to the topology's default algorithm.
struct AutoRouting : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s(
        "The topology's default routing algorithm (mesh: dor, fattree and multicluster: nca, modified_fattree: dmodk, "
        "clos: spray, dragonfly: min, explicit: table).");
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* e = Registry<config::PolyEntry<RoutingParams>>::instance().find(topo.default_routing());
    auto params = e->make();
    e->schema->apply_defaults(params.get());
    return params->create(topo);
  }
};
config::PolyRegistrar<RoutingParams, AutoRouting> reg_auto("auto", "topology default");
}  // namespace

std::unique_ptr<RoutingFunction> make_routing(const config::Poly<RoutingParams>& routing,
                                              const Topology& topo) {
  return routing.params->create(topo);
}

}  // namespace ccnet
