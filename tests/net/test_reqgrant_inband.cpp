// Request/grant over the data network (reqgrant_inband, paper 002 section 6.5) in whole networks:
// the N = 16 Clos of configs/papers/paper002/clos16_inband.yaml (packets of 8 flits, one-flit
// requests and grants on the control vnet). On every run: no loss, in-order delivery to the host,
// every data packet granted, C crosspoints within B packets, reorder buffers within M x B, request
// counters within u, egress links never without credit on the data vnet.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {

constexpr std::uint32_t kP = 8;  // flits per packet = cycles per packet time

std::string clos16(const std::string& mechanism, const std::string& traffic, const std::string& sim) {
  return "sim: " + sim + R"(
topology: {type: clos, m: 4}
routing: {algorithm: spray}
router:
  flow_control: vct
  voq: true
  speedup: 2
  output_buffer: 384
  buffer: {terminal: 384, local: 384}
  delays: {routing: 0, vc_alloc: 0, sw_alloc: 8, traversal: 0}
link: {latency: {terminal: 8, local: 8}}
nic: {max_packet: 8, acks: false, ejection_buffer: 40}
cc: )" + mechanism + "\ntraffic:\n" + traffic;
}

const char* kSim = "{warmup: 8000, measure: 24000, drain_limit: 400000}";
const char* kUniform = "  classes: [{name: u, rate: 0.6, size: 8, stop: 32000}]\n";
// Two hotspots in one C switch at 2x, messages of 8 packets (clos16_inband.yaml at rho 0.3).
const char* kHotspots = R"(  groups:
    - {name: hot, nodes: [4, 5]}
    - {name: cold, exclude: [hot]}
    - {name: senders, exclude: [hot]}
  classes:
    - {name: background, destinations: cold, rate: 0.2625, size: 64, stop: 32000}
    - {name: hotspot, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.285714, size: 64, stop: 32000}
)";

// `per_message`: packets per message (every class of the run has one message size).
void check_invariants(const test::NetRun& r, std::uint64_t per_message, std::uint32_t u = 20, std::uint32_t b = 12) {
  const Json& s = r.stats();
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, received = 0, queued = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    received += n->counters().data_packets_received;
    queued += n->queued_messages();
  }
  CHECK(posted > 50);
  CHECK(received == posted * per_message);  // every packet delivered once
  CHECK(queued == 0);
  CHECK(r.net->packets().live() == 0);
  CHECK(s["protocol"]["dropped_packets"] == 0);
  const Json& cc = s["cc"];
  CHECK(cc["host_order_violations"] == 0);
  CHECK(cc["c_crosspoint_peak"].get<std::uint64_t>() <= b * kP);
  CHECK(cc["c_output_queue_peak"].get<std::uint64_t>() <= 4 * b * kP);
  CHECK(cc["reorder_peak"].get<std::uint64_t>() <= 4 * b);
  CHECK(cc["pending_requests_peak"].get<std::uint64_t>() <= u);
  CHECK(cc["request_counter_peak"].get<std::uint64_t>() <= u);
  CHECK(cc["egress_backpressure_cycles"] == 0);
  CHECK(cc["grants"] == cc["grants_received"]);     // every grant reached its adapter
  CHECK(cc["grants"].get<std::uint64_t>() == received);  // and every packet went on a grant
  CHECK(cc["requested_packets"].get<std::uint64_t>() == received);
  CHECK(cc["control_packets"].get<std::uint64_t>() > 0);
  // Each output arbiter's window cycles are pacing (a grant, then the rest of its packet time),
  // idle (no request) or blocked (requests, none with a free slot); the grants paced are the
  // packets delivered in the window, up to what the reservations hold in flight at its edges.
  const std::uint64_t arbiter_cycles = s["cycles"].get<std::uint64_t>() * 16;
  const auto pacing = cc["arbiter_pacing_cycles"].get<std::uint64_t>();
  CHECK(pacing + cc["arbiter_idle_cycles"].get<std::uint64_t>() + cc["arbiter_blocked_cycles"].get<std::uint64_t>() ==
        arbiter_cycles);
  const auto paced = static_cast<std::int64_t>(pacing / kP), delivered = cc["in_order_packets"].get<std::int64_t>();
  CHECK(std::abs(paced - delivered) <= 16 * 4 * static_cast<std::int64_t>(b));
  CHECK(cc["reserved_slot_cycles"].get<std::uint64_t>() <= arbiter_cycles * 4 * b);
  CHECK(cc["reserved_slot_cycles"].get<std::uint64_t>() > 0);
  CHECK(cc["ingress_starved_cycles"].get<std::uint64_t>() <= arbiter_cycles);
}

}  // namespace

TEST_CASE("reqgrant_inband: uniform traffic on the N = 16 Clos keeps the invariants, piggybacking carries control",
          "[net][reqgrant][inband]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant_inband}", kUniform, kSim));
  check_invariants(r, 1);
  const Json& t = r.stats()["throughput"];
  CHECK(t["accepted"]["mean"].get<double>() == Approx(t["offered"]["mean"].get<double>()).epsilon(0.02));
  const Json& cc = r.stats()["cc"];
  CHECK(cc["resequenced_packets"].get<std::uint64_t>() > 0);  // sprayed
  CHECK(cc["piggybacked_grants"].get<std::uint64_t>() > 0);
  CHECK(cc["piggybacked_requests"].get<std::uint64_t>() > 0);
  CHECK(cc["held_grant_cycles"].get<std::uint64_t>() > 0);  // grants wait while the injection link is busy
}

TEST_CASE("reqgrant_inband: hotspots keep the invariants and do not delay the background", "[net][reqgrant][inband]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant_inband}", kHotspots, kSim));
  check_invariants(r, 8);
  const Json& s = r.stats();
  const double hot = s["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>();
  INFO("hotspot throughput " << hot);
  CHECK(hot > 0.9);
  // Background message delay (PT): zero-load about 3 fabric crossings (request, grant, data) plus
  // the message's 8 packets; with the hotspots it stays within a small factor of that.
  const double bg = s["classes"]["background"]["latency"]["message"]["mean"].get<double>() / kP;
  INFO("background message delay " << bg << " PT");
  CHECK(bg < 60);
}

TEST_CASE("reqgrant_inband: without piggybacking every request and grant is a control packet", "[net][reqgrant][inband]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant_inband, piggyback: false}", kUniform, kSim));
  check_invariants(r, 1);
  const Json& cc = r.stats()["cc"];
  CHECK(cc["piggybacked_grants"] == 0);
  CHECK(cc["piggybacked_requests"] == 0);
  CHECK(cc["control_packets"].get<std::uint64_t>() >= cc["request_messages"].get<std::uint64_t>());
}

TEST_CASE("reqgrant_inband: with throttle_granted the hotspots keep the invariants", "[net][reqgrant][inband]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant_inband, throttle_granted: true}", kHotspots, kSim));
  check_invariants(r, 8);
  const double hot = r.stats()["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>();
  INFO("hotspot throughput " << hot);
  CHECK(hot > 0.9);
}

TEST_CASE("reqgrant_inband: zero-load delay is three fabric crossings", "[net][reqgrant][inband]") {
  const std::string light = "  classes: [{name: u, rate: 0.002, size: 8, stop: 22000}]\n";
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant_inband}", light, "{warmup: 2000, measure: 20000}"));
  check_invariants(r, 1);
  const auto min = r.stats()["latency"]["packet"]["min"].get<std::uint64_t>();
  const auto max = r.stats()["latency"]["packet"]["max"].get<std::uint64_t>();
  INFO("min " << min << " max " << max);
  // A one-flit request and grant, then the 8-flit packet: each crossing is 3 links and 3
  // switches of 8 cycles (48), the packet's tail 7 more, and a few cycles of NIC pipeline
  // (measured: 178 = 22.25 packet times, against 15 for reqgrant's out-of-band wires).
  CHECK(min >= 3 * 48 + 7);
  CHECK(min <= 3 * 48 + 7 + 32);
  CHECK(max < min + 40);
}
