// CRP in whole networks (paper 000 topologies at the S18 scale of notes 4.8): the invariants
// checked after traffic stops and the network empties. Every message delivered exactly once
// (double delivery aborts the run inside the NIC; every created data flit was ejected), nothing
// lost on a lossless vnet (every drop is a speculative packet, NACKed and resent exactly once),
// every request answered exactly once (grant or retry), intra-cluster flows never retried short
// (C9), and the reservation tables' own invariants (0 <= t[i] <= C_max and conservation, checked
// by the hooks after every operation: a violation aborts the run).
#include <catch2/catch.hpp>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {

// Two clusters of 36 nodes, 8-flit packets, 8-packet messages; global uniform traffic plus some
// 3-packet messages that do not participate.
const char* kS18 = R"(
sim: {warmup: 1000, measure: 4000, drain_limit: 400000}
topology: {type: multicluster, k: 6, clusters: 2, channels: 1}
router: {flow_control: vct, voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 128, local: 128, inter_cluster: 128}}
link: {latency: {terminal: 1, local: 4, inter_cluster: 8}}
nic: {max_packet: 8}
cc: {mechanism: crp, cmax: 68, ttw: 50}
traffic:
  classes:
    - {name: global, pattern: {type: uniform}, rate: 0.15, size: 64, stop: 5000}
    - {name: short, pattern: {type: uniform}, rate: 0.02, size: 24, stop: 5000}
)";

std::uint64_t cc(const test::NetRun& r, const char* key) { return r.stats()["cc"][key].get<std::uint64_t>(); }

void check_invariants(const test::NetRun& r) {
  const Json& s = r.stats();
  const Json& p = s["protocol"];
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, queued = 0, unacked = 0, refusals = 0, retx = 0, received = 0, acks = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    queued += n->queued_messages();
    unacked += n->counters().unacked;
    refusals += n->counters().refusals_received;
    retx += n->counters().retransmissions;
    received += n->counters().data_packets_received;
    acks += n->counters().acks_received;
  }
  CHECK(posted > 300);
  CHECK(queued == 0);
  CHECK(unacked == 0);
  CHECK(r.net->packets().live() == 0);
  CHECK(r.net->stats().data_flits_in_flight() == 0);  // every created data flit ejected once
  // Losses only on the speculative vnet, each NACKed and resent once.
  const auto drops = p["dropped_packets"].get<std::uint64_t>();
  CHECK(drops == cc(r, "speculative_drops"));
  CHECK(drops == cc(r, "nacks_received"));
  CHECK(drops == refusals);
  CHECK(drops == retx);
  // Every delivered packet was either speculative (answered by an ACK) or not answered at all.
  CHECK(acks <= received);
  // Every request answered exactly once.
  CHECK(cc(r, "requests_sent") > 0);
  CHECK(cc(r, "requests_sent") == cc(r, "grants_received") + cc(r, "retries_short") + cc(r, "retries_long"));
  CHECK(cc(r, "retries_intra_cluster_short") == 0);  // C9
  CHECK(cc(r, "nonparticipating_packets") > 0);
  // Granted packets: their queuing counted at the destination (the maximum bounds every one).
  CHECK(cc(r, "reserved_packets") > 0);
  CHECK(cc(r, "reserved_queued_over_cmax") <= cc(r, "reserved_packets"));
  CHECK(cc(r, "reserved_queued_max") <= cc(r, "reserved_queued_cycles"));
  CHECK(cc(r, "reserved_queued_cycles") <= cc(r, "reserved_packets") * cc(r, "reserved_queued_max"));
}

}  // namespace

TEST_CASE("CRP on two clusters, one channel (S18): invariants", "[net][crp]") {
  const auto r = test::run_yaml(kS18);
  check_invariants(r);
  // The channel is over-subscribed (36 x 0.085 / 2 = 1.5 flits/cycle for 1): requests retry and
  // grants are converted at the channel; speculative packets are dropped.
  CHECK(cc(r, "retries_short") > 0);
  CHECK(cc(r, "grants_converted") > 0);
  CHECK(cc(r, "eager_reservations") > 0);
  CHECK(cc(r, "charged_flits") > 0);
  CHECK(cc(r, "destination_charged_flits") > 0);
}

// Also the other reading of R11: a NACK holds the send queue to the destination.
TEST_CASE("CRP on two clusters, two channels, no eager reservation, nack_stops destination", "[net][crp]") {
  const auto r = test::run_yaml(kS18, {"topology.channels=2", "cc.eager=false", "cc.channel=flow", "cc.nack_stops=destination"});
  check_invariants(r);
  CHECK(cc(r, "eager_reservations") == 0);
  CHECK(cc(r, "nacks_received") > 0);  // the destination holds were taken (and, the run drained, released)
}

TEST_CASE("CRP on a 4-cluster ring (two channel crossings, 3 VC levels): invariants", "[net][crp]") {
  const auto r = test::run_yaml(kS18, {"topology={type: multicluster, k: 4, clusters: 4, channels: 1}",
                                       "traffic.classes[0].rate=0.08"});
  check_invariants(r);
}

TEST_CASE("CRP on a fat tree (no channel class: destination tables only), request on NACK", "[net][crp]") {
  const auto r = test::run_yaml(kS18, {"topology={type: fattree, k: 4, n: 3}", "router.buffer={terminal: 128, local: 128}",
                                       "link.latency={terminal: 1, local: 4}", "cc.request_on=nack",
                                       "traffic.classes[0].rate=0.3"});
  const Json& p = r.stats()["protocol"];
  REQUIRE(r.stats()["drained"].get<bool>());
  CHECK(cc(r, "grants_converted") == 0);
  CHECK(cc(r, "eager_reservations") == 0);
  CHECK(cc(r, "requests_sent") == cc(r, "grants_received") + cc(r, "retries_short") + cc(r, "retries_long"));
  CHECK(p["dropped_packets"].get<std::uint64_t>() == cc(r, "nacks_received"));
  CHECK(r.net->stats().data_flits_in_flight() == 0);
}
