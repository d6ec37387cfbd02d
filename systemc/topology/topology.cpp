#include "topology/topology.hpp"

namespace ccnet {

const char* to_string(LinkClass c) {
  switch (c) {
    case LinkClass::Terminal: return "terminal";
    case LinkClass::Local: return "local";
    case LinkClass::Global: return "global";
  }
  return "?";
}

void check_topology_size(std::uint64_t count, const char* key, const std::string& what, const char* things) {
  if (count > kMaxTopologySize)
    throw config::ConfigError(std::string(key) + ": " + what + " has " + std::to_string(count) + " " + things +
                              "; at most " + std::to_string(kMaxTopologySize) + " are supported");
}

namespace {
// `routing: {algorithm: auto}` resolves to the topology's default algorithm.
struct AutoRouting : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s("The topology's default routing algorithm (mesh: dor, fattree: nca, dragonfly: min).");
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
