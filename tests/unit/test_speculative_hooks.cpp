// The speculative family's hooks alone, on a fake router and NIC (tests/support/fake_api.hpp):
// LHRP's last-hop drops with a retransmission time (paper 003 section 3.2), the queuing-timeout
// drop, reservations served at the last hop, and the source and destination sides of SRP.
#include <catch2/catch.hpp>

#include "cc/srp_lhrp/srp_lhrp.hpp"
#include "support/fake_api.hpp"

using namespace ccnet;
using test::flag;
using test::kind;

namespace {

Packet& data_packet(PacketPool& pool, NodeId src, NodeId dst, std::uint16_t size, bool spec) {
  Packet& p = pool.allocate();
  p.kind = PacketKind::Data;
  p.src = src;
  p.dst = dst;
  p.size = size;
  p.message = 1000 + p.id;
  if (spec) p.set(flag(pool, "speculative"));
  return p;
}

const BufferState kAnyBuffer{0, 0, 0, 16, 0, 1};

Json counters_of(const CounterSet& c) {
  CounterReport r;
  r.add(c);
  return r.counters_json();
}

}  // namespace

TEST_CASE("LHRP switch: speculative packets dropped at the last hop once the endpoint's queue reaches the threshold",
          "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: lhrp, threshold: 8}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 3);  // vnets: spec, data, ack
  router.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  REQUIRE(hooks);
  CHECK(hooks->uses() == 0);  // no fabric drop: no queue-head scan
  const PacketKind nack = kind(net.packets, "nack");
  const PacketFlag timed = flag(net.packets, "timed");

  router.cycle = 10;
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 1, 4, true), kAnyBuffer) == ArrivalAction::Accept);  // Q 4
  router.cycle = 11;
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 1, 4, true), kAnyBuffer) == ArrivalAction::Accept);  // Q 8
  router.cycle = 12;
  Packet& dropped = data_packet(net.packets, 2, 1, 4, true);
  CHECK(hooks->on_arrival(router, dropped, kAnyBuffer) == ArrivalAction::Drop);
  REQUIRE(router.emitted.size() == 1);
  const Packet& n = net.packets[router.emitted[0]];
  CHECK(n.kind == nack);
  CHECK(net.packets.format().answer(n.kind) == Answer::Refused);
  CHECK((n.src == 1 && n.dst == 2));  // from the dropped packet's destination to its source
  CHECK(n.message == dropped.message);
  CHECK(n.amount == 4);
  CHECK(n.has(timed));
  CHECK(n.payload[srp_lhrp::kTimeWord] == 12);  // the endpoint's schedule was free: resend at once
  CHECK(n.vnet == 2);                             // ACKs and NACKs share the high-priority vnet
  // Non-speculative packets are never dropped; later drops are scheduled back to back.
  router.cycle = 13;
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 1, 4, false), kAnyBuffer) == ArrivalAction::Accept);
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 3, 1, 2, true), kAnyBuffer) == ArrivalAction::Drop);
  CHECK(net.packets[router.emitted[1]].payload[srp_lhrp::kTimeWord] == 16);  // after the first drop's 4 flits
  // Not the last hop (node 9 is not attached here): never dropped.
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 9, 4, true), kAnyBuffer) == ArrivalAction::Accept);
  // Without room for a NACK the packet is accepted, never lost.
  router.emit_room[2] = 0;
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 1, 4, true), kAnyBuffer) == ArrivalAction::Accept);
  router.emit_room[2] = 64;
  // Tails leaving on the endpoint's port free its queue: 16 - 4 - 4 - 4 - 4 = 0 flits queued.
  for (int i = 0; i < 4; ++i) hooks->on_output_tail(router, data_packet(net.packets, 0, 1, 4, false), 1);
  CHECK(hooks->on_arrival(router, data_packet(net.packets, 0, 1, 4, true), kAnyBuffer) == ArrivalAction::Accept);
  CHECK(router.emitted.size() == 2);
}

TEST_CASE("LHRP fabric drop: a speculative queue head waiting `timeout` cycles is dropped with an untimed NACK",
          "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: lhrp, fabric_drop: true, timeout: 100}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 3);
  router.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  CHECK((hooks->uses() & RouterHooks::kHeadScan) != 0);
  router.cycle = 1000;
  Packet& spec = data_packet(net.packets, 0, 9, 4, true);
  CHECK_FALSE(hooks->on_queue_head(router, spec, 0, 901));
  CHECK(hooks->on_queue_head(router, spec, 0, 900));
  REQUIRE(router.emitted.size() == 1);
  CHECK_FALSE(net.packets[router.emitted[0]].has(flag(net.packets, "timed")));
  CHECK_FALSE(hooks->on_queue_head(router, data_packet(net.packets, 0, 9, 4, false), 0, 0));  // not speculative
}

TEST_CASE("LHRP+SRP: reservations consumed at the last hop, grants emitted when the control source has room",
          "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: lhrp, srp_from: 8}");
  test::FakeRouter router(net.packets, net.topology, 4, 16, 5);  // vnets: spec, data, ack, res, gnt
  router.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->router_hooks(router, counters);
  const PacketKind res = kind(net.packets, "reservation"), gnt = kind(net.packets, "grant");
  Packet& r1 = net.packets.control(res, net.packets.allocate(), 0, 2, 50);
  r1.amount = 10;
  Packet& r2 = net.packets.control(res, net.packets.allocate(), 3, 2, 50);
  r2.amount = 5;
  router.cycle = 50;
  CHECK(hooks->on_arrival(router, r1, kAnyBuffer) == ArrivalAction::Consume);
  CHECK(hooks->on_arrival(router, r2, kAnyBuffer) == ArrivalAction::Consume);
  router.emit_room[4] = 1;  // room for one grant this cycle
  hooks->tick(router);
  REQUIRE(router.emitted.size() == 1);
  router.emit_room[4] = 1;
  hooks->tick(router);
  REQUIRE(router.emitted.size() == 2);
  const Packet& g1 = net.packets[router.emitted[0]];
  const Packet& g2 = net.packets[router.emitted[1]];
  CHECK((g1.kind == gnt && g1.dst == 0 && g1.payload[srp_lhrp::kTimeWord] == 50));
  CHECK((g2.kind == gnt && g2.dst == 3 && g2.payload[srp_lhrp::kTimeWord] == 60));
  CHECK(g1.vnet == 4);
}

TEST_CASE("SRP source: reserve with the first packet, stop speculating on a NACK, resend from the grant time",
          "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: srp, reservation_overhead: 0.05}");
  test::FakeNic nic(net.packets, 0, 4);
  nic.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  const PacketFlag spec = flag(net.packets, "speculative");
  const PacketKind res = kind(net.packets, "reservation"), nack = kind(net.packets, "nack"), gnt = kind(net.packets, "grant");
  Packet& p0 = net.packets.allocate();
  p0.kind = PacketKind::Data;
  p0.src = 0;
  p0.dst = 3;
  p0.size = 4;
  p0.message = 42;
  p0.message_packets = 3;
  p0.amount = 12;  // the message's flits
  hooks->on_packet_formed(nic, p0);
  CHECK(p0.has(spec));
  REQUIRE(nic.sent.size() == 1);
  CHECK((nic.sent_packet(0).kind == res && nic.sent_packet(0).dst == 3));
  CHECK(nic.sent_packet(0).amount == 13);  // ceil(12 x 1.05)
  CHECK(nic.sent_packet(0).vnet == 3);
  // A NACK for packet 1 stops speculation on the queue (its message is at the head).
  nic.head[3] = 42;
  Packet& n = net.packets.control(nack, p0, 3, 0, 20);
  n.seq = 1;
  hooks->on_control(nic, n);
  CHECK(nic.holds[3] == kNever);
  CHECK(nic.retransmissions.empty());
  // The grant: the NACKed packet goes again, not speculative, at the granted time; so do the rest.
  Packet& g = net.packets.control(gnt, p0, 3, 0, 30);
  g.payload[srp_lhrp::kTimeWord] = 500;
  hooks->on_control(nic, g);
  REQUIRE(nic.retransmissions.size() == 1);
  CHECK(nic.retransmissions[0].message == 42);
  CHECK(nic.retransmissions[0].seq == 1);
  CHECK(nic.retransmissions[0].at == 500);
  CHECK(nic.retransmissions[0].flags == 0);
  CHECK(nic.holds[3] == 500);
  const Json c = counters_of(counters);
  CHECK(c["nacks_received"] == 1);
  CHECK(c["nacks_timed"] == 0);
}

TEST_CASE("LHRP source: a timed NACK resends the packet at the switch's time, not speculative", "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: lhrp}");
  test::FakeNic nic(net.packets, 0, 4);
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  Packet& p = data_packet(net.packets, 0, 2, 4, false);
  hooks->on_packet_formed(nic, p);
  CHECK(p.has(flag(net.packets, "speculative")));  // every LHRP packet starts speculative
  CHECK(nic.sent.empty());                          // and reserves nothing
  Packet& n = net.packets.control(kind(net.packets, "nack"), p, 2, 0, 40);
  n.set(flag(net.packets, "timed"));
  n.payload[srp_lhrp::kTimeWord] = 77;
  hooks->on_control(nic, n);
  REQUIRE(nic.retransmissions.size() == 1);
  CHECK(nic.retransmissions[0].at == 77);
  CHECK(nic.retransmissions[0].flags == 0);
  const Json c = counters_of(counters);
  CHECK(c["nacks_received"] == 1);
  CHECK(c["nacks_timed"] == 1);
}

TEST_CASE("SRP destination: reservations granted back to back from the destination's schedule", "[speculative][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: srp}");
  test::FakeNic nic(net.packets, 2, 4);
  nic.vnets = mech.mechanism.get();
  CounterSet counters;
  auto hooks = mech->nic_hooks(nic, counters);
  const PacketKind res = kind(net.packets, "reservation"), gnt = kind(net.packets, "grant");
  nic.cycle = 100;
  Packet& r1 = net.packets.control(res, net.packets.allocate(), 0, 2, 90);
  r1.amount = 10;
  hooks->on_control(nic, r1);
  nic.cycle = 101;
  Packet& r2 = net.packets.control(res, net.packets.allocate(), 3, 2, 95);
  r2.amount = 5;
  hooks->on_control(nic, r2);
  REQUIRE(nic.sent.size() == 2);
  CHECK((nic.sent_packet(0).kind == gnt && nic.sent_packet(0).dst == 0));
  CHECK(nic.sent_packet(0).payload[srp_lhrp::kTimeWord] == 100);
  CHECK((nic.sent_packet(1).dst == 3 && nic.sent_packet(1).payload[srp_lhrp::kTimeWord] == 110));
  CHECK(nic.sent_packet(1).vnet == 4);  // grants travel on their own vnet
}
