// MVCM (paper 001) and its comparisons in whole networks: every packet delivered and the network
// empty at the end (lossless), the mechanism's invariants (VB never without MB, no flow beyond its
// window, waiting slots within their cap), and the traffic features the paper's protocol needs
// (a class that starts after a number of delivered packets, a message count per source, the
// hot link's utilisation series).
#include <catch2/catch.hpp>

#include "support/net_run.hpp"

using namespace ccnet;

namespace {

// The 2-ary 3-fly of Fig. 8, scaled as configs/papers/paper001 (1 flit = 16 B), shortened.
const char* kFly8 = R"(
seed: 3
sim: {warmup: 1000, measure: 6000, series_window: 500}
topology: {type: fattree, k: 2, n: 3}
routing: {algorithm: dmodk}
router:
  flow_control: vct
  speedup: 2
  output_buffer: 64
  buffer: {terminal: 64, local: 64}
  delays: {routing: 0, vc_alloc: 0, sw_alloc: 0, traversal: 0}
link: {latency: {terminal: 1, local: 1}}
nic: {max_packet: 18, ejection_buffer: 64}
cc: {mechanism: mvcm}
traffic:
  groups:
    - {name: hot_sources, nodes: [0, 3, 4]}
    - {name: hot, nodes: [7]}
    - {name: others, exclude: [hot_sources]}
  classes:
    - {name: hot, pattern: {type: hotspot}, sources: hot_sources, destinations: hot, rate: 0.7, size: 18, start: 1500, stop: 5000}
    - {name: cold, pattern: {type: uniform}, sources: others, rate: 0.3, size: 18, stop: 7000}
)";

// The 4-ary 3-fly with the Table 3 pattern, short: hot sources start after 1,000 delivered
// packets and send 30 packets each.
const char* kFly64 = R"(
seed: 2
sim: {warmup: 0, measure: 8000, series_window: 500, ejection_series: [63]}
topology: {type: fattree, k: 4, n: 3}
routing: {algorithm: dmodk}
router:
  flow_control: vct
  speedup: 2
  output_buffer: 64
  buffer: {terminal: 64, local: 64}
  delays: {routing: 0, vc_alloc: 0, sw_alloc: 0, traversal: 0}
link: {latency: {terminal: 1, local: 1}}
nic: {max_packet: 18, ejection_buffer: 64}
cc: {mechanism: mvcm}
traffic:
  groups:
    - {name: hot_sources, nodes: [1, 9, 17, 25, 33, 41, 49, 57]}
    - {name: hot_spot, nodes: [63]}
    - {name: uniform_sources, exclude: [hot_sources]}
  classes:
    - {name: cold, pattern: {type: uniform}, sources: uniform_sources, rate: 0.4, size: 18, stop: 8000}
    - {name: hot, pattern: {type: hotspot}, sources: hot_sources, destinations: hot_spot, rate: 0.4, size: 18,
       start_after_delivered: 1000, messages: 30}
)";

std::uint64_t cc(const Json& s, const char* key) { return s["cc"][key].get<std::uint64_t>(); }

// Checks what must hold after any run of the MVCM family.
void invariants(const Json& s) {
  CHECK(s["quiescent_checked"].get<bool>());  // everything delivered, buffers and credits back
  CHECK(s["drained"].get<bool>());
  CHECK(s["protocol"]["dropped_packets"] == 0);
  CHECK(cc(s, "validated_unmarked_packets") == 0);
  if (s["cc"].contains("outstanding_peak")) {
    CHECK(cc(s, "outstanding_peak") <= cc(s, "dw_max"));
    if (s["config"]["cc"]["ws_cap"].get<bool>()) {
      std::uint64_t cap = 1;
      for (std::uint64_t i = 1; i < cc(s, "ws_increases"); ++i) cap *= cc(s, "ws_factor");
      CHECK(cc(s, "waiting_slots_peak") <= cap);
    }
  }
}

}  // namespace

TEST_CASE("MVCM on the 2-ary 3-fly: marks, validations and window actions, nothing lost", "[net][mvcm]") {
  const auto r = test::run_yaml(kFly8);
  const Json& s = r.stats();
  invariants(s);
  CHECK(cc(s, "dw_max") == 2);   // omega = 31 / 18 = 1.72
  CHECK(cc(s, "rtt_min") == 31);  // 2 x (2 terminal links + 5 switches x 0 + 4 links) + 18 + 1
  CHECK(cc(s, "ws_factor") == 2);
  CHECK(cc(s, "ws_increases") == 3);
  CHECK(cc(s, "marked_packets") > 0);
  CHECK(cc(s, "validated_packets") > 0);
  CHECK(cc(s, "acks_hot") > 0);
  CHECK(cc(s, "acks_warm") > 0);
  // Every ACK reached its source and was classified once.
  std::uint64_t acks = 0;
  for (const auto& nic : r.net->nics()) acks += nic->counters().acks_received;
  CHECK(cc(s, "acks_cold") + cc(s, "acks_warm") + cc(s, "acks_hot") == acks);
}

TEST_CASE("MVCM family on the 2-ary 3-fly: every comparison and ablation runs lossless", "[net][mvcm]") {
  for (const char* m : {"renato", "pfister", "pfister_validated", "mvcm_marked_only", "mvcm_no_warm", "mvcm_no_ws_cap",
                        "static_window"}) {
    INFO(m);
    const Json s = test::run_yaml_fresh(kFly8, {std::string("cc.mechanism=") + m});
    invariants(s);
  }
}

TEST_CASE("Paper 001 protocol on the 4-ary 3-fly: a hot spot after N delivered packets, M packets per source",
          "[net][mvcm]") {
  const auto r = test::run_yaml(kFly64);
  const Json& s = r.stats();
  invariants(s);
  // Each of the 8 hot sources sent exactly its 30 packets, all delivered.
  CHECK(s["classes"]["hot"]["latency"]["packet"]["count"] == 8 * 30);
  // Nothing hot was generated before 1,000 packets had been delivered: the first window with hot
  // traffic comes after the cold class alone delivered 1,000 packets.
  const Json& hot = s["timeseries"]["classes"]["hot"];
  const Json& cold = s["timeseries"]["classes"]["cold"];
  std::size_t first = 0;
  while (hot["offered"][first].get<double>() == 0) ++first;
  std::uint64_t delivered_before = 0;
  for (std::size_t w = 0; w + 1 < first; ++w) delivered_before += cold["packets"][w].get<std::uint64_t>();
  CHECK(delivered_before < 1000);
  std::uint64_t delivered_through = delivered_before + cold["packets"][first - 1].get<std::uint64_t>() +
                                    cold["packets"][first].get<std::uint64_t>();
  CHECK(delivered_through >= 1000);
  // The hot link's utilisation series: one value per window, busy while the hot spot lasts.
  const Json& ej = s["timeseries"]["ejection"];
  REQUIRE(ej["63"].size() == ej["start"].size());
  double peak = 0;
  for (const auto& u : ej["63"]) {
    CHECK(u.get<double>() >= 0);
    CHECK(u.get<double>() <= 1.0);
    peak = std::max(peak, u.get<double>());
  }
  CHECK(peak > 0.9);
  // Flagged packets per class: validated cold packets are rare, hot ones common.
  auto validated = [&](const char* c) {
    return s["classes"][c]["flagged_packets"]["vb"].get<double>() / s["classes"][c]["latency"]["packet"]["count"].get<double>();
  };
  CHECK(validated("hot") > 0.1);
  CHECK(validated("cold") < 0.02);
  CHECK(validated("hot") > 10 * validated("cold"));
}

TEST_CASE("start_after_delivered that can never be reached is an error naming the class", "[net][mvcm]") {
  std::string yaml = kFly64;
  CHECK_THROWS_WITH(test::run_yaml(yaml, {"traffic.classes[1].start_after_delivered=100000000"}),
                    Catch::Contains("'hot'") && Catch::Contains("start_after_delivered"));
}
