// Mesh, fat tree and dragonfly without a simulation kernel: wiring is symmetric, every route
// reaches its destination, minimal routes take min_hops hops, VC levels never decrease.
// (The other multistage topologies: test_multistage.cpp.)
#include <catch2/catch.hpp>

#include <set>

#include "support/route_walk.hpp"
#include "topology/dragonfly.hpp"

using namespace ccnet;

using test::build_topology;
using test::check_all_pairs;
using test::check_wiring;
using test::FlatView;

TEST_CASE("mesh: wiring and dimension-order routes", "[topology]") {
  check_all_pairs("{type: mesh, k: 4, n: 2}", "dor", true);
  check_all_pairs("{type: mesh, k: 3, n: 3, concentration: 2}", "dor", true);
  auto b = build_topology("{type: mesh, k: 8, n: 2}");
  CHECK(b.topo().num_nodes() == 64);
  CHECK(b.topo().min_hops(0, 63) == 14);
  CHECK(b.topo().describe() == "8x8 mesh, 64 nodes, 64 routers");
}

TEST_CASE("fat tree: wiring and nearest-common-ancestor routes", "[topology]") {
  check_all_pairs("{type: fattree, k: 4, n: 3}", "nca", true);
  check_all_pairs("{type: fattree, k: 2, n: 4}", "nca", true);
  check_all_pairs("{type: fattree, k: 3, n: 1}", "nca", true);
  auto b = build_topology("{type: fattree, k: 4, n: 3}");
  CHECK(b.topo().num_routers() == 48);
  CHECK(b.topo().min_hops(0, 1) == 0);
  CHECK(b.topo().min_hops(0, 4) == 2);
  CHECK(b.topo().min_hops(0, 63) == 4);
  CHECK(b.topo().describe() == "4-ary 3-tree, 64 nodes, 48 routers");
}

TEST_CASE("fat tree: up-port choice is random over all up ports", "[topology]") {
  auto b = build_topology("{type: fattree, k: 4, n: 2}");
  RngStream rng(3, "up");
  FlatView view;
  std::set<PortId> used;
  for (int i = 0; i < 200; ++i) {
    Packet pkt;
    pkt.src = 0;
    pkt.dst = 15;
    RouteContext ctx{0, 0, pkt, rng, view};
    used.insert(b.routing().route(ctx).port);
  }
  CHECK(used == std::set<PortId>{4, 5, 6, 7});
}

TEST_CASE("dragonfly: wiring, one global link per group pair, minimal routes", "[topology]") {
  check_all_pairs("{type: dragonfly, p: 2, a: 4, h: 2}", "min", true);
  check_all_pairs("{type: dragonfly, p: 1, a: 2, h: 2, g: 3}", "min", true);
  auto b = build_topology("{type: dragonfly, p: 2, a: 4, h: 2}");
  const Topology& t = b.topo();
  CHECK(t.num_nodes() == 72);
  CHECK(t.num_routers() == 36);
  std::set<std::pair<RouterId, RouterId>> pairs;
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (PortId p = 0; p < t.num_ports(r); ++p) {
      const PortPeer pp = t.peer(r, p);
      if (pp.kind == PortPeer::Kind::Router && t.link_classes()[pp.link].name == "global") {
        const RouterId g1 = r / 4, g2 = pp.router / 4;
        REQUIRE(g1 != g2);
        REQUIRE(pairs.insert({g1, g2}).second);
      }
    }
  CHECK(pairs.size() == 9 * 8);
  CHECK(b.routing().vc_levels() == 2);
}

TEST_CASE("dragonfly: the 1056-node configuration of paper 003", "[topology]") {
  auto b = build_topology("{type: dragonfly, p: 4, a: 8, h: 4}");
  check_wiring(b.topo());
  CHECK(b.topo().num_nodes() == 1056);
  CHECK(b.topo().num_routers() == 264);
  CHECK(b.topo().num_ports(0) == 15);
}

TEST_CASE("dragonfly UGAL: minimal when queues are empty, Valiant when the minimal port is loaded", "[topology]") {
  check_all_pairs("{type: dragonfly, p: 2, a: 4, h: 2}", "ugal", false);
  auto b = build_topology("{type: dragonfly, p: 2, a: 4, h: 2}", "ugal");
  CHECK(b.routing().vc_levels() == 3);
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
  const PortId min_port = b.routing().route(c0).port;
  CHECK(DragonflyRoute::phase(probe) == DragonflyRoute::Minimal);  // empty queues: minimal
  Skewed sk;
  sk.hot = min_port;
  int valiant = 0;
  for (int i = 0; i < 50; ++i) {
    Packet p;
    p.src = 0;
    p.dst = 70;
    RouteContext c{0, 0, p, rng, sk};
    b.routing().route(c);
    valiant += DragonflyRoute::phase(p) == DragonflyRoute::Valiant;
  }
  CHECK(valiant > 40);
}
