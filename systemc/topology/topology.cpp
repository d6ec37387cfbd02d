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

void check_topology_size(std::uint64_t count, const char* key, const std::string& what, const char* things) {
  if (count > kMaxTopologySize)
    throw config::ConfigError(std::string(key) + ": " + what + " has " +
                              (count == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64")
                                                                                   : std::to_string(count)) +
                              " " + things + "; at most " + std::to_string(kMaxTopologySize) + " are supported");
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
