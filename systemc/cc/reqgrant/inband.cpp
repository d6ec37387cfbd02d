// Request/grant over the data network (paper 002 section 6.5; ref. [15]; notes section 2 item 6).
// One hook object per NIC plays both adapters:
//   * ingress: per-destination counters as reqgrant's (queued, requested-not-granted pr,
//     granted-not-injected rg), the throttle u, injection of granted packets only, each pinned to
//     the middle switch its grant reserved;
//   * egress: the output credit arbiter of its own output (blocks::CreditArbiter through its
//     slot, so `--rtl credit_arbiter` runs it as the RTL), granting at most one packet per packet
//     time against M crosspoint counters of B slots; the reorder buffer per source; an in-order
//     delivery returns its slot to the local arbiter after `egress_credit_latency` cycles.
// Requests and grants for one destination accumulate in the adapter (combining, up to
// request_combine / grant_combine packets per message) and leave either piggybacked on the next
// data packet to that destination (payload words 1-3) or as a one-flit request_grant packet on
// the control vnet (priority over data at every switch and at the injection link), at most one
// such packet per cycle, when the information is due (see due()).
#include "cc/reqgrant/inband.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "blocks/swap.hpp"
#include "cc/reqgrant/distributed.hpp"
#include "cc/reqgrant/observer.hpp"
#include "cc/reqgrant/resequencer.hpp"
#include "core/packet_format.hpp"
#include "core/ring.hpp"
#include "core/trace_sink.hpp"
#include "nic/injection_policy.hpp"
#include "nic/nic_config.hpp"
#include "router/router_config.hpp"
#include "topology/multistage.hpp"

namespace ccnet::reqgrant {

InbandParams::InbandParams() {
  scheme = Scheme::Reserve;
  u = 20;
  request_combine = 20;
}

const config::Schema& InbandParams::schema() {
  static config::Schema s(
      "Request/grant reservation over the data network (paper 002 section 6.5, the proactive scheme of its ref. [15]): "
      "no scheduling network; requests and grants are one-flit packets on the control vnet (priority over data) or ride "
      "piggybacked on data to the same node, each combining up to 20 packets; the output credit arbiter of each output "
      "sits in its egress adapter and reserves last-stage crosspoint slots as reqgrant's central one does. Needs "
      "topology clos; a packet is nic.max_packet flits and one packet time that many cycles (configs/papers/paper002/"
      "clos16_inband.yaml: 8, the SRP comparison's fabric; the paper's control messages are 1/32 of a packet). "
      "docs/mechanisms/request-grant.md.");
  static bool init = [] {
    config::Declare<InbandParams>(s)
        .field("u", &Params::u, 20u, "request throttle: most packets a flow may have requested and not yet been granted "
                                     "(section 6.5: at most 20 outstanding requested packets per VOQ)", {1, 65535})
        .field("crosspoint", &Params::crosspoint, 12u,
               "B: packet slots of each last-stage crosspoint buffer (middle switch -> output) an output arbiter reserves "
               "(as reqgrant's; section 6.5's 150-packet output buffers are 37 per middle switch at M = 4)",
               {1, 65535})
        .field("request_combine", &Params::request_combine, 20u, "most packets one request may ask for (section 6.5: 20)",
               {1, 65535})
        .field("grant_combine", &InbandParams::grant_combine, 20u, "most packets one grant may carry (section 6.5: 20)",
               {1, 65535})
        .field("piggyback", &InbandParams::piggyback, true,
               "requests and grants for a node ride on the next data packet to it (section 6.5: they may be piggybacked "
               "on reverse-direction data); false: always as their own control packets")
        .field("control_wait", &InbandParams::control_wait, 16u,
               "cycles a request or grant for a node may wait to combine with later ones or, with piggyback, for a data "
               "packet to that node (the paper gives none; 16 = 2 packet times at 8 flits); it goes at once when full, "
               "when the flow has nothing else requested (requests), or when no data to that node is granted (grants)",
               {0, 1u << 20})
        .field("throttle_granted", &InbandParams::throttle_granted, false,
               "the throttle u also counts packets granted and not yet injected (section 6.5's \"outstanding requested "
               "packets per VOQ\" read as requested and not yet sent); false: requested and not yet granted, as the "
               "central scheduler's pr < u (section 5.1)")
        .field("egress_credit_latency", &InbandParams::egress_credit_latency, 1u,
               "cycles from an in-order delivery to the freed slot at the egress adapter's own output arbiter", {1, 1000})
        .choice("order", &Params::order, VisitOrder::Random, {{"random", VisitOrder::Random}, {"common", VisitOrder::Common}},
                "output arbiters' visiting order over the inputs: random but fixed per output, or 0..N-1 for all")
        .field("reorder_buffer", &Params::reorder_buffer, 300u,
               "egress reorder buffer, packets; the reservations bound the occupancy by M x crosspoint, which must fit "
               "(section 6.5: 200; exceeding it at run time is an internal error)",
               {1, 1u << 24});
    return true;
  }();
  (void)init;
  return s;
}

void InbandParams::validate(const config::BindContext& ctx, const RouterConfig&, const NicConfig& n) const {
  if (request_combine > u) ctx.fail("cc.request_combine", fmt::format("{} exceeds the throttle cc.u = {}", request_combine, u));
  if (n.acks) ctx.fail("nic.acks", "reqgrant_inband delivers every packet by reservation: nic.acks must be false");
}

namespace {

struct Shape {
  std::uint32_t n = 0, m = 0, pt = 1;  // ports, middle switches, cycles per packet time (flits per packet)
};

// Round robin over the destinations with a ready send queue and a grant in hand.
class GrantedInjection final : public InjectionPolicy {
 public:
  GrantedInjection(std::uint32_t n, const std::vector<std::uint32_t>& rg) : ready_(n, 0), rg_(rg) {}
  void set_ready(NodeId dst, bool ready) override { ready_[dst] = ready; }
  int pick(Cycle) const override {
    const auto n = static_cast<std::uint32_t>(ready_.size());
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t d = (ptr_ + k) % n;
      if (ready_[d] && rg_[d] > 0) return static_cast<int>(d);
    }
    return -1;
  }
  void commit(Cycle, int granted, std::uint32_t) override {
    if (granted >= 0) ptr_ = (static_cast<std::uint32_t>(granted) + 1) % static_cast<std::uint32_t>(ready_.size());
  }

 private:
  std::vector<std::uint8_t> ready_;
  const std::vector<std::uint32_t>& rg_;
  std::uint32_t ptr_ = 0;
};

constexpr unsigned kSeqWord = 0;
constexpr Cycle kNone = ~Cycle{0};

class InbandAdapter final : public NicHooks {
 public:
  InbandAdapter(const InbandParams& p, Shape s, PacketKind ctl, NicApi& nic, std::uint64_t seed, CounterSet& c)
      : p_(p), s_(s), ctl_(ctl), id_(nic.id()), voq_(s.n, 0), pr_(s.n, 0), req_out_(s.n, 0), req_since_(s.n, kNone), rg_(s.n, 0),
        granted_paths_(s.n), seq_(s.n, 0), gnt_out_(s.n), gnt_since_(s.n, kNone), reseq_("reqgrant_inband", nic.id(), s.n), host_next_(s.n, 0),
        policy_(s.n, rg_),
        arbiter_(output_arbiter(p, s.n, s.m, seed, nic.id(), nic.block_source(),
                                fmt::format("{} output credit arbiter", nic.component_name()))),
        requests_(c.counter("request_messages")), requested_(c.counter("requested_packets")),
        grant_msgs_(c.counter("grant_messages")), grants_(c.counter("grants")), grants_received_(c.counter("grants_received")),
        ctl_packets_(c.counter("control_packets")), piggy_req_(c.counter("piggybacked_requests")),
        piggy_gnt_(c.counter("piggybacked_grants")), pr_peak_(c.counter("pending_requests_peak", CounterSet::Merge::Max)),
        req_peak_(c.counter("request_counter_peak", CounterSet::Merge::Max)),
        reorder_peak_(c.counter("reorder_peak", CounterSet::Merge::Max)), resequenced_(c.counter("resequenced_packets")),
        reseq_wait_(c.counter("resequencing_wait_cycles")), in_order_(c.counter("in_order_packets")),
        order_violations_(c.counter("host_order_violations")), arb_pacing_(c.counter("arbiter_pacing_cycles")),
        arb_idle_(c.counter("arbiter_idle_cycles")), arb_blocked_(c.counter("arbiter_blocked_cycles")),
        slot_cycles_(c.counter("reserved_slot_cycles")), held_grant_cycles_(c.counter("held_grant_cycles")),
        starved_(c.counter("ingress_starved_cycles")) {}

  std::uint32_t uses() const override { return kDeliveryHold; }
  InjectionPolicy* injection_policy() override { return &policy_; }

  void on_message(NicApi&, const MessageInfo& m, bool) override {
    voq_[m.dst] += m.packets;
    voq_total_ += m.packets;
  }

  void on_packet_formed(NicApi& api, Packet& p) override {
    const NodeId d = p.dst;
    if (rg_[d] == 0) throw std::logic_error(fmt::format("reqgrant_inband: node {} formed a packet to {} without a grant", id_, d));
    --rg_[d];
    --rg_total_;
    --voq_[d];
    --voq_total_;
    p.payload[kSeqWord] = seq_[d]++;
    MultistageRoute::pin_via(p, granted_paths_[d].front());
    granted_paths_[d].pop_front();
    // The packet carries the request for what its grant's use lets the flow request anew (a
    // backlogged flow's requests then ride on its own data) and whatever else is due to d.
    refill(api.now(), d);
    if (p_.piggyback && attach(api.now(), d, p)) {
      if (p.payload[kInbandReqWord]) ++piggy_req_;
      if (p.payload[kInbandGrantWord]) ++piggy_gnt_;
    }
  }

  Delivery on_data_arrival(NicApi& api, Packet& p) override {
    const NodeId src = p.src;
    receive(src, p);  // what it carries for this node's two adapters
    if (reseq_.arrive(api, p, p.payload[kSeqWord], [&](std::uint32_t path, Cycle waited) { in_order(api, path, waited); }) ==
        Delivery::Deliver)
      return Delivery::Deliver;
    reorder_peak_ = std::max<std::uint64_t>(reorder_peak_, reseq_.occupancy());
    if (reseq_.occupancy() > p_.reorder_buffer)
      throw std::logic_error(fmt::format("reqgrant_inband: node {} holds {} packets for reordering, more than cc.reorder_buffer = {}",
                                         id_, reseq_.occupancy(), p_.reorder_buffer));
    return Delivery::Hold;
  }

  void on_data(NicApi&, const Packet& p, Packet*) override {
    if (p.payload[kSeqWord] != host_next_[p.src]) ++order_violations_;
    host_next_[p.src] = p.payload[kSeqWord] + 1;
  }

  void on_control(NicApi&, const Packet& c) override {
    if (c.kind != ctl_) return;
    receive(c.src, c);
  }

  void tick(NicApi& api) override {
    const Cycle now = api.now();
    // Freed crosspoint slots of in-order deliveries reach the local output arbiter.
    while (!credits_.empty() && credits_.front().at <= now) {
      arbiter_.add_credit(credits_.front().path);
      credits_.pop_front();
    }
    if (voq_total_ > pr_total_ + rg_total_)
      for (NodeId d = 0; d < s_.n; ++d) refill(now, d);
    // The output arbiter: one packet per packet time.
    const bool measuring = api.measuring();
    if (now >= next_grant_) {
      const blocks::CreditArbiter::Grant g = arbiter_.pick();
      if (g.valid()) {
        arbiter_.commit(g);
        const auto i = static_cast<NodeId>(g.input);
        gnt_out_[i].push_back(g.path);
        ++gnt_out_total_;
        if (gnt_since_[i] == kNone) gnt_since_[i] = now;
        ++grants_;
        next_grant_ = now + s_.pt;
        if (measuring) ++arb_pacing_;
      } else if (measuring) {
        ++(arbiter_.pending() == 0 ? arb_idle_ : arb_blocked_);
      }
    } else if (measuring) {
      ++arb_pacing_;
    }
    arbiter_totals();
    if (measuring) {
      // Where this output's reserved slots and this input's grants are (docs/outputs.md).
      slot_cycles_ += taken_;
      held_grant_cycles_ += rg_total_;
      if (voq_total_ > 0 && rg_total_ == 0) ++starved_;
    }
    // At most one control packet per cycle, round robin over the nodes with information due.
    for (std::uint32_t k = 0; k < s_.n; ++k) {
      const NodeId d = (cptr_ + k) % s_.n;
      if (!due(now, d)) continue;
      Packet about;
      Packet& c = api.packets().control(ctl_, about, id_, d, now);
      attach(now, d, c);
      ++ctl_packets_;
      api.send_control(c);
      cptr_ = (d + 1) % s_.n;
      break;
    }
  }

  void trace(TraceSink& s) override {
    s.value(voq_total_, "reqgrant.voq_packets");
    s.value(pr_total_, "reqgrant.pending_requests");
    s.value(rg_total_, "reqgrant.grants_held");
    s.value(reseq_.occupancy_ref(), "reqgrant.reorder_occupancy");
    s.value(req_out_total_, "reqgrant.requests_unsent");
    s.value(gnt_out_total_, "reqgrant.grants_unsent");
    s.value(pending_, "reqgrant.arbiter_requests");
    s.value(taken_, "reqgrant.arbiter_credits_taken");
  }

 private:
  struct Credit {
    Cycle at;
    std::uint32_t path;
  };

  // Every packet to d the throttle allows requesting joins d's next request. The throttle counts
  // the packets requested and not granted, and with throttle_granted also those granted and not
  // yet injected (a freed unit then returns at injection, and its request rides on that packet).
  void refill(Cycle now, NodeId d) {
    const std::uint64_t unrequested = voq_[d] - pr_[d] - rg_[d];
    const std::uint32_t out = pr_[d] + (p_.throttle_granted ? rg_[d] : 0);
    if (unrequested == 0 || out >= p_.u) return;
    const auto add = static_cast<std::uint32_t>(std::min<std::uint64_t>(unrequested, p_.u - out));
    pr_[d] += add;
    pr_total_ += add;
    req_out_[d] += add;
    req_out_total_ += add;
    if (req_since_[d] == kNone) req_since_[d] = now;
    pr_peak_ = std::max<std::uint64_t>(pr_peak_, pr_[d]);
  }

  // Whether node d's accumulated request or grant should leave now as its own packet: when it is
  // full, when it waited control_wait cycles, or when waiting cannot help: a request whose flow
  // has nothing else requested (the flow would idle), a grant (or request) with no data to d
  // granted here to carry it (piggyback off: never).
  bool due(Cycle now, NodeId d) const {
    const bool carrier = p_.piggyback && rg_[d] > 0;
    if (req_out_[d] > 0) {
      if (req_out_[d] >= p_.request_combine || now - req_since_[d] >= p_.control_wait) return true;
      if (!carrier && pr_[d] == req_out_[d]) return true;
    }
    if (!gnt_out_[d].empty()) {
      if (gnt_out_[d].size() >= p_.grant_combine || now - gnt_since_[d] >= p_.control_wait) return true;
      if (!carrier) return true;
    }
    return false;
  }

  // Moves what is accumulated for node d into packet p (data or control): a request of up to
  // request_combine packets and a grant of up to grant_combine packets on consecutive middle
  // switches. Returns whether anything was attached.
  bool attach(Cycle now, NodeId d, Packet& p) {
    bool any = false;
    if (req_out_[d] > 0) {
      const std::uint32_t n = std::min(req_out_[d], p_.request_combine);
      p.payload[kInbandReqWord] = n;
      req_out_[d] -= n;
      req_out_total_ -= n;
      req_since_[d] = req_out_[d] ? now : kNone;
      ++requests_;
      requested_ += n;
      any = true;
    }
    Ring<std::uint32_t>& g = gnt_out_[d];
    if (!g.empty()) {
      const std::uint32_t first = g.front();
      std::uint32_t n = 0;
      while (!g.empty() && n < p_.grant_combine && g.front() == (first + n) % s_.m) {
        g.pop_front();
        ++n;
      }
      gnt_out_total_ -= n;
      p.payload[kInbandGrantWord] = n;
      p.payload[kInbandPathWord] = first;
      gnt_since_[d] = g.empty() ? kNone : now;
      ++grant_msgs_;
      any = true;
    }
    return any;
  }

  // A request from `src` to this node's output arbiter and a grant from src's output arbiter to
  // this node's ingress adapter, carried by a data or control packet from src.
  void receive(NodeId src, const Packet& p) {
    if (const std::uint64_t n = p.payload[kInbandReqWord]) {
      if (arbiter_.requests(src) + n > p_.u)
        throw std::logic_error(fmt::format("reqgrant_inband: node {}'s output arbiter got {} more requests from {} beyond u = {}",
                                           id_, n, src, p_.u));
      arbiter_.add_request(src, static_cast<std::uint32_t>(n));
      req_peak_ = std::max<std::uint64_t>(req_peak_, arbiter_.requests(src));
    }
    if (const std::uint64_t n = p.payload[kInbandGrantWord]) {
      const std::uint64_t first = p.payload[kInbandPathWord];
      if (n > pr_[src] || first >= s_.m)
        throw std::logic_error(fmt::format("reqgrant_inband: node {} got a grant of {} packets from {} (middle switch {}) with {} requested",
                                           id_, n, src, first, pr_[src]));
      for (std::uint64_t k = 0; k < n; ++k) granted_paths_[src].push_back(static_cast<std::uint32_t>((first + k) % s_.m));
      pr_[src] -= static_cast<std::uint32_t>(n);
      pr_total_ -= static_cast<std::uint32_t>(n);
      rg_[src] += static_cast<std::uint32_t>(n);
      rg_total_ += static_cast<std::uint32_t>(n);
      grants_received_ += n;
    }
    arbiter_totals();
  }

  // A packet over middle switch `path` reached the host in order: its slot returns.
  void in_order(NicApi& api, std::uint32_t path, Cycle waited) {
    credits_.push_back({api.now() + p_.egress_credit_latency, path});
    if (api.measuring()) {
      ++in_order_;
      if (waited > 0) {
        ++resequenced_;
        reseq_wait_ += waited;
      }
    }
  }

  // The output arbiter's request and slot totals (waveforms; slots also for reserved_slot_cycles).
  void arbiter_totals() {
    pending_ = static_cast<std::uint32_t>(arbiter_.pending());
    taken_ = arbiter_.credits_taken();
  }

  const InbandParams& p_;
  Shape s_;
  PacketKind ctl_;
  NodeId id_;
  // ingress
  std::vector<std::uint64_t> voq_;    // packets queued to each destination, not yet formed
  std::vector<std::uint32_t> pr_;     // requested (sent or not), not granted
  std::vector<std::uint32_t> req_out_;  // of pr: not yet sent in a request
  std::vector<Cycle> req_since_;      // when the oldest unsent request appeared (kNone: none)
  std::vector<std::uint32_t> rg_;     // granted, not injected
  std::vector<Ring<std::uint32_t>> granted_paths_;  // per destination, the middle switches of the grants held
  std::vector<std::uint64_t> seq_;    // next sequence number per destination
  // egress
  std::vector<Ring<std::uint32_t>> gnt_out_;  // per input: the middle switches of grants not yet sent
  std::vector<Cycle> gnt_since_;
  Resequencer reseq_;  // the reorder buffer
  std::vector<std::uint64_t> host_next_;
  GrantedInjection policy_;
  blocks::CreditArbiterSlot arbiter_;
  Ring<Credit> credits_;
  Cycle next_grant_ = 0;
  std::uint32_t cptr_ = 0;
  std::uint64_t voq_total_ = 0;
  std::uint32_t pr_total_ = 0, rg_total_ = 0, req_out_total_ = 0, gnt_out_total_ = 0, pending_ = 0, taken_ = 0;
  std::uint64_t &requests_, &requested_, &grant_msgs_, &grants_, &grants_received_, &ctl_packets_, &piggy_req_, &piggy_gnt_;
  std::uint64_t &pr_peak_, &req_peak_, &reorder_peak_, &resequenced_, &reseq_wait_, &in_order_, &order_violations_;
  std::uint64_t &arb_pacing_, &arb_idle_, &arb_blocked_, &slot_cycles_, &held_grant_cycles_, &starved_;
};

class Inband final : public Mechanism {
 public:
  Inband(const InbandParams& p, Shape s, PacketKind ctl, std::uint64_t seed) : p_(p), s_(s), ctl_(ctl), seed_(seed) {}
  std::string name() const override { return "reqgrant_inband"; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  // A ready flow waits for its grant: a request and a grant cross the fabric (with combining
  // waits) behind other flows' grants at its output, up to u x N packet times.
  Cycle max_injection_gap() const override { return p_.control_wait * 2 + static_cast<Cycle>(p_.u) * s_.n * s_.pt + 64 * s_.pt; }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& c) const override {
    return std::make_unique<InbandAdapter>(p_, s_, ctl_, nic, seed_, c);
  }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& r, CounterSet& c) const override {
    return edge_observer(r, s_.m, false, c);
  }

 private:
  InbandParams p_;
  Shape s_;
  PacketKind ctl_;
  std::uint64_t seed_;
};

}  // namespace

std::unique_ptr<Mechanism> InbandParams::create(const MechanismContext& ctx) const {
  const MultistageTopology& t = require_clos(ctx, "reqgrant_inband");
  const Shape s{t.num_nodes(), t.k(), ctx.nic.max_packet};
  if (reorder_buffer < s.m * crosspoint)
    throw config::ConfigError(fmt::format("cc.reorder_buffer: {} packets cannot hold what the reservations allow in flight to one "
                                          "output (M x cc.crosspoint = {} x {} = {})",
                                          reorder_buffer, s.m, crosspoint, s.m * crosspoint));
  const PacketKind ctl = ctx.format.declare_kind("request_grant");
  return std::make_unique<Inband>(*this, s, ctl, ctx.seed);
}

namespace {
config::PolyRegistrar<MechanismParams, InbandParams> reg_inband(
    "reqgrant_inband", "request/grant reservation over the data network, arbiters at the egress adapters (paper 002 section 6.5, [15])");
}  // namespace

}  // namespace ccnet::reqgrant
