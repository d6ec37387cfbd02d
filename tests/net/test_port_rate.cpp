// nic.port_speedup on a whole network: the host ports inject and drain data at 1/s flits per
// cycle, exactly; a throttled ejection back-pressures the fabric through credits (no loss), and
// every packet is delivered.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "support/conservation.hpp"
#include "support/net_run.hpp"

using namespace ccnet;

namespace {

void post(Network& net, NodeId src, NodeId dst, std::uint32_t flits) {
  MessageRequest req{dst, flits, 0};
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&req));
  gp.set_data_length(sizeof req);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  (*net.generator().sockets[src])->b_transport(gp, t);
  REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
}

// Whether the counts at consecutive cycles, over every window of a stretch in which the port was
// busy, are floor or ceil of window / s.
void check_windows(const std::vector<std::uint64_t>& count, std::size_t first, std::size_t last, double s) {
  REQUIRE(last > first + 100);
  for (std::size_t t0 = first; t0 < first + 30; ++t0)
    for (std::size_t len = 1; t0 + len <= last; len += 5) {
      const std::uint64_t n = count[t0 + len] - count[t0];
      const double exact = static_cast<double>(len) / s;
      REQUIRE(n >= static_cast<std::uint64_t>(std::floor(exact + 1e-12)));
      REQUIRE(n <= static_cast<std::uint64_t>(std::ceil(exact - 1e-12)));
    }
}

const char* kMesh = R"(
topology: {type: mesh, k: 2, n: 2}
nic: {max_packet: 4, acks: false, port_speedup: 1.3}
traffic:
  classes: [{name: u, rate: 0}]
)";

}  // namespace

TEST_CASE("port speedup: three hosts saturating a fourth are paced by its port through credits without loss", "[net][port_rate]") {
  // Nodes 0, 1, 2 each send 600 flits to node 3 at once. Each source alone could inject at
  // 1/1.3 flits per cycle, together 2.3 times what node 3's port drains: node 3's ejection
  // buffer fills, the router's output to it runs out of credits, and the sources are held back.
  auto net = test::build_network(kMesh);
  const sc_core::sc_time T = net->period();
  sc_core::sc_start(10 * T);
  for (NodeId src : {0u, 1u, 2u}) post(*net, src, 3, 600);
  auto& nics = net->nics();
  std::vector<std::uint64_t> injected0, ejected3;  // per cycle, cumulative
  bool out_of_credits = false;
  Router& r3 = *net->routers()[3];
  for (int c = 0; c < 3000; ++c) {
    sc_core::sc_start(T);
    injected0.push_back(nics[0]->counters().flits_injected);
    ejected3.push_back(nics[3]->counters().flits_ejected);
    for (PortId p = 0; p < r3.num_ports(); ++p)
      for (VcId v = 0; v < r3.num_vcs(); ++v) out_of_credits = out_of_credits || r3.credits(p, v) == 0;
  }
  // Node 3's port drains exactly 1/1.3 flits per cycle while data waits for it.
  std::size_t first = 0;
  while (ejected3[first] == 0) ++first;
  std::size_t last = first;
  while (ejected3[last] < 1800) ++last;
  CHECK(last - first + 1 == static_cast<std::size_t>(std::ceil(1799 * 1.3)) + 1);
  check_windows(ejected3, first, last, 1.3);
  CHECK(out_of_credits);
  // Back-pressure: node 0 alone would have been done after 600 x 1.3 = 780 cycles.
  std::size_t done0 = 0;
  while (injected0[done0] < 600) ++done0;
  CHECK(done0 > 1200);
  // Nothing lost, nothing left.
  for (NodeId n : {0u, 1u, 2u}) CHECK(nics[n]->counters().flits_injected == 600);
  CHECK(nics[3]->counters().data_packets_received == 3 * 150);
  for (auto& n : nics) CHECK_FALSE(n->holds_state());
}

TEST_CASE("port speedup: a lone source injects floor or ceil of T / s flits in any T cycles", "[net][port_rate]") {
  // Node 0 -> node 3, 2000 flits; node 3 drains at the same rate, so only node 0's port paces it.
  auto net = test::build_network(kMesh, {"nic.port_speedup=1.1"});
  const sc_core::sc_time T = net->period();
  sc_core::sc_start(10 * T);
  post(*net, 0, 3, 2000);
  auto& nics = net->nics();
  std::vector<std::uint64_t> injected0;
  for (int c = 0; c < 2400; ++c) {
    sc_core::sc_start(T);
    injected0.push_back(nics[0]->counters().flits_injected);
  }
  std::size_t first = 0;
  while (injected0[first] == 0) ++first;
  std::size_t last = first;
  while (injected0[last] < 2000) ++last;
  CHECK(last - first == static_cast<std::size_t>(std::ceil(1999 * 1.1)));  // flit k at ceil(k s)
  check_windows(injected0, first, last, 1.1);
  CHECK(nics[3]->counters().flits_ejected == 2000);
  for (auto& n : nics) CHECK_FALSE(n->holds_state());
}

TEST_CASE("port speedup: uniform overload drains completely with accepted load at most the port rate", "[net][port_rate]") {
  const auto r = test::run_yaml(R"(
sim: {warmup: 1000, measure: 4000, drain_limit: 200000}
topology: {type: mesh, k: 4, n: 2}
nic: {max_packet: 4, port_speedup: 1.25}
traffic:
  classes:
    - {name: u, rate: 1.0, size: 8, stop: 5000}
)");
  test::check_conservation(r);
  const double accepted = r.stats()["throughput"]["accepted"]["mean"].get<double>();
  CHECK(accepted > 0.1);
  CHECK(accepted <= 1 / 1.25 + 1e-9);
}
