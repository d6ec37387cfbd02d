// ECN's router and NIC hooks alone, on a fake router and NIC (tests/support/fake_api.hpp): the
// marker built from each port's buffer depth, FECN at the marking point, BECN in the ACK or a
// CNP, and the CCTI/IPD rate limiter as the NIC's injection policy (paper 003 Table 1).
#include <catch2/catch.hpp>

#include "support/fake_api.hpp"

using namespace ccnet;
using test::flag;

namespace {

Packet& data_packet(PacketPool& pool, NodeId src, NodeId dst) {
  Packet& p = pool.allocate();
  p.kind = PacketKind::Data;
  p.src = src;
  p.dst = dst;
  p.size = 4;
  return p;
}

BufferState at(PortId port, std::uint32_t occupancy, std::uint32_t capacity) {
  return BufferState{port, 0, occupancy, capacity, occupancy, 1};
}

}  // namespace

TEST_CASE("ECN switch: marks data above the threshold of each port's own buffer depth", "[ecn][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: ecn, threshold: 0.5}");
  test::FakeRouter router(net.packets, net.topology, 2, 16, 2);
  router.ports_[1].in_depth = 32;  // a deeper input: its threshold is 16 flits, port 0's is 8
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  REQUIRE(hooks);
  const PacketFlag fecn = flag(net.packets, "fecn");

  Packet& a = data_packet(net.packets, 0, 1);
  CHECK(hooks->on_arrival(router, a, at(0, 8, 16)) == ArrivalAction::Accept);
  CHECK_FALSE(a.has(fecn));  // at the threshold: not above
  hooks->on_arrival(router, a, at(0, 9, 16));
  CHECK(a.has(fecn));
  Packet& b = data_packet(net.packets, 0, 1);
  hooks->on_arrival(router, b, at(1, 9, 32));
  CHECK_FALSE(b.has(fecn));  // port 1 (32 flits deep) marks only above 16
  hooks->on_arrival(router, b, at(1, 17, 32));
  CHECK(b.has(fecn));
  Packet& ack = net.packets.control(PacketKind::Ack, a, 1, 0, 0);
  hooks->on_arrival(router, ack, at(0, 16, 16));
  CHECK_FALSE(ack.has(fecn));  // only data packets are eligible
  // Marking happens at arrival (mark_on: enqueue), not at departure.
  Packet& c = data_packet(net.packets, 0, 1);
  hooks->on_input_dequeue(router, c, at(0, 16, 16));
  hooks->on_output_dequeue(router, c, at(0, 16, 16));
  CHECK_FALSE(c.has(fecn));
  CHECK(counters.empty());  // the switch side counts nothing in stats.json
}

TEST_CASE("ECN switch: marking rate and output-queue measurement", "[ecn][hooks]") {
  test::FakeNetwork net;
  SECTION("IBA Marking_Rate: one marked, the next two eligible packets not") {
    auto mech = net.make("{mechanism: ecn, threshold: 0.25, marking_rate: 2}");
    test::FakeRouter router(net.packets, net.topology, 1, 16, 2);
    CounterSet counters;
    auto hooks = mech->router_hooks(router, counters);
    const PacketFlag fecn = flag(net.packets, "fecn");
    std::vector<bool> marked;
    for (int i = 0; i < 7; ++i) {
      Packet& p = data_packet(net.packets, 0, 0);
      hooks->on_arrival(router, p, at(0, 5, 16));
      marked.push_back(p.has(fecn));
    }
    CHECK(marked == std::vector<bool>{true, false, false, true, false, false, true});
  }
  SECTION("output queue, marked at dequeue: the threshold comes from the output-queue depth") {
    auto mech = net.make("{mechanism: ecn, threshold: 0.5, measure: output_queue, mark_on: dequeue}");
    test::FakeRouter router(net.packets, net.topology, 2, 16, 2);
    router.oq_depth = 8;  // threshold 4 flits
    CounterSet counters;
    auto hooks = mech->router_hooks(router, counters);
    const PacketFlag fecn = flag(net.packets, "fecn");
    Packet& p = data_packet(net.packets, 0, 1);
    hooks->on_arrival(router, p, at(0, 16, 16));
    hooks->on_output_enqueue(router, p, at(1, 8, 8));
    CHECK_FALSE(p.has(fecn));  // measured at dequeue only
    hooks->on_output_dequeue(router, p, at(1, 4, 8));
    CHECK_FALSE(p.has(fecn));
    hooks->on_output_dequeue(router, p, at(1, 5, 8));
    CHECK(p.has(fecn));
  }
}

TEST_CASE("ECN destination: BECN in the ACK, or one CNP per marked packet", "[ecn][hooks]") {
  SECTION("ACKs on: the ACK carries the BECN; marked packets in the window are counted") {
    test::FakeNetwork net(4, true);
    auto mech = net.make("{mechanism: ecn}");
    test::FakeNic nic(net.packets, 3, 4);
    nic.vnets = mech.mechanism.get();
    CounterSet counters;
    auto hooks = mech->nic_hooks(nic, counters);
    const PacketFlag fecn = flag(net.packets, "fecn"), becn = flag(net.packets, "becn");
    Packet& d = data_packet(net.packets, 1, 3);
    Packet& ack = net.packets.control(PacketKind::Ack, d, 3, 1, 0);
    hooks->on_data(nic, d, &ack);
    CHECK_FALSE(ack.has(becn));
    d.set(fecn);
    hooks->on_data(nic, d, &ack);
    CHECK(ack.has(becn));
    CHECK(nic.sent.empty());
    nic.in_window = false;
    hooks->on_data(nic, d, &ack);
    const Json c = [&] {
      CounterReport r;
      r.add(counters);
      return r.counters_json();
    }();
    CHECK(c["fecn_marked_packets"] == 1);  // the second marked one arrived outside the window
    CHECK(c["becn_notifications"] == 0);
  }
  SECTION("ACKs off: a congestion-notification packet on the control vnet") {
    test::FakeNetwork net(4, false);
    auto mech = net.make("{mechanism: ecn}");
    test::FakeNic nic(net.packets, 3, 4);
    nic.vnets = mech.mechanism.get();
    CounterSet counters;
    auto hooks = mech->nic_hooks(nic, counters);
    Packet& d = data_packet(net.packets, 1, 3);
    d.set(flag(net.packets, "fecn"));
    d.message = 77;
    hooks->on_data(nic, d, nullptr);
    REQUIRE(nic.sent.size() == 1);
    const Packet& cnp = nic.sent_packet(0);
    CHECK(net.packets.format().kind_name(cnp.kind) == "cnp");
    CHECK(cnp.dst == 1);
    CHECK(cnp.message == 77);
    CHECK(cnp.has(flag(net.packets, "becn")));
    CHECK(cnp.vnet == 1);
  }
}

TEST_CASE("ECN source: a BECN slows the flow by one IPD step, the timer speeds it up again", "[ecn][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: ecn_paper003}");  // +24 cycles per BECN, -24 every 96 cycles
  test::FakeNic nic(net.packets, 0, 4);
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  InjectionPolicy* policy = hooks->injection_policy();
  REQUIRE(policy);
  CHECK(policy->clocked());  // the NIC commits it every cycle (the timer counts cycles)
  Packet& becn = net.packets.control(PacketKind::Ack, net.packets.allocate(), 2, 0, 1);
  becn.set(flag(net.packets, "becn"));
  // One flow, to node 2, always ready; 4-flit packets whenever the policy lets it send. The BECN
  // arrives at cycle 1 and applies at that cycle's clock edge.
  policy->set_ready(2, true);
  std::vector<Cycle> starts;
  for (Cycle t = 0; t < 140; ++t) {
    if (t == 1) hooks->on_control(nic, becn);
    const int g = policy->pick(t);
    if (g >= 0) {
      CHECK(g == 2);
      starts.push_back(t);
    }
    policy->commit(t, g, 4);
  }
  // 0: CCTI 0, next 4; 4: CCTI 1 (IPD 24), next 32; 32 -> 60; 60 -> 88; 88 -> 116, but the timer's
  // 96th commit (cycle 95) drops CCTI to 0 before the next grant: 116 -> 120 -> 124 ...
  CHECK(std::vector<Cycle>(starts.begin(), starts.begin() + 8) == std::vector<Cycle>{0, 4, 32, 60, 88, 116, 120, 124});
  CounterReport r;
  r.add(counters);
  CHECK(r.counters_json()["becn_notifications"] == 1);
}
