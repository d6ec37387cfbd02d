// CRP's hooks alone, on a fake router and NIC (tests/support/fake_api.hpp): the channel table at
// a router output of the channel class (request AND, eager reservation, grant decrement or
// conversion, non-participating charge), the TTW drop, the destination's grants and retries,
// and the source's segments (TV-10 size quantisation, speculation, NACK, grant, retries).
#include <catch2/catch.hpp>

#include "cc/crp/crp.hpp"
#include "support/fake_api.hpp"

using namespace ccnet;
using test::flag;
using test::kind;

namespace {

// Router 0: node 0 on port 0, port 1 an inter-cluster channel to router 1 (class 1), port 2 a
// local link to router 2.
class ChannelTopology : public Topology {
 public:
  std::string name() const override { return "channel"; }
  std::uint32_t num_nodes() const override { return 1; }
  std::uint32_t num_routers() const override { return 3; }
  PortId num_ports(RouterId) const override { return 3; }
  PortPeer peer(RouterId, PortId p) const override {
    PortPeer peer;
    if (p == 0) {
      peer.kind = PortPeer::Kind::Node;
      return peer;
    }
    peer.kind = PortPeer::Kind::Router;
    peer.router = p;
    peer.link = p == 1 ? 1 : 2;
    return peer;
  }
  std::pair<RouterId, PortId> attach(NodeId) const override { return {0, 0}; }
  std::string default_routing() const override { return "none"; }
  std::string describe() const override { return "channel"; }
  std::uint32_t min_hops(NodeId, NodeId) const override { return 0; }
  const std::vector<LinkClassInfo>& link_classes() const override {
    static const std::vector<LinkClassInfo> classes{kTerminalClass, {"inter_cluster", "channel"}, kLocalClass};
    return classes;
  }
};

struct ChannelNet {
  ChannelNet() {
    LinkConfig::schema().apply_defaults(&link);
    NicConfig::schema().apply_defaults(&nic);
  }
  ChannelTopology topology;
  RouterConfig router;
  LinkConfig link;
  NicConfig nic;
  PacketPool packets;
  test::MadeMechanism make(const std::string& cc) {
    return test::make_mechanism(cc, MechanismContext{topology, router, 1, true, packets.format(), link, nic});
  }
};

BufferState at(PortId in, PortId out) { return BufferState{in, 0, 1, 64, 1, out}; }

Packet& control(PacketPool& pool, PacketKind k, NodeId src, NodeId dst, MessageId m) {
  Packet& p = pool.allocate();
  p.kind = k;
  p.src = src;
  p.dst = dst;
  p.message = m;
  return p;
}

Packet& data(PacketPool& pool, NodeId src, NodeId dst, MessageId m, std::uint32_t seq, std::uint32_t packets,
             std::uint16_t size) {
  Packet& p = pool.allocate();
  p.kind = PacketKind::Data;
  p.src = src;
  p.dst = dst;
  p.size = size;
  p.message = m;
  p.seq = seq;
  p.message_packets = packets;
  p.amount = packets * size;
  return p;
}

Json counters_of(const CounterSet& c) {
  CounterReport r;
  r.add(c);
  return r.counters_json();
}

}  // namespace

TEST_CASE("CRP TV-10: request sizes with Table 1's defaults", "[crp][hooks]") {
  crp::Params p;
  CHECK(p.request_size(8 * 32) == 269);   // an 8-packet message fills one cell: C_max = 269
  CHECK(p.request_size(16 * 32) == 538);  // a 16-packet segment: exactly two cells
  CHECK(p.request_size(4 * 32) == 135);
  CHECK(p.request_size(16 * 32) <= 2 * p.cmax);
  p.cmax = 68;  // the S18 scale (8-flit packets): ceil(64 x 1.05) = 68
  CHECK(p.request_size(64) == 68);
  CHECK(p.request_size(128) == 135);
}

TEST_CASE("CRP channel: requests ANDed and eagerly reserved, grants decrement or convert", "[crp][hooks]") {
  ChannelNet net;
  auto mech = net.make("{mechanism: crp, cmax: 512}");
  test::FakeRouter router(net.packets, net.topology, 3, 64, 4);
  router.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  REQUIRE(hooks);
  const PacketKind req = kind(net.packets, "request"), grant = kind(net.packets, "grant"), retry = kind(net.packets, "retry");

  // Flow 1 requests 300 cycles through the channel (port 1): all cells accept; it eagerly
  // reserves 300 of slot 0's 512 cycles.
  Packet& r1 = control(net.packets, req, 0, 9, 1);
  r1.amount = 300;
  r1.payload[crp::kVectorWord] = 0xffffffff;
  CHECK(hooks->on_arrival(router, r1, at(0, 1)) == ArrivalAction::Accept);
  CHECK(r1.payload[crp::kVectorWord] == 0xffffffff);
  CHECK(r1.payload[crp::kEagerWord] == 1);  // slot 0 + 1
  // Flow 2 (300 cycles) now sees A = 212: 212 + 512 >= 300, still accepted; it reserves A too
  // (212 from A, 88 from B).
  Packet& r2 = control(net.packets, req, 0, 9, 2);
  r2.amount = 300;
  r2.payload[crp::kVectorWord] = 0xffffffff;
  hooks->on_arrival(router, r2, at(0, 1));
  CHECK(r2.payload[crp::kEagerWord] == 1);
  // A request that does not pass the channel is not looked at.
  Packet& r3 = control(net.packets, req, 0, 9, 3);
  r3.amount = 300;
  r3.payload[crp::kVectorWord] = 0x5;
  hooks->on_arrival(router, r3, at(0, 2));
  CHECK(r3.payload[crp::kVectorWord] == 0x5);
  CHECK(r3.payload[crp::kEagerWord] == 0);
  // Flow 3 through the channel: A is empty now, B holds 424: the vector loses A.
  hooks->on_arrival(router, r3, at(0, 1));
  CHECK(r3.payload[crp::kVectorWord] == 0x4);
  CHECK(r3.payload[crp::kEagerWord] == 3);  // slot 2

  // Flow 1's grant for slot 0 comes back over the channel (input 1): its eager reservation is
  // released and the grant takes the cycles again: it passes.
  Packet& g1 = control(net.packets, grant, 9, 0, 1);
  g1.amount = 300;
  g1.payload[crp::kTimeWord] = 0;
  hooks->on_arrival(router, g1, at(1, 0));
  CHECK(g1.kind == grant);
  // Flow 2's destination granted slot 1 instead (its own table was busy at A): the eager slot-0
  // reservation goes back (A 212, B 512), and 300 cycles come from B (212 left): passes.
  Packet& g2 = control(net.packets, grant, 9, 0, 2);
  g2.amount = 300;
  g2.payload[crp::kTimeWord] = 512 + 100;
  hooks->on_arrival(router, g2, at(1, 0));
  CHECK(g2.kind == grant);
  // A grant of another flow for slot 1 (without eager reservation): B 212 + C 212 (flow 3 took
  // 300 of C) >= 300: passes, leaving B 0, C 124; a second one no longer fits: converted.
  Packet& g4 = control(net.packets, grant, 9, 0, 4);
  g4.amount = 300;
  g4.payload[crp::kTimeWord] = 512;
  hooks->on_arrival(router, g4, at(1, 0));
  CHECK(g4.kind == grant);
  Packet& g5 = control(net.packets, grant, 9, 0, 5);
  g5.amount = 300;
  g5.payload[crp::kTimeWord] = 512;
  hooks->on_arrival(router, g5, at(1, 0));
  CHECK(g5.kind == retry);
  // Flow 3's retry releases its eager reservation.
  Packet& t3 = control(net.packets, retry, 9, 0, 3);
  hooks->on_arrival(router, t3, at(1, 0));
  // Non-participating data through the channel is charged; speculative and reserved data are not.
  Packet& d = data(net.packets, 0, 9, 7, 0, 1, 32);
  hooks->on_arrival(router, d, at(0, 1));
  Packet& s = data(net.packets, 0, 9, 8, 0, 1, 32);
  s.set(flag(net.packets, "speculative"));
  hooks->on_arrival(router, s, at(0, 1));
  const Json c = counters_of(counters);
  CHECK(c["grants_converted"] == 1);
  CHECK(c["eager_reservations"] == 3);
  CHECK(c["charged_flits"] == 32);
}

TEST_CASE("CRP switch: speculative packets dropped with a NACK after TTW cycles of queuing in all", "[crp][hooks]") {
  ChannelNet net;
  auto mech = net.make("{mechanism: crp, ttw: 50}");
  test::FakeRouter router(net.packets, net.topology, 3, 64, 4);
  router.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  CHECK((hooks->uses() & RouterHooks::kHeadScan) != 0);
  Packet& p = data(net.packets, 0, 5, 1, 2, 8, 8);
  p.set(flag(net.packets, "speculative"));
  // 30 cycles at an earlier router, 2 of them its routing and VC-allocation stages.
  p.hop_arrival = 100;
  router.cycle = 130;
  hooks->on_input_dequeue(router, p, at(0, 1));
  CHECK(p.payload[crp::kQueuedWord] == 28);
  // Waiting here since cycle 200: dropped once 28 + (now - 200) > 50.
  router.cycle = 222;
  CHECK(!hooks->on_queue_head(router, p, 0, 200));
  router.cycle = 223;
  CHECK(hooks->on_queue_head(router, p, 0, 200));
  REQUIRE(router.emitted.size() == 1);
  const Packet& n = net.packets[router.emitted[0]];
  CHECK(n.kind == kind(net.packets, "nack"));
  CHECK((n.src == 5 && n.dst == 0 && n.message == 1 && n.seq == 2));
  CHECK(n.vnet == crp::Vnets::kResponse);
  // Non-speculative data never drops.
  Packet& q = data(net.packets, 0, 5, 1, 3, 8, 8);
  CHECK(!hooks->on_queue_head(router, q, 0, 0));
  // A granted (reserved) packet sums its queuing too (for the destination's counters), never dropped.
  q.set(flag(net.packets, "reserved"));
  q.hop_arrival = 100;
  router.cycle = 130;
  hooks->on_input_dequeue(router, q, at(0, 1));
  CHECK(q.payload[crp::kQueuedWord] == 28);
  router.cycle = 1000;
  CHECK(!hooks->on_queue_head(router, q, 0, 200));
  // Non-participating data does not.
  Packet& u = data(net.packets, 0, 5, 2, 0, 3, 8);
  u.hop_arrival = 100;
  hooks->on_input_dequeue(router, u, at(0, 1));
  CHECK(u.payload[crp::kQueuedWord] == 0);
}

TEST_CASE("CRP destination: leftmost common slot granted with its time, retries short and long", "[crp][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: crp, cells: 4, cmax: 100}");
  test::FakeNic nic(net.packets, 3, 4);
  nic.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  const PacketKind req = kind(net.packets, "request"), grant = kind(net.packets, "grant"), retry = kind(net.packets, "retry");
  const PacketFlag long_retry = flag(net.packets, "long");
  auto ask = [&](std::uint32_t x, std::uint64_t vec) {
    Packet& r = control(net.packets, req, 0, 3, 10 + nic.sent.size());
    r.amount = x;
    r.payload[crp::kVectorWord] = vec;
    r.payload[crp::kEpochWord] = nic.cycle / 100;
    hooks->on_control(nic, r);
    return nic.sent_packet(nic.sent.size() - 1);
  };
  nic.cycle = 20;
  const Packet& a = ask(60, 0xf);  // slot 0 from its first cycle (G7: time 0 is already past)
  CHECK(a.kind == grant);
  CHECK(a.dst == 0);
  CHECK(a.payload[crp::kTimeWord] == 0);
  CHECK(a.vnet == crp::Vnets::kResponse);
  const Packet& b = ask(60, 0xf);  // A holds 40: 40 + 100 >= 60 -> A again, from cycle 60
  CHECK(b.payload[crp::kTimeWord] == 60);
  const Packet& c = ask(60, 0x1);  // only A allowed, which is full now: short retry
  CHECK(c.kind == retry);
  CHECK(!c.has(long_retry));
  CHECK(ask(100, 0xf).payload[crp::kTimeWord] == 120);  // B (80 left after b) + 20 of C
  CHECK(ask(100, 0xf).payload[crp::kTimeWord] == 220);  // C's 80 + 20 of D
  CHECK(ask(80, 0xf).payload[crp::kTimeWord] == 320);   // D's last 80 cycles
  const Packet& f = ask(10, 0xf);  // nothing left anywhere: long retry
  CHECK(f.kind == retry);
  CHECK(f.has(long_retry));
  // Granted packets delivered here: their queuing on the way is counted, over C_max apart.
  const PacketFlag reserved = flag(net.packets, "reserved");
  for (const std::uint64_t queued : {40, 100, 101, 250}) {
    Packet& d = data(net.packets, 0, 3, 20, 0, 8, 8);
    d.set(reserved);
    d.payload[crp::kQueuedWord] = queued;
    hooks->on_data(nic, d, nullptr);
  }
  Packet& sp = data(net.packets, 0, 3, 21, 0, 8, 8);  // speculative: not counted
  sp.set(flag(net.packets, "speculative"));
  sp.payload[crp::kQueuedWord] = 500;
  hooks->on_data(nic, sp, nullptr);
  const Json k = counters_of(counters);
  CHECK(k["reserved_packets"] == 4);
  CHECK(k["reserved_queued_cycles"] == 491);
  CHECK(k["reserved_queued_max"] == 250);
  CHECK(k["reserved_queued_over_cmax"] == 2);
}

TEST_CASE("CRP source: segments, speculation, NACK stops it, grant time, retries", "[crp][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: crp, cmax: 68, n_min: 4, n_max: 16}");
  test::FakeNic nic(net.packets, 0, 4);
  nic.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  const PacketFlag spec = flag(net.packets, "speculative"), reserved = flag(net.packets, "reserved");
  const PacketKind req = kind(net.packets, "request"), nack = kind(net.packets, "nack"), grant = kind(net.packets, "grant"),
                   retry = kind(net.packets, "retry");

  // A 3-packet message does not participate: no request, lossless, no ACK expected.
  Packet& small = data(net.packets, 0, 2, 5, 0, 3, 8);
  hooks->on_packet_formed(nic, small);
  CHECK(nic.sent.empty());
  CHECK(small.has(kFlagNoAck));
  CHECK(!small.has(spec));

  // An 8-packet message of 8-flit packets: one segment, x = ceil(64 x 1.05) = 68.
  nic.cycle = 1000;
  nic.head[3] = 42;
  Packet& p0 = data(net.packets, 0, 3, 42, 0, 8, 8);
  hooks->on_packet_formed(nic, p0);
  CHECK(p0.has(spec));
  REQUIRE(nic.sent.size() == 1);
  const Packet& r = nic.sent_packet(0);
  CHECK((r.kind == req && r.dst == 3 && r.amount == 68 && r.seq == 0));
  CHECK(r.payload[crp::kVectorWord] == 0xffffffff);
  CHECK(r.payload[crp::kEpochWord] == 1000 / 68);
  CHECK(r.vnet == crp::Vnets::kRequest);
  Packet& p1 = data(net.packets, 0, 3, 42, 1, 8, 8);
  hooks->on_packet_formed(nic, p1);
  CHECK(p1.has(spec));
  CHECK(nic.sent.size() == 1);  // one request per segment

  // p1 is dropped: speculation stops (the queue is held).
  Packet& n = control(net.packets, nack, 3, 0, 42);
  n.seq = 1;
  hooks->on_control(nic, n);
  CHECK(nic.holds[3] == kNever);
  CHECK(nic.retransmissions.empty());
  // A short retry: the request goes again after retry_cycles.
  nic.cycle = 1040;
  Packet& t = control(net.packets, retry, 3, 0, 42);
  hooks->on_control(nic, t);
  nic.cycle = 1069;
  hooks->tick(nic);
  CHECK(nic.sent.size() == 1);
  nic.cycle = 1070;
  hooks->tick(nic);
  REQUIRE(nic.sent.size() == 2);
  CHECK(nic.sent_packet(1).kind == req);
  // The grant: p1 again at ts, reserved and not acknowledged; the rest of the segment from ts.
  nic.cycle = 1100;
  Packet& g = control(net.packets, grant, 3, 0, 42);
  g.payload[crp::kTimeWord] = 1300;
  hooks->on_control(nic, g);
  REQUIRE(nic.retransmissions.size() == 1);
  CHECK((nic.retransmissions[0].seq == 1 && nic.retransmissions[0].at == 1300));
  CHECK(nic.retransmissions[0].flags == (static_cast<std::uint32_t>(reserved) | kFlagNoAck));
  CHECK(nic.holds[3] == 1300);
  nic.cycle = 1300;
  Packet& p2 = data(net.packets, 0, 3, 42, 2, 8, 8);
  hooks->on_packet_formed(nic, p2);
  CHECK(p2.has(reserved));
  CHECK(p2.has(kFlagNoAck));
  CHECK(!p2.has(spec));
  const Json c = counters_of(counters);
  CHECK(c["requests_sent"] == 2);
  CHECK(c["retries_short"] == 1);
  CHECK(c["grants_received"] == 1);
  CHECK(c["nacks_received"] == 1);
  CHECK(c["nonparticipating_packets"] == 1);
}

TEST_CASE("CRP source: request_on nack speculates first and requests on the first NACK (G2)", "[crp][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: crp, request_on: nack}");
  test::FakeNic nic(net.packets, 0, 4);
  nic.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  Packet& p0 = data(net.packets, 0, 3, 42, 0, 8, 32);
  hooks->on_packet_formed(nic, p0);
  CHECK(nic.sent.empty());
  Packet& n = control(net.packets, kind(net.packets, "nack"), 3, 0, 42);
  hooks->on_control(nic, n);
  REQUIRE(nic.sent.size() == 1);
  CHECK(nic.sent_packet(0).amount == 269);  // TV-10: 8 x 32 flits x 1.05
}

TEST_CASE("CRP source: nack_stops segment or destination (R11's two readings)", "[crp][hooks]") {
  // Two 8-packet messages to node 3, both formed (speculative) before any answer; the send
  // queue's head is a third message (44) when the NACKs come back.
  auto run = [](const std::string& cc, auto&& check) {
    test::FakeNetwork net;
    auto mech = net.make(cc);
    test::FakeNic nic(net.packets, 0, 4);
    nic.vnets = mech.mechanism.get();
    CounterSet counters;
    auto hooks = mech->nic_hooks(nic, counters);
    nic.cycle = 1000;
    for (const MessageId m : {MessageId{42}, MessageId{43}}) {
      nic.head[3] = m;
      for (std::uint32_t seq = 0; seq < 8; ++seq) hooks->on_packet_formed(nic, data(net.packets, 0, 3, m, seq, 8, 32));
    }
    nic.head[3] = 44;
    check(net, nic, *hooks);
  };
  auto answer = [](test::FakeNetwork& net, test::FakeNic& nic, NicHooks& hooks, const char* k, MessageId m, Cycle ts,
                   std::uint32_t seq = 0) {
    Packet& a = control(net.packets, kind(net.packets, k), 3, 0, m);
    a.seq = seq;
    a.payload[crp::kTimeWord] = ts;
    hooks.on_control(nic, a);
  };

  SECTION("segment (default): a NACK of a fully formed segment holds nothing") {
    run("{mechanism: crp}", [&](test::FakeNetwork& net, test::FakeNic& nic, NicHooks& hooks) {
      answer(net, nic, hooks, "nack", 42, 0);
      CHECK(nic.holds.count(3) == 0);  // message 44 speculates and requests on its own
      answer(net, nic, hooks, "grant", 42, 1300);
      CHECK(nic.holds.count(3) == 0);
      REQUIRE(nic.retransmissions.size() == 1);
      CHECK(nic.retransmissions[0].at == 1300);
    });
  }
  SECTION("destination: held from the first NACK until every stopped segment is granted") {
    run("{mechanism: crp, nack_stops: destination}", [&](test::FakeNetwork& net, test::FakeNic& nic, NicHooks& hooks) {
      answer(net, nic, hooks, "nack", 42, 0);
      CHECK(nic.holds[3] == kNever);
      answer(net, nic, hooks, "nack", 43, 0);
      CHECK(nic.holds[3] == kNever);
      answer(net, nic, hooks, "grant", 43, 1500);  // one of two stopped segments granted: still held
      CHECK(nic.holds[3] == kNever);
      nic.cycle = 1100;
      answer(net, nic, hooks, "grant", 42, 1300);  // the last: open at the later granted time
      CHECK(nic.holds[3] == 1500);
      REQUIRE(nic.retransmissions.size() == 2);
      CHECK((nic.retransmissions[0].at == 1500 && nic.retransmissions[1].at == 1300));
      // A later NACK of a granted segment's packet is resent at its time and holds nothing.
      nic.holds.clear();
      answer(net, nic, hooks, "nack", 42, 0, 1);
      CHECK(nic.holds.count(3) == 0);
      CHECK((nic.retransmissions.size() == 3 && nic.retransmissions[2].at == 1300));
    });
  }
}
