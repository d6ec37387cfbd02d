// Multistage topologies (fattree, clos, modified_fattree, multicluster) and their routing
// variants (nca, dmodk, smodk, spray) without a simulation kernel: wiring, sizes, every route
// reaching its destination in min_hops hops, the ports each variant documents, the dateline VC
// levels of multi-cluster routes, and paths pinned by a mechanism.
#include <catch2/catch.hpp>

#include "support/route_walk.hpp"
#include "topology/multistage.hpp"

using namespace ccnet;
using test::build_topology;
using test::check_all_pairs;
using test::check_wiring;
using test::FlatView;
using test::Hop;
using test::walk;

namespace {
// Multi-cluster configs need the inter-cluster class's latency and buffer depth.
const char* kInterCluster = "link: {latency: {inter_cluster: 8}}\nrouter: {buffer: {inter_cluster: 16}}\n";

const MultistageTopology& ms(const test::BuiltTopology& b) {
  const auto* t = dynamic_cast<const MultistageTopology*>(&b.topo());
  REQUIRE(t);
  return *t;
}

std::vector<Hop> route_of(test::BuiltTopology& b, NodeId src, NodeId dst, RngStream& rng) {
  Packet p;
  p.src = src;
  p.dst = dst;
  FlatView view;
  return walk(b, p, rng, view);
}
}  // namespace

TEST_CASE("multistage: every route of every variant reaches its destination in min_hops hops", "[topology][multistage]") {
  for (const char* routing : {"nca", "dmodk", "smodk", "spray"}) {
    check_all_pairs("{type: fattree, k: 4, n: 3}", routing, true);
    check_all_pairs("{type: fattree, k: 3, n: 2}", routing, true);
    check_all_pairs("{type: fattree, k: 2, n: 4}", routing, true);
    check_all_pairs("{type: clos, m: 4}", routing, true);
    check_all_pairs("{type: modified_fattree, k: 2, n: 3, w: 2}", routing, true);
    check_all_pairs("{type: multicluster, k: 4, clusters: 2, channels: 2}", routing, true, kInterCluster);
    check_all_pairs("{type: multicluster, k: 4, clusters: 2, channels: 4, channel_uplinks: false}", routing, true, kInterCluster);
    check_all_pairs("{type: multicluster, k: 4, clusters: 3, channels: 2}", routing, true, kInterCluster);
    check_all_pairs("{type: multicluster, k: 4, clusters: 4, channels: 1}", routing, true, kInterCluster);
  }
}

TEST_CASE("multistage: sizes, port counts, link classes and descriptions", "[topology][multistage]") {
  {
    auto b = build_topology("{type: clos, m: 4}");
    const auto& t = ms(b);
    CHECK(t.num_nodes() == 16);
    CHECK(t.num_routers() == 8);
    CHECK(t.num_ports(0) == 8);  // A/C switch: 4 adapters + 4 middle switches
    CHECK(t.num_ports(4) == 4);  // B switch
    CHECK(t.min_hops(0, 1) == 2);  // same A/C switch: still through a middle switch
    CHECK(t.default_routing() == "spray");
    CHECK(t.describe() == "3-stage Clos of 4x4 switches (folded), 16 nodes, 8 routers");
    CHECK(b.routing().vc_levels() == 1);
  }
  {
    // Paper 000's default: 2 x 144 nodes, 4 channels per direction, a channel leaf with 13 down
    // (12 nodes + the channel) and 13 up ports.
    auto b = build_topology("{type: multicluster}", "auto", kInterCluster);
    const auto& t = ms(b);
    check_wiring(t);
    CHECK(t.num_nodes() == 288);
    CHECK(t.num_routers() == 48);
    CHECK(t.num_ports(t.router_at(0, 0, 0)) == 26);
    CHECK(t.num_ports(t.router_at(0, 0, 4)) == 24);  // no channel
    CHECK(t.num_ports(t.router_at(1, 1, 3)) == 13);  // spine with the channel leaf's extra up-link
    CHECK(t.num_ports(t.router_at(1, 1, 4)) == 12);
    CHECK(t.link_classes().size() == 3);
    CHECK(t.link_classes()[2].name == "inter_cluster");
    for (std::uint32_t c = 0; c < 4; ++c) {
      const auto [leaf, port] = t.channel_port(0, 1, c);
      CHECK(leaf == t.router_at(0, 0, c));
      const PortPeer pp = t.peer(leaf, port);
      CHECK(t.link_classes()[pp.link].name == "inter_cluster");
      CHECK(pp.router == t.router_at(1, 0, c));
    }
    CHECK(t.describe() == "2 clusters of two-level fat trees (k=12), 4 inter-cluster channels per direction, 288 nodes, 48 routers");
    CHECK(b.routing().vc_levels() == 2);
  }
  {
    // S18 of paper 000 notes 4.8: 2 x 36 nodes, one channel per direction.
    auto b = build_topology("{type: multicluster, k: 6, channels: 1}", "auto", kInterCluster);
    CHECK(b.topo().num_nodes() == 72);
    CHECK(b.topo().num_routers() == 24);
  }
  {
    auto b = build_topology("{type: multicluster, k: 4, clusters: 4, channels: 2}", "auto", kInterCluster);
    const auto& t = ms(b);
    CHECK(b.routing().vc_levels() == 3);
    CHECK(t.describe() == "4 clusters in a ring of two-level fat trees (k=4), 2 inter-cluster channels per direction, 64 nodes, 32 routers");
    // Channels to the next cluster on leaves 0-1, to the previous one on leaves 2-3.
    CHECK(t.channel_port(1, 2, 1).first == t.router_at(1, 0, 1));
    CHECK(t.channel_port(1, 0, 1).first == t.router_at(1, 0, 3));
    CHECK(t.peer(t.router_at(1, 0, 1), t.channel_port(1, 2, 1).second).router == t.router_at(2, 0, 3));
  }
  {
    auto b = build_topology("{type: modified_fattree, k: 4, n: 3, w: 2}");
    const auto& t = ms(b);
    check_wiring(t);
    CHECK(t.num_ports(t.router_at(0, 0, 0)) == 8);   // leaves: no horizontal links
    CHECK(t.num_ports(t.router_at(0, 1, 0)) == 12);  // 4 down, 4 up, 2 left, 2 right
    CHECK(t.num_ports(t.router_at(0, 2, 0)) == 8);   // top: 4 down, 2 left, 2 right
    CHECK(t.default_routing() == "dmodk");
    CHECK(t.describe() == "4-ary 3-tree with horizontal links of width 2, 64 nodes, 48 routers");
  }
}

TEST_CASE("d-mod-k and s-mod-k: port floor(node / k^l) mod k at level l, one root per destination (source)",
          "[topology][multistage]") {
  auto b = build_topology("{type: fattree, k: 4, n: 3}", "dmodk");
  RngStream rng(1, "x");
  // 0 -> 63 (leaf 15, base-4 digits 3,3): up port 4 + 3 at the leaf and at level 1, root (2, 15).
  const auto hops = route_of(b, 0, 63, rng);
  REQUIRE(hops.size() == 5);
  CHECK(hops[0].out == 7);
  CHECK(hops[1].router == 19);
  CHECK(hops[1].out == 7);
  CHECK(hops[2].router == 47);
  CHECK(hops[3].router == 31);
  CHECK(hops[4].router == 15);
  CHECK(hops[4].out == 3);
  auto s = build_topology("{type: fattree, k: 4, n: 3}", "smodk");
  for (NodeId src = 0; src < 64; ++src)
    for (NodeId dst = 0; dst < 64; ++dst) {
      if (b.topo().min_hops(src, dst) != 4) continue;
      CHECK(route_of(b, src, dst, rng)[2].router == 32 + dst % 16);
      CHECK(route_of(s, src, dst, rng)[2].router == 32 + src % 16);
    }
}

TEST_CASE("spray: per-flow round-robin pointers starting at (src + dst) mod roots", "[topology][multistage]") {
  auto b = build_topology("{type: clos, m: 4}");
  RngStream rng(1, "x");
  // Flow 1 -> 9 starts at middle switch (1 + 9) mod 4 = 2; flow 1 -> 14 at 3. Interleaved
  // packets of the two flows do not disturb each other's pointer.
  for (std::uint32_t i = 0; i < 6; ++i) {
    CHECK(route_of(b, 1, 9, rng)[1].router == 4 + (2 + i) % 4);
    CHECK(route_of(b, 1, 14, rng)[1].router == 4 + (3 + i) % 4);
  }
  // Same A/C switch: out through middle switch (1 + 2) mod 4 = 3 and back.
  const auto same = route_of(b, 1, 2, rng);
  REQUIRE(same.size() == 3);
  CHECK(same[1].router == 7);
  CHECK(same[2].router == 0);
  // k-ary n-tree: the selector names the root, (2, S).
  auto t = build_topology("{type: fattree, k: 4, n: 3}", "spray");
  for (std::uint32_t i = 0; i < 20; ++i) CHECK(route_of(t, 0, 63, rng)[2].router == 32 + (63 + i) % 16);
  // A packet a switch emits itself (through its control source, an input beyond its ports) takes
  // the switch's shared pointer row: a middle switch sends it straight down, a leaf up first.
  FlatView view;
  for (RouterId r : {RouterId{5}, RouterId{2}}) {
    Packet p;
    p.src = 13;  // attached elsewhere (router 3)
    p.dst = 1;
    RouteContext ctx{r, b.topo().num_ports(r), p, rng, view, b.state(r)};
    const RouteResult res = b.routing().route(ctx);
    CHECK(MultistageRoute::has_via(p));
    if (r == 5) CHECK(b.topo().peer(r, res.port).router == 0);
    else CHECK(b.topo().peer(r, res.port).router == 4 + MultistageRoute::via(p));
  }
}

TEST_CASE("a selector pinned in the packet overrides every policy (via a chosen root)", "[topology][multistage]") {
  for (const char* routing : {"nca", "dmodk", "smodk", "spray"}) {
    auto b = build_topology("{type: fattree, k: 4, n: 3}", routing);
    RngStream rng(1, "x");
    FlatView view;
    for (std::uint32_t root = 0; root < 16; ++root) {
      Packet p;
      p.src = 5;
      p.dst = 58;
      MultistageRoute::pin_via(p, root);
      CHECK(walk(b, p, rng, view)[2].router == 32 + root);
    }
  }
}

TEST_CASE("multicluster: the flow's channel, pinnable, and one VC level per boundary crossed", "[topology][multistage]") {
  SECTION("two clusters") {
    auto b = build_topology("{type: multicluster, k: 4, clusters: 2, channels: 2}", "nca", kInterCluster);
    const auto& t = ms(b);
    RngStream rng(1, "x");
    FlatView view;
    int used[2] = {0, 0};
    for (NodeId s = 0; s < 16; ++s)
      for (NodeId d = 16; d < 32; ++d) {
        const auto hops = route_of(b, s, d, rng);
        const std::uint32_t ch = t.default_channel(s, d);
        ++used[ch];
        std::size_t crossing = hops.size();
        for (std::size_t i = 0; i < hops.size(); ++i)
          if (t.role(hops[i].router, hops[i].out) == MultistageTopology::Role::Channel) crossing = i;
        REQUIRE(crossing < hops.size());
        CHECK(hops[crossing].router == t.router_at(0, 0, ch));
        for (std::size_t i = 0; i < hops.size(); ++i) CHECK(hops[i].level == (i < crossing ? 0 : 1));
        // A mechanism pins the other channel.
        Packet p;
        p.src = s;
        p.dst = d;
        MultistageRoute::pin_channel(p, 1 - ch);
        bool crossed_pinned = false;
        for (const Hop& h : walk(b, p, rng, view))
          crossed_pinned |= h.router == t.router_at(0, 0, 1 - ch) && h.out == t.channel_port(0, 1, 1 - ch).second;
        CHECK(crossed_pinned);
        CHECK(MultistageRoute::crossings(p) == 1);
      }
    CHECK(used[0] > 64);  // the per-flow hash spreads flows over both channels
    CHECK(used[1] > 64);
  }
  SECTION("four clusters in a ring: shortest way, both ways on a tie, level = boundaries crossed") {
    auto b = build_topology("{type: multicluster, k: 4, clusters: 4, channels: 1}", "nca", kInterCluster);
    const auto& t = ms(b);
    RngStream rng(1, "x");
    int ways[2] = {0, 0};
    for (NodeId s = 0; s < 64; ++s)
      for (NodeId d = 0; d < 64; ++d) {
        if (s == d) continue;
        const auto hops = route_of(b, s, d, rng);
        const std::uint32_t cs = t.cluster_of_node(s), cd = t.cluster_of_node(d);
        std::uint32_t crossings = 0, middle = cs;
        for (const Hop& h : hops) {
          if (crossings == 1) middle = t.cluster_of(h.router);
          const bool channel = t.role(h.router, h.out) == MultistageTopology::Role::Channel;
          CHECK(h.level == crossings + (channel ? 1 : 0));
          if (channel) ++crossings;
        }
        CHECK(crossings == t.cluster_distance(cs, cd));
        if (t.cluster_distance(cs, cd) == 2) {
          const bool clockwise = middle == (cs + 1) % 4;
          CHECK(clockwise == t.default_clockwise(s, d));
          ++ways[clockwise];
        }
      }
    CHECK(ways[0] > 100);
    CHECK(ways[1] > 100);
  }
  SECTION("a reply pinned with pin_reverse_of retraces its request's channels") {
    auto b = build_topology("{type: multicluster, k: 4, clusters: 4, channels: 2}", "nca", kInterCluster);
    const auto& t = ms(b);
    RngStream rng(1, "x");
    FlatView view;
    auto channel_links = [&](const std::vector<Hop>& hops) {
      std::vector<std::pair<RouterId, RouterId>> out;  // (from, to) routers of each channel crossed
      for (const Hop& h : hops)
        if (t.role(h.router, h.out) == MultistageTopology::Role::Channel)
          out.emplace_back(h.router, t.peer(h.router, h.out).router);
      return out;
    };
    for (NodeId s = 0; s < 64; s += 3)
      for (NodeId d = 0; d < 64; d += 5) {
        if (t.cluster_of_node(s) == t.cluster_of_node(d)) continue;
        Packet req;
        req.src = s;
        req.dst = d;
        MultistageRoute::pin_channel(req, (s + d) % 2);  // as a mechanism choosing per segment
        const auto there = channel_links(walk(b, req, rng, view));
        Packet reply;
        reply.src = d;
        reply.dst = s;
        MultistageRoute::pin_reverse_of(reply, req);
        auto back = channel_links(walk(b, reply, rng, view));
        REQUIRE(back.size() == there.size());
        for (std::size_t i = 0; i < there.size(); ++i) {
          CHECK(back[back.size() - 1 - i].first == there[i].second);
          CHECK(back[back.size() - 1 - i].second == there[i].first);
        }
      }
  }
}

TEST_CASE("modified k-ary n-tree: horizontal chains, the descent direction rule, static routing ignores them",
          "[topology][multistage]") {
  auto b = build_topology("{type: modified_fattree, k: 2, n: 3, w: 2}");
  const auto& t = ms(b);
  // Level 1: chains of 2 routers; top: one chain of 4.
  const RouterId l1_0 = t.router_at(0, 1, 0), top2 = t.router_at(0, 2, 2);
  CHECK(t.horizontal_ports(l1_0, -1).empty());
  CHECK(t.horizontal_ports(l1_0, +1).size() == 2);
  for (PortId p : t.horizontal_ports(l1_0, +1)) CHECK(t.peer(l1_0, p).router == l1_0 + 1);
  CHECK(t.horizontal_ports(top2, -1).size() == 2);
  CHECK(t.horizontal_ports(top2, +1).size() == 2);
  const PortId up_in = 0;  // arrived from below
  CHECK(t.horizontal_direction(l1_0, up_in) == +1);
  CHECK(t.horizontal_direction(top2, up_in) == -1);  // right half of the chain: go left
  CHECK(t.horizontal_direction(top2, t.horizontal_ports(top2, -1)[0]) == +1);  // came from the left: keep right
  CHECK(t.horizontal_direction(top2, t.horizontal_ports(top2, +1)[0]) == -1);
  // d-mod-k never takes a horizontal link.
  RngStream rng(1, "x");
  for (NodeId s = 0; s < 8; ++s)
    for (NodeId d = 0; d < 8; ++d)
      if (s != d)
        for (const Hop& h : route_of(b, s, d, rng)) CHECK(t.role(h.router, h.out) != MultistageTopology::Role::Horizontal);
  // A routing hook that takes a horizontal hop at the top while descending: static routing
  // carries on from the neighbour, one hop longer.
  FlatView view;
  Packet p;
  p.src = 0;
  p.dst = 7;
  auto [r, in] = t.attach(p.src);
  std::uint32_t hops = 0;
  bool took_horizontal = false;
  for (int guard = 0; guard < 16; ++guard) {
    RouteContext ctx{r, in, p, rng, view, b.state(r)};
    RouteResult res = b.routing().route(ctx);
    if (t.level(r) == 2 && !took_horizontal) {
      const int dir = t.horizontal_direction(r, in);
      res.port = t.horizontal_ports(r, dir).front();
      took_horizontal = true;
    }
    const PortPeer pp = t.peer(r, res.port);
    if (pp.kind == PortPeer::Kind::Node) {
      CHECK(pp.node == 7);
      break;
    }
    r = pp.router;
    in = pp.port;
    ++hops;
  }
  CHECK(took_horizontal);
  CHECK(hops == t.min_hops(0, 7) + 1);
}
