// MVCM: Marking and Validation Congestion Management (paper 001: J.-L. Ferrer, E. Baydal,
// A. Robles, P. Lopez, J. Duato, "Progressive Congestion Management Based on Packet Marking and
// Validation Techniques", IEEE TC 61(9), 2012), with the paper's comparisons and ablations.
//
// Switch (section 3.1, MVPM): a data packet gets the Marking Bit (MB) when it arrives at an input
// buffer that holds, with it, more than input_threshold of its capacity; a marked packet gets the
// Validation Bit (VB) when it enters an output queue that holds, with it, more than
// output_threshold of its capacity. Bits are never cleared; VB never without MB. The decisions
// are blocks/mvcm_marker (rtl/ccn_mvcm_marker.sv), one per router port.
// Destination: copies MB and VB into the ACK. Source (sections 3.2, 3.3): the per-flow dynamic
// window and waiting slots of blocks/mvcm_flow_ctrl, fed by the ACKs' marks (Table 1).
//
// Comparisons (section 2, each a registered name): Renato's proposal (full-buffer marking of
// every packet queued for a congested output, static window 1, LIPD), Pfister's implementation
// (InfiniBand CCA: output-queue marking, CCT/IPD rate control with the ECN mechanism's mirrored
// injection engine), and the ablations of section 5 (PI acting on validated packets, MVCM acting
// on marked packets, without warm actions, without the waiting-slot cap, a static window).
// docs/mechanisms/mvcm.md lists every choice the paper leaves open and the key that holds it.
#include "cc/mvcm/mvcm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "blocks/mvcm_flow_ctrl.hpp"
#include "blocks/mvcm_marker.hpp"
#include "blocks/swap.hpp"
#include "cc/mechanism.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "nic/nic_config.hpp"
#include "router/router_config.hpp"
#include "topology/topology.hpp"

namespace ccnet {
namespace mvcm {

double paper_rtt_min(std::uint32_t h, double t_hop, double l_data, double l_ack, double bytes_per_cycle) {
  return 2.0 * h * t_hop + (l_data + l_ack) / bytes_per_cycle;
}

double omega(double rtt_min, double l_data, double bytes_per_cycle) { return rtt_min / (l_data / bytes_per_cycle); }

std::uint32_t dw_max_of(double w) {
  // A tolerance so that an omega computed as exactly an integer is not pushed up by rounding.
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(w - 1e-9)));
}

NetworkParams derive(const Topology& topology, const RouterConfig& router, const LinkConfig& link, const NicConfig& nic) {
  NetworkParams d;
  const RouterId r0 = topology.attach(0).first;
  d.radix = 0;
  for (PortId p = 0; p < topology.num_ports(r0); ++p)
    if (topology.peer(r0, p).kind == PortPeer::Kind::Node) ++d.radix;
  d.radix = std::max<std::uint32_t>(d.radix, 1);
  d.stages = 1;
  if (d.radix > 1)
    for (std::uint64_t reach = d.radix; reach < topology.num_nodes(); reach *= d.radix) ++d.stages;
  std::uint32_t hops = 0;
  for (NodeId n = 1; n < topology.num_nodes(); ++n) hops = std::max(hops, topology.min_hops(0, n));
  d.switch_hops = hops + 1;
  const StageDelays& s = router.delays;
  d.hop_cycles = s.routing + s.vc_alloc + s.sw_alloc + s.traversal;
  const auto& classes = topology.link_classes();
  d.link_latency = 0;
  for (LinkClassId c = 0; c < classes.size(); ++c) {
    const std::uint32_t* l = link.latency.find(classes[c].name);
    const std::uint32_t v = l ? *l : 1;
    if (c == kTerminalLink) d.terminal_latency = v;
    else d.link_latency = std::max(d.link_latency, v);
  }
  d.data_flits = nic.max_packet;
  d.ack_flits = 1;  // the kernel's ACK is one flit
  const Cycle one_way = 2ull * d.terminal_latency + Cycle{d.switch_hops} * d.hop_cycles +
                        Cycle{d.switch_hops - 1} * d.link_latency;
  d.rtt_min = 2 * one_way + d.data_flits + d.ack_flits;
  d.omega = omega(static_cast<double>(d.rtt_min), d.data_flits, 1.0);
  d.dw_max = dw_max_of(d.omega);
  return d;
}

}  // namespace mvcm

namespace {

using blocks::MvcmAck;

enum class Marking : std::uint8_t { Mvpm, Opm, FullBuffer, None };
enum class Source : std::uint8_t { Window, Cct, Lipd, None };
enum class ActOn : std::uint8_t { Validated, Marked };
enum class MarkAt : std::uint8_t { Arrival, InputDequeue };
enum class ValidateAt : std::uint8_t { OutputEnqueue, OutputDequeue };

struct MvcmParams : MechanismParams {
  std::string preset;  // registered name
  // Switch.
  Marking marking = Marking::Mvpm;
  double input_threshold = 0.66;
  double output_threshold = 0.33;
  MarkAt mark_at = MarkAt::Arrival;
  ValidateAt validate_at = ValidateAt::OutputEnqueue;
  bool occupancy_stats = false;
  // Source.
  Source source = Source::Window;
  ActOn act_on = ActOn::Validated;
  bool warm_actions = true;
  bool window_actions = true;
  std::uint32_t dw_max = 0;
  std::uint32_t rtt_min = 0;
  std::uint32_t ws_factor = 0;
  std::uint32_t ws_increases = 0;
  bool ws_cap = true;
  bool reset_on_empty = true;
  // Rate-based sources (cct: Pfister, lipd: Renato).
  std::uint32_t ipd_unit = 0;
  std::uint32_t ccti_increase = 2;
  std::uint32_t ccti_limit = 127;
  std::uint32_t timer = 0;

  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig& n) const override {
    if ((marking == Marking::Mvpm || marking == Marking::Opm) && r.output_buffer == 0)
      ctx.fail("cc.marking", std::string(marking == Marking::Mvpm ? "'mvpm' validates" : "'opm' marks") +
                                 " at output queues: needs router.output_buffer > 0 (CIOQ switches, as in the paper)");
    if (source != Source::None && !n.acks)
      ctx.fail("cc.source", "the source reacts to marks returned in ACKs: needs nic.acks: true");
  }
};

struct Preset {
  const char* name;
  const char* doc;
  Marking marking;
  Source source;
  ActOn act_on;
  bool warm_actions, window_actions, ws_cap;
  std::uint32_t dw_max;
};

template <const Preset& P>
struct MvcmPresetParams : MvcmParams {
  MvcmPresetParams() { preset = P.name; }
  static const config::Schema& schema() {
    static config::Schema s(P.doc);
    static bool init = [] {
      config::Declare<MvcmPresetParams>(s)
          .choice("marking", &MvcmParams::marking, P.marking,
                  {{"mvpm", Marking::Mvpm}, {"opm", Marking::Opm}, {"full_buffer", Marking::FullBuffer}, {"none", Marking::None}},
                  "switch detection: mvpm (MB at a full-ish input, VB at a full-ish output, MVCM), opm (mark at the output "
                  "queue only, InfiniBand CCA), full_buffer (a full input marks every queued packet of the outputs it "
                  "requests, Renato's proposal), none")
          .field("input_threshold", &MvcmParams::input_threshold, 0.66,
                 "MB when the input buffer holds, with the arriving packet, more than this fraction of its capacity", {0.0, 1.0})
          .field("output_threshold", &MvcmParams::output_threshold, 0.33,
                 "VB (opm: the mark) when the output queue holds, with the packet, more than this fraction of its capacity",
                 {0.0, 1.0})
          .choice("mark_at", &MvcmParams::mark_at, MarkAt::Arrival,
                  {{"arrival", MarkAt::Arrival}, {"input_dequeue", MarkAt::InputDequeue}},
                  "when MB is decided: as the packet arrives (occupancy with all of it), or as it leaves the input buffer "
                  "(occupancy as the router reports it then; notes A1)")
          .choice("validate_at", &MvcmParams::validate_at, ValidateAt::OutputEnqueue,
                  {{"output_enqueue", ValidateAt::OutputEnqueue}, {"output_dequeue", ValidateAt::OutputDequeue}},
                  "when VB (opm: the mark) is decided: as the packet enters the output queue (occupancy with all of it), or "
                  "as it leaves on the link (notes A3)")
          .field("occupancy_stats", &MvcmParams::occupancy_stats, false,
                 "sample every connected port's data-buffer occupancy every cycle (cc.*_occupancy_flit_cycles; costs time)")
          .choice("source", &MvcmParams::source, P.source,
                  {{"window", Source::Window}, {"cct", Source::Cct}, {"lipd", Source::Lipd}, {"none", Source::None}},
                  "source reaction: window (MVCM dynamic window + waiting slots), cct (InfiniBand CCT index: IPD = "
                  "index x ipd_unit, Pfister), lipd (static window dw_max, IPD +/- ipd_unit per marked/unmarked ACK, "
                  "Renato), none")
          .choice("act_on", &MvcmParams::act_on, P.act_on, {{"validated", ActOn::Validated}, {"marked", ActOn::Marked}},
                  "which ACKs are hot (full action): validated (MB and VB) or marked (MB, validation ignored)")
          .field("warm_actions", &MvcmParams::warm_actions, P.warm_actions,
                 "window source: a marked, unvalidated ACK (warm flow) reduces the window; false: treated as cold")
          .field("window_actions", &MvcmParams::window_actions, P.window_actions,
                 "window source: react to ACK marks; false: a static window of dw_max packets")
          .field("dw_max", &MvcmParams::dw_max, P.dw_max,
                 "largest (and initial) window, packets; 0 = ceil(omega), omega = RTT_min / data packet flits", {0, 255})
          .field("rtt_min", &MvcmParams::rtt_min, 0u,
                 "one waiting slot (and the round trip omega uses), cycles; 0 = derived from the configuration "
                 "(docs/mechanisms/mvcm.md)",
                 {0, 1u << 30})
          .field("ws_factor", &MvcmParams::ws_factor, 0u,
                 "waiting slots are multiplied by this at each further hot ACK; 0 = the switch radix k (hosts per switch)",
                 {0, 1024})
          .field("ws_increases", &MvcmParams::ws_increases, 0u,
                 "times the waiting slots may grow, the first included (largest: factor^(this-1)); 0 = the stages n",
                 {0, 64})
          .field("ws_cap", &MvcmParams::ws_cap, P.ws_cap, "limit the waiting-slot growth to ws_increases (false: no limit)")
          .field("reset_on_empty", &MvcmParams::reset_on_empty, true,
                 "a message for a flow with nothing queued and nothing outstanding restores its full window (notes A9)")
          .field("ipd_unit", &MvcmParams::ipd_unit, 0u,
                 "cct and lipd sources: inter-packet delay step, cycles; 0 = RTT_min", {0, 1u << 30})
          .field("ccti_increase", &MvcmParams::ccti_increase, 2u,
                 "cct source: CCT index steps per hot ACK (2: the best of a sweep on the paper 001 hot spot, "
                 "docs/mechanisms/mvcm.md)",
                 {1, 1u << 16})
          .field("ccti_limit", &MvcmParams::ccti_limit, 127u,
                 "cct source: largest CCT index; lipd source: largest inter-packet delay, in ipd_unit steps", {1, 1u << 20})
          .field("timer", &MvcmParams::timer, 0u,
                 "cct source: cycles between CCT index decrements; 0 = 4 x RTT_min", {0, 1u << 30});
      return true;
    }();
    (void)init;
    return s;
  }
};

constexpr Preset kMvcm{
    "mvcm",
    "MVCM (paper 001): MB at inputs above 66%, VB at outputs above 33%; per-flow dynamic window (1..ceil(omega)) "
    "and waiting slots (1, k, k^2, ... RTT_min each, at most n increases) driven by the marks in the ACKs.",
    Marking::Mvpm, Source::Window, ActOn::Validated, true, true, true, 0};
constexpr Preset kMarkedOnly{
    "mvcm_marked_only",
    "MVCM acting on marked packets (paper 001 Fig. 13, pure input marking): every ACK with MB is hot, validation ignored.",
    Marking::Mvpm, Source::Window, ActOn::Marked, true, true, true, 0};
constexpr Preset kNoWarm{
    "mvcm_no_warm",
    "MVCM without warm actions (paper 001 Fig. 14b): a marked, unvalidated ACK is treated as cold.",
    Marking::Mvpm, Source::Window, ActOn::Validated, false, true, true, 0};
constexpr Preset kNoWsCap{
    "mvcm_no_ws_cap",
    "MVCM without the waiting-slot limit (paper 001 Fig. 16b): the waiting slots keep growing by k.",
    Marking::Mvpm, Source::Window, ActOn::Validated, true, true, false, 0};
constexpr Preset kStaticWindow{
    "static_window",
    "A static per-flow window of dw_max packets and nothing else (paper 001 Fig. 4; dw_max 0 = ceil(omega)).",
    Marking::None, Source::Window, ActOn::Validated, true, false, true, 0};
constexpr Preset kRenato{
    "renato",
    "Renato's proposal (Santos et al., INFOCOM 2003, as paper 001 section 2.2 describes it): an input buffer that "
    "becomes full marks every packet in the switch's input buffers routed to an output its packets request; the source "
    "keeps a static window of 1 and raises its inter-packet delay by RTT_min per marked ACK (LIPD), lowering it by "
    "RTT_min per unmarked one.",
    Marking::FullBuffer, Source::Lipd, ActOn::Marked, true, true, true, 1};
constexpr Preset kPfister{
    "pfister",
    "Pfister's implementation (InfiniBand CCA, paper 001 section 2.3): output queues above 33% mark packets; each "
    "marked ACK raises the flow's CCT index by 2 (IPD = index x RTT_min), a timer lowers it by 1 every 4 RTT_min.",
    Marking::Opm, Source::Cct, ActOn::Marked, true, true, true, 0};
constexpr Preset kPfisterValidated{
    "pfister_validated",
    "Pfister's CCT source acting on validated packets only (paper 001 Fig. 12): MVCM's switch marking and "
    "validation, InfiniBand CCA's source reaction to MB and VB.",
    Marking::Mvpm, Source::Cct, ActOn::Validated, true, true, true, 0};

struct MvcmFormat {
  PacketFlag mb, vb;
};

// ---- switch side ---------------------------------------------------------------------------------

class MvcmSwitch : public RouterHooks {
 public:
  MvcmSwitch(const MvcmParams& p, const MvcmFormat& f, std::uint32_t max_packet, const RouterApi& router,
             CounterSet& counters)
      : p_(p),
        f_(f),
        max_packet_(max_packet),
        marks_(counters.counter("marked_packets")),
        validations_(counters.counter("validated_packets")),
        in_sum_(counters.counter("arrival_input_occupancy_flits")),
        in_cap_(counters.counter("arrival_input_capacity_flits")),
        out_sum_(counters.counter("enqueue_output_occupancy_flits")),
        out_cap_(counters.counter("enqueue_output_capacity_flits")) {
    // One marker per port: its input lane at the input buffer, its output lane at the output
    // queue (whole-flit thresholds: "more than floor(f x C)" is "more than f x C").
    const std::uint32_t out_threshold = blocks::MvcmMarker::threshold(p_.output_threshold, router.output_buffer());
    for (PortId port = 0; port < router.num_ports(); ++port) {
      markers_.emplace_back(blocks::MvcmMarkerParams{
                                blocks::MvcmMarker::threshold(p_.input_threshold, router.port(port).in_depth), out_threshold},
                            std::max(router.port(port).in_depth, router.output_buffer()), router.block_source(),
                            std::string(router.component_name()) + " mvcm marker " + std::to_string(port));
      if (router.port(port).connected()) connected_.push_back(port);
    }
    for (VcId vc = 0; vc < router.num_vcs(); ++vc)
      if (router.vnet_of_vc(vc) == 0) data_vcs_.push_back(vc);
    if (p_.occupancy_stats) {
      samples_ = &counters.counter("occupancy_samples");
      in_cycles_ = &counters.counter("input_occupancy_flit_cycles");
      in_capacity_cycles_ = &counters.counter("input_capacity_flit_cycles");
      out_cycles_ = &counters.counter("output_occupancy_flit_cycles");
      for (PortId port : connected_) in_capacity_total_ += router.port(port).in_depth * data_vcs_.size();
    }
  }

  ArrivalAction on_arrival(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (pkt.kind != PacketKind::Data) return ArrivalAction::Accept;
    // Virtual cut-through on a serial link: every earlier packet of this input is wholly here,
    // so the buffer will hold what it holds now plus the rest of this packet.
    const std::uint32_t occ = b.occupancy + pkt.size - 1;
    in_sum_ += occ;
    in_cap_ += b.capacity;
    if (p_.marking == Marking::Mvpm && p_.mark_at == MarkAt::Arrival) input_decision(api, pkt, b, occ);
    else if (p_.marking == Marking::FullBuffer && b.capacity - std::min(occ, b.capacity) < max_packet_)
      congest(api, pkt, b, occ);
    return ArrivalAction::Accept;
  }
  void on_input_dequeue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (pkt.kind == PacketKind::Data && p_.marking == Marking::Mvpm && p_.mark_at == MarkAt::InputDequeue)
      input_decision(api, pkt, b, b.occupancy);
  }
  void on_output_enqueue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (pkt.kind != PacketKind::Data) return;
    // Speedup 2 moves one packet at a time into an output queue: the rest of it follows.
    const std::uint32_t occ = b.occupancy + pkt.size - 1;
    out_sum_ += occ;
    out_cap_ += b.capacity;
    if (p_.validate_at == ValidateAt::OutputEnqueue) output_decision(api, pkt, b, occ);
  }
  void on_output_dequeue(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (pkt.kind == PacketKind::Data && p_.validate_at == ValidateAt::OutputDequeue) output_decision(api, pkt, b, b.occupancy);
  }
  void tick(RouterApi& api) override {
    if (!samples_) return;
    std::uint64_t in = 0, out = 0;
    for (PortId port : connected_)
      for (VcId vc : data_vcs_) {
        in += api.input_occupancy(port, vc);
        out += api.output_queue_occupancy(port, vc);
      }
    *samples_ += connected_.size();
    *in_cycles_ += in;
    *out_cycles_ += out;
    *in_capacity_cycles_ += in_capacity_total_;
  }
  void trace(TraceSink& s) override {
    s.value(trace_marks_, "mvcm.marks");
    s.value(trace_validations_, "mvcm.validations");
  }

 private:
  // MVPM at the input buffer: the marker's input lane (blocks/mvcm_marker).
  void input_decision(RouterApi& api, Packet& pkt, const BufferState& b, std::uint32_t occ) {
    if (markers_[b.port].mark(true, true, pkt.has(f_.mb), occ)) mark(api, pkt, "mvcm_mark", b, occ);
  }
  // At the output queue: the marker's output lane validates (MVPM), or its comparator alone marks
  // (OPM). Data packets only.
  void output_decision(RouterApi& api, Packet& pkt, const BufferState& b, std::uint32_t occ) {
    const blocks::MvcmMarkerSlot& m = markers_[b.port];
    const bool mb = pkt.has(f_.mb), vb = pkt.has(f_.vb);
    if (m.violation(true, mb, vb))
      throw ModelError(fmt::format("mvcm: packet {} at output {} of router {} carries VB without MB", pkt.id, b.port,
                                   api.id()));
    if (p_.marking == Marking::Mvpm && m.validate(true, true, mb, vb, occ)) {
      pkt.set(f_.vb);
      ++validations_;
      ++trace_validations_;
      watch(api, pkt, "mvcm_validate", "out", b, occ);
    } else if (p_.marking == Marking::Opm && m.out_above(occ)) {
      mark(api, pkt, "opm_mark", b, occ);
    }
  }
  void mark(RouterApi& api, Packet& pkt, const char* event, const BufferState& b, std::uint32_t occ) {
    if (pkt.has(f_.mb)) return;  // already marked upstream
    pkt.set(f_.mb);
    ++marks_;
    ++trace_marks_;
    watch(api, pkt, event, p_.marking == Marking::Opm ? "out" : "in", b, occ);
  }
  // Renato's proposal: the input buffer of `b` just became full. Every output its packets
  // request is congested; every packet in this switch's input buffers routed to one is marked.
  void congest(RouterApi& api, Packet& arriving, const BufferState& b, std::uint32_t occ) {
    congested_.clear();
    congested_.push_back(b.out_port);
    api.visit_input(b.port, [&](Packet& q, const QueuedAt& at) {
      if (q.kind == PacketKind::Data && std::find(congested_.begin(), congested_.end(), at.out_port) == congested_.end())
        congested_.push_back(at.out_port);
    });
    mark(api, arriving, "full_buffer_mark", b, occ);
    for (PortId out : congested_)
      api.visit_output(out, [&](Packet& q, const QueuedAt& at) {
        if (!at.output_queue && q.kind == PacketKind::Data) mark(api, q, "full_buffer_mark", b, occ);
      });
  }
  void watch(RouterApi& api, Packet& pkt, const char* event, const char* where, const BufferState& b, std::uint32_t occ) {
    if (PacketWatch* w = api.packets().watch(); w && pkt.has(kFlagWatched))
      w->event(api.now(), pkt, {}, event, fmt::format("{}={} occupancy={}/{}", where, b.port, occ, b.capacity));
  }

  const MvcmParams& p_;
  MvcmFormat f_;
  std::uint32_t max_packet_;
  std::vector<blocks::MvcmMarkerSlot> markers_;  // per port
  std::vector<PortId> connected_, congested_;
  std::vector<VcId> data_vcs_;
  std::uint64_t &marks_, &validations_;
  std::uint64_t &in_sum_, &in_cap_, &out_sum_, &out_cap_;
  std::uint64_t *samples_ = nullptr, *in_cycles_ = nullptr, *in_capacity_cycles_ = nullptr, *out_cycles_ = nullptr;
  std::uint64_t in_capacity_total_ = 0;
  std::uint32_t trace_marks_ = 0, trace_validations_ = 0;
};

// ---- source side ---------------------------------------------------------------------------------

// Round-robin per packet over the flows that have something to send and whose controller lets
// them send now. Scans only the flows with something queued (a bitmap), so a NIC with many
// destinations and few active flows pays little.
class FlowScheduler {
 public:
  explicit FlowScheduler(std::uint32_t flows) : flows_(flows), bits_((flows + 63) / 64, 0) {}
  void set_ready(NodeId f, bool ready) {
    if (ready) bits_[f >> 6] |= 1ull << (f & 63);
    else bits_[f >> 6] &= ~(1ull << (f & 63));
  }
  template <class Eligible>
  int pick(Eligible&& eligible) const {
    const std::size_t words = bits_.size();
    for (std::size_t i = 0; i <= words; ++i) {
      const std::size_t w = (ptr_ / 64 + i) % words;
      std::uint64_t bits = bits_[w];
      if (i == 0) bits &= ~0ull << (ptr_ % 64);           // from the pointer on
      else if (i == words) bits &= (1ull << (ptr_ % 64)) - 1;  // wrapped: before the pointer
      for (; bits != 0; bits &= bits - 1) {
        const auto f = static_cast<std::uint32_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
        if (eligible(f)) return static_cast<int>(f);
      }
    }
    return -1;
  }
  void granted(std::uint32_t f) { ptr_ = f + 1 == flows_ ? 0 : f + 1; }

 private:
  std::uint32_t flows_;
  std::vector<std::uint64_t> bits_;
  std::uint32_t ptr_ = 0;
};

// What every source policy offers the NIC hooks.
class SourcePolicy : public InjectionPolicy {
 public:
  virtual void ack(NodeId flow, Cycle now, MvcmAck kind) = 0;
  // A message for `flow` was posted; `queue_was_empty`: nothing of the flow was waiting.
  virtual void generated(NodeId, bool /*queue_was_empty*/) {}
};

// MVCM: the dynamic window and waiting slots (blocks/mvcm_flow_ctrl, the core of
// rtl/ccn_mvcm_flow_ctrl.sv). As in the hardware, a cycle's ACK and restarts take effect at its
// clock edge (MvcmFlowCtrl::commit): eligibility during a cycle is that of the state at its start.
// A second ACK in one cycle (possible only when a NIC drains stalled ejection lanes) waits in a
// FIFO for the next edge, as in front of the RTL's single ACK lane (counted: acks_deferred).
class WindowSource : public SourcePolicy {
 public:
  WindowSource(const blocks::MvcmFlowCtrlParams& fp, bool reset_on_empty, CounterSet& c, const NicApi& nic)
      : ctrl_(fp, nic.block_source(), std::string(nic.component_name()) + " mvcm flow controller"),
        sched_(fp.num_flows),
        reset_on_empty_(reset_on_empty),
        restarts_(c.counter("flow_restarts")),
        ws_started_(c.counter("waiting_slots_started")),
        outstanding_peak_(c.counter("outstanding_peak", CounterSet::Merge::Max)),
        ws_peak_(c.counter("waiting_slots_peak", CounterSet::Merge::Max)),
        flow_cycles_(c.counter("outstanding_flow_cycles")),
        active_cycles_(c.counter("active_flow_cycles")),
        deferred_(c.counter("acks_deferred")),
        dw_(fp.num_flows, fp.dw_max),
        ws_(fp.num_flows, 0),
        outstanding_(fp.num_flows, 0) {}
  void set_ready(NodeId dst, bool ready) override { sched_.set_ready(dst, ready); }
  int pick(Cycle now) const override {
    return sched_.pick([&](std::uint32_t f) { return ctrl_.eligible(f, now); });
  }
  bool clocked() const override { return true; }
  void commit(Cycle now, int granted, std::uint32_t) override {
    if (granted < 0 && acks_.empty() && restart_flows_.empty()) return;
    integrate(now);
    blocks::MvcmFlowCtrl::Events e;
    e.sent = granted;
    if (!acks_.empty()) {
      e.ack = acks_.front();
      acks_.pop_front();
    }
    e.restarts = restart_flows_.data();
    e.num_restarts = restart_flows_.size();
    const bool had_ws = e.ack.valid && ctrl_.waiting_slots(e.ack.flow) > 0;
    for (std::uint32_t f : restart_flows_)
      if (ctrl_.outstanding(f) == 0) ++restarts_;  // a restart applies to a flow with nothing outstanding
    if (!ctrl_.commit(now, e))
      throw ModelError(fmt::format("mvcm source: flow controller contract broken at cycle {} (start of flow {}, ACK from {})",
                                   now, granted, e.ack.valid ? static_cast<int>(e.ack.flow) : -1));
    if (granted >= 0) {
      const auto f = static_cast<std::uint32_t>(granted);
      sched_.granted(f);
      outstanding_peak_ = std::max<std::uint64_t>(outstanding_peak_, ctrl_.outstanding(f));
      show(f);
    }
    if (e.ack.valid) {
      const std::uint64_t ws = ctrl_.waiting_slots(e.ack.flow);
      if (ws > 0 && !had_ws) ++ws_started_;
      ws_peak_ = std::max(ws_peak_, ws);
      show(e.ack.flow);
    }
    for (std::uint32_t f : restart_flows_) show(f);
    restart_flows_.clear();
  }
  void ack(NodeId f, Cycle, MvcmAck kind) override {
    if (!acks_.empty()) ++deferred_;  // waits behind an earlier ACK
    acks_.push_back({true, f, kind});
  }
  void generated(NodeId f, bool queue_was_empty) override {
    if (reset_on_empty_ && queue_was_empty) restart_flows_.push_back(f);
  }
  void trace(TraceSink& s) override {
    s.value(throttled_, "mvcm.throttled_flows");
    s.value(waiting_, "mvcm.waiting_flows");
    const std::uint32_t shown = std::min<std::uint32_t>(ctrl_.params().num_flows, kTracedFlows);
    for (std::uint32_t f = 0; f < shown; ++f) {
      s.value(dw_[f], fmt::format("mvcm.flow_{}.dw", f), 8);
      s.value(ws_[f], fmt::format("mvcm.flow_{}.ws", f));
      s.value(outstanding_[f], fmt::format("mvcm.flow_{}.outstanding", f), 8);
    }
  }

 private:
  static constexpr std::uint32_t kTracedFlows = 64;  // per-flow waveforms for the first flows only
  // Time-average of packets outstanding per flow with something outstanding (omega measured,
  // paper 001 section 4.3.2): sums of outstanding packets and active flows over cycles, from the
  // state the flow controller holds (updated at edges).
  void integrate(Cycle now) {
    flow_cycles_ += total_outstanding_ * (now - last_);
    active_cycles_ += active_ * (now - last_);
    last_ = now;
  }
  // Waveform copies of one flow's state, the NIC's throttled/waiting flow counts and the
  // outstanding totals.
  void show(std::uint32_t f) {
    const bool was_throttled = dw_[f] < ctrl_.params().dw_max || ws_[f] > 0, was_waiting = ws_[f] > 0;
    const std::uint32_t was_outstanding = outstanding_[f];
    dw_[f] = ctrl_.window(f);
    ws_[f] = static_cast<std::uint32_t>(std::min<std::uint64_t>(ctrl_.waiting_slots(f), 0xffffffffu));
    outstanding_[f] = ctrl_.outstanding(f);
    const bool throttled = dw_[f] < ctrl_.params().dw_max || ws_[f] > 0, waiting = ws_[f] > 0;
    throttled_ += static_cast<std::uint32_t>(throttled) - static_cast<std::uint32_t>(was_throttled);
    waiting_ += static_cast<std::uint32_t>(waiting) - static_cast<std::uint32_t>(was_waiting);
    total_outstanding_ += outstanding_[f];
    total_outstanding_ -= was_outstanding;
    active_ += static_cast<std::uint64_t>(outstanding_[f] > 0) - static_cast<std::uint64_t>(was_outstanding > 0);
  }
  blocks::MvcmFlowCtrlSlot ctrl_;
  FlowScheduler sched_;
  bool reset_on_empty_;
  std::uint64_t &restarts_, &ws_started_, &outstanding_peak_, &ws_peak_, &flow_cycles_, &active_cycles_, &deferred_;
  std::uint64_t total_outstanding_ = 0, active_ = 0;
  Cycle last_ = 0;
  std::deque<blocks::MvcmFlowCtrl::AckLane> acks_;  // ACKs waiting for an edge (normally at most one)
  std::vector<std::uint32_t> restart_flows_;       // this cycle's restart lanes
  std::vector<std::uint32_t> dw_, ws_, outstanding_;
  std::uint32_t throttled_ = 0, waiting_ = 0;
};

// Pfister's implementation (InfiniBand CCA): the CCT index per flow raised by each hot ACK and
// lowered by a free-running timer, IPD = index x ipd_unit: the ECN mechanism's mirrored
// injection engine (blocks/injection_engine, rtl/ccn_injection_engine.sv). No window.
class CctSource : public SourcePolicy {
 public:
  CctSource(const NicApi& nic, std::uint32_t ipd_unit, std::uint32_t increase, std::uint32_t limit, std::uint32_t timer)
      : engine_(blocks::InjectionEngineParams{nic.num_nodes(), ipd_unit, increase, limit, timer}, nic.block_source(),
                std::string(nic.component_name()) + " mvcm cct") {}
  void set_ready(NodeId dst, bool ready) override { engine_.set_nonempty(dst, ready); }
  int pick(Cycle now) const override { return engine_.pick(now, true); }
  void commit(Cycle now, int granted, std::uint32_t flits) override {
    engine_.commit(now, granted, flits, hot_.data(), hot_.size());
    hot_.clear();
    throttled_ = static_cast<std::uint32_t>(engine_.throttled());
  }
  bool clocked() const override { return true; }
  void ack(NodeId flow, Cycle, MvcmAck kind) override {
    if (kind == MvcmAck::Hot) hot_.push_back(flow);
  }
  void trace(TraceSink& s) override { s.value(throttled_, "mvcm.throttled_flows"); }

 private:
  blocks::InjectionEngineSlot engine_;
  std::vector<std::uint32_t> hot_;  // this cycle's hot ACKs
  std::uint32_t throttled_ = 0;
};

// Renato's proposal as paper 001 evaluates it: a static window and linear inter-packet delay
// (LIPD) per flow: + ipd_unit per marked ACK, - ipd_unit per unmarked one (not below 0). The
// delay separates the end of one packet from the start of the next.
class LipdSource : public SourcePolicy {
 public:
  LipdSource(std::uint32_t flows, std::uint32_t window, Cycle step, Cycle limit, CounterSet& c)
      : sched_(flows),
        window_(window),
        step_(step),
        limit_(limit),
        flows_(flows),
        ipd_peak_(c.counter("ipd_peak", CounterSet::Merge::Max)) {}
  void set_ready(NodeId dst, bool ready) override { sched_.set_ready(dst, ready); }
  int pick(Cycle now) const override {
    return sched_.pick([&](std::uint32_t f) {
      const Flow& s = flows_[f];
      return s.outstanding < window_ && now >= s.last_end + s.ipd;
    });
  }
  void commit(Cycle now, int granted, std::uint32_t flits) override {
    if (granted < 0) return;
    Flow& s = flows_[static_cast<std::uint32_t>(granted)];
    ++s.outstanding;
    s.last_end = now + flits;
    sched_.granted(static_cast<std::uint32_t>(granted));
  }
  void ack(NodeId f, Cycle now, MvcmAck kind) override {
    Flow& s = flows_[f];
    if (s.outstanding == 0)
      throw ModelError(fmt::format("renato source: ACK from {} at cycle {} with no packet outstanding", f, now));
    const bool was = s.ipd > 0;
    --s.outstanding;
    if (kind == MvcmAck::Hot) s.ipd = std::min(s.ipd + step_, limit_);
    else if (kind == MvcmAck::Cold) s.ipd = s.ipd > step_ ? s.ipd - step_ : 0;
    ipd_peak_ = std::max<std::uint64_t>(ipd_peak_, s.ipd);
    throttled_ += static_cast<std::uint32_t>(s.ipd > 0) - static_cast<std::uint32_t>(was);
  }
  void trace(TraceSink& s) override { s.value(throttled_, "mvcm.throttled_flows"); }

 private:
  struct Flow {
    std::uint32_t outstanding = 0;
    Cycle ipd = 0, last_end = 0;
  };
  FlowScheduler sched_;
  std::uint32_t window_;
  Cycle step_, limit_;
  std::vector<Flow> flows_;
  std::uint64_t& ipd_peak_;
  std::uint32_t throttled_ = 0;
};

class MvcmNic : public NicHooks {
 public:
  MvcmNic(const MvcmParams& p, const MvcmFormat& f, std::unique_ptr<SourcePolicy> source, CounterSet& c)
      : p_(p),
        f_(f),
        source_(std::move(source)),
        cold_(c.counter("acks_cold")),
        warm_(c.counter("acks_warm")),
        hot_(c.counter("acks_hot")),
        unmarked_validated_(c.counter("validated_unmarked_packets")),
        delivered_marked_(c.counter("delivered_marked_packets")),
        delivered_validated_(c.counter("delivered_validated_packets")) {}
  void on_message(NicApi&, const MessageInfo& m, bool queue_was_empty) override {
    if (source_) source_->generated(m.dst, queue_was_empty);
  }
  // Destination: the ACK carries the data packet's marks back.
  void on_data(NicApi& api, const Packet& data, Packet* ack) override {
    const bool mb = data.has(f_.mb), vb = data.has(f_.vb);
    if (vb && !mb) ++unmarked_validated_;  // never, by the switch rules (checked by the tests)
    if (api.measuring()) {
      delivered_marked_ += mb;
      delivered_validated_ += mb && vb;
    }
    if (!ack) return;
    if (mb) ack->set(f_.mb);
    if (vb) ack->set(f_.vb);
  }
  // Source: an ACK's marks classify its flow (Table 1).
  void on_control(NicApi& api, const Packet& ack) override {
    if (ack.kind != PacketKind::Ack || !source_) return;
    const MvcmAck kind = classify(ack.has(f_.mb), ack.has(f_.vb));
    (kind == MvcmAck::Hot ? hot_ : kind == MvcmAck::Warm ? warm_ : cold_)++;
    source_->ack(ack.src, api.now(), kind);
  }
  InjectionPolicy* injection_policy() override { return source_.get(); }

 private:
  MvcmAck classify(bool mb, bool vb) const {
    if (!p_.window_actions && p_.source == Source::Window) return MvcmAck::Cold;
    if (p_.act_on == ActOn::Marked) return mb ? MvcmAck::Hot : MvcmAck::Cold;
    if (mb && vb) return MvcmAck::Hot;
    if (mb && p_.warm_actions) return MvcmAck::Warm;
    return MvcmAck::Cold;
  }
  const MvcmParams& p_;
  MvcmFormat f_;
  std::unique_ptr<SourcePolicy> source_;
  std::uint64_t &cold_, &warm_, &hot_, &unmarked_validated_, &delivered_marked_, &delivered_validated_;
};

class Mvcm : public Mechanism {
 public:
  Mvcm(const MvcmParams& p, const MechanismContext& ctx)
      : p_(p),
        f_{ctx.format.declare_flag("mb"), ctx.format.declare_flag("vb")},
        net_(mvcm::derive(ctx.topology, ctx.router, ctx.link, ctx.nic)),
        max_packet_(ctx.nic.max_packet) {
    rtt_min_ = p_.rtt_min ? p_.rtt_min : net_.rtt_min;
    dw_max_ = p_.dw_max ? p_.dw_max
                        : mvcm::dw_max_of(mvcm::omega(static_cast<double>(rtt_min_), net_.data_flits, 1.0));
    // The window is an 8-bit count (blocks/mvcm_flow_ctrl, the RTL's DwMax): a network whose
    // round trip holds more packets needs an explicit window.
    if (dw_max_ > 255)
      throw config::ConfigError(fmt::format(
          "cc.dw_max: the derived window ceil(omega) = {} (RTT_min {} cycles / {}-flit data packets) is above the "
          "largest, 255: set cc.dw_max (1..255) or cc.rtt_min",
          dw_max_, rtt_min_, net_.data_flits));
    ws_factor_ = p_.ws_factor ? p_.ws_factor : net_.radix;
    ws_increases_ = !p_.ws_cap ? 0 : p_.ws_increases ? p_.ws_increases : net_.stages;
    ipd_unit_ = p_.ipd_unit ? p_.ipd_unit : static_cast<std::uint32_t>(rtt_min_);
    timer_ = p_.timer ? p_.timer : static_cast<std::uint32_t>(4 * rtt_min_);
  }
  std::string name() const override { return p_.preset; }
  // The longest a ready flow may wait: the longest waiting interval (window), the largest CCT
  // index or LIPD delay (cct, lipd).
  Cycle max_injection_gap() const override {
    switch (p_.source) {
      case Source::Window: {
        const blocks::MvcmFlowCtrl ctrl(blocks::MvcmFlowCtrlParams{1, dw_max_, ws_factor_, ws_increases_, rtt_min_});
        Cycle gap = rtt_min_;
        for (std::uint32_t e = 0; e < ctrl.max_exponent(); ++e) gap *= ws_factor_;
        return gap;
      }
      case Source::Cct:
      case Source::Lipd:
        return Cycle{p_.ccti_limit} * ipd_unit_;
      case Source::None:
        break;
    }
    return 0;
  }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  bool requires_acks() const override { return p_.source != Source::None; }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& router, CounterSet& counters) const override {
    report(counters);
    return std::make_unique<MvcmSwitch>(p_, f_, max_packet_, router, counters);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& counters) const override {
    report(counters);
    std::unique_ptr<SourcePolicy> source;
    switch (p_.source) {
      case Source::Window:
        source = std::make_unique<WindowSource>(
            blocks::MvcmFlowCtrlParams{nic.num_nodes(), dw_max_, ws_factor_, ws_increases_, rtt_min_}, p_.reset_on_empty,
            counters, nic);
        break;
      case Source::Cct:
        source = std::make_unique<CctSource>(nic, ipd_unit_, p_.ccti_increase, p_.ccti_limit, timer_);
        break;
      case Source::Lipd:
        source = std::make_unique<LipdSource>(nic.num_nodes(), dw_max_, ipd_unit_, Cycle{p_.ccti_limit} * ipd_unit_, counters);
        break;
      case Source::None:
        break;
    }
    return std::make_unique<MvcmNic>(p_, f_, std::move(source), counters);
  }

 private:
  // The parameters in force, in stats.json's cc section (the same in every component: Max).
  void report(CounterSet& c) const {
    c.counter("dw_max", CounterSet::Merge::Max) = dw_max_;
    c.counter("rtt_min", CounterSet::Merge::Max) = rtt_min_;
    c.counter("ws_factor", CounterSet::Merge::Max) = ws_factor_;
    c.counter("ws_increases", CounterSet::Merge::Max) = ws_increases_;
    c.counter("omega_x1000", CounterSet::Merge::Max) =
        static_cast<std::uint64_t>(std::lround(1000.0 * static_cast<double>(rtt_min_) / net_.data_flits));
  }
  MvcmParams p_;
  MvcmFormat f_;
  mvcm::NetworkParams net_;
  std::uint32_t max_packet_;
  Cycle rtt_min_ = 0;
  std::uint32_t dw_max_ = 1, ws_factor_ = 1, ws_increases_ = 0, ipd_unit_ = 0, timer_ = 0;
};

std::unique_ptr<Mechanism> MvcmParams::create(const MechanismContext& ctx) const {
  return std::make_unique<Mvcm>(*this, ctx);
}

config::PolyRegistrar<MechanismParams, MvcmPresetParams<kMvcm>> reg_mvcm("mvcm", "MVCM: marking and validation (paper 001)");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kMarkedOnly>> reg_marked(
    "mvcm_marked_only", "MVCM acting on marked packets (paper 001 Fig. 13)");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kNoWarm>> reg_no_warm(
    "mvcm_no_warm", "MVCM without warm actions (paper 001 Fig. 14b)");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kNoWsCap>> reg_no_cap(
    "mvcm_no_ws_cap", "MVCM without the waiting-slot limit (paper 001 Fig. 16b)");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kStaticWindow>> reg_static(
    "static_window", "a static per-flow window (paper 001 Fig. 4)");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kRenato>> reg_renato(
    "renato", "Renato's proposal as paper 001 evaluates it");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kPfister>> reg_pfister(
    "pfister", "Pfister's implementation (InfiniBand CCA) as paper 001 evaluates it");
config::PolyRegistrar<MechanismParams, MvcmPresetParams<kPfisterValidated>> reg_pfister_validated(
    "pfister_validated", "Pfister's source acting on validated packets (paper 001 Fig. 12)");

}  // namespace
}  // namespace ccnet
