// Zero-load latency equals the analytic value from hops, stage delays and link latencies.
// One source sends to one destination at a rate low enough that a packet never meets another,
// so every packet must see exactly:
//   network latency = L_terminal + (H+1) * (d_routing + d_vc_alloc + d_sw_alloc + d_traversal)
//                     + sum of the H router-to-router link latencies + L_terminal + (S - 1)
//   packet latency  = network latency + 1 (the NIC sees a posted message the next cycle)
// for a packet of S flits crossing H router-to-router links (H+1 routers).
#include <catch2/catch.hpp>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {

struct Case {
  std::string topology, routing;
  NodeId src, dst;
  std::uint32_t size;
  std::uint32_t d_rc, d_va, d_sa, d_st;
  std::string latency;  // link.latency map, e.g. "{terminal: 1, local: 4}"
  std::string extra;    // more router settings
  std::string buffer = "{terminal: 32, local: 32}";
};

struct NoCongestion : CongestionView {
  std::uint32_t output_occupancy(PortId) const override { return 0; }
};

// Walks the route (with a fresh routing function state, so a sprayed route takes the first
// packet's root, as the first packet does) and sums the latencies of its router-to-router links.
std::pair<std::uint32_t, std::uint32_t> path(const Network& net, const Case& c) {
  const Topology& t = net.topology();
  const BuiltConfig& built = *net.config().built;
  RngStream rng(1, "path");
  NoCongestion view;
  Packet p;
  p.src = c.src;
  p.dst = c.dst;
  auto [r, in] = t.attach(c.src);
  std::uint32_t hops = 0, wire = 0;
  for (int guard = 0; guard < 64; ++guard) {
    auto state = net.routing().make_state(r);
    RouteContext ctx{r, in, p, rng, view, state.get()};
    const RouteResult res = net.routing().route(ctx);
    const PortPeer pp = t.peer(r, res.port);
    if (pp.kind == PortPeer::Kind::Node) break;
    wire += built.link_latency[pp.link];
    ++hops;
    r = pp.router;
    in = pp.port;
  }
  return {hops, wire};
}

void check(const Case& c) {
  const std::string yaml = "sim: {warmup: 0, measure: 60000}\ntopology: " + c.topology + "\nrouting: {algorithm: " + c.routing +
                           "}\nrouter:\n  buffer: " + c.buffer + "\n  delays: {routing: " +
                           std::to_string(c.d_rc) + ", vc_alloc: " + std::to_string(c.d_va) + ", sw_alloc: " +
                           std::to_string(c.d_sa) + ", traversal: " + std::to_string(c.d_st) + "}\n" + c.extra +
                           "link:\n  latency: " + c.latency +
                           "\nnic: {max_packet: 32, acks: false, ejection_buffer: 32}\ntraffic:\n  groups:\n    - {name: s, nodes: [" +
                           std::to_string(c.src) + "]}\n    - {name: d, nodes: [" + std::to_string(c.dst) +
                           "]}\n  classes:\n    - {name: u, process: periodic, sources: s, destinations: d, rate: 0.01, size: " +
                           std::to_string(c.size) + "}\n";
  auto r = test::run_yaml(yaml);
  const auto [hops, wire] = path(*r.net, c);
  const std::uint64_t l_term = r.net->config().built->link_latency[kTerminalLink];
  const std::uint64_t expected = 2ull * l_term + (hops + 1ull) * (c.d_rc + c.d_va + c.d_sa + c.d_st) + wire + (c.size - 1);
  const Json& lat = r.stats()["latency"];
  INFO("hops " << hops << ", wire " << wire << ", expected " << expected);
  REQUIRE(lat["network"]["count"].get<std::uint64_t>() > 5);
  CHECK(lat["network"]["min"] == expected);
  CHECK(lat["network"]["max"] == expected);
  CHECK(lat["packet"]["min"] == expected + 1);
  CHECK(lat["packet"]["max"] == expected + 1);
}

}  // namespace

TEST_CASE("zero-load latency: 8x8 mesh corner to corner, default pipeline", "[net][zero_load]") {
  check({"{type: mesh, k: 8, n: 2}", "dor", 0, 63, 4, 1, 1, 1, 1, "{terminal: 1, local: 1}", ""});
}

TEST_CASE("zero-load latency: mesh with uneven stage delays and long links", "[net][zero_load]") {
  check({"{type: mesh, k: 4, n: 2}", "dor", 1, 14, 7, 2, 0, 1, 2, "{terminal: 2, local: 3}", ""});
}

TEST_CASE("zero-load latency: wormhole, all-zero stage delays but one", "[net][zero_load]") {
  check({"{type: mesh, k: 4, n: 2}", "dor", 15, 0, 5, 0, 0, 0, 1, "{terminal: 1, local: 1}", "  flow_control: wormhole\n"});
}

TEST_CASE("zero-load latency: fat tree through the top level, CIOQ with speedup", "[net][zero_load]") {
  check({"{type: fattree, k: 4, n: 3}", "nca", 0, 63, 8, 1, 1, 1, 1, "{terminal: 1, local: 4}",
         "  voq: true\n  speedup: 2\n  output_buffer: 32\n"});
}

TEST_CASE("zero-load latency: dragonfly minimal route across a global link", "[net][zero_load]") {
  check({"{type: dragonfly, p: 2, a: 4, h: 2}", "min", 0, 70, 4, 1, 1, 1, 1, "{terminal: 1, local: 10, global: 100}", "",
         "{terminal: 32, local: 32, global: 32}"});
}

TEST_CASE("zero-load latency: Clos, a same-switch pair still crosses a middle switch (sprayed)", "[net][zero_load]") {
  check({"{type: clos, m: 4}", "spray", 1, 2, 4, 1, 1, 1, 1, "{terminal: 2, local: 3}", ""});
}

TEST_CASE("zero-load latency: two clusters, across an inter-cluster channel", "[net][zero_load]") {
  check({"{type: multicluster, k: 4, clusters: 2, channels: 2}", "nca", 1, 30, 8, 1, 1, 1, 1,
         "{terminal: 1, local: 4, inter_cluster: 9}", "", "{terminal: 32, local: 32, inter_cluster: 32}"});
}

TEST_CASE("zero-load latency: four clusters in a ring, two crossings", "[net][zero_load]") {
  check({"{type: multicluster, k: 4, clusters: 4, channels: 1}", "dmodk", 3, 40, 4, 1, 1, 1, 1,
         "{terminal: 1, local: 2, inter_cluster: 7}", "", "{terminal: 32, local: 32, inter_cluster: 32}"});
}

TEST_CASE("zero-load latency: modified k-ary n-tree, d-mod-k", "[net][zero_load]") {
  check({"{type: modified_fattree, k: 2, n: 3, w: 2}", "dmodk", 0, 7, 4, 1, 1, 1, 1, "{terminal: 1, local: 3}", ""});
}

TEST_CASE("zero-load latency: explicit topology, routing table with a detour", "[net][zero_load]") {
  // Three routers in a line plus a slow shortcut 0-2 that the table does not use for 0 -> 1's node.
  check({"{type: explicit, routers: 3, nodes: [{router: 0, port: 0}, {router: 1, port: 0}, {router: 2, port: 0}], "
         "links: [{a: [0, 1], b: [1, 1]}, {a: [1, 2], b: [2, 1]}, {a: [0, 2], b: [2, 2], class: slow}], "
         "routes: [{router: 0, dst: [1, 2], port: 1}, {router: 1, dst: [0], port: 1}, {router: 1, dst: [2], port: 2}, "
         "{router: 2, dst: [0, 1], port: 1}]}",
         "table", 0, 2, 4, 1, 1, 1, 1, "{terminal: 1, local: 5, slow: 50}", "", "{terminal: 32, local: 32, slow: 32}"});
}
