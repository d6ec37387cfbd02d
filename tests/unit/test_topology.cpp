// Topologies and routing functions without a simulation kernel: wiring is symmetric, every
// route reaches its destination, minimal routes take min_hops hops, VC levels never decrease.
#include <catch2/catch.hpp>

#include <set>

#include "sim/config.hpp"
#include "support/temp_config.hpp"

using namespace ccnet;

namespace {
struct Built {
  std::unique_ptr<Topology> topo;
  std::unique_ptr<RoutingFunction> routing;
};
Built build(const std::string& topology, const std::string& routing = "auto") {
  test::TempConfig f("topology: " + topology + "\nrouting: {algorithm: " + routing +
                     "}\ntraffic:\n  classes:\n    - name: u\n      rate: 0.1\n");
  const Config c = load_config(f.path(), {});
  Built b;
  b.topo = c.topology.params->create();
  b.routing = make_routing(c.routing, *b.topo);
  return b;
}
struct FlatView : CongestionView {
  std::uint32_t q = 0;
  std::uint32_t output_occupancy(PortId) const override { return q; }
};

void check_wiring(const Topology& t) {
  std::set<NodeId> attached;
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (PortId p = 0; p < t.num_ports(r); ++p) {
      const PortPeer pp = t.peer(r, p);
      if (pp.kind == PortPeer::Kind::Router) {
        REQUIRE(pp.router < t.num_routers());
        const PortPeer back = t.peer(pp.router, pp.port);
        REQUIRE(back.kind == PortPeer::Kind::Router);
        REQUIRE(back.router == r);
        REQUIRE(back.port == p);
        REQUIRE(back.link == pp.link);
      } else if (pp.kind == PortPeer::Kind::Node) {
        REQUIRE(pp.node < t.num_nodes());
        REQUIRE(t.attach(pp.node) == std::make_pair(r, p));
        attached.insert(pp.node);
      }
    }
  REQUIRE(attached.size() == t.num_nodes());
}

// Follows the route of a packet from src to dst; returns router-to-router hops.
std::uint32_t walk(const Topology& t, const RoutingFunction& rf, NodeId src, NodeId dst, RngStream& rng,
                   const FlatView& view) {
  Packet pkt;
  pkt.src = src;
  pkt.dst = dst;
  auto [r, in_port] = t.attach(src);
  std::uint32_t hops = 0;
  int last_level = 0;
  for (int guard = 0; guard < 64; ++guard) {
    RouteContext ctx{r, in_port, pkt, rng, view};
    const RouteResult res = rf.route(ctx);
    REQUIRE(res.port < t.num_ports(r));
    REQUIRE(res.level < rf.vc_levels());
    const PortPeer pp = t.peer(r, res.port);
    REQUIRE(pp.kind != PortPeer::Kind::None);
    if (pp.kind == PortPeer::Kind::Node) {
      REQUIRE(pp.node == dst);
      return hops;
    }
    REQUIRE(static_cast<int>(res.level) >= last_level);
    last_level = res.level;
    r = pp.router;
    in_port = pp.port;
    ++hops;
  }
  FAIL("route from " << src << " to " << dst << " did not terminate");
  return 0;
}

void check_all_pairs(const std::string& topo, const std::string& routing, bool minimal) {
  Built b = build(topo, routing);
  check_wiring(*b.topo);
  RngStream rng(7, "walk");
  FlatView view;
  for (NodeId s = 0; s < b.topo->num_nodes(); ++s)
    for (NodeId d = 0; d < b.topo->num_nodes(); ++d) {
      if (s == d) continue;
      const std::uint32_t h = walk(*b.topo, *b.routing, s, d, rng, view);
      if (minimal) REQUIRE(h == b.topo->min_hops(s, d));
      else REQUIRE(h >= b.topo->min_hops(s, d));
    }
}
}  // namespace

TEST_CASE("mesh: wiring and dimension-order routes", "[topology]") {
  check_all_pairs("{type: mesh, k: 4, n: 2}", "dor", true);
  check_all_pairs("{type: mesh, k: 3, n: 3, concentration: 2}", "dor", true);
  Built b = build("{type: mesh, k: 8, n: 2}");
  CHECK(b.topo->num_nodes() == 64);
  CHECK(b.topo->min_hops(0, 63) == 14);
  CHECK(b.topo->describe() == "8x8 mesh, 64 nodes, 64 routers");
}

TEST_CASE("fat tree: wiring and nearest-common-ancestor routes", "[topology]") {
  check_all_pairs("{type: fattree, k: 4, n: 3}", "nca", true);
  check_all_pairs("{type: fattree, k: 2, n: 4}", "nca", true);
  check_all_pairs("{type: fattree, k: 3, n: 1}", "nca", true);
  Built b = build("{type: fattree, k: 4, n: 3}");
  CHECK(b.topo->num_routers() == 48);
  CHECK(b.topo->min_hops(0, 1) == 0);
  CHECK(b.topo->min_hops(0, 4) == 2);
  CHECK(b.topo->min_hops(0, 63) == 4);
}

TEST_CASE("fat tree: up-port choice is random over all up ports", "[topology]") {
  Built b = build("{type: fattree, k: 4, n: 2}");
  RngStream rng(3, "up");
  FlatView view;
  std::set<PortId> used;
  for (int i = 0; i < 200; ++i) {
    Packet pkt;
    pkt.src = 0;
    pkt.dst = 15;
    RouteContext ctx{0, 0, pkt, rng, view};
    used.insert(b.routing->route(ctx).port);
  }
  CHECK(used == std::set<PortId>{4, 5, 6, 7});
}

TEST_CASE("dragonfly: wiring, one global link per group pair, minimal routes", "[topology]") {
  check_all_pairs("{type: dragonfly, p: 2, a: 4, h: 2}", "min", true);
  check_all_pairs("{type: dragonfly, p: 1, a: 2, h: 2, g: 3}", "min", true);
  Built b = build("{type: dragonfly, p: 2, a: 4, h: 2}");
  const Topology& t = *b.topo;
  CHECK(t.num_nodes() == 72);
  CHECK(t.num_routers() == 36);
  std::set<std::pair<RouterId, RouterId>> pairs;
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (PortId p = 0; p < t.num_ports(r); ++p) {
      const PortPeer pp = t.peer(r, p);
      if (pp.link == LinkClass::Global) {
        const RouterId g1 = r / 4, g2 = pp.router / 4;
        REQUIRE(g1 != g2);
        REQUIRE(pairs.insert({g1, g2}).second);
      }
    }
  CHECK(pairs.size() == 9 * 8);
  CHECK(b.routing->vc_levels() == 2);
}

TEST_CASE("dragonfly: the 1056-node configuration of paper 003", "[topology]") {
  Built b = build("{type: dragonfly, p: 4, a: 8, h: 4}");
  check_wiring(*b.topo);
  CHECK(b.topo->num_nodes() == 1056);
  CHECK(b.topo->num_routers() == 264);
  CHECK(b.topo->num_ports(0) == 15);
}

TEST_CASE("dragonfly UGAL: minimal when queues are empty, Valiant when the minimal port is loaded", "[topology]") {
  check_all_pairs("{type: dragonfly, p: 2, a: 4, h: 2}", "ugal", false);
  Built b = build("{type: dragonfly, p: 2, a: 4, h: 2}", "ugal");
  CHECK(b.routing->vc_levels() == 3);
  RngStream rng(5, "ugal");
  struct Skewed : CongestionView {
    PortId hot;
    std::uint32_t output_occupancy(PortId p) const override { return p == hot ? 100 : 0; }
  };
  // From node 0 (router 0, group 0) to node 70 (group 8): minimal path leaves on some port;
  // load it and UGAL must divert every packet (non-minimal: more hops).
  Packet probe;
  probe.src = 0;
  probe.dst = 70;
  FlatView flat;
  RouteContext c0{0, 0, probe, rng, flat};
  const PortId min_port = b.routing->route(c0).port;
  CHECK(probe.route_phase == 1);  // empty queues: minimal
  Skewed sk;
  sk.hot = min_port;
  int valiant = 0;
  for (int i = 0; i < 50; ++i) {
    Packet p;
    p.src = 0;
    p.dst = 70;
    RouteContext c{0, 0, p, rng, sk};
    b.routing->route(c);
    valiant += p.route_phase == 2;
  }
  CHECK(valiant > 40);
}
