// The smallest mechanism, as docs/writing-a-mechanism.md walks through it, and its unit test on
// the fake router and NIC. A switch marks every data packet that arrives at an input buffer
// fuller than a threshold; destinations count the marked packets they receive. (It is
// registered only in this test binary; a real mechanism lives in systemc/cc/<name>/.)
#include <catch2/catch.hpp>

#include "cc/mechanism.hpp"
#include "support/fake_api.hpp"

namespace ccnet {
namespace {

// 1. Parameters: declared once, with defaults, ranges and one-line docs (docs/config.md).
struct MarkCountParams : MechanismParams {
  double threshold = 0.5;
  static const config::Schema& schema() {
    static config::Schema s("Example: mark data packets arriving at a full input buffer; count them at the destination.");
    static bool init = [] {
      config::Declare<MarkCountParams>(s).field("threshold", &MarkCountParams::threshold, 0.5,
                                                "mark above this fraction of the input buffer", {0.0, 1.0});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
};

// 2. The switch side: one threshold per input port, from the buffer depths the router reports
//    when the hooks are created (nothing is computed in the per-cycle path).
class MarkCountRouter : public RouterHooks {
 public:
  MarkCountRouter(const RouterApi& router, double threshold, PacketFlag mark) : mark_(mark) {
    for (PortId p = 0; p < router.num_ports(); ++p)
      limit_.push_back(static_cast<std::uint32_t>(threshold * router.port(p).in_depth));
  }
  ArrivalAction on_arrival(RouterApi&, Packet& p, const BufferState& b) override {
    if (p.kind == PacketKind::Data && b.occupancy > limit_[b.port]) p.set(mark_);
    return ArrivalAction::Accept;
  }

 private:
  PacketFlag mark_;
  std::vector<std::uint32_t> limit_;
};

// 3. The NIC side: a counter in stats.json's `cc` section, registered when the hooks are made.
class MarkCountNic : public NicHooks {
 public:
  MarkCountNic(CounterSet& counters, PacketFlag mark) : mark_(mark), marked_(counters.counter("marked_packets")) {}
  void on_data(NicApi&, const Packet& p, Packet*) override {
    if (p.has(mark_)) ++marked_;
  }

 private:
  PacketFlag mark_;
  std::uint64_t& marked_;
};

// 4. The mechanism: its vnets, its packet vocabulary, and the hooks for each router and NIC.
class MarkCount : public Mechanism {
 public:
  MarkCount(const MarkCountParams& p, const MechanismContext& ctx) : p_(p), mark_(ctx.format.declare_flag("mark")) {}
  std::string name() const override { return "example_mark_count"; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& router, CounterSet&) const override {
    return std::make_unique<MarkCountRouter>(router, p_.threshold, mark_);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi&, CounterSet& counters) const override {
    return std::make_unique<MarkCountNic>(counters, mark_);
  }

 private:
  MarkCountParams p_;
  PacketFlag mark_;
};

std::unique_ptr<Mechanism> MarkCountParams::create(const MechanismContext& ctx) const {
  return std::make_unique<MarkCount>(*this, ctx);
}

// 5. Registration by name: `cc: {mechanism: example_mark_count, threshold: 0.75}`.
config::PolyRegistrar<MechanismParams, MarkCountParams> reg("example_mark_count", "example: mark and count");

}  // namespace
}  // namespace ccnet

using namespace ccnet;

TEST_CASE("example mechanism: the switch marks above its port's threshold, the destination counts", "[example][hooks]") {
  test::FakeNetwork net;
  auto mech = net.make("{mechanism: example_mark_count, threshold: 0.75}");
  test::FakeRouter router(net.packets, net.topology, 2, 8, 2);  // 8-flit inputs: mark above 6
  CounterSet router_counters, nic_counters;
  auto rh = mech->router_hooks(router, router_counters);
  test::FakeNic nic(net.packets, 1, 4);
  auto nh = mech->nic_hooks(nic, nic_counters);

  Packet& calm = net.packets.allocate();
  Packet& late = net.packets.allocate();
  CHECK(rh->on_arrival(router, calm, BufferState{0, 0, 6, 8, 6, 1}) == ArrivalAction::Accept);
  CHECK(rh->on_arrival(router, late, BufferState{0, 0, 7, 8, 7, 1}) == ArrivalAction::Accept);
  CHECK(net.packets.format().flag_names(calm.flags).empty());
  CHECK(net.packets.format().flag_names(late.flags) == "mark");
  nh->on_data(nic, calm, nullptr);
  nh->on_data(nic, late, nullptr);
  CounterReport report;
  report.add(nic_counters);
  CHECK(report.counters_json() == Json::parse(R"({"marked_packets": 1})"));
}
