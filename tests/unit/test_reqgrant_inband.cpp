// Request/grant over the data network (reqgrant_inband, paper 002 section 6.5): the egress
// adapter's output credit arbiter and the ingress adapter's requests, grants and piggybacking,
// hook by hook on the fake NIC (tests/support/fake_api.hpp). Clos of M = 2 (N = 4 nodes),
// packets of 8 flits (one packet time = 8 cycles), B = 1 slot per crosspoint.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>

#include "cc/reqgrant/inband.hpp"
#include "support/fake_api.hpp"
#include "topology/multistage.hpp"

using namespace ccnet;
using namespace ccnet::reqgrant;

namespace {

std::uint64_t value(const CounterSet& c, const std::string& name) {
  for (const auto& k : c.counters())
    if (k->name == name) return k->value;
  throw std::invalid_argument("no counter " + name);
}

MultistageTopology::Shape clos_shape(std::uint32_t m) {
  MultistageTopology::Shape s;
  s.type = "clos";
  s.k = m;
  s.n = 2;
  s.turn_at_top = true;
  s.default_routing = "spray";
  s.size_key = "topology.m";
  return s;
}

struct Setup {
  explicit Setup(const std::string& cc) : topology(clos_shape(2)) {
    LinkConfig::schema().apply_defaults(&link);
    NicConfig::schema().apply_defaults(&nic);
    nic.max_packet = 8;
    nic.acks = false;
    made = test::make_mechanism(cc, MechanismContext{topology, router, 1, false, packets.format(), link, nic});
    ctl = test::kind(packets, "request_grant");
  }
  std::unique_ptr<NicHooks> hooks(test::FakeNic& nic_api, CounterSet& c) {
    nic_api.vnets = made.mechanism.get();
    return made->nic_hooks(nic_api, c);
  }
  // A control packet from `src` to `dst` carrying a request of `req` packets and a grant of
  // `gnt` packets from middle switch `path` on.
  Packet& control(NodeId src, NodeId dst, std::uint32_t req, std::uint32_t gnt, std::uint32_t path) {
    Packet about;
    Packet& c = packets.control(ctl, about, src, dst, 0);
    c.payload[kInbandReqWord] = req;
    c.payload[kInbandGrantWord] = gnt;
    c.payload[kInbandPathWord] = path;
    return c;
  }
  MultistageTopology topology;
  RouterConfig router;
  LinkConfig link;
  NicConfig nic;
  PacketPool packets;
  test::MadeMechanism made;
  PacketKind ctl = PacketKind::Data;
};

}  // namespace

TEST_CASE("reqgrant_inband: the egress output arbiter grants one packet per packet time against its crosspoint slots",
          "[reqgrant][inband]") {
  Setup s("{mechanism: reqgrant_inband, crosspoint: 1, order: common}");
  test::FakeNic nic(s.packets, 0, 4);  // egress adapter of output 0
  CounterSet c;
  auto h = s.hooks(nic, c);
  // Node 1 requests 3 packets of output 0 in one request message.
  h->on_control(nic, s.control(1, 0, 3, 0, 0));
  nic.cycle = 0;
  h->tick(nic);
  // First grant at once: input 1's distribution pointer starts at (1 + 0) mod 2 = 1; node 0 holds
  // no data to node 1 that could carry it, so it leaves as a one-flit control packet.
  REQUIRE(nic.sent.size() == 1);
  const Packet& g1 = nic.sent_packet(0);
  CHECK(g1.kind == s.ctl);
  CHECK(g1.dst == 1);
  CHECK(g1.size == 1);
  CHECK(g1.vnet == 1);  // the control vnet, priority over data
  CHECK(g1.payload[kInbandGrantWord] == 1);
  CHECK(g1.payload[kInbandPathWord] == 1);
  CHECK(g1.payload[kInbandReqWord] == 0);
  // Nothing more within the packet time.
  for (nic.cycle = 1; nic.cycle < 8; ++nic.cycle) h->tick(nic);
  CHECK(nic.sent.size() == 1);
  // Second grant one packet time later, on the other middle switch.
  nic.cycle = 8;
  h->tick(nic);
  REQUIRE(nic.sent.size() == 2);
  CHECK(nic.sent_packet(1).payload[kInbandGrantWord] == 1);
  CHECK(nic.sent_packet(1).payload[kInbandPathWord] == 0);
  // Both crosspoints (B = 1) are reserved: the third request waits for a freed slot.
  for (nic.cycle = 9; nic.cycle < 40; ++nic.cycle) h->tick(nic);
  CHECK(nic.sent.size() == 2);
  CHECK(value(c, "grants") == 2);
  // The packet over middle switch 1 arrives in order: its slot returns after
  // egress_credit_latency (1) cycle and the third packet is granted on middle switch 1.
  Packet& d = s.packets.allocate();
  d.kind = PacketKind::Data;
  d.src = 1;
  d.dst = 0;
  d.payload[0] = 0;
  MultistageRoute::pin_via(d, 1);
  CHECK(h->on_data_arrival(nic, d) == Delivery::Deliver);
  h->tick(nic);  // cycle 40: the credit is due at 41
  CHECK(nic.sent.size() == 2);
  nic.cycle = 41;
  h->tick(nic);
  REQUIRE(nic.sent.size() == 3);
  CHECK(nic.sent_packet(2).payload[kInbandPathWord] == 1);
  CHECK(value(c, "grants") == 3);
  CHECK(value(c, "request_counter_peak") == 3);
}

TEST_CASE("reqgrant_inband: requests combine, grants gate injection and pin the middle switch, piggybacking carries both",
          "[reqgrant][inband]") {
  Setup s("{mechanism: reqgrant_inband, request_combine: 4, u: 6}");
  test::FakeNic nic(s.packets, 1, 4);  // node 1: ingress toward 0, and egress of output 1
  CounterSet c;
  auto h = s.hooks(nic, c);
  InjectionPolicy* pol = h->injection_policy();
  REQUIRE(pol);
  MessageInfo m;
  m.dst = 0;
  m.packets = 10;
  m.flits = 80;
  h->on_message(nic, m, true);
  pol->set_ready(0, true);
  CHECK(pol->pick(0) == -1);  // nothing granted: nothing may go
  nic.cycle = 0;
  h->tick(nic);
  // u = 6 packets may be requested; one message carries at most 4 (it is full, so it leaves at
  // once); the other 2 wait control_wait (16) cycles to combine, since 4 are already outstanding.
  REQUIRE(nic.sent.size() == 1);
  CHECK(nic.sent_packet(0).dst == 0);
  CHECK(nic.sent_packet(0).payload[kInbandReqWord] == 4);
  for (nic.cycle = 1; nic.cycle < 16; ++nic.cycle) h->tick(nic);
  CHECK(nic.sent.size() == 1);
  nic.cycle = 16;
  h->tick(nic);
  REQUIRE(nic.sent.size() == 2);
  CHECK(nic.sent_packet(1).payload[kInbandReqWord] == 2);
  CHECK(value(c, "requested_packets") == 6);
  CHECK(value(c, "pending_requests_peak") == 6);
  // A grant of 3 packets from output 0, first on middle switch 1: three packets may go, on
  // middle switches 1, 0, 1; each carries its sequence number.
  h->on_control(nic, s.control(0, 1, 0, 3, 1));
  CHECK(value(c, "grants_received") == 3);
  CHECK(pol->pick(17) == 0);
  // Meanwhile node 0 asked output 1 (this node's arbiter) for a packet: the grant rides on the
  // next data packet to node 0 instead of a control packet of its own.
  h->on_control(nic, s.control(0, 1, 1, 0, 0));
  nic.cycle = 17;
  const std::size_t before = nic.sent.size();
  h->tick(nic);  // the arbiter grants node 0; a data packet to 0 is granted here, so it waits
  CHECK(nic.sent.size() == before);
  for (std::uint32_t k = 0; k < 3; ++k) {
    Packet& p = s.packets.allocate();
    p.kind = PacketKind::Data;
    p.src = 1;
    p.dst = 0;
    h->on_packet_formed(nic, p);
    CHECK(p.payload[0] == k);
    CHECK(MultistageRoute::via(p) == (k % 2 == 0 ? 1u : 0u));
    if (k == 0) {
      CHECK(p.payload[kInbandGrantWord] == 1);  // the piggybacked grant for node 0
      CHECK(p.payload[kInbandPathWord] == (0 + 1) % 2);
    } else {
      CHECK(p.payload[kInbandGrantWord] == 0);
    }
  }
  CHECK(value(c, "piggybacked_grants") == 1);
  CHECK(pol->pick(18) == -1);  // the three grants are used up
  // A packet formed without a grant is a model error.
  Packet& bad = s.packets.allocate();
  bad.kind = PacketKind::Data;
  bad.src = 1;
  bad.dst = 0;
  CHECK_THROWS(h->on_packet_formed(nic, bad));
}

TEST_CASE("reqgrant_inband: with throttle_granted a granted packet holds its throttle unit until it is injected",
          "[reqgrant][inband]") {
  // u = 6, a 10-packet message to node 0: 6 requested, then a grant of 3 arrives. By default the
  // grant frees 3 units at once (pr = 3 < u) and 3 more packets are requested before any is sent;
  // with throttle_granted the 3 granted packets still count, so nothing more is requested until a
  // packet is formed, and that packet carries the request for the one unit it freed.
  for (const bool held : {false, true}) {
    Setup s(std::string("{mechanism: reqgrant_inband, request_combine: 6, u: 6, throttle_granted: ") + (held ? "true" : "false") +
            "}");
    test::FakeNic nic(s.packets, 1, 4);
    CounterSet c;
    auto h = s.hooks(nic, c);
    MessageInfo m;
    m.dst = 0;
    m.packets = 10;
    m.flits = 80;
    h->on_message(nic, m, true);
    h->injection_policy()->set_ready(0, true);
    nic.cycle = 0;
    h->tick(nic);
    REQUIRE(nic.sent.size() == 1);
    CHECK(nic.sent_packet(0).payload[kInbandReqWord] == 6);
    h->on_control(nic, s.control(0, 1, 0, 3, 0));
    for (nic.cycle = 1; nic.cycle < 40; ++nic.cycle) h->tick(nic);
    CHECK(value(c, "requested_packets") == (held ? 6u : 9u));  // the 3 freed units went as a request after control_wait
    Packet& p = s.packets.allocate();
    p.kind = PacketKind::Data;
    p.src = 1;
    p.dst = 0;
    h->on_packet_formed(nic, p);
    CHECK(p.payload[kInbandReqWord] == (held ? 1u : 0u));
    CHECK(value(c, "requested_packets") == (held ? 7u : 9u));
    CHECK(value(c, "pending_requests_peak") == 6);
  }
}

TEST_CASE("reqgrant_inband: configuration errors name the key", "[reqgrant][inband]") {
  CHECK_THROWS_WITH(Setup("{mechanism: reqgrant_inband, crosspoint: 200, reorder_buffer: 100}"),
                    Catch::Contains("cc.reorder_buffer"));
}
