// Test helpers for topologies and routing functions without a simulation kernel: build them the
// way load_config does, check the wiring, and follow a packet's route router by router (with
// each router's routing state, as the routers hold it).
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/config.hpp"
#include "support/temp_config.hpp"

namespace ccnet::test {

struct BuiltTopology {
  Config config;
  const Topology& topo() const { return *config.built->topology; }
  const RoutingFunction& routing() const { return *config.built->routing; }
  // Per-router routing state, created on first use (as each Router creates its own).
  RoutingState* state(RouterId r) {
    auto it = states.find(r);
    if (it == states.end()) it = states.emplace(r, routing().make_state(r)).first;
    return it->second.get();
  }
  std::map<RouterId, std::unique_ptr<RoutingState>> states;
};

// `topology` and `routing` are YAML flow maps / names; `extra` more top-level YAML.
inline BuiltTopology build_topology(const std::string& topology, const std::string& routing = "auto",
                                    const std::string& extra = "") {
  TempConfig f("topology: " + topology + "\nrouting: {algorithm: " + routing + "}\n" + extra +
               "traffic:\n  classes:\n    - name: u\n      rate: 0.1\n");
  BuiltTopology b;
  b.config = load_config(f.path(), {});
  return b;
}

// Every router-to-router link is symmetric (same class both ways), every node attaches where
// its router port says, every link class id is in the topology's table.
inline void check_wiring(const Topology& t) {
  std::set<NodeId> attached;
  const auto classes = t.link_classes().size();
  REQUIRE(classes >= 1);
  REQUIRE(t.link_classes()[kTerminalLink].name == "terminal");
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (PortId p = 0; p < t.num_ports(r); ++p) {
      const PortPeer pp = t.peer(r, p);
      if (pp.kind == PortPeer::Kind::Router) {
        REQUIRE(pp.router < t.num_routers());
        REQUIRE(pp.link < classes);
        REQUIRE(pp.link != kTerminalLink);
        const PortPeer back = t.peer(pp.router, pp.port);
        REQUIRE(back.kind == PortPeer::Kind::Router);
        REQUIRE(back.router == r);
        REQUIRE(back.port == p);
        REQUIRE(back.link == pp.link);
      } else if (pp.kind == PortPeer::Kind::Node) {
        REQUIRE(pp.node < t.num_nodes());
        REQUIRE(pp.link == kTerminalLink);
        REQUIRE(t.attach(pp.node) == std::make_pair(r, p));
        attached.insert(pp.node);
      }
    }
  REQUIRE(attached.size() == t.num_nodes());
}

struct FlatView : CongestionView {
  std::uint32_t q = 0;
  std::uint32_t output_occupancy(PortId) const override { return q; }
};

// One router visited by a route: where the packet came in, where it left, on which VC level.
struct Hop {
  RouterId router;
  PortId in, out;
  std::uint8_t level;
};

// Follows `pkt` (src, dst and any pinned routing words set) from its source to its
// destination; REQUIREs that it gets there, on connected ports, with VC levels that never
// decrease along router-to-router links. Returns every router visited.
inline std::vector<Hop> walk(BuiltTopology& b, Packet& pkt, RngStream& rng, const CongestionView& view) {
  const Topology& t = b.topo();
  auto [r, in_port] = t.attach(pkt.src);
  std::vector<Hop> hops;
  int last_level = 0;
  for (int guard = 0; guard < 64; ++guard) {
    RouteContext ctx{r, in_port, pkt, rng, view, b.state(r)};
    const RouteResult res = b.routing().route(ctx);
    REQUIRE(res.port < t.num_ports(r));
    REQUIRE(res.level < b.routing().vc_levels());
    hops.push_back({r, in_port, res.port, res.level});
    const PortPeer pp = t.peer(r, res.port);
    REQUIRE(pp.kind != PortPeer::Kind::None);
    if (pp.kind == PortPeer::Kind::Node) {
      REQUIRE(pp.node == pkt.dst);
      return hops;
    }
    REQUIRE(static_cast<int>(res.level) >= last_level);  // router-to-router hops only: ejection has no VC level
    last_level = res.level;
    r = pp.router;
    in_port = pp.port;
  }
  FAIL("route from " << pkt.src << " to " << pkt.dst << " did not terminate");
  return hops;
}

// Router-to-router hops of a route from src to dst.
inline std::uint32_t walk_hops(BuiltTopology& b, NodeId src, NodeId dst, RngStream& rng, const CongestionView& view) {
  Packet pkt;
  pkt.src = src;
  pkt.dst = dst;
  return static_cast<std::uint32_t>(walk(b, pkt, rng, view).size() - 1);
}

// Every pair's route reaches its destination; with `minimal`, in exactly min_hops hops.
inline void check_all_pairs(const std::string& topology, const std::string& routing, bool minimal,
                            const std::string& extra = "") {
  BuiltTopology b = build_topology(topology, routing, extra);
  check_wiring(b.topo());
  RngStream rng(7, "walk");
  FlatView view;
  for (NodeId s = 0; s < b.topo().num_nodes(); ++s)
    for (NodeId d = 0; d < b.topo().num_nodes(); ++d) {
      if (s == d) continue;
      const std::uint32_t h = walk_hops(b, s, d, rng, view);
      INFO(topology << " " << routing << ": " << s << " -> " << d);
      if (minimal) REQUIRE(h == b.topo().min_hops(s, d));
      else REQUIRE(h >= b.topo().min_hops(s, d));
    }
}

}  // namespace ccnet::test
