// Request/grant reservation (paper 002, cc/reqgrant) in whole networks: the N = 16 Clos of the
// paper002 configs. The paper's invariants (notes R15) on every run: no loss, in-order delivery to
// the host, C crosspoints within their B slots, reorder buffers within M x B, request counters
// within u, egress links never without credit; exact zero-load timing; the hotspot isolation of
// R1/R9 at small scale against the baseline on the same fabric.
#include <catch2/catch.hpp>

#include <string>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {

// The paper002 fabric (configs/papers/paper002/clos16_uniform.yaml) with a given traffic section.
std::string clos16(const std::string& mechanism, const std::string& traffic, const std::string& sim = "{warmup: 2000, measure: 6000}") {
  return "sim: " + sim + R"(
topology: {type: clos, m: 4}
routing: {algorithm: spray}
router:
  flow_control: vct
  voq: true
  speedup: 2
  output_buffer: 48
  buffer: {terminal: 48, local: 48}
  delays: {routing: 0, vc_alloc: 0, sw_alloc: 1, traversal: 0}
link: {latency: {terminal: 1, local: 1}}
nic: {max_packet: 1, acks: false}
cc: )" + mechanism + "\ntraffic:\n" + traffic;
}

const char* kUniform = "  classes: [{name: u, rate: 0.8, size: 1, stop: 8000}]\n";
const char* kHotspots = R"(  groups:
    - {name: hot, nodes: [5, 10]}
    - {name: cold, exclude: [hot]}
  classes:
    - {name: background, destinations: cold, rate: 0.4375, size: 1, stop: 12000}
    - {name: hotspot, pattern: {type: hotspot}, destinations: hot, rate: 0.1375, size: 1, stop: 12000}
)";

// Every message posted was delivered once, nothing is left anywhere, and the paper's invariants
// held throughout (N = 16, M = 4, B = 12, u = 32).
void check_invariants(const test::NetRun& r) {
  const Json& s = r.stats();
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, received = 0, queued = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    received += n->counters().data_packets_received;
    queued += n->queued_messages();
  }
  CHECK(posted > 1000);
  CHECK(received == posted);  // one packet per message
  CHECK(queued == 0);
  CHECK(r.net->packets().live() == 0);
  CHECK(s["protocol"]["dropped_packets"] == 0);
  const Json& cc = s["cc"];
  CHECK(cc["host_order_violations"] == 0);
  CHECK(cc["c_crosspoint_peak"].get<std::uint64_t>() <= 12);
  CHECK(cc["c_output_queue_peak"].get<std::uint64_t>() <= 48);
  CHECK(cc["reorder_peak"].get<std::uint64_t>() <= 4 * 12);
  CHECK(cc["pending_requests_peak"].get<std::uint64_t>() <= 32);
  CHECK(cc["request_counter_peak"].get<std::uint64_t>() <= 32);
  CHECK(cc["egress_backpressure_cycles"] == 0);
  CHECK(cc["grants"] == cc["grants_received"]);  // every grant reached its adapter
}

}  // namespace

TEST_CASE("reqgrant: uniform traffic on the N = 16 Clos keeps the paper's invariants", "[net][reqgrant]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant}", kUniform));
  check_invariants(r);
  const Json& t = r.stats()["throughput"];
  CHECK(t["accepted"]["mean"].get<double>() == Approx(t["offered"]["mean"].get<double>()).epsilon(0.02));
  // Packets were sprayed, so some arrived out of order and waited in the reorder buffer.
  CHECK(r.stats()["cc"]["resequenced_packets"].get<std::uint64_t>() > 0);
}

TEST_CASE("reqgrant: hotspots keep the invariants (saturated outputs, throttled flows)", "[net][reqgrant]") {
  const auto r = test::run_yaml(clos16("{mechanism: reqgrant}", kHotspots, "{warmup: 2000, measure: 10000, drain_limit: 100000}"));
  check_invariants(r);
  CHECK(r.stats()["cc"]["pending_requests_peak"] == 32);  // the hot flows hit the throttle
}

TEST_CASE("reqgrant: zero-load latency is the baseline's plus the request/grant round trip", "[net][reqgrant]") {
  // One packet at a time: the request reaches the output arbiter request_latency cycles after the
  // adapter wrote it, the grant the adapter grant_latency cycles after the arbiter issued it (same
  // cycle), and the adapter injects the next cycle.
  const std::string light = "  classes: [{name: u, rate: 0.002, size: 1}]\n";
  const Json base = test::run_yaml_fresh(clos16("{mechanism: baseline}", light));
  const Json rg = test::run_yaml_fresh(clos16("{mechanism: reqgrant}", light));
  const Json rg1 = test::run_yaml_fresh(clos16("{mechanism: reqgrant, request_latency: 1, grant_latency: 5}", light));
  const auto min = [](const Json& s) { return s["latency"]["packet"]["min"].get<std::uint64_t>(); };
  CHECK(min(base) == 8);
  CHECK(min(rg) == min(base) + 3 + 3 + 1);
  CHECK(min(rg1) == min(base) + 1 + 5 + 1);
  // At this load nothing queues: every packet takes the minimum.
  CHECK(rg["latency"]["packet"]["max"] == min(rg));
}

TEST_CASE("reqgrant: hotspots do not delay other traffic but the baseline HOL blocking does (R1 and R9)", "[net][reqgrant]") {
  const std::string sim = "{warmup: 3000, measure: 10000, drain_limit: 100000}";
  const std::string background_only = R"(  groups:
    - {name: hot, nodes: [5, 10]}
    - {name: cold, exclude: [hot]}
  classes:
    - {name: background, destinations: cold, rate: 0.4375, size: 1, stop: 16000}
)";
  const Json rg_ref = test::run_yaml_fresh(clos16("{mechanism: reqgrant}", background_only, sim));
  const Json rg_hot = test::run_yaml_fresh(clos16("{mechanism: reqgrant}", kHotspots, sim));
  const Json base_hot = test::run_yaml_fresh(clos16("{mechanism: baseline}", kHotspots, sim));
  const auto bg = [](const Json& s) { return s["classes"]["background"]["latency"]["packet"]["mean"].get<double>(); };
  INFO("background delay: reqgrant alone " << bg(rg_ref) << ", with hotspots " << bg(rg_hot) << ", baseline with hotspots "
                                           << bg(base_hot));
  CHECK(bg(rg_hot) < 1.2 * bg(rg_ref));  // R9: virtually unaffected
  CHECK(bg(base_hot) > 5 * bg(rg_hot));  // R1: the baseline's non-congested packets suffer
  // Both keep the hotspots busy (h = 1.1x: saturated).
  CHECK(rg_hot["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>() > 0.97);
  CHECK(base_hot["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>() > 0.97);
}

TEST_CASE("reqgrant: configuration errors name the key", "[net][reqgrant]") {
  CHECK_THROWS_WITH(test::build_network(clos16("{mechanism: reqgrant}", kUniform), {"nic.max_packet=4"}),
                    Catch::Contains("nic.max_packet") && Catch::Contains("must be 1"));
  CHECK_THROWS_WITH(test::build_network(clos16("{mechanism: reqgrant, reorder_buffer: 40}", kUniform)),
                    Catch::Contains("cc.reorder_buffer") && Catch::Contains("4 x 12 = 48"));
  CHECK_THROWS_WITH(test::build_network(R"(
topology: {type: fattree, k: 4, n: 2}
nic: {max_packet: 1}
cc: {mechanism: reqgrant}
)"),
                    Catch::Contains("clos"));
}

namespace {
// The checks every re-sequencing adapter must pass (netvoq, islip): nothing lost, in order.
void check_delivered_in_order(const test::NetRun& r) {
  const Json& s = r.stats();
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, received = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    received += n->counters().data_packets_received;
  }
  CHECK(posted > 1000);
  CHECK(received == posted);
  CHECK(r.net->packets().live() == 0);
  CHECK(s["cc"]["host_order_violations"] == 0);
  CHECK(s["cc"]["in_order_packets"].get<std::uint64_t>() > 0);
}
}  // namespace

TEST_CASE("netvoq and islip: zero-load latency without a round trip and with the iSLIP match over one-cycle wires", "[net][reqgrant]") {
  const std::string light = "  classes: [{name: u, rate: 0.002, size: 1}]\n";
  const auto min = [](const Json& s) { return s["latency"]["packet"]["min"].get<std::uint64_t>(); };
  const Json base = test::run_yaml_fresh(clos16("{mechanism: baseline}", light));
  CHECK(min(test::run_yaml_fresh(clos16("{mechanism: netvoq}", light))) == min(base));
  // request 1 + grant 1 (match in the cycle the request arrives) + injection the next cycle
  CHECK(min(test::run_yaml_fresh(clos16("{mechanism: islip}", light))) == min(base) + 3);
}

TEST_CASE("netvoq: per-destination queues isolate the background from hotspots (R2)", "[net][reqgrant]") {
  const std::string sim = "{warmup: 3000, measure: 10000, drain_limit: 100000}";
  const auto r = test::run_yaml(clos16("{mechanism: netvoq}", kHotspots, sim));
  check_delivered_in_order(r);
  const Json base_hot = test::run_yaml_fresh(clos16("{mechanism: spray_reorder}", kHotspots, sim));
  const auto bg = [](const Json& s) { return s["classes"]["background"]["latency"]["packet"]["mean"].get<double>(); };
  INFO("background delay: netvoq " << bg(r.stats()) << ", baseline " << bg(base_hot));
  CHECK(bg(r.stats()) < 15);  // zero-load 8: virtually unaffected
  CHECK(bg(base_hot) > 5 * bg(r.stats()));
  CHECK(r.stats()["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>() > 0.97);
}

TEST_CASE("netvoq: an adapter never forms a packet its vnet has no injection credit for", "[net][reqgrant]") {
  // Four hotspots at 1.1x keep the hot vnets at the injection links near full. A packet formed on
  // the last credit's cycle used to see that credit still free (NicApi::injection_credits read
  // before the commit), so the next packet to the same destination waited in the NIC's data
  // stream for a credit and blocked every other destination (2242 times in 25000 cycles; the
  // background's delay at k = 4 was 16.0 instead of 10.1 PT).
  const char* hot4 = R"(  groups:
    - {name: hot, nodes: [5, 10, 15, 0]}
    - {name: cold, exclude: [hot]}
    - {name: senders, exclude: [hot]}
  classes:
    - {name: background, destinations: cold, rate: 0.375, size: 1, stop: 13000}
    - {name: hotspot, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.366667, size: 1, stop: 13000}
)";
  const auto r = test::run_yaml(clos16("{mechanism: netvoq}", hot4, "{warmup: 3000, measure: 10000, drain_limit: 100000}"));
  check_delivered_in_order(r);
  CHECK(r.stats()["cc"]["injection_credit_waits"] == 0);
  CHECK(r.stats()["classes"]["background"]["latency"]["packet"]["mean"].get<double>() < 11);  // k = 0: 9.1
}

TEST_CASE("islip: a match per cycle, bursty and unbalanced traffic delivered in order", "[net][reqgrant]") {
  const std::string traffic =
      "  classes: [{name: u, process: bursty, burst: 12, rate: 0.7, size: 1, stop: 8000, pattern: {type: unbalanced, w: 0.5}}]\n";
  const auto r = test::run_yaml(clos16("{mechanism: islip}", traffic));
  check_delivered_in_order(r);
  const Json& t = r.stats()["throughput"];
  CHECK(t["accepted"]["mean"].get<double>() == Approx(t["offered"]["mean"].get<double>()).epsilon(0.03));
  CHECK(t["offered"]["mean"].get<double>() == Approx(0.7).epsilon(0.06));  // the bursty process's long-run load
  CHECK(r.stats()["cc"]["grants"] == r.stats()["cc"]["grants_received"]);
  CHECK(r.stats()["cc"]["request_counter_peak"].get<std::uint64_t>() <= 32);
}

TEST_CASE("reqgrant: bursty traffic keeps the paper's invariants", "[net][reqgrant]") {
  const std::string traffic = "  classes: [{name: u, process: bursty, burst: 12, rate: 0.8, size: 1, stop: 8000}]\n";
  check_invariants(test::run_yaml(clos16("{mechanism: reqgrant}", traffic)));
}

TEST_CASE("srp of cc/srp_lhrp runs on the paper 002 fabric for R11", "[net][reqgrant][srp]") {
  std::string cfg = clos16("{mechanism: srp, reservation_overhead: 0.05}", kHotspots, "{warmup: 2000, measure: 6000, drain_limit: 100000}");
  const auto r = test::run_yaml(cfg, {"nic.acks=true", "traffic.classes[0].size=8", "traffic.classes[1].size=8",
                                      "traffic.classes[0].rate=0.3", "traffic.classes[1].rate=0.28"});
  const Json& s = r.stats();
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, received = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    received += n->counters().data_packets_received;
  }
  CHECK(posted > 500);
  CHECK(received == 8 * posted);  // every packet of every 8-packet message, once
  CHECK(s["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>() > 0.85);
}

TEST_CASE("reqgrant distributed: the scheduling network keeps the invariants and the central design's timing", "[net][reqgrant][distributed]") {
  const std::string dist = "{mechanism: reqgrant, scheduler: distributed, request_speedup: 1.1}";
  const auto r = test::run_yaml(clos16(dist, kHotspots, "{warmup: 2000, measure: 8000, drain_limit: 100000}"));
  check_invariants(r);
  const Json& cc = r.stats()["cc"];
  CHECK(cc["request_queue_peak"].get<std::uint64_t>() <= 4 * 4);  // M x K
  CHECK(cc["grant_queue_peak"].get<std::uint64_t>() <= 4 * 4);
  CHECK(cc["request_queue_peak"].get<std::uint64_t>() > 0);
  CHECK(r.stats()["classes"]["hotspot"]["throughput"]["ejected"]["mean"].get<double>() > 0.97);
  // Zero load: three one-cycle hops each way, as the central scheduler's 3 + 3 cycles.
  const std::string light = "  classes: [{name: u, rate: 0.002, size: 1}]\n";
  const auto min = [](const Json& s) { return s["latency"]["packet"]["min"].get<std::uint64_t>(); };
  CHECK(min(test::run_yaml_fresh(clos16(dist, light))) == min(test::run_yaml_fresh(clos16("{mechanism: reqgrant}", light))));
  CHECK_THROWS_WITH(test::build_network(clos16("{mechanism: reqgrant, scheduler: distributed, request_combine: 2}", kUniform)),
                    Catch::Contains("cc.request_combine"));
}

TEST_CASE("reqgrant phase_stats and grant_start: counters of R5's trace, results unchanged without them", "[net][reqgrant]") {
  const std::string traffic = "  classes: [{name: u, rate: 0.8, size: 1, stop: 3000}]\n";
  const std::string sim = "{warmup: 500, measure: 2500, drain_limit: 100000}";
  const auto plain = test::run_yaml_fresh(clos16("{mechanism: reqgrant, order: common}", traffic, sim));
  const auto traced = test::run_yaml_fresh(clos16("{mechanism: reqgrant, order: common, phase_stats: true}", traffic, sim));
  CHECK_FALSE(plain["cc"].contains("phase_pairs"));
  CHECK(traced["cc"]["grants"] == plain["cc"]["grants"]);  // counting changes nothing
  CHECK(traced["latency"]["packet"]["mean"] == plain["latency"]["packet"]["mean"]);
  const Json& cc = traced["cc"];
  const auto cycles = cc["phase_cycles"].get<std::uint64_t>(), pairs = cc["phase_pairs"].get<std::uint64_t>();
  CHECK(cycles >= 3000);
  CHECK(pairs <= cycles * 120);  // 16 arbiters: 120 pairs
  CHECK(pairs >= 120);            // the first cycle: every arbiter at its first input
  CHECK(cc["phase_pairs_kept"].get<std::uint64_t>() <= pairs);
  CHECK(cc["grant_skips_no_request"].get<std::uint64_t>() > 0);
  // grant_start: nothing granted before it, so a packet created at the warm-up's end (500) waits past 1000.
  const auto late = test::run_yaml_fresh(clos16("{mechanism: reqgrant, grant_start: 1000, phase_stats: true}", traffic, sim));
  CHECK(plain["latency"]["packet"]["max"].get<std::uint64_t>() < 500);
  CHECK(late["latency"]["packet"]["max"].get<std::uint64_t>() >= 500);
  CHECK(late["cc"]["grants"] == plain["cc"]["grants"]);  // every packet still granted once
  CHECK_THROWS_WITH(test::build_network(clos16("{mechanism: reqgrant, scheduler: distributed, phase_stats: true}", kUniform)),
                    Catch::Contains("cc.phase_stats"));
}
