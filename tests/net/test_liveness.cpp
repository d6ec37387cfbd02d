// Liveness checks of whole networks: the livelock watchdog, the speculative queuing timeout
// against the router pipeline, and the state dump accounting for every live packet.
#include <catch2/catch.hpp>

#include <sstream>

#include "cc/mechanism.hpp"
#include "core/error.hpp"
#include "support/net_run.hpp"

using namespace ccnet;

namespace {

// Test-only mechanism: every data packet is dropped at its last-hop switch (with a NACK) and
// resent at once by its source. Flits keep moving, no data packet is ever delivered.
struct DropEverythingSwitch : RouterHooks {
  explicit DropEverythingSwitch(PacketKind nack) : nack_(nack) {}
  ArrivalAction on_arrival(RouterApi& api, Packet& pkt, const BufferState&) override {
    if (pkt.kind != PacketKind::Data || api.terminal_port_of(pkt.dst) == kNoPort || !api.can_emit(1, 1))
      return ArrivalAction::Accept;
    Packet& n = api.packets().control(nack_, pkt, pkt.dst, pkt.src, api.now());
    n.amount = pkt.size;
    REQUIRE(api.emit(n));
    return ArrivalAction::Drop;
  }
  PacketKind nack_;
};
struct ResendAtOnce : NicHooks {
  explicit ResendAtOnce(PacketKind nack) : nack_(nack) {}
  void on_control(NicApi& api, const Packet& c) override {
    if (c.kind == nack_) REQUIRE(api.retransmit(c.message, c.seq, api.now(), 0));
  }
  PacketKind nack_;
};
struct DropEverything : Mechanism {
  explicit DropEverything(PacketKind nack) : nack_(nack) {}
  std::string name() const override { return "test_drop_everything"; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi&, CounterSet&) const override {
    return std::make_unique<DropEverythingSwitch>(nack_);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi&, CounterSet&) const override { return std::make_unique<ResendAtOnce>(nack_); }
  bool requires_acks() const override { return true; }
  bool keeps_retransmit_buffer() const override { return true; }
  PacketKind nack_;
};
struct DropEverythingParams : MechanismParams {
  static const config::Schema& schema() {
    static config::Schema s("test only: drop every data packet at its last hop, resend at once (livelock)");
    return s;
  }
  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override {
    return std::make_unique<DropEverything>(ctx.format.declare_kind("nack", Answer::Refused));
  }
};
config::PolyRegistrar<MechanismParams, DropEverythingParams> reg_drop_everything("test_drop_everything", "test only");

}  // namespace

TEST_CASE("livelock watchdog: packets keep moving but none is delivered", "[net][watchdog]") {
  try {
    test::run_yaml(R"(
sim: {warmup: 1000, measure: 5000, watchdog: 500}
topology: {type: mesh, k: 2, n: 2}
cc: {mechanism: test_drop_everything}
traffic:
  classes: [{name: u, rate: 0.1, size: 4}]
)");
    FAIL("the run ended although no data packet can be delivered");
  } catch (const ModelError& e) {
    const std::string m = e.what();
    INFO(m.substr(0, 2000));
    CHECK(m.find("stuck: no packet but refusals (answers of kind Refused) delivered for") != std::string::npos);
    CHECK(m.find("retransmit buffer:") != std::string::npos);  // the dump shows where the packets are
  }
}

// A speculative packet that never waits must never be dropped, however short the timeout is
// against the router pipeline. Once, the timeout counted the routing and VC-allocation stages,
// so with `timeout` <= those delays every speculative packet was dropped at its first switch
// and resent forever (repro stranded_k03603/k04040).
namespace {
void check_lone_flow_never_dropped(const char* cc) {
  const auto r = test::run_yaml(R"(
sim: {warmup: 500, measure: 4000, watchdog: 2000}
topology: {type: mesh, k: 4, n: 2}
router: {delays: {routing: 3, vc_alloc: 2, sw_alloc: 1, traversal: 1}}
traffic:
  groups:
    - {name: src, nodes: [0]}
    - {name: dst, nodes: [15]}
  classes:
    - {name: one_flow, sources: src, destinations: dst, pattern: {type: hotspot}, rate: 0.02, size: 4, process: periodic, stop: 5000}
)",
                                {cc});
  CHECK(r.stats()["quiescent_checked"].get<bool>());
  CHECK(r.stats()["throughput"]["accepted"]["mean"].get<double>() > 0);
  CHECK(r.stats()["protocol"]["dropped_packets"].get<std::uint64_t>() == 0);
}
}  // namespace

TEST_CASE("speculative queuing timeout excludes the router pipeline (LHRP fabric drop)", "[net][speculative]") {
  check_lone_flow_never_dropped("cc={mechanism: lhrp, fabric_drop: true, timeout: 1}");
}

TEST_CASE("speculative queuing timeout excludes the router pipeline (SMSRP)", "[net][speculative]") {
  check_lone_flow_never_dropped("cc={mechanism: smsrp, timeout: 1}");
}

TEST_CASE("speculative queuing timeout excludes the router pipeline (SRP)", "[net][speculative]") {
  check_lone_flow_never_dropped("cc={mechanism: srp, timeout: 1}");
}

namespace {
// Runs a congested speculative network and, at many cycles, dumps its state: every live packet
// must be found in a router or NIC (buffers, links, wires, switch, queues, streams).
void check_dump_accounts_for_every_packet(const char* cc) {
  auto net = test::build_network(R"(
sim: {warmup: 500, measure: 4000}
topology: {type: dragonfly, p: 2, a: 3, h: 1}
routing: {algorithm: min}
router: {vcs_per_level: 2, voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 16, local: 16, global: 32}}
link: {latency: {terminal: 2, local: 3, global: 20}}
nic: {max_packet: 4}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: rest, exclude: [hot]}
  classes:
    - {name: hotspot, pattern: {type: hotspot}, sources: rest, destinations: hot, rate: 0.3, size: 8}
)",
                                 {cc});
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const auto period = net->period();
  bool links = false, retransmit = false, streams = false;
  for (int k = 0; k < 30; ++k) {
    sc_core::sc_start(97 * period);
    std::ostringstream os;
    net->dump_state(os);
    const std::string d = os.str();
    INFO("cycle " << net->now() << "\n" << d.substr(0, 3000));
    REQUIRE(net->packets().live() > 0);
    CHECK(d.find("live packet in no router or NIC") == std::string::npos);
    links = links || d.find(" link: ") != std::string::npos;
    retransmit = retransmit || d.find("retransmit buffer: ") != std::string::npos;
    streams = streams || d.find(" stream: flit ") != std::string::npos;
  }
  CHECK(links);
  CHECK(retransmit);
  CHECK(streams);
}
}  // namespace

TEST_CASE("state dump: every live packet is found (LHRP)", "[net][dump]") {
  check_dump_accounts_for_every_packet("cc={mechanism: lhrp, threshold: 8}");
}

TEST_CASE("state dump: every live packet is found (SMSRP, destination scheduler)", "[net][dump]") {
  check_dump_accounts_for_every_packet("cc={mechanism: smsrp, timeout: 30}");
}
