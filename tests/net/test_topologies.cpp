// Whole networks on the multistage and explicit topologies: every packet delivered once and every
// buffer and credit back at rest (check_conservation), including loads that saturate the
// inter-cluster channels with small wormhole buffers (the dateline VC levels keep it deadlock
// free; the watchdog would fail the run otherwise).
#include <catch2/catch.hpp>

#include "support/conservation.hpp"
#include "support/net_run.hpp"

using namespace ccnet;
using test::check_conservation;
using test::run_yaml;

TEST_CASE("network: Clos with per-packet spraying, CIOQ, multi-packet messages", "[net][topology]") {
  const auto r = run_yaml(R"(
sim: {warmup: 2000, measure: 6000}
topology: {type: clos, m: 4}
router: {voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 16, local: 16}}
link: {latency: {terminal: 1, local: 3}}
nic: {max_packet: 4}
traffic:
  classes: [{name: u, rate: 0.4, size: 16, stop: 9000}]
)");
  check_conservation(r);
  CHECK(r.stats()["topology"] == "3-stage Clos of 4x4 switches (folded), 16 nodes, 8 routers");
  // Every packet crosses a middle switch: 2 router-to-router hops each.
  std::uint64_t middle_flits = 0;
  for (RouterId b = 4; b < 8; ++b)
    for (auto f : r.net->routers()[b]->counters().flits_out) middle_flits += f;
  std::uint64_t ejected = 0;
  for (RouterId a = 0; a < 4; ++a)
    for (PortId p = 0; p < 4; ++p) ejected += r.net->routers()[a]->counters().flits_out[p];
  CHECK(middle_flits == ejected);
}

TEST_CASE("network: two clusters, one over-subscribed channel, wormhole, saturating cross traffic", "[net][topology]") {
  const auto r = run_yaml(R"(
sim: {warmup: 1000, measure: 4000, drain_limit: 400000}
topology: {type: multicluster, k: 4, clusters: 2, channels: 1}
router: {flow_control: wormhole, buffer: {terminal: 4, local: 4, inter_cluster: 4}}
link: {latency: {terminal: 1, local: 2, inter_cluster: 6}}
nic: {max_packet: 8}
traffic:
  classes: [{name: u, rate: 0.5, size: 8, stop: 6000}]
)");
  check_conservation(r);
  CHECK(r.net->vc_levels() == 2);
}

TEST_CASE("network: four clusters in a ring, two crossings, three dateline levels, wormhole", "[net][topology]") {
  const auto r = run_yaml(R"(
sim: {warmup: 1000, measure: 3000, drain_limit: 400000}
topology: {type: multicluster, k: 4, clusters: 4, channels: 1}
routing: {algorithm: dmodk}
router: {flow_control: wormhole, buffer: {terminal: 4, local: 4, inter_cluster: 4}}
link: {latency: {terminal: 1, local: 2, inter_cluster: 5}}
nic: {max_packet: 8}
traffic:
  classes: [{name: u, rate: 0.5, size: 8, stop: 5000}]
)");
  check_conservation(r);
  CHECK(r.net->vc_levels() == 3);
}

TEST_CASE("network: modified k-ary n-tree with d-mod-k", "[net][topology]") {
  const auto r = run_yaml(R"(
sim: {warmup: 2000, measure: 6000}
topology: {type: modified_fattree, k: 4, n: 2, w: 2}
router: {buffer: {terminal: 8, local: 8}}
nic: {max_packet: 4}
traffic:
  classes: [{name: u, rate: 0.3, size: 8, stop: 9000}]
)");
  check_conservation(r);
}

TEST_CASE("network: explicit topology and routing table, topology and routing built by load_config", "[net][topology]") {
  auto r = run_yaml(R"(
sim: {warmup: 2000, measure: 6000}
topology:
  type: explicit
  routers: 3
  nodes: [{router: 0, port: 0}, {router: 0, port: 1}, {router: 1, port: 0}, {router: 2, port: 0}]
  links: [{a: [0, 2], b: [1, 1]}, {a: [1, 2], b: [2, 1]}, {a: [2, 2], b: [0, 3], class: back}]
  routes:
    - {router: 0, dst: [2, 3], port: 2}
    - {router: 1, dst: [3], port: 2}
    - {router: 1, dst: [0, 1], port: 1}
    - {router: 2, dst: [0, 1], port: 2}
    - {router: 2, dst: [2], port: 1}
router: {buffer: {terminal: 8, local: 8, back: 8}}
link: {latency: {local: 2, back: 7}}
nic: {max_packet: 4}
traffic:
  classes: [{name: u, rate: 0.2, size: 4, stop: 9000}]
)");
  check_conservation(r);
  CHECK(&r.net->topology() == r.net->config().built->topology.get());
  CHECK(&r.net->routing() == r.net->config().built->routing.get());
  // A line 0 - 1 - 2 plus a link of class `back` that only router 2 uses, toward router 0 (no
  // cycle of channel dependencies, so one VC level is deadlock free).
  CHECK(r.net->topology().min_hops(0, 3) == 2);
  CHECK(r.net->topology().min_hops(3, 0) == 1);
  CHECK(r.net->topology().describe() == "explicit topology, 4 nodes, 3 routers, 3 links");
}

TEST_CASE("network: sprayed Clos under LHRP with fabric drops, the switches' own NACKs sprayed too", "[net][topology]") {
  const auto r = run_yaml(R"(
sim: {warmup: 2000, measure: 6000, drain_limit: 300000}
topology: {type: clos, m: 4}
router: {vcs_per_level: 2, voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 16, local: 16}}
nic: {max_packet: 4}
cc: {mechanism: lhrp, fabric_drop: true, timeout: 100}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: senders, nodes: [0, 2, 8, 10, 12, 15]}
    - {name: rest, exclude: [hot, senders]}
  classes:
    - {name: hotspot, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.4, size: 4, stop: 9000}
    - {name: victim, sources: rest, destinations: rest, rate: 0.2, size: 8, stop: 9000}
)");
  const Json& p = r.stats()["protocol"];
  REQUIRE(r.stats()["quiescent_checked"].get<bool>());
  CHECK(p["dropped_packets"].get<std::uint64_t>() > 0);
  const std::uint64_t nacks = r.stats()["cc"]["nacks_received"].get<std::uint64_t>();  // the mechanism's counter
  std::uint64_t refusals = 0, retx = 0, received = 0, acks = 0;
  for (const auto& n : r.net->nics()) {
    refusals += n->counters().refusals_received;
    retx += n->counters().retransmissions;
    received += n->counters().data_packets_received;
    acks += n->counters().acks_received;
  }
  CHECK(p["dropped_packets"] == nacks);
  CHECK(nacks == refusals);
  CHECK(nacks == retx);
  CHECK(received == acks);
  CHECK(r.net->packets().live() == 0);
  std::uint64_t middle_drops = 0;
  for (RouterId b = 4; b < 8; ++b) middle_drops += r.net->routers()[b]->counters().packets_dropped;
  CHECK(middle_drops > 0);  // middle switches dropped, and their NACKs found their way (sprayed)
}
