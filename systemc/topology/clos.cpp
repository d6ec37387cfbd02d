// Three-stage Clos network of M x M switching elements, N = M^2 ports (paper 002, notes 1.1):
// stages A (ingress), B (middle) and C (egress), M switches each. Links here are bidirectional,
// so the network is folded: A switch i and C switch i are one router (router i) whose terminal
// ports are adapter i*M..i*M+M-1 and whose up ports go to every B switch (router M + b). An A->B
// link and the B->C link back are the two directions of one link; a packet's path is always
// A_i -> B_b -> C_j (2 router-to-router hops, also when i = j), so the two halves of a folded
// router never share an input or an output and behave as the unfolded stages do.
#include "topology/multistage.hpp"

namespace ccnet {
namespace {

struct ClosParams : TopologyParams {
  std::uint32_t m = 8;
  static const config::Schema& schema() {
    static config::Schema s(
        "Three-stage Clos of M x M switches, N = M^2 ports, folded (A/C switch i = router i, B switch b = router M + b); "
        "every route crosses a middle (B) switch. Link classes: terminal, local.");
    static bool init = [] {
      config::Declare<ClosParams>(s).field("m", &ClosParams::m, 8u, "switch size M (M ingress/egress adapters per A/C switch, M middle switches)",
                                          {2, 64});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    MultistageTopology::Shape shape;
    shape.type = "clos";
    shape.k = m;
    shape.n = 2;
    shape.turn_at_top = true;
    shape.default_routing = "spray";
    shape.size_key = "topology.m";
    return std::make_unique<MultistageTopology>(shape);
  }
};
config::PolyRegistrar<TopologyParams, ClosParams> reg_clos("clos", "3-stage Clos of M x M switches");

}  // namespace
}  // namespace ccnet
