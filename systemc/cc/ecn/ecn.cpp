// ECN: InfiniBand-style congestion control (FECN mark at switches, BECN back to the source,
// CCTI/IPD injection-rate control per flow at the source NIC).
//
// Paper sources: paper 003 (Jiang et al., SC'15) section 4 and Table 1 (IPD +24 cycles per
// notification, -24 cycles every 96 cycles, threshold 50% of the buffer); paper 000
// (Michelogiannakis et al., SC'13) section 2 (IPD +9600 ns per notification, -100 ns every
// 4 us, threshold 95% of the input buffer, notifications in CN packets); IBA annex A10 for the
// CCTI/CCT/Marking_Rate structure. docs/mechanisms/ecn.md lists every choice the papers leave
// open and the config key that holds it.
#include <fmt/format.h>

#include <memory>

#include "blocks/ecn_marker.hpp"
#include "blocks/swap.hpp"
#include "cc/mechanism.hpp"
#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "nic/nic_config.hpp"
#include "router/router_config.hpp"

namespace ccnet {
namespace {

enum class MeasuredBuffer : std::uint8_t { InputVc, Voq, OutputQueue };
enum class MarkPoint : std::uint8_t { Enqueue, Dequeue };
enum class NotifyBy : std::uint8_t { Auto, Ack, Cnp };

struct EcnParams : MechanismParams {
  std::string preset;  // registered name (ecn, ecn_paper003, ecn_paper000)
  MeasuredBuffer measure = MeasuredBuffer::InputVc;
  MarkPoint mark_on = MarkPoint::Enqueue;
  double threshold = 0.5;
  std::uint32_t marking_rate = 0;
  NotifyBy notify = NotifyBy::Auto;
  std::uint32_t ipd_unit = 24;
  std::uint32_t ccti_increase = 1;
  std::uint32_t ccti_limit = 127;
  std::uint32_t timer = 96;

  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig&) const override {
    if (measure == MeasuredBuffer::Voq && !r.voq) ctx.fail("cc.measure", "'voq' needs router.voq: true");
    if (measure == MeasuredBuffer::OutputQueue && r.output_buffer == 0)
      ctx.fail("cc.measure", "'output_queue' needs output queues (router.output_buffer > 0)");
  }
};

// Declares the ECN schema with a preset's defaults (paper 003 or paper 000).
struct Preset {
  const char* name;
  const char* doc;
  double threshold;
  std::uint32_t ipd_unit, ccti_increase, ccti_limit, timer;
  NotifyBy notify;
};

template <const Preset& P>
struct EcnPresetParams : EcnParams {
  EcnPresetParams() { preset = P.name; }
  static const config::Schema& schema() {
    static config::Schema s(P.doc);
    static bool init = [] {
      config::Declare<EcnPresetParams>(s)
          .choice("measure", &EcnParams::measure, MeasuredBuffer::InputVc,
                  {{"input_vc", MeasuredBuffer::InputVc}, {"voq", MeasuredBuffer::Voq}, {"output_queue", MeasuredBuffer::OutputQueue}},
                  "buffer whose occupancy decides the mark: the packet's input VC buffer, its VOQ, or its output queue")
          .choice("mark_on", &EcnParams::mark_on, MarkPoint::Enqueue,
                  {{"enqueue", MarkPoint::Enqueue}, {"dequeue", MarkPoint::Dequeue}},
                  "decide when the head flit enters the buffer or when it leaves it")
          .field("threshold", &EcnParams::threshold, P.threshold,
                 "mark when the buffer holds more than this fraction of its capacity (1 = never)", {0.0, 1.0})
          .field("marking_rate", &EcnParams::marking_rate, 0u,
                 "eligible packets left unmarked after each mark (IBA Marking_Rate; 0 = mark all)", {0, 65535})
          .choice("notify", &EcnParams::notify, P.notify,
                  {{"auto", NotifyBy::Auto}, {"ack", NotifyBy::Ack}, {"cnp", NotifyBy::Cnp}},
                  "how the destination returns BECN: in the ACK, in a congestion-notification packet, or auto "
                  "(ACK when ACKs are on, else CNP)")
          .field("ipd_unit", &EcnParams::ipd_unit, P.ipd_unit, "cycles of inter-packet delay per CCT index step", {0, 1u << 20})
          .field("ccti_increase", &EcnParams::ccti_increase, P.ccti_increase, "CCT index steps added per BECN", {1, 1u << 16})
          .field("ccti_limit", &EcnParams::ccti_limit, P.ccti_limit, "largest CCT index", {1, 1u << 20})
          .field("timer", &EcnParams::timer, P.timer, "cycles between CCT index decrements (free-running timer)", {1, 1u << 30});
      return true;
    }();
    (void)init;
    return s;
  }
};

constexpr Preset kEcn{
    "ecn",
    "ECN with the parameters of paper 003 (Table 1): mark above 50% of the input VC buffer; each BECN adds "
    "24 cycles of inter-packet delay to the flow, and 24 cycles are removed every 96 cycles.",
    0.5, 24, 1, 127, 96, NotifyBy::Auto};
constexpr Preset kPaper003{
    "ecn_paper003",
    "ECN as in paper 003 (Table 1): mark above 50% of the input VC buffer; each BECN adds 24 cycles of "
    "inter-packet delay to the flow, and 24 cycles are removed every 96 cycles.",
    0.5, 24, 1, 127, 96, NotifyBy::Auto};
constexpr Preset kPaper000{
    "ecn_paper000",
    "ECN as in paper 000 (section 2): mark above 95% of the input VC buffer; each notification adds "
    "9600 ns of inter-packet delay to the flow, 100 ns are removed every 4 us; notifications travel in "
    "congestion-notification packets (the paper's ECN has no ACKs).",
    0.95, 100, 96, 1920, 4000, NotifyBy::Cnp};

// The mechanism's packet vocabulary: the congestion-notification packet (CNP) and the forward
// (set by switches) and backward (set in the ACK or CNP) marks.
struct EcnFormat {
  PacketKind cnp;
  PacketFlag fecn, becn;
};

// ---- switch side ---------------------------------------------------------------------------------

class EcnRouterHooks : public RouterHooks {
 public:
  // One marker per port (the measured buffers of a port share its marking-rate counter), its
  // threshold in flits from the measured buffer's capacity.
  EcnRouterHooks(const EcnParams& p, const EcnFormat& f, const RouterApi& router) : p_(p), f_(f) {
    for (PortId port = 0; port < router.num_ports(); ++port) {
      const std::uint32_t capacity =
          p_.measure == MeasuredBuffer::OutputQueue ? router.output_buffer() : router.port(port).in_depth;
      const auto t = static_cast<std::uint32_t>(p_.threshold * static_cast<double>(capacity));
      markers_.emplace_back(blocks::EcnMarkerParams{t, p_.marking_rate}, capacity, router.block_source(),
                            std::string(router.component_name()) + " port " + std::to_string(port));
    }
  }
  ArrivalAction on_arrival(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (p_.mark_on == MarkPoint::Enqueue && p_.measure != MeasuredBuffer::OutputQueue) decide(api, pkt, b);
    return ArrivalAction::Accept;
  }
  void on_input_dequeue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (p_.mark_on == MarkPoint::Dequeue && p_.measure != MeasuredBuffer::OutputQueue) decide(api, pkt, b);
  }
  void on_output_enqueue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (p_.mark_on == MarkPoint::Enqueue && p_.measure == MeasuredBuffer::OutputQueue) decide(api, pkt, b);
  }
  void on_output_dequeue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (p_.mark_on == MarkPoint::Dequeue && p_.measure == MeasuredBuffer::OutputQueue) decide(api, pkt, b);
  }
  void trace(TraceSink& s) override { s.value(marks_, "ecn.marks"); }

 private:
  void decide(RouterApi& api, Packet& pkt, const BufferState& b) {
    // Only data packets are eligible: for the others the marker neither marks nor changes state.
    if (pkt.kind != PacketKind::Data) return;
    blocks::EcnMarkerSlot& m = markers_[b.port];
    const std::uint32_t occ = p_.measure == MeasuredBuffer::Voq ? b.voq_occupancy : b.occupancy;
    if (m.mark(true, true, occ)) {
      pkt.set(f_.fecn);
      ++marks_;
      if (PacketWatch* w = api.packets().watch(); w && pkt.has(kFlagWatched))
        w->event(api.now(), pkt, {}, "ecn_mark",
                 fmt::format("{}={} vc={} occupancy={}/{}", p_.measure == MeasuredBuffer::OutputQueue ? "out" : "in",
                             b.port, b.vc, occ, b.capacity));
    }
    m.commit(true, true, occ);
  }
  const EcnParams& p_;
  EcnFormat f_;
  std::vector<blocks::EcnMarkerSlot> markers_;  // per port
  std::uint64_t marks_ = 0;
};

// ---- NIC side ----------------------------------------------------------------------------------

// The source's CCTI/IPD rate limiter (IBA annex A10): the mirrored injection engine
// (blocks/injection_engine, rtl/ccn_injection_engine.sv) with rate control on. A BECN for a
// flow raises its CCT index at this cycle's clock edge; a free-running timer lowers every index.
class CctiRateLimiter : public InjectionPolicy {
 public:
  CctiRateLimiter(const EcnParams& p, const NicApi& nic)
      : engine_(blocks::InjectionEngineParams{nic.num_nodes(), p.ipd_unit, p.ccti_increase, p.ccti_limit, p.timer},
                nic.block_source(), std::string(nic.component_name()) + " ecn rate limiter") {}
  void set_ready(NodeId dst, bool ready) override { engine_.set_nonempty(dst, ready); }
  int pick(Cycle now) const override { return engine_.pick(now, true); }
  void commit(Cycle now, int granted, std::uint32_t flits) override {
    engine_.commit(now, granted, flits, becns_.data(), becns_.size());
    becns_.clear();
    throttled_ = static_cast<std::uint32_t>(engine_.throttled());
  }
  bool clocked() const override { return engine_.params().timer_period != 0; }
  void trace(TraceSink& s) override { s.value(throttled_, "ecn.throttled"); }
  // A BECN from destination `dst` (applied at this cycle's commit).
  void notify(NodeId dst) { becns_.push_back(dst); }

 private:
  blocks::InjectionEngineSlot engine_;
  std::vector<std::uint32_t> becns_;  // this cycle's notifications
  std::uint32_t throttled_ = 0;       // flows with CCTI > 0 (waveforms)
};

class EcnNicHooks : public NicHooks {
 public:
  EcnNicHooks(const EcnParams& p, const EcnFormat& f, bool acks, NicApi& nic, CounterSet& counters)
      : f_(f),
        use_ack_(p.notify == NotifyBy::Ack || (p.notify == NotifyBy::Auto && acks)),
        limiter_(p, nic),
        becns_(counters.counter("becn_notifications")),
        marked_(counters.counter("fecn_marked_packets")) {}
  // Destination: one notification per marked packet.
  void on_data(NicApi& api, const Packet& data, Packet* ack) override {
    if (!data.has(f_.fecn)) return;
    if (api.measuring()) ++marked_;
    if (use_ack_ && ack) {
      ack->set(f_.becn);
      return;
    }
    Packet& cnp = api.packets().control(f_.cnp, data, api.id(), data.src, api.now());
    cnp.set(f_.becn);
    if (PacketWatch* w = api.packets().watch()) w->answered(data, cnp, api.now(), {});
    api.send_control(cnp);
  }
  // Source: a BECN raises the CCT index of the flow to the notifying destination.
  void on_control(NicApi&, const Packet& ctl) override {
    if (!ctl.has(f_.becn)) return;
    limiter_.notify(ctl.src);
    ++becns_;
  }
  InjectionPolicy* injection_policy() override { return &limiter_; }
  void trace(TraceSink& s) override { s.value(becns_, "ecn.becns"); }

 private:
  EcnFormat f_;
  bool use_ack_;
  CctiRateLimiter limiter_;
  std::uint64_t& becns_;   // whole run: notifications acted on
  std::uint64_t& marked_;  // measurement window: marked data packets delivered here
};

class Ecn : public Mechanism {
 public:
  Ecn(const EcnParams& p, std::string name, const MechanismContext& ctx)
      : p_(p),
        name_(std::move(name)),
        f_{ctx.format.declare_kind("cnp"), ctx.format.declare_flag("fecn"), ctx.format.declare_flag("becn")},
        acks_(ctx.acks) {}
  std::string name() const override { return name_; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& router, CounterSet&) const override {
    return std::make_unique<EcnRouterHooks>(p_, f_, router);
  }
  // The rate limiter's largest inter-packet delay (CCT index at its limit).
  Cycle max_injection_gap() const override { return Cycle{p_.ccti_limit} * p_.ipd_unit; }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& counters) const override {
    return std::make_unique<EcnNicHooks>(p_, f_, acks_, nic, counters);
  }

 private:
  EcnParams p_;
  std::string name_;
  EcnFormat f_;
  bool acks_;  // nic.acks: BECN rides in the ACK when notify is auto
};

std::unique_ptr<Mechanism> EcnParams::create(const MechanismContext& ctx) const {
  return std::make_unique<Ecn>(*this, preset, ctx);
}

config::PolyRegistrar<MechanismParams, EcnPresetParams<kEcn>> reg_ecn("ecn", "InfiniBand-style ECN");
config::PolyRegistrar<MechanismParams, EcnPresetParams<kPaper003>> reg_ecn003(
    "ecn_paper003", "InfiniBand-style ECN, paper 003 parameters");
config::PolyRegistrar<MechanismParams, EcnPresetParams<kPaper000>> reg_ecn000(
    "ecn_paper000", "InfiniBand-style ECN, paper 000 parameters");

}  // namespace
}  // namespace ccnet
