// SRP, SMSRP and LHRP in whole networks: the invariants of paper 003 (notes section 3.3) on a
// congested hot-spot with victims, checked after traffic stops and the network empties.
#include <catch2/catch.hpp>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {
const char* kHotspot = R"(
sim: {warmup: 3000, measure: 8000, drain_limit: 300000}
topology: {type: mesh, k: 4, n: 2}
router: {vcs_per_level: 2, voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 16, local: 16}}
nic: {max_packet: 4}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: senders, nodes: [0, 2, 8, 10, 12, 15]}
    - {name: rest, exclude: [hot, senders]}
  classes:
    - {name: hotspot, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.3, size: 4, stop: 11000}
    - {name: victim, sources: rest, destinations: rest, rate: 0.2, size: 12, stop: 11000}
)";

struct Totals {
  std::uint64_t posted = 0, formed = 0, received = 0, acks = 0, nacks = 0, refusals = 0, retx = 0, unacked = 0;
};
Totals totals(const test::NetRun& r) {
  Totals t;
  for (const auto& n : r.net->nics()) {
    const auto& c = n->counters();
    t.posted += c.messages_posted;
    t.received += c.data_packets_received;
    t.acks += c.acks_received;
    t.refusals += c.refusals_received;
    t.retx += c.retransmissions;
    t.unacked += c.unacked;
  }
  t.nacks = r.stats()["cc"]["nacks_received"].get<std::uint64_t>();  // the mechanism's count
  return t;
}

// Every drop produced exactly one NACK and one retransmission; every packet was delivered
// exactly once (a duplicate ACK aborts the run); the network is empty with every buffer and
// credit counter back at rest (run_network's quiescence check).
void check_invariants(const test::NetRun& r) {
  const Json& p = r.stats()["protocol"];
  REQUIRE(r.stats()["quiescent_checked"].get<bool>());
  const Totals t = totals(r);
  CHECK(p["dropped_packets"].get<std::uint64_t>() > 0);
  CHECK(p["dropped_packets"] == t.nacks);
  CHECK(t.nacks == t.refusals);  // every NACK is a refusal the NIC accounted for
  CHECK(t.nacks == t.retx);
  CHECK(t.received == t.acks);
  CHECK(t.unacked == 0);
  CHECK(r.net->packets().live() == 0);
}
}  // namespace

TEST_CASE("LHRP: invariants, no reservations or grants, drops only at the last hop", "[net][speculative]") {
  const auto r = test::run_yaml(kHotspot, {"cc={mechanism: lhrp, threshold: 16}"});
  check_invariants(r);
  const Json& p = r.stats()["protocol"];
  CHECK(p["ejected_packets"]["reservation"] == 0);
  CHECK(p["ejected_packets"]["grant"] == 0);
  CHECK(p["switch_consumed_packets"] == 0);
  // Drops happen only at the dropped packet's last-hop switch: every NACK carries the
  // retransmission time of that switch's scheduler.
  CHECK(r.stats()["cc"]["nacks_timed"] == totals(r).nacks);
  CHECK(r.net->routers()[5]->counters().packets_dropped > 0);  // the hot node's switch
}

TEST_CASE("SRP: invariants, reservations served by destinations", "[net][speculative]") {
  const auto r = test::run_yaml(kHotspot, {"cc={mechanism: srp, timeout: 60}"});
  check_invariants(r);
  const Json& p = r.stats()["protocol"];
  // With the destination scheduler the switches emit only NACKs; every message reserves, so
  // reservations and grants are ejected in the window.
  CHECK(p["switch_emitted_control_packets"] == p["dropped_packets"]);
  const auto res = p["ejected_packets"]["reservation"].get<double>();
  const auto gnt = p["ejected_packets"]["grant"].get<double>();
  CHECK(res > 1000);
  CHECK(gnt == Approx(res).epsilon(0.01));  // window counts: a few cross its boundaries
}

TEST_CASE("SMSRP: invariants, reservations only after drops", "[net][speculative]") {
  const auto r = test::run_yaml(kHotspot, {"cc={mechanism: smsrp, timeout: 60}"});
  check_invariants(r);
}

TEST_CASE("LHRP with fabric drop and coalescing: invariants", "[net][speculative]") {
  const auto r = test::run_yaml(kHotspot, {"cc={mechanism: lhrp, threshold: 16, fabric_drop: true, timeout: 60, coalesce_after: 2}"});
  check_invariants(r);
  CHECK(r.stats()["protocol"]["switch_consumed_packets"].get<std::uint64_t>() > 0);  // coalesced reservations
}

TEST_CASE("LHRP with SRP for large messages (6.4): reservations served at the last hop", "[net][speculative]") {
  const auto r = test::run_yaml(kHotspot, {"cc={mechanism: lhrp, threshold: 16, srp_from: 8}"});
  check_invariants(r);
  const Json& p = r.stats()["protocol"];
  CHECK(p["switch_consumed_packets"].get<std::uint64_t>() > 0);  // victims' 12-flit messages reserve
  CHECK(p["ejected_packets"]["reservation"] == 0);                // never at an endpoint
}
