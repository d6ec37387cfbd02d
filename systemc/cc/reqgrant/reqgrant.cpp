// Proactive request/grant reservation with a central scheduler (paper 002 section 5.1, notes
// 1.4). Three parts:
//   * the adapter (NIC hooks): per-destination request (pr) and grant (rg) counters, one request
//     message per cycle under the throttle u, injection of granted packets only, each through
//     the middle switch whose crosspoint slot its grant reserved; at the egress, a reorder buffer that delivers
//     in order and returns one end-to-end credit per in-order delivery;
//   * the scheduler module (built in Mechanism::build): N output credit arbiters
//     (blocks/credit_arbiter) and N input arbiters, reached over fixed-latency wires (islip: an
//     iSLIP match instead of the output arbiters; scheduler distributed: distributed.cpp);
//   * switch hooks that only observe: the C-crosspoint occupancy and cycles an egress link had
//     no credit (the paper's invariants, notes R15).
// One cycle is one packet time: packets are one flit (validated).
#include "cc/reqgrant/reqgrant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <systemc>

#include "blocks/credit_arbiter.hpp"
#include "cc/reqgrant/distributed.hpp"
#include "cc/reqgrant/observer.hpp"
#include "cc/reqgrant/resequencer.hpp"
#include "core/rng.hpp"
#include "core/process_error.hpp"
#include "core/ring.hpp"
#include "core/trace_sink.hpp"
#include "nic/nic_config.hpp"
#include "router/router_config.hpp"
#include "topology/multistage.hpp"

namespace ccnet::reqgrant {

namespace {

// The schemes whose packets wait for a grant from the scheduler (requests, pr/rg counters).
constexpr bool granted(Scheme s) { return s == Scheme::Reserve || s == Scheme::Islip; }
// The schemes without any control plane (injection free, the adapter only sprays and re-sequences).
constexpr bool ungated(Scheme s) { return s == Scheme::None || s == Scheme::NetVoq; }

// One schema per registered name: the keys that name uses.
template <Scheme S>
struct PresetParams : Params {
  PresetParams() { scheme = S; }
  static const config::Schema& schema();
};

template <>
const config::Schema& PresetParams<Scheme::Reserve>::schema() {
  static config::Schema s(
      "Proactive request/grant buffer reservation with a central scheduler (paper 002, Chrysos et al., section 5.1): "
      "a packet enters the three-stage Clos only after its output's credit arbiter reserved a slot in the last-stage "
      "crosspoint of the middle switch it will cross; the slot returns when the packet is delivered in order. Needs "
      "topology clos and one-flit packets (one cycle = one packet time). docs/mechanisms/request-grant.md.");
  static bool init = [] {
    config::Declare<PresetParams>(s)
        .field("u", &Params::u, 32u,
               "request throttle: most packets a flow may have requested and not yet been granted (notes G2: 32 everywhere)",
               {1, 65535})
        .field("crosspoint", &Params::crosspoint, 12u,
               "B: slots of each last-stage crosspoint buffer (middle switch -> output) an output arbiter reserves (section 6: 12)",
               {1, 65535})
        .field("request_combine", &Params::request_combine, 1u,
               "most packets one request message asks for (notes G1: the simulated systems do not combine, 1)", {1, 65535})
        .field("request_latency", &Params::request_latency, 3u,
               "cycles from an adapter's request to the output arbiter's counter (notes G4: 3 one-cycle hops)", {1, 1000})
        .field("grant_latency", &Params::grant_latency, 3u,
               "cycles from the input arbiter's grant to the adapter (notes G4: 3)", {1, 1000})
        .field("credit_latency", &Params::credit_latency, 3u,
               "cycles from an in-order delivery to the end-to-end credit at the output arbiter (notes G4: 3)", {1, 1000})
        .choice("order", &Params::order, VisitOrder::Random, {{"random", VisitOrder::Random}, {"common", VisitOrder::Common}},
                "output arbiters' round-robin visiting order over the inputs: a random but fixed permutation per output "
                "(section 5.1), or the same order 0..N-1 for all (the synchronisation the paper warns of)")
        .choice("path_start", &Params::path_start, PathStart::Spread, {{"spread", PathStart::Spread}, {"zero", PathStart::Zero}},
                "where output arbiter j's distribution pointer for input i starts (the paper does not say): middle switch "
                "(i + j) mod M, so in-phase grants to one input take different paths, or middle switch 0 for every flow")
        .field("strict_path", &Params::strict_path, true,
               "notes G5: a flow is eligible only if the crosspoint its distribution pointer selects holds a credit "
               "(false: the first middle switch at or after the pointer with a credit)")
        .field("grant_start", &Params::grant_start, std::uint64_t{0},
               "central scheduler: the output arbiters grant nothing before this cycle, so with backlogged sources and "
               "request_combine = u every request counter is full and every arbiter at its first input when they start "
               "(a reading of the paper's saturated start for R5; 0: grant from the first cycle)")
        .field("phase_stats", &Params::phase_stats, false,
               "central scheduler: count, from grant_start on, the inputs the output arbiters pass over per choice for "
               "want of a request or of a credit, and the pairs of arbiters at one round-robin position (R5's in-phase "
               "grants; costs an extra scan per arbiter and cycle)")
        .field("weighted", &Params::weighted, false,
               "output arbiters serve eligible flows by smooth weighted round robin over `weights` instead of round "
               "robin in their visiting order (section 6.6: weighted max-min fairness)")
        .list("weights", static_cast<std::vector<std::uint32_t> PresetParams::*>(&Params::weights), std::vector<std::uint32_t>{},
              "with weighted: the weight (>= 1) of each input at every output arbiter, one per node (empty: all 1)",
              {1, 1u << 20})
        .choice("scheduler", &Params::scheduler, SchedulerDesign::Central,
                {{"central", SchedulerDesign::Central}, {"distributed", SchedulerDesign::Distributed}},
                "where the output arbiters are: one central scheduler over fixed-latency wires (section 5.1), or the C "
                "switches of a three-stage scheduling network of request and grant queues (section 5.2)")
        .field("k", &Params::k, 4u,
               "distributed: K, the request (grant) credits each sender holds for each queue of the next switch; the "
               "shared queues hold M x K (notes G3: one local round trip, 4)",
               {1, 4096})
        .field("request_speedup", &Params::request_speedup, 1.0,
               "distributed: requests per cycle a B -> C request link carries on average (at most 2 in one cycle; the "
               "fan-in run of section 6: 1.1)",
               {1.0, 2.0})
        .field("reorder_buffer", &Params::reorder_buffer, 300u,
               "egress reorder buffer, packets (section 6: 300); the reservations bound the occupancy by M x crosspoint, "
               "which must fit (exceeding it at run time is an internal error)",
               {1, 1u << 24});
    return true;
  }();
  (void)init;
  return s;
}

template <>
const config::Schema& PresetParams<Scheme::None>::schema() {
  static config::Schema s(
      "Paper 002's baseline (section 6, notes G12): the same three-stage Clos with per-packet spraying by per-flow "
      "pointers at the adapters and hop-by-hop credits only, no reservation; egress adapters re-sequence each flow "
      "(the reorder buffer is not bounded: its peak is reported). Needs topology clos and one-flit packets.");
  return s;
}

template <>
const config::Schema& PresetParams<Scheme::NetVoq>::schema() {
  static config::Schema s(
      "Network-level VOQs (paper 002 section 6, notes section 2 item 2): the sprayed baseline (spray_reorder) with one "
      "vnet per fabric output, so every switch input and output keeps a queue per destination with its own credits "
      "(router.buffer and router.output_buffer are then per destination); a congested output's packets can block only "
      "each other. Needs topology clos, one-flit packets and at most 256 nodes.");
  return s;
}

template <>
const config::Schema& PresetParams<Scheme::Islip>::schema() {
  static config::Schema s(
      "iSLIP request/grant (paper 002 section 6, notes section 2 item 4) on the sprayed Clos: adapters request each "
      "packet from a central scheduler as reqgrant does; every cycle the scheduler computes an iSLIP match (round-robin "
      "grant and accept pointers, `iterations` rounds) and each matched input may inject one packet to its output; no "
      "buffer is reserved and the egress re-sequences. The paper's iSLIP is an ideal single-stage crossbar; ours runs "
      "its schedule over the fixed-latency wires and the Clos (docs/mechanisms/request-grant.md).");
  static bool init = [] {
    config::Declare<PresetParams>(s)
        .field("u", &Params::u, 32u, "request throttle: most packets a flow may have requested and not yet been granted", {1, 65535})
        .field("request_latency", &Params::request_latency, 1u, "cycles from an adapter's request to the scheduler's counter", {1, 1000})
        .field("grant_latency", &Params::grant_latency, 1u, "cycles from a match to the adapter", {1, 1000})
        .field("iterations", &Params::iterations, 2u, "iSLIP iterations per cycle (the paper's Fig. 11: 2)", {1, 64});
    return true;
  }();
  (void)init;
  return s;
}

template <>
const config::Schema& PresetParams<Scheme::Window>::schema() {
  static config::Schema s(
      "End-to-end acknowledgements with a window (paper 002 section 6, the end2end-ACK comparison): the sprayed "
      "baseline, and a flow may have at most `window` packets not yet delivered in order; the egress acknowledges "
      "each in-order delivery out of band (fixed-latency wires, no data bandwidth). Needs topology clos and "
      "one-flit packets.");
  static bool init = [] {
    config::Declare<PresetParams>(s)
        .field("window", &Params::window, 16u, "W: unacknowledged packets per flow (section 6: 16)", {1, 65535})
        .field("ack_latency", &Params::ack_latency, 2u,
               "cycles from an in-order delivery to the source's window (the paper's ACKs have zero delay; 2 is the "
               "least over the out-of-band wires)",
               {2, 1000});
    return true;
  }();
  (void)init;
  return s;
}

}  // namespace

void Params::validate(const config::BindContext& ctx, const RouterConfig&, const NicConfig& n) const {
  if (n.max_packet != 1)
    ctx.fail("nic.max_packet", fmt::format("reqgrant models one packet per cycle (packet time = 1 cycle): nic.max_packet must be 1, not {}",
                                           n.max_packet));
  if (granted(scheme) && request_combine > u)
    ctx.fail("cc.request_combine", fmt::format("{} exceeds the throttle cc.u = {}", request_combine, u));
  if (scheduler == SchedulerDesign::Distributed && request_combine != 1)
    ctx.fail("cc.request_combine", "the distributed scheduler carries one packet per request message (1)");
  if (scheduler == SchedulerDesign::Distributed && (grant_start != 0 || phase_stats))
    ctx.fail(grant_start != 0 ? "cc.grant_start" : "cc.phase_stats", "applies to the central scheduler only");
}

namespace {

struct Shape {
  std::uint32_t n = 0, m = 0;  // ports, switch size (middle switches)
};

// ---- the adapter: source (requests, grant-gated injection) and egress (reorder buffer) -------

// Round robin over the destinations whose send queue is ready and that may send: hold a grant
// (reqgrant, islip: rg > 0), have room in their window (e2e_window: outstanding < W), have room
// in their own vnet's queue at the A switch (netvoq: a packet that waited for credit would block
// the other destinations' packets behind it in the NIC), or always (spray_reorder).
class GatedInjection final : public InjectionPolicy {
 public:
  GatedInjection(std::uint32_t n, Scheme scheme, std::uint32_t window, const std::vector<std::uint32_t>& rg,
                 const std::vector<std::uint32_t>& outstanding, const std::vector<std::uint32_t>& room)
      : ready_(n, 0), scheme_(scheme), window_(window), rg_(rg), outstanding_(outstanding), room_(room) {}
  void set_ready(NodeId dst, bool ready) override { ready_[dst] = ready; }
  int pick(Cycle) const override {
    const auto n = static_cast<std::uint32_t>(ready_.size());
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t d = (ptr_ + k) % n;
      if (ready_[d] && may_send(d)) return static_cast<int>(d);
    }
    return -1;
  }
  void commit(Cycle, int granted, std::uint32_t) override {
    if (granted >= 0) ptr_ = (static_cast<std::uint32_t>(granted) + 1) % static_cast<std::uint32_t>(ready_.size());
  }

 private:
  bool may_send(NodeId d) const {
    switch (scheme_) {
      case Scheme::Reserve:
      case Scheme::Islip: return rg_[d] > 0;
      case Scheme::Window: return outstanding_[d] < window_;
      case Scheme::NetVoq: return room_[d] > 0;
      case Scheme::None: break;
    }
    return true;
  }
  std::vector<std::uint8_t> ready_;
  Scheme scheme_;
  std::uint32_t window_;
  const std::vector<std::uint32_t>& rg_;
  const std::vector<std::uint32_t>& outstanding_;
  const std::vector<std::uint32_t>& room_;
  std::uint32_t ptr_ = 0;
};

constexpr unsigned kSeqWord = 0;  // payload word: the packet's per-flow sequence number

class Adapter final : public NicHooks {
 public:
  Adapter(const Params& p, Shape s, NodeId id, CounterSet& c)
      : p_(p), s_(s), id_(id), voq_(s.n, 0), pr_(s.n, 0), rg_(s.n, 0), outstanding_(s.n, 0), room_(s.n, 1), dptr_(s.n), granted_paths_(s.n), seq_(s.n, 0), reseq_("reqgrant", id, s.n), host_next_(s.n, 0),
        policy_(s.n, p.scheme, p.window, rg_, outstanding_, room_), requests_(c.counter("request_messages")), grants_(c.counter("grants_received")),
        pr_peak_(c.counter("pending_requests_peak", CounterSet::Merge::Max)),
        reorder_peak_(c.counter("reorder_peak", CounterSet::Merge::Max)), resequenced_(c.counter("resequenced_packets")),
        reseq_wait_(c.counter("resequencing_wait_cycles")), in_order_(c.counter("in_order_packets")),
        order_violations_(c.counter("host_order_violations")),
        injection_credit_waits_(c.counter("injection_credit_waits")) {
    for (NodeId d = 0; d < s.n; ++d) dptr_[d] = (id + d) % s.m;
  }
  std::uint32_t uses() const override { return kDeliveryHold; }
  InjectionPolicy* injection_policy() override { return &policy_; }

  void connect(const AdapterWires& w, bool distributed) {
    req_ = w.request;
    gnt_ = w.grant;
    cred_ = w.credit;
    if (distributed) {
      rqcred_in_ = w.request_credit;
      rqcred_.assign(s_.m, p_.k);
      rdist_.resize(s_.n);
      for (NodeId d = 0; d < s_.n; ++d) rdist_[d] = (id_ + d) % s_.m;
    }
  }

  void on_message(NicApi&, const MessageInfo& m, bool) override {
    voq_[m.dst] += m.packets;
    voq_total_ += m.packets;
  }

  void on_packet_formed(NicApi& api, Packet& p) override {
    const NodeId d = p.dst;
    // netvoq: the policy chose d because its vnet had room; a packet formed without a credit would
    // hold the NIC's data stream, and every other destination's packets, until one returns.
    if (p_.scheme == Scheme::NetVoq && api.injection_credits(static_cast<std::uint8_t>(d)) == 0) ++injection_credit_waits_;
    if (granted(p_.scheme)) {
      if (rg_[d] == 0) throw std::logic_error(fmt::format("reqgrant: node {} formed a packet to {} without a grant", id_, d));
      --rg_[d];
      --rg_total_;
    } else if (p_.scheme == Scheme::Window) {
      ++outstanding_[d];
      ++outstanding_total_;
    }
    --voq_[d];
    --voq_total_;
    p.payload[kSeqWord] = seq_[d]++;
    if (granted(p_.scheme)) {
      // The packet crosses the middle switch whose crosspoint slot its grant reserved (the
      // distribution pointer's, or with strict_path false possibly the next one with a credit).
      MultistageRoute::pin_via(p, granted_paths_[d].front());
      granted_paths_[d].pop_front();
    } else {
      MultistageRoute::pin_via(p, dptr_[d]);
      dptr_[d] = (dptr_[d] + 1) % s_.m;
    }
  }

  Delivery on_data_arrival(NicApi& api, Packet& p) override {
    const NodeId src = p.src;
    const bool measuring = api.measuring();
    if (reseq_.arrive(api, p, p.payload[kSeqWord], [&](std::uint32_t path, Cycle waited) {
          deliver_in_order(measuring, src, path, waited);
        }) == Delivery::Deliver)
      return Delivery::Deliver;
    reorder_peak_ = std::max<std::uint64_t>(reorder_peak_, reseq_.occupancy());
    if (p_.scheme == Scheme::Reserve && reseq_.occupancy() > p_.reorder_buffer)
      throw std::logic_error(fmt::format("reqgrant: node {} holds {} packets for reordering, more than cc.reorder_buffer = {}", id_,
                                         reseq_.occupancy(), p_.reorder_buffer));
    return Delivery::Hold;
  }

  // What the host sees (the kernel calls this for every packet it delivers, held or not): the
  // per-flow sequence must be 0, 1, 2, ... (an independent check of the reorder buffer and the
  // NIC's release order).
  void on_data(NicApi&, const Packet& p, Packet*) override {
    if (p.payload[kSeqWord] != host_next_[p.src]) ++order_violations_;
    host_next_[p.src] = p.payload[kSeqWord] + 1;
  }

  void tick(NicApi& api) override {
    if (p_.scheme == Scheme::NetVoq)  // the room of each destination's vnet for the next cycle's choice
      for (NodeId d = 0; d < s_.n; ++d) room_[d] = api.injection_credits(static_cast<std::uint8_t>(d));
    if (ungated(p_.scheme)) return;  // nothing but the reorder buffer
    if (!req_) throw std::logic_error("reqgrant: adapter without its scheduler wires (Mechanism::build did not run)");
    if (p_.scheme == Scheme::Window) {
      // An acknowledgement from destination j: one more packet of the flow may go.
      if (const std::uint32_t a = gnt_->read()) {
        const NodeId j = a - 1;
        if (j >= s_.n || outstanding_[j] == 0)
          throw std::logic_error(fmt::format("e2e_window: node {} got an acknowledgement from {} with nothing outstanding", id_, j));
        --outstanding_[j];
        --outstanding_total_;
        ++grants_;
      }
    }
    // A grant for output j: one requested packet becomes injectable.
    if (const std::uint32_t g = granted(p_.scheme) ? gnt_->read() : 0) {
      const NodeId j = (g & kWireIdMask) - 1;
      const std::uint32_t path = g >> 16;
      if (j >= s_.n || pr_[j] == 0) throw std::logic_error(fmt::format("reqgrant: node {} got a grant for {} it never requested", id_, j));
      if (path >= s_.m) throw std::logic_error(fmt::format("reqgrant: node {} got a grant for {} on middle switch {} of {}", id_, j, path, s_.m));
      granted_paths_[j].push_back(path);
      --pr_[j];
      --pr_total_;
      ++rg_[j];
      ++rg_total_;
      ++grants_;
    }
    // Distributed scheduler: request credits the A switch returned (a bit per path).
    if (rqcred_in_)
      if (const std::uint32_t bits = rqcred_in_->read())
        for (std::uint32_t b = 0; b < s_.m; ++b)
          if (bits >> b & 1u) ++rqcred_[b];
    // Request arbiter: one message per cycle, round robin over the flows with unrequested packets
    // under the throttle (distributed: and a credit for the A switch's queue toward the flow's
    // next request path).
    std::uint32_t out = 0;
    if (granted(p_.scheme) && voq_total_ > pr_total_ + rg_total_) {
      for (std::uint32_t k = 0; k < s_.n; ++k) {
        const NodeId j = (rptr_ + k) % s_.n;
        const std::uint64_t unrequested = voq_[j] - pr_[j] - rg_[j];
        if (unrequested == 0 || pr_[j] >= p_.u) continue;
        if (rqcred_in_ && rqcred_[rdist_[j]] == 0) continue;
        const auto count = static_cast<std::uint32_t>(std::min<std::uint64_t>({unrequested, p_.u - pr_[j], p_.request_combine}));
        out = (count << 16) | (j + 1);
        if (rqcred_in_) {  // one packet per request, through the flow's next path
          const std::uint32_t b = rdist_[j];
          out = (b << 16) | (j + 1);
          --rqcred_[b];
          rdist_[j] = (b + 1) % s_.m;
        }
        pr_[j] += count;
        pr_total_ += count;
        pr_peak_ = std::max<std::uint64_t>(pr_peak_, pr_[j]);
        rptr_ = (j + 1) % s_.n;
        ++requests_;
        break;
      }
    }
    if (req_->read() != out) req_->write(out);
    // One end-to-end credit per cycle (footnote 7).
    std::uint32_t credit = 0;
    if (!credits_.empty()) {
      credit = credits_.front() + 1;
      credits_.pop_front();
    }
    if (cred_->read() != credit) cred_->write(credit);
  }

  void trace(TraceSink& s) override {
    s.value(voq_total_, "reqgrant.voq_packets");
    s.value(pr_total_, "reqgrant.pending_requests");
    s.value(rg_total_, "reqgrant.grants_held");
    s.value(reseq_.occupancy_ref(), "reqgrant.reorder_occupancy");
    s.value(outstanding_total_, "reqgrant.window_outstanding");
  }

 private:
  // The packet from `src` that crossed middle switch `path` reached the host in order: its
  // end-to-end credit (reqgrant) or acknowledgement (e2e_window) leaves.
  void deliver_in_order(bool measuring, NodeId src, std::uint32_t path, Cycle waited) {
    if (p_.scheme == Scheme::Reserve) credits_.push_back(path);
    if (p_.scheme == Scheme::Window) credits_.push_back(src);
    if (measuring) {
      ++in_order_;
      if (waited > 0) {
        ++resequenced_;
        reseq_wait_ += waited;
      }
    }
  }

  const Params& p_;
  Shape s_;
  NodeId id_;
  std::vector<std::uint64_t> voq_;   // packets queued to each destination, not yet formed
  std::vector<std::uint32_t> pr_;    // requested, not granted
  std::vector<std::uint32_t> rg_;    // granted, not injected
  std::vector<std::uint32_t> outstanding_;  // e2e_window: injected, not acknowledged
  std::vector<std::uint32_t> room_;  // netvoq: free flits of each destination's vnet at the injection link
  std::vector<std::uint32_t> dptr_;  // spray_reorder, e2e_window: per-flow middle-switch pointer
  std::vector<Ring<std::uint32_t>> granted_paths_;  // reqgrant: per destination, the middle switches of the grants held, in order
  std::vector<std::uint64_t> seq_;   // next sequence number per destination
  Resequencer reseq_;                                 // egress: the reorder buffer
  std::vector<std::uint64_t> host_next_;              // egress: the sequence number the host must see next
  GatedInjection policy_;
  Ring<std::uint32_t> credits_;  // end-to-end credits (middle switch) or ACKs (source) waiting for the credit wire
  std::uint32_t rptr_ = 0;
  std::uint64_t voq_total_ = 0;
  std::uint32_t pr_total_ = 0, rg_total_ = 0, outstanding_total_ = 0;
  sc_core::sc_signal<std::uint32_t>* req_ = nullptr;
  const sc_core::sc_signal<std::uint32_t>* gnt_ = nullptr;
  sc_core::sc_signal<std::uint32_t>* cred_ = nullptr;
  const sc_core::sc_signal<std::uint32_t>* rqcred_in_ = nullptr;  // distributed: request credits from the A switch
  std::vector<std::uint32_t> rqcred_;  // distributed: per path, credits for the A switch's request queue toward it
  std::vector<std::uint32_t> rdist_;   // distributed: per destination, the path of the flow's next request
  std::uint64_t &requests_, &grants_, &pr_peak_, &reorder_peak_, &resequenced_, &reseq_wait_, &in_order_, &order_violations_;
  std::uint64_t& injection_credit_waits_;  // netvoq: packets formed without a credit for their vnet (they block the NIC)
};

// ---- the central scheduler ---------------------------------------------------------------------

}  // namespace

blocks::CreditArbiterSlot output_arbiter(const Params& p, std::uint32_t n, std::uint32_t m, std::uint64_t seed, NodeId j,
                                         const blocks::BlockSource* src, const std::string& where) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (p.order == VisitOrder::Random) {
    RngStream rng(seed, "reqgrant.order." + std::to_string(j));
    for (std::uint32_t k = n - 1; k > 0; --k) std::swap(order[k], order[rng.below(k + 1)]);
  }
  std::vector<std::uint32_t> dist0(n);
  if (p.path_start == PathStart::Spread)  // flows to one output start spread over the middle switches
    for (NodeId i = 0; i < n; ++i) dist0[i] = (i + j) % m;
  return blocks::CreditArbiterSlot({n, m, p.crosspoint, p.u, p.strict_path, p.weighted}, order, dist0, p.weights, src, where);
}

namespace {

class Scheduler final : public sc_core::sc_module, public TracedComponent {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  SC_HAS_PROCESS(Scheduler);
  Scheduler(sc_core::sc_module_name name, const Params& p, Shape s, std::uint64_t seed, sc_core::sc_time period,
            std::vector<sc_core::sc_signal<std::uint32_t>*> req, std::vector<sc_core::sc_signal<std::uint32_t>*> gnt,
            std::vector<sc_core::sc_signal<std::uint32_t>*> cred, CounterSet& c, const blocks::BlockSource* blocks)
      : sc_core::sc_module(name), p_(p), s_(s), period_ps_(period.value()), req_(std::move(req)), gnt_(std::move(gnt)),
        cred_(std::move(cred)), gnt_paths_(static_cast<std::size_t>(s.n) * s.n), gnt_total_(s.n, 0), iptr_(s.n, 0),
        grant_line_(s.n), pending_(s.n, 0), taken_(s.n, 0), granted_at_(s.n, 0), grants_(c.counter("grants")),
        collisions_(c.counter("grant_collisions")),
        req_peak_(c.counter("request_counter_peak", CounterSet::Merge::Max)) {
    if (p.phase_stats) {
      phase_ = {&c.counter("phase_cycles"), &c.counter("phase_pairs"), &c.counter("phase_pairs_kept"),
                &c.counter("grant_skips_no_request"), &c.counter("grant_skips_no_credit")};
      ptr_now_.assign(s.n, 0);
      ptr_prev_.assign(s.n, 0);
    }
    if (p.scheme == Scheme::Islip) {
      islip_req_.assign(static_cast<std::size_t>(s.n) * s.n, 0);
      dist_.resize(static_cast<std::size_t>(s.n) * s.n);
      for (std::size_t f = 0; f < dist_.size(); ++f) dist_[f] = static_cast<std::uint32_t>((f / s.n + f % s.n) % s.m);
      gptr_.assign(s.n, 0);
      aptr_.assign(s.n, 0);
      in_match_.assign(s.n, -1);
      out_match_.assign(s.n, -1);
      offer_.assign(s.n, -1);
    }
    if (p.scheme == Scheme::Reserve)
      for (NodeId j = 0; j < s.n; ++j)
        arbiters_.push_back(output_arbiter(p, s.n, s.m, seed, j, blocks, fmt::format("{} output {} credit arbiter", this->name(), j)));
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  std::string trace_scope() const override { return name(); }
  // Per output arbiter: requests waiting and credits taken (crosspoint slots reserved); per
  // adapter: the request, grant and credit wires (0 = idle, else the encodings of reqgrant.hpp).
  void trace(TraceSink& s) override {
    for (NodeId j = 0; j < s_.n; ++j) {
      s.value(pending_[j], fmt::format("out{}.requests", j));
      s.value(taken_[j], fmt::format("out{}.credits_taken", j));
    }
    for (NodeId i = 0; i < s_.n; ++i) {
      s.value(req_[i]->read(), fmt::format("adapter{}.request", i));
      s.value(gnt_[i]->read(), fmt::format("adapter{}.grant", i));
      s.value(cred_[i]->read(), fmt::format("adapter{}.credit", i));
    }
  }

 private:
  struct Due {
    Cycle at;
    std::uint32_t a, b, n;
  };
  void tick() {
    process_error::guard(*this, sc_core::sc_time::from_value(period_ps_), [this] { step(); });
  }
  void step() {
    const Cycle now = sc_core::sc_time_stamp().value() / period_ps_;
    if (p_.scheme == Scheme::Window) return relay(now);
    // Sample the wires (written by the adapters last cycle).
    for (NodeId i = 0; i < s_.n; ++i) {
      if (const std::uint32_t v = req_[i]->read()) requests_.push_back({now + p_.request_latency - 1, i, (v & kWireIdMask) - 1, v >> 16});
      if (const std::uint32_t v = cred_[i]->read()) credits_.push_back({now + p_.credit_latency - 1, i, v - 1, 1});
    }
    while (!requests_.empty() && requests_.front().at <= now) {
      const Due& d = requests_.front();
      if (p_.scheme == Scheme::Islip) {
        std::uint32_t& r = islip_req_.at(static_cast<std::size_t>(d.b) * s_.n + d.a);
        r += d.n;
        pending_[d.b] += d.n;
        req_peak_ = std::max<std::uint64_t>(req_peak_, r);
      } else {
        arbiters_.at(d.b).add_request(d.a, d.n);
        req_peak_ = std::max<std::uint64_t>(req_peak_, arbiters_[d.b].requests(d.a));
      }
      requests_.pop_front();
    }
    while (!credits_.empty() && credits_.front().at <= now) {
      arbiters_.at(credits_.front().a).add_credit(credits_.front().b);
      credits_.pop_front();
    }
    // Output arbiters (or the iSLIP match), then input arbiters, in the same cycle (notes G6).
    if (p_.scheme == Scheme::Islip) match();
    const bool granting = now >= p_.grant_start;
    if (granting && phase_.cycles) count_phase(now);
    for (NodeId j = 0; j < s_.n && p_.scheme != Scheme::Islip && granting; ++j) {
      blocks::CreditArbiterSlot& a = arbiters_[j];
      const blocks::CreditArbiter::Grant g = a.pick();
      if (phase_.cycles) count_skips(a, g);
      if (g.valid()) {
        a.commit(g);
        const auto i = static_cast<std::uint32_t>(g.input);
        gnt_paths_[static_cast<std::size_t>(i) * s_.n + j].push_back(g.path);
        ++gnt_total_[i];
        ++grants_;
        if (granted_at_[i] == now + 1) ++collisions_;  // another output granted input i this cycle
        granted_at_[i] = now + 1;
      }
      pending_[j] = static_cast<std::uint32_t>(a.pending());
      taken_[j] = a.credits_taken();
    }
    for (NodeId i = 0; i < s_.n; ++i) {
      if (gnt_total_[i] > 0) {
        for (std::uint32_t k = 0; k < s_.n; ++k) {
          const NodeId j = (iptr_[i] + k) % s_.n;
          Ring<std::uint32_t>& paths = gnt_paths_[static_cast<std::size_t>(i) * s_.n + j];
          if (paths.empty()) continue;
          --gnt_total_[i];
          grant_line_[i].push_back({now + p_.grant_latency - 1, j, paths.front(), 0});
          paths.pop_front();
          iptr_[i] = (j + 1) % s_.n;
          break;
        }
      }
      std::uint32_t out = 0;
      if (!grant_line_[i].empty() && grant_line_[i].front().at <= now) {
        out = (grant_line_[i].front().b << 16) | (grant_line_[i].front().a + 1);
        grant_line_[i].pop_front();
      }
      if (gnt_[i]->read() != out) gnt_[i]->write(out);
    }
  }

  // phase_stats (R5): pairs of output arbiters at one round-robin position this cycle, and of the
  // pairs that were at one position last cycle, those that still are (the position is the place
  // in the visiting order, comparable across outputs only with a common order).
  void count_phase(Cycle now) {
    for (NodeId j = 0; j < s_.n; ++j) ptr_now_[j] = arbiters_[j].pointer();
    const bool first = *phase_.cycles == 0 || now == p_.grant_start;
    ++*phase_.cycles;
    for (NodeId x = 0; x < s_.n; ++x)
      for (NodeId y = x + 1; y < s_.n; ++y)
        if (ptr_now_[x] == ptr_now_[y]) {
          ++*phase_.pairs;
          if (!first && ptr_prev_[x] == ptr_prev_[y]) ++*phase_.kept;
        }
    std::swap(ptr_now_, ptr_prev_);
  }
  // The inputs output arbiter `a` passed over before its choice `g` (all of them if none won),
  // for want of a request or (with requests) of a credit.
  void count_skips(const blocks::CreditArbiterSlot& a, const blocks::CreditArbiter::Grant& g) {
    for (std::uint32_t k = 0; k < s_.n; ++k) {
      const std::uint32_t i = a.order()[(a.pointer() + k) % s_.n];
      if (static_cast<int>(i) == g.input) break;
      ++*(a.requests(i) == 0 ? phase_.no_request : phase_.no_credit);
    }
  }

  // islip: iSLIP (McKeown 1999) over the request counters, `iterations` rounds of grant (each
  // unmatched output offers itself to the first unmatched input with a request, from its grant
  // pointer) and accept (each unmatched input takes the first offering output from its accept
  // pointer); the pointers move one past the partner for matches of the first round only. Every
  // match takes one request and becomes a grant for the flow's next middle switch (per-flow
  // pointer, as the output arbiters spray); no buffer is reserved.
  void match() {
    const NodeId n = s_.n;
    std::fill(in_match_.begin(), in_match_.end(), -1);
    std::fill(out_match_.begin(), out_match_.end(), -1);
    for (std::uint32_t it = 0; it < p_.iterations; ++it) {
      std::fill(offer_.begin(), offer_.end(), -1);
      for (NodeId j = 0; j < n; ++j) {
        if (out_match_[j] >= 0 || pending_[j] == 0) continue;
        for (NodeId k = 0; k < n; ++k) {
          const NodeId i = (gptr_[j] + k) % n;
          if (in_match_[i] < 0 && islip_req_[static_cast<std::size_t>(j) * n + i] > 0) {
            offer_[j] = static_cast<int>(i);
            break;
          }
        }
      }
      bool matched = false;
      for (NodeId i = 0; i < n; ++i) {
        if (in_match_[i] >= 0) continue;
        for (NodeId k = 0; k < n; ++k) {
          const NodeId j = (aptr_[i] + k) % n;
          if (offer_[j] != static_cast<int>(i)) continue;
          in_match_[i] = static_cast<int>(j);
          out_match_[j] = static_cast<int>(i);
          if (it == 0) {
            aptr_[i] = (j + 1) % n;
            gptr_[j] = (i + 1) % n;
          }
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
    for (NodeId j = 0; j < n; ++j) {
      if (out_match_[j] < 0) continue;
      const auto i = static_cast<NodeId>(out_match_[j]);
      --islip_req_[static_cast<std::size_t>(j) * n + i];
      --pending_[j];
      std::uint32_t& d = dist_[static_cast<std::size_t>(i) * n + j];
      gnt_paths_[static_cast<std::size_t>(i) * n + j].push_back(d);
      d = (d + 1) % s_.m;
      ++gnt_total_[i];
      ++grants_;
    }
  }

  // e2e_window: each egress's acknowledgement (the source + 1 on its credit wire) goes to that
  // source's grant wire ack_latency cycles after the egress wrote it, one per source and cycle.
  void relay(Cycle now) {
    for (NodeId j = 0; j < s_.n; ++j)
      if (const std::uint32_t v = cred_[j]->read()) grant_line_.at(v - 1).push_back({now + p_.ack_latency - 2, j, 0, 0});
    for (NodeId i = 0; i < s_.n; ++i) {
      std::uint32_t out = 0;
      if (!grant_line_[i].empty() && grant_line_[i].front().at <= now) {
        out = grant_line_[i].front().a + 1;
        grant_line_[i].pop_front();
        ++grants_;
      }
      if (gnt_[i]->read() != out) gnt_[i]->write(out);
    }
  }

  const Params& p_;
  Shape s_;
  std::uint64_t period_ps_;
  std::vector<sc_core::sc_signal<std::uint32_t>*> req_, gnt_, cred_;
  std::vector<blocks::CreditArbiterSlot> arbiters_;  // output arbiters
  std::vector<Ring<std::uint32_t>> gnt_paths_;  // input arbiters: [i * N + j] the paths of flow i -> j's grants, in grant order
  std::vector<std::uint32_t> gnt_total_, iptr_;
  Ring<Due> requests_, credits_;
  std::vector<Ring<Due>> grant_line_;  // per adapter: grants on their way
  std::vector<std::uint32_t> pending_, taken_;  // waveforms: per output
  std::vector<Cycle> granted_at_;                // per input: last cycle + 1 an output granted it
  // islip: request counters [j * N + i], grant and accept pointers, per-flow middle-switch
  // pointers [i * N + j], and the match under construction.
  std::vector<std::uint32_t> islip_req_, gptr_, aptr_, dist_;
  std::vector<int> in_match_, out_match_, offer_;
  std::uint64_t &grants_, &collisions_, &req_peak_;
  struct PhaseCounters {
    std::uint64_t *cycles = nullptr, *pairs = nullptr, *kept = nullptr, *no_request = nullptr, *no_credit = nullptr;
  } phase_;                                        // phase_stats only
  std::vector<std::uint32_t> ptr_now_, ptr_prev_;  // phase_stats: the output arbiters' positions
};

// ---- the mechanism -------------------------------------------------------------------------------

class ReqGrant final : public Mechanism {
 public:
  ReqGrant(const Params& p, Shape s, std::uint64_t seed) : p_(p), s_(s), seed_(seed) {}
  std::string name() const override {
    switch (p_.scheme) {
      case Scheme::None: return "spray_reorder";
      case Scheme::Window: return "e2e_window";
      case Scheme::NetVoq: return "netvoq";
      case Scheme::Islip: return "islip";
      case Scheme::Reserve: break;
    }
    return "reqgrant";
  }
  // netvoq: one vnet per fabric output, so every switch queues (and credits) per destination.
  std::vector<VnetSpec> vnets() const override {
    if (p_.scheme != Scheme::NetVoq) return {{"data", 0}, {"control", 1}};
    std::vector<VnetSpec> v;
    for (NodeId j = 0; j < s_.n; ++j) v.push_back({fmt::format("to{}", j), 0});
    return v;
  }
  std::uint8_t vnet_of(const Packet& p) const override {
    if (p_.scheme == Scheme::NetVoq) return static_cast<std::uint8_t>(p.dst);
    return p.kind == PacketKind::Data ? 0 : 1;
  }
  Cycle max_injection_gap() const override { return p_.request_latency + p_.grant_latency + p_.credit_latency + 16; }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& c) const override {
    return std::make_unique<Adapter>(p_, s_, nic.id(), c);
  }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& r, CounterSet& c) const override {
    return edge_observer(r, s_.m, p_.scheme == Scheme::NetVoq, c);
  }
  void build(NetworkBuilder& b) const override {
    if (ungated(p_.scheme)) return;  // no control plane
    const bool distributed = p_.scheme == Scheme::Reserve && p_.scheduler == SchedulerDesign::Distributed;
    using Sig = sc_core::sc_signal<std::uint32_t>;
    std::vector<sc_core::sc_signal<std::uint32_t>*> req, gnt, cred;
    std::vector<AdapterWires> wires;
    for (NodeId n = 0; n < b.num_nodes(); ++n) {
      req.push_back(&b.make<Sig>(fmt::format("reqgrant_req_{}", n).c_str()));
      gnt.push_back(&b.make<Sig>(fmt::format("reqgrant_gnt_{}", n).c_str()));
      cred.push_back(&b.make<Sig>(fmt::format("reqgrant_cred_{}", n).c_str()));
      Sig* rqcred = distributed ? &b.make<Sig>(fmt::format("reqgrant_rqcred_{}", n).c_str()) : nullptr;
      wires.push_back({req.back(), rqcred, gnt.back(), cred.back()});
      auto* hooks = dynamic_cast<Adapter*>(b.nic_hooks(n));
      if (!hooks) throw std::logic_error("reqgrant: NIC without its adapter hooks");
      hooks->connect(wires.back(), distributed);
    }
    if (distributed) return build_distributed(b, p_, s_.n, s_.m, seed_, wires);
    auto& sched = b.make<Scheduler>("reqgrant_scheduler", p_, s_, seed_, b.period(), req, gnt, cred, b.counters(),
                                    b.block_source());
    sched.clk(b.clock());
    b.trace(sched);
  }

 private:
  Params p_;
  Shape s_;
  std::uint64_t seed_;
};

}  // namespace

std::unique_ptr<Mechanism> Params::create(const MechanismContext& ctx) const {
  const MultistageTopology& t = require_clos(ctx, "this mechanism");
  const Shape s{t.num_nodes(), t.k()};
  if (scheme == Scheme::Reserve && scheduler == SchedulerDesign::Distributed && s.m > 8)
    throw config::ConfigError(fmt::format("cc.scheduler: the distributed scheduler's credit wires hold at most 8 switches per stage, not {}", s.m));
  if (scheme == Scheme::Reserve && reorder_buffer < s.m * crosspoint)
    throw config::ConfigError(fmt::format("cc.reorder_buffer: {} packets cannot hold what the reservations allow in flight to one "
                                          "output (M x cc.crosspoint = {} x {} = {})",
                                          reorder_buffer, s.m, crosspoint, s.m * crosspoint));
  if (s.n > kWireIdMask) throw config::ConfigError("cc.mechanism: reqgrant supports at most 65535 ports");
  if (scheme == Scheme::NetVoq && s.n > 256)
    throw config::ConfigError(fmt::format("cc.mechanism: netvoq needs one vnet per node, at most 256, not {}", s.n));
  if (!weights.empty() && weights.size() != s.n)
    throw config::ConfigError(fmt::format("cc.weights: {} weights for {} nodes (one per input, or none)", weights.size(), s.n));
  return std::make_unique<ReqGrant>(*this, s, ctx.seed);
}

namespace {
config::PolyRegistrar<MechanismParams, PresetParams<Scheme::Reserve>> reg_reserve(
    "reqgrant", "proactive request/grant reservation, central scheduler (paper 002)");
config::PolyRegistrar<MechanismParams, PresetParams<Scheme::None>> reg_none(
    "spray_reorder", "paper 002's baseline: sprayed Clos, re-sequencing at the egress");
config::PolyRegistrar<MechanismParams, PresetParams<Scheme::NetVoq>> reg_netvoq(
    "netvoq", "network-level VOQs on the sprayed Clos: a vnet per destination (paper 002's comparison)");
config::PolyRegistrar<MechanismParams, PresetParams<Scheme::Islip>> reg_islip(
    "islip", "iSLIP request/grant matching over the sprayed Clos (paper 002's comparison)");
config::PolyRegistrar<MechanismParams, PresetParams<Scheme::Window>> reg_window(
    "e2e_window", "end-to-end ACK window per flow on the sprayed Clos (paper 002's comparison)");
}  // namespace

}  // namespace ccnet::reqgrant
