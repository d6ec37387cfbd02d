// MVCM (paper 001) alone: the notes' unit vectors V1-V5 (section 1.8) exact, on the pure flow
// controller (blocks/mvcm_flow_ctrl) and on the mechanism's hooks over the fake router and NIC
// (tests/support/fake_api.hpp); the comparisons' switch and source rules (Renato, Pfister).
#include <catch2/catch.hpp>

#include "blocks/mvcm_flow_ctrl.hpp"
#include "blocks/mvcm_marker.hpp"
#include "core/rng.hpp"
#include "cc/mvcm/mvcm.hpp"
#include "support/fake_api.hpp"

using namespace ccnet;
using blocks::MvcmAck;
using blocks::MvcmFlowCtrl;
using blocks::MvcmFlowCtrlParams;

namespace {

PacketFlag flag(const PacketPool& pool, const std::string& name) {
  for (unsigned b = kFirstMechanismFlag; b < pool.format().num_flags(); ++b)
    if (pool.format().flag_name(b) == name) return static_cast<PacketFlag>(1u << b);
  FAIL("no flag " << name);
  return kFlagRetransmit;
}

Packet& data_packet(PacketPool& pool, NodeId src, NodeId dst, std::uint16_t size) {
  Packet& p = pool.allocate();
  p.kind = PacketKind::Data;
  p.src = src;
  p.dst = dst;
  p.size = size;
  return p;
}

// The buffer as a hook sees it when a packet's head flit has just entered (or is about to
// leave): `before` flits already there plus the head flit.
BufferState head_in(PortId port, std::uint32_t before, std::uint32_t capacity, PortId out = 0) {
  return BufferState{port, 0, before + 1, capacity, before + 1, out};
}

Json counters_json(const CounterSet& c) {
  CounterReport r;
  r.add(c);
  return r.counters_json();
}

// Drives a flow controller through one ACK at cycle `now`, after sending its packet.
void send_and_ack(MvcmFlowCtrl& c, Cycle& now, MvcmAck kind) {
  while (!c.eligible(0, now)) ++now;
  c.sent(0, now);
  now += 10;
  c.ack(0, now, kind);
}

}  // namespace

TEST_CASE("MVCM V1: RTT_min, omega and DW_max of the paper's networks (section 4.3.2)", "[mvcm][unit]") {
  struct Row {
    std::uint32_t h;
    double bytes_per_cycle, l_data, rtt, omega;
    std::uint32_t dw;
  };
  // t_hop = 3 cycles, L_ack = 22 B; 256 B payload + 22 B header unless said.
  const Row rows[] = {
      {9, 1, 278, 354, 1.2734, 2},      // 4-ary 5-fly: "omega = 1.28", DW_max = 2
      {7, 1, 278, 342, 1.2302, 2},      // 4-ary 4-fly
      {5, 1, 278, 330, 1.1871, 2},      // 4-ary 3-fly, 8-ary 3-fly, 2-ary 3-fly
      {9, 16, 278, 72.75, 4.1871, 5},   // 16 B/cycle links: "omega = 4.18, so 5 is used"
      {9, 1, 534, 610, 1.1423, 2},      // 512 B payload
      {9, 1, 1046, 1122, 1.0727, 2},    // 1,024 B payload
  };
  for (const Row& r : rows) {
    INFO("h " << r.h << ", B " << r.bytes_per_cycle << ", L_data " << r.l_data);
    const double rtt = mvcm::paper_rtt_min(r.h, 3, r.l_data, 22, r.bytes_per_cycle);
    CHECK(rtt == Approx(r.rtt));
    const double w = mvcm::omega(rtt, r.l_data, r.bytes_per_cycle);
    CHECK(w == Approx(r.omega).margin(1e-4));
    CHECK(mvcm::dw_max_of(w) == r.dw);
  }
  // Payload -> 0 (a 22 B header alone): omega -> 98/22 = "4,45", the upper end of [1, 4.45].
  CHECK(mvcm::omega(mvcm::paper_rtt_min(9, 3, 22, 22, 1), 22, 1) == Approx(98.0 / 22));
  CHECK(mvcm::dw_max_of(2.0) == 2);  // an integral omega is its own window
  CHECK(mvcm::dw_max_of(0.5) == 1);
}

TEST_CASE("MVCM V1 in the model: RTT_min, omega and DW_max derived from a configuration", "[mvcm][unit]") {
  test::FakeNetwork net(4);  // one switch of 4 hosts: k = 4, n = 1, h = 1
  net.router.delays = StageDelays{};
  net.router.delays.routing = 1;
  net.router.delays.vc_alloc = 1;
  net.router.delays.sw_alloc = 0;
  net.router.delays.traversal = 0;
  net.nic.max_packet = 18;
  const mvcm::NetworkParams d = mvcm::derive(net.topology, net.router, net.link, net.nic);
  CHECK(d.radix == 4);
  CHECK(d.stages == 1);
  CHECK(d.switch_hops == 1);
  CHECK(d.hop_cycles == 2);
  // one way: 2 terminal links (1 cycle each) + 1 switch x 2 cycles = 4; RTT = 2 x 4 + 18 + 1.
  CHECK(d.rtt_min == 27);
  CHECK(d.omega == Approx(27.0 / 18));
  CHECK(d.dw_max == 2);
}

TEST_CASE("MVCM V2: the waiting-interval ladder (RTT_min x 1, k, k^2 ..., at most n increases)", "[mvcm][unit]") {
  struct Net {
    const char* name;
    std::uint32_t k, n;
    Cycle rtt;
    std::vector<Cycle> ladder;  // waiting interval after each hot ACK at DW = 1
  };
  const Net nets[] = {
      {"4-ary 5-fly", 4, 5, 354, {354, 1416, 5664, 22656, 90624, 90624}},
      {"4-ary 4-fly", 4, 4, 342, {342, 1368, 5472, 21888, 21888}},
      {"4-ary 3-fly", 4, 3, 330, {330, 1320, 5280, 5280}},
      {"8-ary 3-fly", 8, 3, 330, {330, 2640, 21120, 21120}},
      {"2-ary 3-fly", 2, 3, 330, {330, 660, 1320, 1320}},
  };
  for (const Net& net : nets) {
    INFO(net.name);
    MvcmFlowCtrl c(MvcmFlowCtrlParams{1, 1, net.k, net.n, net.rtt});
    Cycle now = 0;
    for (Cycle expected : net.ladder) {
      send_and_ack(c, now, MvcmAck::Hot);
      CHECK(c.not_before(0) - now == expected);
    }
  }
  SECTION("without the cap (ws_increases 0) the slots keep growing by k") {
    MvcmFlowCtrl c(MvcmFlowCtrlParams{1, 1, 4, 0, 330});
    Cycle now = 0;
    for (Cycle expected : {330, 1320, 5280, 21120, 84480, 337920}) {
      send_and_ack(c, now, MvcmAck::Hot);
      CHECK(c.not_before(0) - now == expected);
    }
  }
}

TEST_CASE("MVCM V3: the source state machine, step by step (DW_max 2, k 4, n 5, RTT 354)", "[mvcm][unit]") {
  MvcmFlowCtrl c(MvcmFlowCtrlParams{1, 2, 4, 5, 354});
  struct Step {
    MvcmAck ack;
    std::uint32_t dw;
    std::uint64_t ws;
  };
  const Step steps[] = {
      {MvcmAck::Hot, 1, 0},    {MvcmAck::Hot, 1, 1},    {MvcmAck::Hot, 1, 4},   {MvcmAck::Warm, 1, 4},
      {MvcmAck::Hot, 1, 16},   {MvcmAck::Hot, 1, 64},   {MvcmAck::Hot, 1, 256}, {MvcmAck::Hot, 1, 256},
      {MvcmAck::Cold, 1, 0},   {MvcmAck::Cold, 2, 0},   {MvcmAck::Cold, 2, 0},
  };
  CHECK(c.window(0) == 2);
  CHECK(c.waiting_slots(0) == 0);
  Cycle now = 0;
  int n = 0;
  for (const Step& s : steps) {
    INFO("step " << ++n);
    send_and_ack(c, now, s.ack);
    CHECK(c.window(0) == s.dw);
    CHECK(c.waiting_slots(0) == s.ws);
    if (s.ws > 0) CHECK(c.not_before(0) == now + s.ws * 354);
    else CHECK(c.eligible(0, now));  // the waiting interval went with the slots
    CHECK((c.waiting_slots(0) == 0 || c.window(0) == 1));  // invariant: WS > 0 implies DW = 1
  }
  SECTION("warm ACKs only shrink the window") {
    MvcmFlowCtrl w(MvcmFlowCtrlParams{1, 2, 4, 5, 354});
    Cycle t = 0;
    send_and_ack(w, t, MvcmAck::Warm);
    CHECK(w.window(0) == 1);
    send_and_ack(w, t, MvcmAck::Warm);
    CHECK(w.window(0) == 1);
    CHECK(w.waiting_slots(0) == 0);
  }
  SECTION("a packet generated into an empty flow queue restores the flow (DW_max, no slots)") {
    CHECK(c.window(0) == 2);
    Cycle t = now;
    send_and_ack(c, t, MvcmAck::Hot);
    send_and_ack(c, t, MvcmAck::Hot);
    send_and_ack(c, t, MvcmAck::Hot);
    REQUIRE(c.waiting_slots(0) == 4);
    CHECK_FALSE(c.generated(0, false));  // something still queued: no reset
    CHECK(c.waiting_slots(0) == 4);
    c.sent(0, c.not_before(0));
    CHECK_FALSE(c.generated(0, true));  // a packet outstanding: no reset
    c.ack(0, c.not_before(0) + 10, MvcmAck::Warm);
    CHECK(c.generated(0, true));
    CHECK(c.window(0) == 2);
    CHECK(c.waiting_slots(0) == 0);
    CHECK(c.eligible(0, 0));
  }
  SECTION("the window holds: at most DW packets outstanding") {
    MvcmFlowCtrl w(MvcmFlowCtrlParams{1, 2, 4, 5, 354});
    w.sent(0, 0);
    w.sent(0, 0);
    CHECK_FALSE(w.eligible(0, 1));
    CHECK_THROWS_AS(w.sent(0, 1), std::logic_error);
    w.ack(0, 5, MvcmAck::Hot);  // DW 2 -> 1 with one still outstanding: still closed
    CHECK_FALSE(w.eligible(0, 6));
    w.ack(0, 7, MvcmAck::Cold);
    CHECK(w.eligible(0, 7));
    CHECK_THROWS_AS(w.ack(0, 8, MvcmAck::Cold), std::logic_error);  // nothing outstanding
  }
}

TEST_CASE("MvcmFlowCtrl::commit: one clock edge, events in order, contract violations", "[mvcm][unit]") {
  using Events = MvcmFlowCtrl::Events;
  const MvcmFlowCtrlParams p{3, 2, 4, 3, 10};
  SECTION("a start and its flow's ACK in one edge: the start comes first") {
    MvcmFlowCtrl c(p);
    Events e;
    e.sent = 1;
    e.ack = {true, 1, MvcmAck::Warm};
    CHECK_FALSE(c.violation(0, e));
    CHECK(c.commit(0, e));
    CHECK(c.outstanding(1) == 0);
    CHECK(c.window(1) == 1);
    CHECK_FALSE(c.error());
  }
  SECTION("an ACK for a flow with nothing outstanding changes nothing and sets the error") {
    MvcmFlowCtrl c(p);
    Events e;
    e.sent = 0;
    e.ack = {true, 2, MvcmAck::Hot};
    CHECK(c.violation(0, e));
    CHECK_FALSE(c.commit(0, e));
    CHECK(c.error());
    CHECK(c.outstanding(0) == 1);  // the valid start still applies
    CHECK(c.window(2) == 2);
    c.reset();
    CHECK_FALSE(c.error());
  }
  SECTION("a start on a flow that is not eligible, or a lane naming no flow, is a violation") {
    MvcmFlowCtrl c(p);
    Events e;
    e.sent = 0;
    REQUIRE(c.commit(0, e));
    REQUIRE(c.commit(1, e));
    CHECK(c.violation(2, e));  // window of 2 full
    CHECK_FALSE(c.commit(2, e));
    CHECK(c.outstanding(0) == 2);
    MvcmFlowCtrl d(p);
    Events bad;
    bad.sent = 3;
    CHECK(d.violation(0, bad));
    bad.sent = -1;
    bad.ack = {true, 3, MvcmAck::Cold};
    CHECK(d.violation(0, bad));
    const std::uint32_t nowhere[] = {1, 7};
    Events r;
    r.restarts = nowhere;
    r.num_restarts = 2;
    CHECK(d.violation(0, r));
    CHECK_FALSE(d.commit(0, r));
  }
  SECTION("restarts come first, on the state at the start of the cycle") {
    MvcmFlowCtrl c(p);
    Cycle t = 0;
    for (int i = 0; i < 3; ++i) send_and_ack(c, t, MvcmAck::Hot);  // DW 1, number_WS 4 (1, then x4)
    REQUIRE(c.waiting_slots(0) == 4);
    const std::uint32_t flow0[] = {0};
    Events e;
    e.restarts = flow0;
    e.num_restarts = 1;
    e.sent = 0;  // still waiting at the start of the cycle: not eligible, even though restarted
    CHECK(c.violation(t, e));
    CHECK_FALSE(c.commit(t, e));
    CHECK(c.window(0) == 2);  // the restart applied
    CHECK(c.outstanding(0) == 0);
    CHECK(c.eligible(0, t + 1));
    // A restart, a start and that packet's ACK in one edge: restored, sent, then the ACK acts.
    e.ack = {true, 0, MvcmAck::Warm};
    CHECK(c.commit(t + 1, e));
    CHECK(c.window(0) == 1);
    CHECK(c.outstanding(0) == 0);
    // A restart on a flow with a packet outstanding does nothing, even if its ACK ends it.
    Events s;
    s.sent = 0;
    REQUIRE(c.commit(t + 2, s));
    Events h;
    h.restarts = flow0;
    h.num_restarts = 1;
    h.ack = {true, 0, MvcmAck::Hot};
    CHECK(c.commit(t + 3, h));
    CHECK(c.window(0) == 1);
    CHECK(c.waiting_slots(0) == 1);
  }
  SECTION("violation() predicts commit() on random edges; the invariants hold") {
    RngStream rng(12345, "mvcm_flow_ctrl");
    auto draw = [&rng](std::uint32_t n) { return static_cast<std::uint32_t>(rng.below(n)); };
    MvcmFlowCtrl c(p);
    std::uint32_t restarts[2];
    for (Cycle now = 0; now < 5000; ++now) {
      Events e;
      e.sent = draw(5) == 0 ? static_cast<int>(draw(4)) : -1;  // flow 3 names no flow
      if (draw(3) == 0) e.ack = {true, draw(4), static_cast<MvcmAck>(draw(3))};
      e.num_restarts = draw(6) == 0 ? 1 + draw(2) : 0;
      for (std::size_t k = 0; k < e.num_restarts; ++k) restarts[k] = draw(4);
      e.restarts = restarts;
      const bool predicted = c.violation(now, e);
      CHECK(predicted == !c.commit(now, e));
      for (std::uint32_t f = 0; f < 3; ++f) {
        CHECK(c.outstanding(f) <= c.window(f));
        if (c.waiting_slots(f) > 0) CHECK(c.window(f) == 1);
      }
    }
  }
}

TEST_CASE("MVCM V4: switch thresholds in 64 B credits (1 KB buffers, 278 B = 5-credit packets)", "[mvcm][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: mvcm}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 2);
  router.oq_depth = 16;
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  REQUIRE(hooks);
  const PacketFlag mb = flag(net.packets, "mb"), vb = flag(net.packets, "vb");
  SECTION("input: the 1st and 2nd arriving packets are not marked, the 3rd is (15 > 10.56 credits)") {
    std::vector<bool> marked;
    for (std::uint32_t before : {0u, 5u, 10u}) {
      Packet& p = data_packet(net.packets, 0, 1, 5);
      hooks->on_arrival(router, p, head_in(0, before, 16, 1));
      marked.push_back(p.has(mb));
      CHECK_FALSE(p.has(vb));
    }
    CHECK(marked == std::vector<bool>{false, false, true});
    Packet& ack = net.packets.control(PacketKind::Ack, data_packet(net.packets, 1, 0, 5), 1, 0, 0);
    hooks->on_arrival(router, ack, head_in(0, 10, 16));
    CHECK_FALSE(ack.has(mb));  // ACKs are never marked
  }
  SECTION("output: a marked packet alone is not validated (5 <= 5.28), behind one it is (10 > 5.28)") {
    Packet& alone = data_packet(net.packets, 0, 1, 5);
    alone.set(mb);
    hooks->on_output_enqueue(router, alone, head_in(1, 0, 16));
    CHECK_FALSE(alone.has(vb));
    Packet& behind = data_packet(net.packets, 0, 1, 5);
    behind.set(mb);
    hooks->on_output_enqueue(router, behind, head_in(1, 5, 16));
    CHECK(behind.has(vb));
    Packet& unmarked = data_packet(net.packets, 0, 1, 5);
    hooks->on_output_enqueue(router, unmarked, head_in(1, 10, 16));
    CHECK_FALSE(unmarked.has(vb));  // never validated without MB
    CHECK_FALSE(unmarked.has(mb));
    CHECK(counters_json(counters)["validated_packets"] == 1);
  }
  SECTION("multi-hop: MB at S1, VB at a congested output of S3; the opposite order stays (1,0)") {
    test::FakeRouter s3(net.packets, net.topology, 4, 16, 2);
    s3.oq_depth = 16;
    CounterSet c3;
    auto h3 = mech->router_hooks(s3, c3);
    Packet& p = data_packet(net.packets, 0, 1, 5);
    hooks->on_arrival(router, p, head_in(0, 10, 16, 1));
    hooks->on_output_enqueue(router, p, head_in(1, 0, 16));
    CHECK((p.has(mb) && !p.has(vb)));
    h3->on_arrival(s3, p, head_in(2, 0, 16, 3));
    h3->on_output_enqueue(s3, p, head_in(3, 10, 16));
    CHECK((p.has(mb) && p.has(vb)));
    Packet& q = data_packet(net.packets, 0, 1, 5);
    hooks->on_arrival(router, q, head_in(0, 0, 16, 1));
    hooks->on_output_enqueue(router, q, head_in(1, 10, 16));  // congested output, not yet marked
    h3->on_arrival(s3, q, head_in(2, 10, 16, 3));            // marked downstream
    h3->on_output_enqueue(s3, q, head_in(3, 0, 16));
    CHECK((q.has(mb) && !q.has(vb)));
  }
}

TEST_CASE("MvcmMarker: V4 on the block, whole-flit thresholds, the (0,1) header", "[mvcm][unit]") {
  using blocks::MvcmMarker;
  // 1 KB buffers in 64 B credits: 66% of 16 = 10.56 -> 10, 33% of 16 = 5.28 -> 5.
  CHECK(MvcmMarker::threshold(0.66, 16) == 10);
  CHECK(MvcmMarker::threshold(0.33, 16) == 5);
  CHECK(MvcmMarker::threshold(0.66, 64) == 42);
  CHECK(MvcmMarker::threshold(0.5, 64) == 32);  // exact: "more than 32"
  SECTION("'occupancy > floor(f x C)' is 'occupancy > f x C' for every whole occupancy") {
    for (double f : {0.0, 0.1, 0.29, 0.33, 0.5, 0.66, 0.7, 1.0})
      for (std::uint32_t cap : {1u, 3u, 10u, 16u, 64u, 100u, 1000u}) {
        const MvcmMarker m(blocks::MvcmMarkerParams{MvcmMarker::threshold(f, cap), MvcmMarker::threshold(f, cap)});
        for (std::uint32_t occ = 0; occ <= cap + 1; ++occ) {
          INFO("f " << f << " cap " << cap << " occ " << occ);
          CHECK(m.mark(true, true, false, occ) == (occ > f * cap));
          CHECK(m.out_above(occ) == (occ > f * cap));
        }
      }
  }
  const MvcmMarker m(blocks::MvcmMarkerParams{10, 5});
  SECTION("input lane: the 3rd packet of a buffer is marked; ACKs, idle lanes and marked packets are not") {
    CHECK_FALSE(m.mark(true, true, false, 5));
    CHECK_FALSE(m.mark(true, true, false, 10));
    CHECK(m.mark(true, true, false, 15));
    CHECK(m.mb_out(true, true, false, 15));
    CHECK_FALSE(m.mark(true, false, false, 15));  // ACK
    CHECK_FALSE(m.mark(false, true, false, 15));  // idle
    CHECK_FALSE(m.mark(true, true, true, 15));    // already marked: no new event
    CHECK(m.mb_out(true, true, true, 0));         // never cleared
    CHECK(m.mb_out(false, false, true, 0));
  }
  SECTION("output lane: validated only with MB and another packet queued; the (0,1) header is flagged") {
    CHECK_FALSE(m.validate(true, true, true, false, 5));  // alone
    CHECK(m.validate(true, true, true, false, 10));       // behind one
    CHECK_FALSE(m.validate(true, true, false, false, 15));  // never without MB
    CHECK(m.out_above(15));
    CHECK_FALSE(m.validate(true, true, true, true, 15));  // already validated: no new event
    CHECK(m.vb_out(true, true, true, true, 0));
    CHECK_FALSE(m.violation(true, true, true));
    CHECK_FALSE(m.violation(true, false, false));
    CHECK(m.violation(true, false, true));
    CHECK_FALSE(m.violation(false, false, true));  // idle lane
    CHECK(m.vb_out(true, true, false, true, 15));    // passes unchanged
  }
}

TEST_CASE("MVCM switch: a header with VB and without MB at an output queue is an error", "[mvcm][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: mvcm}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 2);
  router.oq_depth = 16;
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  Packet& p = data_packet(net.packets, 0, 1, 5);
  p.set(flag(net.packets, "vb"));
  CHECK_THROWS_WITH(hooks->on_output_enqueue(router, p, head_in(1, 0, 16)), Catch::Contains("VB without MB"));
}

TEST_CASE("MVCM V5: the single-switch scenario of Fig. 3 (hot, warm and cold flows)", "[mvcm][hooks]") {
  // Inputs A (0) and B (1), outputs P0' (2) and P1' (3). x + y overload P1'; y fills input B,
  // x keeps input A below its threshold. Flows: w A->P0', x A->P1', y B->P1', z B->P0'.
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: mvcm}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 2);
  router.oq_depth = 16;
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  const PacketFlag mb = flag(net.packets, "mb"), vb = flag(net.packets, "vb");
  auto cross = [&](PortId in, std::uint32_t in_before, PortId out, std::uint32_t out_before) -> Packet& {
    Packet& p = data_packet(net.packets, in, out, 5);
    hooks->on_arrival(router, p, head_in(in, in_before, 16, out));
    hooks->on_output_enqueue(router, p, head_in(out, out_before, 16));
    return p;
  };
  const std::uint32_t input_a = 5, input_b = 10;      // A one packet deep, B full
  const std::uint32_t out_p0 = 0, out_p1 = 10;        // P0' idle, P1' congested
  const Packet& w = cross(0, input_a, 2, out_p0);
  const Packet& x = cross(0, input_a, 3, out_p1);
  const Packet& y = cross(1, input_b, 3, out_p1);
  const Packet& z = cross(1, input_b, 2, out_p0);
  CHECK((!w.has(mb) && !w.has(vb)));  // cold
  CHECK((!x.has(mb) && !x.has(vb)));  // cold: crosses a congested output, not a congested input
  CHECK((y.has(mb) && y.has(vb)));    // hot
  CHECK((z.has(mb) && !z.has(vb)));   // warm
}

TEST_CASE("MVCM NIC: the ACK echoes MB and VB, and ACK marks drive the window and waiting slots", "[mvcm][hooks]") {
  test::FakeNetwork net(4, true);
  auto mech = net.make("{mechanism: mvcm, dw_max: 2, rtt_min: 100, ws_factor: 4, ws_increases: 2}");
  CHECK(mech->requires_acks());
  const PacketFlag mb = flag(net.packets, "mb"), vb = flag(net.packets, "vb");
  test::FakeNic dst(net.packets, 3, 4), src(net.packets, 1, 4);
  CounterSet dc, sc;
  auto dh = mech->nic_hooks(dst, dc);
  auto sh = mech->nic_hooks(src, sc);
  // Destination: copies the marks.
  Packet& d = data_packet(net.packets, 1, 3, 18);
  d.set(mb);
  d.set(vb);
  Packet& ack = net.packets.control(PacketKind::Ack, d, 3, 1, 0);
  dh->on_data(dst, d, &ack);
  CHECK((ack.has(mb) && ack.has(vb)));
  Packet& d2 = data_packet(net.packets, 1, 3, 18);
  d2.set(mb);
  Packet& warm_ack = net.packets.control(PacketKind::Ack, d2, 3, 1, 0);
  dh->on_data(dst, d2, &warm_ack);
  CHECK((warm_ack.has(mb) && !warm_ack.has(vb)));
  CHECK(counters_json(dc)["delivered_validated_packets"] == 1);
  CHECK(counters_json(dc)["delivered_marked_packets"] == 2);
  // Source: the policy holds the window.
  InjectionPolicy* policy = sh->injection_policy();
  REQUIRE(policy);
  sh->on_message(src, MessageInfo{1, 3, 18, 1, 0, 0}, true);
  policy->set_ready(3, true);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(policy->pick(src.cycle) == 3);
    policy->commit(src.cycle, 3, 18);
    ++src.cycle;
  }
  CHECK(policy->pick(src.cycle) == -1);  // DW_max = 2 packets outstanding
  Packet& cold = net.packets.control(PacketKind::Ack, d, 3, 1, 0);
  cold.flags = 0;
  // ACKs take effect at the clock edge ending their cycle (the hardware's timing). Two in one
  // cycle: the second waits for the next edge.
  src.cycle = 50;
  sh->on_control(src, ack);  // hot: DW 2 -> 1 at edge 50, one outstanding: closed
  sh->on_control(src, ack);  // hot at DW 1 at edge 51: one waiting slot of 100 cycles from 51
  policy->commit(50, -1, 0);
  CHECK(policy->pick(51) == -1);
  policy->commit(51, -1, 0);
  CHECK(policy->pick(52) == -1);
  CHECK(policy->pick(150) == -1);
  CHECK(policy->pick(151) == 3);
  policy->commit(151, 3, 18);
  src.cycle = 200;
  sh->on_control(src, cold);  // cold: the slots go at once (at this edge)
  CHECK(policy->pick(200) == -1);  // one outstanding in a window of 1 until the edge
  policy->commit(200, -1, 0);
  CHECK(policy->pick(201) == 3);
  const Json c = counters_json(sc);
  CHECK(c["acks_hot"] == 2);
  CHECK(c["acks_cold"] == 1);
  CHECK(c["acks_deferred"] == 1);
  CHECK(c["waiting_slots_started"] == 1);
  CHECK(c["outstanding_peak"] == 2);
  CHECK(c["dw_max"] == 2);
  CHECK(c["rtt_min"] == 100);
}

TEST_CASE("MVCM variants classify ACKs as their figures say", "[mvcm][hooks]") {
  struct Case {
    const char* yaml;
    std::uint64_t cold, warm, hot;  // counts after one (0,0), one (1,0) and one (1,1) ACK
  };
  const Case cases[] = {
      {"{mechanism: mvcm, dw_max: 3}", 1, 1, 1},
      {"{mechanism: mvcm_marked_only, dw_max: 3}", 1, 0, 2},  // Fig. 13: MB alone is hot
      {"{mechanism: mvcm_no_warm, dw_max: 3}", 2, 0, 1},      // Fig. 14b: warm treated as cold
      {"{mechanism: static_window, dw_max: 3}", 3, 0, 0},     // Fig. 4: no reaction at all
  };
  for (const Case& k : cases) {
    INFO(k.yaml);
    test::FakeNetwork net(4, true);
    auto mech = net.make(k.yaml);
    const PacketFlag mb = flag(net.packets, "mb"), vb = flag(net.packets, "vb");
    test::FakeNic src(net.packets, 1, 4);
    CounterSet sc;
    auto sh = mech->nic_hooks(src, sc);
    InjectionPolicy* policy = sh->injection_policy();
    policy->set_ready(2, true);
    for (int i = 0; i < 3; ++i) {
      REQUIRE(policy->pick(0) == 2);
      policy->commit(0, 2, 18);
    }
    Packet& d = data_packet(net.packets, 1, 2, 18);
    for (std::uint32_t flags : {0u, std::uint32_t{mb}, std::uint32_t{mb} | vb}) {
      Packet& a = net.packets.control(PacketKind::Ack, d, 2, 1, 0);
      a.flags = flags;
      sh->on_control(src, a);
    }
    const Json c = counters_json(sc);
    CHECK(c["acks_cold"] == k.cold);
    CHECK(c["acks_warm"] == k.warm);
    CHECK(c["acks_hot"] == k.hot);
  }
}

TEST_CASE("Renato's proposal: a full input marks every input-queued packet of the outputs it requests", "[mvcm][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: renato}");
  test::FakeRouter router(net.packets, net.topology, 4, 32, 2);  // 32-flit inputs
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  const PacketFlag mb = flag(net.packets, "mb");
  // nic.max_packet is 16 flits: an input is full when less than 16 flits are free.
  // Input 0 holds a packet for output 2; input 3 holds one for output 2 and one for output 1;
  // output 2's output queue holds one (not in an input buffer: never marked).
  Packet& a = data_packet(net.packets, 0, 2, 4);
  Packet& b = data_packet(net.packets, 3, 2, 4);
  Packet& c = data_packet(net.packets, 3, 1, 4);
  Packet& q = data_packet(net.packets, 3, 2, 4);
  router.queued = {{&a, QueuedAt{0, 0, 2, false}}, {&b, QueuedAt{3, 0, 2, false}}, {&c, QueuedAt{3, 0, 1, false}},
                   {&q, QueuedAt{kNoPort, 0, 2, true}}};
  Packet& arriving = data_packet(net.packets, 0, 2, 4);
  hooks->on_arrival(router, arriving, head_in(0, 12, 32, 2));  // 16 of 32 flits: room for another packet
  CHECK_FALSE(a.has(mb));
  CHECK_FALSE(arriving.has(mb));
  hooks->on_arrival(router, arriving, head_in(0, 13, 32, 2));  // 17 flits: less than 16 free, "full"
  CHECK(arriving.has(mb));
  CHECK(a.has(mb));
  CHECK(b.has(mb));       // another input, same congested output
  CHECK_FALSE(c.has(mb)); // another output
  CHECK_FALSE(q.has(mb)); // already in the output queue
  CHECK(counters_json(counters)["marked_packets"] == 3);
}

TEST_CASE("Renato's and Pfister's sources: LIPD with a window of 1, CCT index per marked ACK", "[mvcm][hooks]") {
  SECTION("renato: window 1, IPD +RTT_min per marked ACK, -RTT_min per unmarked one") {
    test::FakeNetwork net(4, true);
    auto mech = net.make("{mechanism: renato, rtt_min: 50}");
    const PacketFlag mb = flag(net.packets, "mb");
    test::FakeNic src(net.packets, 0, 4);
    CounterSet sc;
    auto sh = mech->nic_hooks(src, sc);
    InjectionPolicy* policy = sh->injection_policy();
    policy->set_ready(1, true);
    REQUIRE(policy->pick(0) == 1);
    policy->commit(0, 1, 10);           // ends at 10
    CHECK(policy->pick(5) == -1);       // window 1
    Packet& d = data_packet(net.packets, 0, 1, 10);
    Packet& marked = net.packets.control(PacketKind::Ack, d, 1, 0, 0);
    marked.set(mb);
    sh->on_control(src, marked);        // IPD 50
    CHECK(policy->pick(59) == -1);
    CHECK(policy->pick(60) == 1);
    policy->commit(60, 1, 10);          // ends at 70
    Packet& cold = net.packets.control(PacketKind::Ack, d, 1, 0, 0);
    sh->on_control(src, cold);          // IPD 0
    CHECK(policy->pick(70) == 1);
    CHECK(counters_json(sc)["ipd_peak"] == 50);
  }
  // The default increment is 2 (the tuned setting, docs/mechanisms/mvcm.md), and an explicit 1.
  struct Case {
    Cycle increase;
    const char* config;
  };
  for (const Case& k : {Case{2, "{mechanism: pfister, rtt_min: 40, timer: 1000000}"},
                        Case{1, "{mechanism: pfister, rtt_min: 40, timer: 1000000, ccti_increase: 1}"}})
  SECTION(std::string("pfister: output-queue marking, CCT index + ccti_increase per marked ACK (IPD = index x RTT_min): ") +
          k.config) {
    const Cycle increase = k.increase;
    test::FakeNetwork net(4, true);
    auto mech = net.make(k.config);
    const PacketFlag mb = flag(net.packets, "mb"), vb = flag(net.packets, "vb");
    test::FakeRouter router(net.packets, net.topology, 4, 16, 2);
    router.oq_depth = 16;
    CounterSet rc;
    auto rh = mech->router_hooks(router, rc);
    Packet& p = data_packet(net.packets, 0, 1, 5);
    rh->on_arrival(router, p, head_in(0, 10, 16, 1));
    CHECK_FALSE(p.has(mb));  // inputs do not mark
    rh->on_output_enqueue(router, p, head_in(1, 5, 16));
    CHECK(p.has(mb));  // 10 > 5.28 flits
    CHECK_FALSE(p.has(vb));
    test::FakeNic src(net.packets, 0, 4);
    CounterSet sc;
    auto sh = mech->nic_hooks(src, sc);
    InjectionPolicy* policy = sh->injection_policy();
    policy->set_ready(1, true);
    REQUIRE(policy->pick(0) == 1);
    policy->commit(0, 1, 5);            // next packet from 5 (its own length, no delay yet)
    Packet& marked = net.packets.control(PacketKind::Ack, p, 1, 0, 0);
    marked.set(mb);
    sh->on_control(src, marked);
    policy->commit(1, -1, 0);           // the notification applies at this edge: index = increase
    REQUIRE(policy->pick(5) == 1);      // no window: a second packet before any ACK
    policy->commit(5, 1, 5);            // next one from 5 + 5 + increase x 40
    const Cycle next = 10 + increase * 40;
    CHECK(policy->pick(next - 1) == -1);
    CHECK(policy->pick(next) == 1);
  }
}

TEST_CASE("MVCM config errors name the key", "[mvcm][unit]") {
  test::FakeNetwork net;
  CHECK_THROWS_WITH(net.make("{mechanism: mvcm, input_threshold: 1.5}"), Catch::Contains("input_threshold"));
  CHECK_THROWS_WITH(net.make("{mechanism: mvcm, marking: sometimes}"), Catch::Contains("marking"));
}
