// Paper 004 (Birk and Zdornov): adaptive path setup with per-input-port flow tables, the
// distributed SAA explicit-rate algorithm, and periodic-selection (PS) pacing at the source.
// docs/mechanisms/saa.md explains every choice and its key.
#include "cc/saa/saa.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "blocks/ps_pacer.hpp"
#include "blocks/saa_link_unit.hpp"
#include "blocks/swap.hpp"
#include "core/trace_sink.hpp"
#include "topology/multistage.hpp"

namespace ccnet::saa {

FluidResult fluid_optimum(const std::vector<FluidFlow>& flows, std::uint32_t num_links) {
  FluidResult r;
  r.link_weight.assign(num_links, 0);
  for (const auto& f : flows)
    for (std::uint32_t l : f.links) {
      if (l >= num_links) throw std::invalid_argument("fluid_optimum: link id " + std::to_string(l) + " out of range");
      r.link_weight[l] += f.weight;
    }
  for (const auto& f : flows) {
    std::uint64_t wf = 0;
    for (std::uint32_t l : f.links) wf = std::max(wf, r.link_weight[l]);
    r.flow_weight.push_back(wf);
    r.rate.push_back(wf == 0 ? 0.0 : static_cast<double>(f.weight) / static_cast<double>(wf));
    r.W = std::max(r.W, wf);
  }
  return r;
}

namespace {

// Payload words of the control kinds.
constexpr unsigned kWeight = 0;     // w_f, flits
constexpr unsigned kMaxWeight = 1;  // running max of W_l along the forward path (W_f)

struct Kinds {
  PacketKind setup, probe, teardown, fin, setup_return, probe_return, teardown_return;
};

// ---- switch: per-input-port flow tables (PRC), flow counts and W_l per output ----------------

// A link unit (blocks/saa_link_unit.hpp, the RTL's ccn_saa_link_unit) as wide as the model's
// counters; a contract violation (W_l negative or not back to 0, an overflow) is a model error.
// The run's block source may hand it the RTL (RTL in the loop).
blocks::SaaLinkUnitSlot make_link_unit(const blocks::BlockSource* src, const std::string& where) {
  return blocks::SaaLinkUnitSlot(blocks::SaaLinkUnitParams{64, 32}, src, where);
}
std::vector<blocks::SaaLinkUnitSlot> make_link_units(const RouterApi& api) {
  std::vector<blocks::SaaLinkUnitSlot> links;
  for (PortId o = 0; o < api.num_ports(); ++o)
    links.push_back(make_link_unit(api.block_source(), std::string(api.component_name()) + " saa link unit " + std::to_string(o)));
  return links;
}
// The lane's W_f; a violation throws naming the link: router `id`'s output `port`, or (port < 0)
// NIC `id`'s injection link.
std::uint64_t checked(const blocks::SaaLinkResult& r, std::uint32_t id, int port, MessageId flow) {
  if (r.bad())
    throw std::logic_error("saa: " + (port < 0 ? "NIC " + std::to_string(id) + " injection link"
                                               : "router " + std::to_string(id) + " output " + std::to_string(port)) +
                           ": flow " + std::to_string(flow) + ": " + blocks::describe(r.violation));
  return r.wmax;
}

class SaaRouter final : public RouterHooks {
 public:
  SaaRouter(RouterApi& api, CounterSet& c, const Params& p, const Kinds& k, const MultistageTopology* tree)
      : p_(p), k_(k), tree_(tree), prc_(api.num_ports()), links_(make_link_units(api)),
        setups_(c.counter("setups")), adaptive_(c.counter("setups_off_default")), prc_full_(c.counter("prc_full")),
        misses_(c.counter("circuit_misses")), prc_live_(c.counter("prc_live")), w_live_(c.counter("w_live")),
        w_peak_(c.counter("w_peak", CounterSet::Merge::Max)), flows_peak_(c.counter("link_flows_peak", CounterSet::Merge::Max)) {}

  std::uint32_t uses() const override { return kRouting; }

  RouteResult route(RouterApi& api, Packet& p, PortId in) override {
    if (in >= prc_.size()) return api.default_route(p, in);
    if (p.kind == k_.setup) return setup(api, p, in);
    if (p.kind == PacketKind::Data || p.kind == k_.probe || p.kind == k_.teardown) {
      auto& table = prc_[in];
      const auto it = table.find(p.message);
      RouteResult r;
      if (it != table.end()) {
        r = it->second;
      } else {
        r = untracked(api, p, in);
        if (p.kind == PacketKind::Data) ++misses_;
      }
      if (p.kind == k_.probe)
        p.payload[kMaxWeight] = checked(links_[r.port].probe(p.payload[kMaxWeight]), api.id(), static_cast<int>(r.port), p.message);
      if (p.kind == k_.teardown) {
        if (it != table.end()) {
          table.erase(it);
          --prc_live_;
        }
        const std::uint64_t w = p.payload[kWeight];
        checked(links_[r.port].end(w), api.id(), static_cast<int>(r.port), p.message);
        w_live_ -= w;
      }
      return r;
    }
    return api.default_route(p, in);  // returns, FIN, ACKs: the default path, no state change
  }

  void trace(TraceSink& sink) override {
    for (PortId o = 0; o < links_.size(); ++o) {
      sink.value(links_[o].weight_ref(), "saa.W_l_" + std::to_string(o));
      sink.value(links_[o].flows_ref(), "saa.flows_" + std::to_string(o));
    }
  }

 private:
  RouteResult setup(RouterApi& api, Packet& p, PortId in) {
    auto& table = prc_[in];
    if (p_.prc_entries > 0 && table.size() >= p_.prc_entries) {
      ++setups_;
      ++prc_full_;
      return add_flow(api, untracked(api, p, in), p);  // a full table: the default path, no entry (section 4)
    }
    const RouteResult def = api.default_route(p, in);
    RouteResult best = def;
    if (p_.adaptive && tree_) {
      // Candidates (notes 1.2.1): ascending, every up port; descending, the down port and the
      // horizontal ports in the level's direction. The default port wins ties.
      const RouterId r = api.id();
      const auto role = tree_->role(r, def.port);
      const auto consider = [&](PortId c) {
        if (metric(c) < metric(best.port)) best.port = c;
      };
      if (role == MultistageTopology::Role::Up)
        for (PortId c : tree_->up_ports(r)) consider(c);
      else if (role == MultistageTopology::Role::Down && tree_->shape().horizontal_width > 0)
        for (PortId c : tree_->horizontal_ports(r, tree_->horizontal_direction(r, in))) consider(c);
    }
    ++setups_;
    if (best.port != def.port) ++adaptive_;
    if (!table.emplace(p.message, best).second)
      throw std::logic_error("saa: router " + std::to_string(api.id()) + " input " + std::to_string(in) +
                             ": a second setup for flow " + std::to_string(p.message));
    ++prc_live_;
    return add_flow(api, best, p);
  }
  // The setup of a flow crosses output `best`: count the flow and its weight there (announce-start).
  RouteResult add_flow(RouterApi& api, RouteResult best, Packet& p) {
    const std::uint64_t w = p.payload[kWeight];
    blocks::SaaLinkUnitSlot& link = links_[best.port];
    p.payload[kMaxWeight] = checked(link.start(w, p.payload[kMaxWeight]), api.id(), static_cast<int>(best.port), p.message);
    w_live_ += w;
    w_peak_ = std::max(w_peak_, link.weight());
    flows_peak_ = std::max<std::uint64_t>(flows_peak_, link.flows());
    return best;
  }
  // The path of a flow without a table entry (its setup found this input's table full): the
  // default route with the packet pinned to its destination's selector, i.e. d-mod-k at every
  // level and among parallel links, instead of the routing function's own choice, which may be
  // random (nca) or per packet (spray). Every packet of the flow, the teardown included, then
  // crosses the links its setup added its weight to, in order: section 4 assumes static routing
  // for such flows. The pin stays with the packet; routers that hold an entry for the flow route
  // it by the entry. (Limited tables need a multistage topology: Params::create.)
  RouteResult untracked(RouterApi& api, Packet& p, PortId in) const {
    if (tree_) MultistageRoute::pin_via(p, p.dst);
    return api.default_route(p, in);
  }
  std::uint64_t metric(PortId o) const { return p_.metric == Params::Metric::Flows ? links_[o].flows() : links_[o].weight(); }

  const Params& p_;
  Kinds k_;
  const MultistageTopology* tree_;
  std::vector<std::unordered_map<MessageId, RouteResult>> prc_;  // per input port: flow -> output
  std::vector<blocks::SaaLinkUnitSlot> links_;                       // per output: W_l (flits), flows set up on it
  std::uint64_t &setups_, &adaptive_, &prc_full_, &misses_, &prc_live_, &w_live_, &w_peak_, &flows_peak_;
};

// ---- source pacing: periodic selection (section 6, Fig. 7) -------------------------------------

// One packet every d_p / R cycles (R: the sum of the ready flows' rates), chosen as the ready flow
// with the least virtual time V = D / r; no catch-up after a stall: the period restarts from the
// actual send. A flow is a send queue (one destination: the NIC runs one flow per destination at
// a time). `ps_arith: fixed` runs the mirrored block (blocks/ps_pacer.hpp, rtl/ccn_ps_pacer.sv;
// its C++ core or, from the run's block source, its RTL in the loop) with a slot per destination;
// `float` the same rules in doubles.
class PsPacer final : public InjectionPolicy {
 public:
  using Start = Params::PsStart;
  PsPacer(const NicApi& api, Start start, bool fixed, std::uint32_t div_bits)
      : start_(start), fixed_(fixed), id_(api.id()), nodes_(api.num_nodes()),
        core_(blocks::PsPacerParams{0, 32, 64, 16, start == Start::Join, div_bits}, nodes_,
              fixed ? api.block_source() : nullptr, std::string(api.component_name()) + " saa ps pacer") {}
  void set_ready(NodeId dst, bool ready) override {
    Slot& s = slot(dst);
    if (s.ready == ready) return;
    s.ready = ready;
    s.ready_bit = ready;
    if (fixed_) {
      // A message posted to a destination whose first flow has not started is ready for the
      // instant before the mechanism holds it (NicApi::hold): no flow is open in the block and it
      // has no rate, so it could not send; the block is not told.
      if (!core_.opened(s.index)) return;
      checked(core_.set_ready(s.index, ready), dst);
      s.vtime_cycles = core_.vtime(s.index) >> blocks::PsPacer::kFrac;
      return;
    }
    if (ready && s.fresh) {
      // A flow's first packet: it joins at the least virtual time of the flows already sending
      // (0 if none), as if it had sent at its rate since then; starting at 0 would let it take
      // every slot of the source until it caught up with flows that started before it.
      s.fresh = false;
      s.vtime = 0.0;
      if (start_ == Start::Join && !list_.empty()) {
        s.vtime = list_.front().second->vtime;
        for (const auto& [d, o] : list_) s.vtime = std::min(s.vtime, o->vtime);
      }
      s.vtime_cycles = static_cast<std::uint64_t>(s.vtime);
    }
    if (ready) list_.emplace_back(dst, &s);
    else list_.erase(std::find_if(list_.begin(), list_.end(), [dst](const auto& e) { return e.first == dst; }));
  }
  // V is kept (notes 1.5 [CHOICE]). Fixed point: the rate quantised to Q16, at least 1 LSB.
  void set_rate(NodeId dst, double r) {
    Slot& s = slot(dst);
    s.rate = r;
    s.rate_q16 = static_cast<std::uint32_t>(r * 65536.0 + 0.5);
    if (fixed_) {
      s.rate_q16 = std::max<std::uint32_t>(s.rate_q16, 1);
      checked(core_.set_rate(s.index, s.rate_q16), dst);
    }
  }
  // A new flow to `dst`: it takes its V at its first packet.
  void reset(NodeId dst) {
    Slot& s = slot(dst);
    if (fixed_) checked(core_.open(s.index, dst), dst);
    else s.fresh = true;
  }
  int pick(Cycle now) const override {
    if (fixed_) {
      const int k = core_.pick(now);
      return k < 0 ? -1 : static_cast<int>(core_.dst(static_cast<std::uint32_t>(k)));
    }
    if (static_cast<double>(now) < next_) return -1;
    int best = -1;
    const Slot* b = nullptr;
    for (const auto& [d, s] : list_) {
      if (!(s->rate > 0)) continue;
      if (b == nullptr || s->vtime < b->vtime || (s->vtime == b->vtime && d < static_cast<NodeId>(best))) {
        best = static_cast<int>(d);
        b = s;
      }
    }
    return best;
  }
  void commit(Cycle now, int granted, std::uint32_t flits) override {
    if (granted < 0) return;
    Slot& g = slots_.at(static_cast<NodeId>(granted));
    if (fixed_) {
      checked(core_.commit(now, g.index, flits), static_cast<NodeId>(granted));
      g.vtime_cycles = core_.vtime(g.index) >> blocks::PsPacer::kFrac;
      next_tx_ = core_.next_cycle();
      return;
    }
    g.vtime += flits / g.rate;
    g.vtime_cycles = static_cast<std::uint64_t>(g.vtime);
    double total = g.ready ? 0.0 : g.rate;
    for (const auto& e : list_) total += e.second->rate;
    // Sent on time (within the cycle the period ended in): the next period follows on; later
    // (back-pressure): it restarts from now, without compensating (section 6.2).
    const double base = static_cast<double>(now) - next_ < 1.0 ? std::max(next_, 0.0) : static_cast<double>(now);
    next_ = base + flits / std::min(total, 1.0);
    next_tx_ = static_cast<std::uint64_t>(std::ceil(next_));
  }
  // Waveforms: the next send slot, and per destination (flow) its rate (65536 = line rate), its
  // virtual time V = D / r (cycles) and whether it has a packet to send. Tracing gives every
  // destination a slot (an idle one changes nothing).
  void trace(TraceSink& sink) override {
    sink.value(next_tx_, "saa.ps.next_tx");
    for (NodeId d = 0; d < nodes_; ++d) {
      Slot& s = slot(d);
      const std::string f = "saa.ps.flow_" + std::to_string(d);
      sink.value(s.rate_q16, f + ".rate_q16", 17);
      sink.value(s.vtime_cycles, f + ".vtime");
      sink.value(s.ready_bit, f + ".ready", 1);
    }
  }

 private:
  // Per destination the source has sent to (a flow at a time): sparse, since a source talks to
  // few of the N nodes and N^2 dense state does not fit at 4096 nodes. std::unordered_map keeps
  // references valid on insertion, which list_ and the trace sink rely on.
  struct Slot {
    std::uint32_t index = 0;  // fixed point: the block's slot
    bool ready = false, fresh = false;
    double rate = 0.0, vtime = 0.0;  // float: r_f (fraction of line rate), V = D / r (cycles)
    // The traced copies of the state (integers, for the VCD); rate_q16 is also the fixed-point rate.
    std::uint32_t ready_bit = 0, rate_q16 = 0;
    std::uint64_t vtime_cycles = 0;
  };
  Slot& slot(NodeId dst) {
    auto [it, added] = slots_.try_emplace(dst);
    if (added) it->second.index = static_cast<std::uint32_t>(slots_.size() - 1);
    return it->second;
  }
  // A violation of the block's contract is a model error naming the source and the flow.
  void checked(blocks::PsPacerViolation v, NodeId dst) const {
    if (v != blocks::PsPacerViolation::None)
      throw std::logic_error("saa: NIC " + std::to_string(id_) + " PS pacer, flow to " + std::to_string(dst) + ": " +
                             blocks::describe(v));
  }

  Start start_;
  bool fixed_;
  std::uint32_t id_, nodes_;
  std::unordered_map<NodeId, Slot> slots_;
  blocks::PsPacerSlot core_;                    // fixed point
  std::vector<std::pair<NodeId, Slot*>> list_;  // float: ready destinations, in the order they became ready
  double next_ = 0.0;
  std::uint64_t next_tx_ = 0;  // traced: the next send time rounded up to a cycle
};

// ---- NIC: flow life cycle at the source, completion at the destination -------------------------

class SaaNic final : public NicHooks {
 public:
  SaaNic(NicApi& api, CounterSet& c, const Params& p, const Kinds& k)
      : p_(p), k_(k), circuits_(p.adaptive || p.rates), nodes_(api.num_nodes()),
        pacer_(p.rates ? std::make_unique<PsPacer>(api, p.ps_start, p.ps_arith == Params::PsArith::Fixed, p.ps_div_bits)
                       : nullptr),
        injection_(make_link_unit(api.block_source(), std::string(api.component_name()) + " saa injection link unit")),
        probes_(c.counter("probes")),
        flows_done_(c.counter("flows_completed")), completion_max_(c.counter("flow_completion_max", CounterSet::Merge::Max)),
        completion_sum_(c.counter("flow_completion_sum")), span_max_(c.counter("flow_span_max", CounterSet::Merge::Max)),
        out_of_order_(c.counter("out_of_order")),
        circuits_open_(c.counter("circuits_open")), w_inj_peak_(c.counter("w_injection_peak", CounterSet::Merge::Max)),
        announce_last_(c.counter("announce_last", CounterSet::Merge::Max)),
        wf_raise_last_(c.counter("wf_raise_last", CounterSet::Merge::Max)), wf_drops_(c.counter("wf_drops")),
        probe_rtt_max_(c.counter("probe_rtt_max", CounterSet::Merge::Max)),
        setup_hops_max_(c.counter("setup_hops_max", CounterSet::Merge::Max)) {}

  InjectionPolicy* injection_policy() override { return pacer_.get(); }

  // Waveforms: the W_l of the injection link (the source's announced flows) and, per destination,
  // the flow's W_f (its rate is w_f / W_f; 0 before its setup returns) and weight w_f. Tracing
  // gives every destination an (idle) entry.
  void trace(TraceSink& sink) override {
    if (!circuits_) return;
    sink.value(injection_.weight_ref(), "saa.w_injection");
    for (NodeId d = 0; d < nodes_; ++d) {
      sink.value(flows_[d].max_weight, "saa.flow_" + std::to_string(d) + ".W_f");
      sink.value(flows_[d].weight, "saa.flow_" + std::to_string(d) + ".w_f");
    }
  }

  void on_message(NicApi& api, const MessageInfo& m, bool) override {
    if (!circuits_) return;
    Flow& f = flows_[m.dst];
    f.pending.push_back(m);
    if (f.state == State::Idle && f.pending.size() == 1) {
      api.hold(m.dst, kNever);
      starting_.push_back(m.dst);
    }
  }

  void on_packet_formed(NicApi& api, Packet& p) override {
    if (!circuits_) return;
    Flow& f = flows_[p.dst];
    if (f.state != State::Active || p.message != f.message)
      throw std::logic_error("saa: NIC " + std::to_string(api.id()) + " formed a packet of message " +
                             std::to_string(p.message) + " outside its circuit");
    if (p.seq + 1 == p.message_packets) api.hold(p.dst, kNever);  // the next flow waits for this one's teardown
  }

  void on_data(NicApi& api, const Packet& p, Packet*) override {
    Received& r = received_[p.message];
    if (p.seq != r.next) ++out_of_order_;
    r.next = p.seq + 1;
    if (r.packets == 0) r.first = api.now() - p.size;  // the first packet's arrival began p.size cycles ago
    if (++r.packets < p.message_packets) return;
    ++flows_done_;
    const Cycle took = api.now() - p.created;
    completion_max_ = std::max<std::uint64_t>(completion_max_, took);
    completion_sum_ += took;
    span_max_ = std::max<std::uint64_t>(span_max_, api.now() - r.first);
    received_.erase(p.message);
    if (circuits_) send(api, k_.fin, p.src, p.message, 0, 0);
  }

  void on_control(NicApi& api, const Packet& p) override {
    if (p.kind == k_.setup || p.kind == k_.probe || p.kind == k_.teardown) {  // destination: answer
      if (p.kind == k_.setup) {  // R11: the announcement is on every link of the path
        announce_last_ = std::max<std::uint64_t>(announce_last_, api.now());
        setup_hops_max_ = std::max<std::uint64_t>(setup_hops_max_, p.hops);
      }
      const PacketKind back = p.kind == k_.setup ? k_.setup_return : p.kind == k_.probe ? k_.probe_return : k_.teardown_return;
      send(api, back, p.src, p.message, p.payload[kWeight], p.payload[kMaxWeight]);
      return;
    }
    const NodeId dst = p.src;
    if (!circuits_) return;
    const auto it = flows_.find(dst);
    if (it == flows_.end() || p.message != it->second.message) return;
    Flow& f = it->second;
    if (p.kind == k_.setup_return) {
      f.outstanding = false;
      f.state = State::Active;
      ++circuits_open_;
      update(api, f, dst, p.payload[kMaxWeight]);
      if (!p_.rates || !p_.wait_for_stable) api.hold(dst, api.now());
      f.probe_at = api.now() + p_.probe_gap;
      if (p_.rates && f.stable < p_.probe_stable) probing_.push_back(dst);
    } else if (p.kind == k_.probe_return) {
      f.outstanding = false;
      const bool same = p.payload[kMaxWeight] == f.max_weight;
      probe_rtt_max_ = std::max<std::uint64_t>(probe_rtt_max_, api.now() - f.probe_sent);
      update(api, f, dst, p.payload[kMaxWeight]);
      f.stable = same ? f.stable + 1 : 0;
      f.probe_at = api.now() + p_.probe_gap;
      if (f.stable >= p_.probe_stable && p_.wait_for_stable && !f.fin) api.hold(dst, api.now());
      if (f.fin) teardown(api, dst);
      else if (f.stable < p_.probe_stable) probing_.push_back(dst);
    } else if (p.kind == k_.fin) {
      f.fin = true;
      if (!f.outstanding) teardown(api, dst);
    } else if (p.kind == k_.teardown_return) {
      checked(injection_.end(f.weight), api.id(), -1, f.message);
      --circuits_open_;
      f.state = State::Idle;
      f.outstanding = false;
      if (!f.pending.empty()) starting_.push_back(dst);
    }
  }

  void tick(NicApi& api) override {
    if (!starting_.empty()) {
      // Announce every flow posted this cycle on the injection link first, so the first setup
      // already carries the source's whole W_l (paper: the HCA's own link register).
      for (NodeId d : starting_) {
        const MessageInfo& m = flows_[d].pending.front();
        checked(injection_.start(m.flits, 0), api.id(), -1, m.id);
      }
      w_inj_peak_ = std::max(w_inj_peak_, injection_.weight());
      for (NodeId d : starting_) {
        Flow& f = flows_[d];
        const MessageInfo m = f.pending.front();
        f.pending.pop_front();
        f.message = m.id;
        f.weight = m.flits;
        f.state = State::Setup;
        f.fin = false;
        f.stable = 0;
        f.max_weight = 0;
        f.outstanding = true;
        if (pacer_) pacer_->reset(d);
        send(api, k_.setup, d, m.id, m.flits, injection_.weight());
      }
      starting_.clear();
    }
    for (std::size_t i = 0; i < probing_.size();) {
      const NodeId d = probing_[i];
      Flow& f = flows_[d];
      if (f.outstanding || f.fin || f.state != State::Active) {
        probing_[i] = probing_.back();
        probing_.pop_back();
      } else if (api.now() >= f.probe_at) {
        f.outstanding = true;
        f.probe_sent = api.now();
        ++probes_;
        send(api, k_.probe, d, f.message, f.weight, injection_.weight());
        probing_[i] = probing_.back();
        probing_.pop_back();
      } else {
        ++i;
      }
    }
  }

 private:
  enum class State : std::uint8_t { Idle, Setup, Active };
  struct Flow {
    std::deque<MessageInfo> pending;  // messages not started (flows run one at a time per destination)
    MessageId message = 0;
    std::uint64_t weight = 0, max_weight = 0;
    State state = State::Idle;
    bool outstanding = false;  // a control packet of this flow is in the network (at most one)
    bool fin = false;          // the destination has the whole flow
    std::uint32_t stable = 0;  // probes in a row that returned the same W_f
    Cycle probe_at = 0;
    Cycle probe_sent = 0;  // when the outstanding probe left
  };
  struct Received {
    std::uint32_t packets = 0, next = 0;
    Cycle first = 0;  // when the first packet began to arrive (the destination's view of the flow's start)
  };

  // A new W_f for the flow (from its setup's or a probe's return). R11's counters: the last time
  // any source's W_f rose (0 -> the setup's estimate included) and how often one fell.
  void update(NicApi& api, Flow& f, NodeId dst, std::uint64_t max_weight) {
    if (max_weight > f.max_weight) wf_raise_last_ = std::max<std::uint64_t>(wf_raise_last_, api.now());
    if (max_weight < f.max_weight) ++wf_drops_;
    f.max_weight = max_weight;
    if (pacer_) pacer_->set_rate(dst, max_weight == 0 ? 1.0 : std::min(1.0, double(f.weight) / double(max_weight)));
  }
  void teardown(NicApi& api, NodeId dst) {
    Flow& f = flows_[dst];
    f.outstanding = true;
    send(api, k_.teardown, dst, f.message, f.weight, 0);
  }
  static void send(NicApi& api, PacketKind kind, NodeId dst, MessageId message, std::uint64_t w, std::uint64_t max_w) {
    Packet& c = api.packets().allocate();
    c.kind = kind;
    c.src = api.id();
    c.dst = dst;
    c.size = 1;
    c.message = message;
    c.created = api.now();
    c.payload[kWeight] = w;
    c.payload[kMaxWeight] = max_w;
    api.send_control(c);
  }

  const Params& p_;
  Kinds k_;
  bool circuits_;
  std::uint32_t nodes_;
  // Per destination this source has sent to: sparse (a source talks to few of the N nodes; dense,
  // N^2 entries with a std::deque each took 13 GB at 4096 nodes). References stay valid on
  // insertion (the trace sink holds some).
  std::unordered_map<NodeId, Flow> flows_;
  std::unique_ptr<PsPacer> pacer_;
  std::vector<NodeId> starting_, probing_;
  std::unordered_map<MessageId, Received> received_;
  blocks::SaaLinkUnitSlot injection_;  // W_l of the injection link (the source's announced flows)
  std::uint64_t &probes_, &flows_done_, &completion_max_, &completion_sum_, &span_max_, &out_of_order_, &circuits_open_, &w_inj_peak_;
  std::uint64_t &announce_last_, &wf_raise_last_, &wf_drops_, &probe_rtt_max_, &setup_hops_max_;
};

class Saa final : public Mechanism {
 public:
  Saa(const Params& p, const MechanismContext& ctx)
      : p_(p), tree_(dynamic_cast<const MultistageTopology*>(&ctx.topology)),
        k_{ctx.format.declare_kind("setup"),        ctx.format.declare_kind("probe"),
           ctx.format.declare_kind("teardown"),     ctx.format.declare_kind("fin"),
           ctx.format.declare_kind("setup_return"), ctx.format.declare_kind("probe_return"),
           ctx.format.declare_kind("teardown_return")} {}
  std::string name() const override { return p_.name; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& r, CounterSet& c) const override {
    if (!p_.adaptive && !p_.rates) return nullptr;
    return std::make_unique<SaaRouter>(r, c, p_, k_, tree_);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& n, CounterSet& c) const override {
    return std::make_unique<SaaNic>(n, c, p_, k_);
  }
  Cycle max_injection_gap() const override { return p_.rates ? p_.max_gap : 0; }

 private:
  Params p_;
  const MultistageTopology* tree_;
  Kinds k_;
};

enum class Preset { NoControl, AdaptiveOnly, SaaOnly, SaaAdaptive };

template <Preset P>
struct PresetParams : Params {
  static constexpr bool kAdaptive = P == Preset::AdaptiveOnly || P == Preset::SaaAdaptive;
  static constexpr bool kRates = P == Preset::SaaOnly || P == Preset::SaaAdaptive;
  PresetParams() {
    name = registered();
    adaptive = kAdaptive;
    rates = kRates;
  }
  static const char* doc();
  static const char* registered();
  static const config::Schema& schema() {
    static config::Schema s(doc());
    static bool init = [] {
      config::Declare<PresetParams>(s)
          .field("adaptive", &Params::adaptive, kAdaptive,
                 "adaptive path setup: each hop's setup takes the candidate output with the least metric (multistage "
                 "topologies; false: the routing algorithm's path, e.g. d-mod-k)")
          .field("rates", &Params::rates, kRates,
                 "explicit SAA rates r_f = w_f / W_f, paced per source by periodic selection (false: line rate)")
          .field("prc_entries", &Params::prc_entries, 0u,
                 "flow-table (PRC) entries per input port; a setup finding it full takes the default path pinned to d-mod-k "
                 "(the same for every packet of the flow) and records nothing (0: unlimited, the paper's experiments; "
                 "limited tables need a multistage topology)",
                 {0, 1u << 24})
          .choice("metric", &Params::metric, Params::Metric::Flows,
                  {{"flows", Params::Metric::Flows}, {"weight", Params::Metric::Weight}},
                  "port selector metric: flows set up on the output (the paper's experiments) or its W_l")
          .field("probe_stable", &Params::probe_stable, 2u,
                 "probing stops after this many probes in a row return an unchanged W_f (notes 1.4 choice 1: 2; 0: "
                 "no probes, the announce-start's W_f only)",
                 {0, 1000})
          .choice("ps_start", &Params::ps_start, Params::PsStart::Join,
                  {{"join", Params::PsStart::Join}, {"zero", Params::PsStart::Zero}},
                  "PS virtual time of a flow's first packet: the least of the source's sending flows (join: a flow "
                  "whose set-up returns late gets its rate, not the whole source until it catches up) or 0 (zero: "
                  "the paper's Fig. 7 with all flows starting together)")
          .choice("ps_arith", &Params::ps_arith, Params::PsArith::Float,
                  {{"float", Params::PsArith::Float}, {"fixed", Params::PsArith::Fixed}},
                  "PS pacer arithmetic: double-precision virtual and send times (float), or integers with 16 fraction "
                  "bits: the rate quantised to Q16, one division per packet for V and the period, the period rounded up "
                  "(fixed: what an RTL pacer computes)")
          .field("ps_div_bits", &Params::ps_div_bits, std::uint32_t{0},
                 "ps_arith fixed: quotient bits per cycle of the pacer's two dividers, the RTL's DivBits (0: both "
                 "divisions in the send's cycle; n: ceil(48 / n) cycles, no grant before they end, the same V and "
                 "send times)", {0, 48})
          .field("probe_gap", &Params::probe_gap, Cycle{0},
                 "cycles from a probe's (or the setup's) return to the next probe (0: at once, one RTT apart)")
          .field("wait_for_stable", &Params::wait_for_stable, false,
                 "no data before W_f is stable (false: data from the setup's return, at the first estimate)")
          .field("max_gap", &Params::max_gap, Cycle{1} << 16,
                 "longest wait of a paced source the run's watchdogs allow for, cycles", {1, Cycle{1} << 40});
      return true;
    }();
    (void)init;
    return s;
  }
};

template <>
const char* PresetParams<Preset::NoControl>::doc() {
  return "Paper 004's NC baseline: no control packets, data at line rate on the routing algorithm's path; "
         "destinations report flow completion times (docs/mechanisms/saa.md).";
}
template <>
const char* PresetParams<Preset::AdaptiveOnly>::doc() {
  return "Paper 004's AR alone: per-flow virtual circuits set up adaptively (the output with the fewest flows), "
         "data at line rate (docs/mechanisms/saa.md).";
}
template <>
const char* PresetParams<Preset::SaaOnly>::doc() {
  return "Paper 004's SAA alone: explicit rates r_f = w_f / W_f from per-link W_l registers on the routing "
         "algorithm's path, PS pacing at the source (docs/mechanisms/saa.md).";
}
template <>
const char* PresetParams<Preset::SaaAdaptive>::doc() {
  return "Paper 004's SAA+AR: adaptive virtual-circuit setup merged with the SAA announce-start, explicit rates "
         "w_f / W_f, PS pacing, teardown merged with announce-end (docs/mechanisms/saa.md).";
}

template <>
const char* PresetParams<Preset::NoControl>::registered() { return "nc"; }
template <>
const char* PresetParams<Preset::AdaptiveOnly>::registered() { return "ar"; }
template <>
const char* PresetParams<Preset::SaaOnly>::registered() { return "saa"; }
template <>
const char* PresetParams<Preset::SaaAdaptive>::registered() { return "saa_ar"; }

config::PolyRegistrar<MechanismParams, PresetParams<Preset::NoControl>> reg_nc("nc", "paper 004's no-control baseline");
config::PolyRegistrar<MechanismParams, PresetParams<Preset::AdaptiveOnly>> reg_ar("ar", "paper 004's adaptive virtual circuits, no rates");
config::PolyRegistrar<MechanismParams, PresetParams<Preset::SaaOnly>> reg_saa("saa", "paper 004's explicit-rate SAA on static routes");
config::PolyRegistrar<MechanismParams, PresetParams<Preset::SaaAdaptive>> reg_saa_ar("saa_ar", "paper 004's SAA with adaptive path setup");

}  // namespace

std::unique_ptr<Mechanism> Params::create(const MechanismContext& ctx) const {
  const auto* tree = dynamic_cast<const MultistageTopology*>(&ctx.topology);
  if (adaptive && (!tree || tree->clusters() > 1))
    throw config::ConfigError("cc.adaptive: adaptive path setup needs a single-cluster multistage topology (fattree, clos, "
                              "modified_fattree), not '" + ctx.topology.name() + "'");
  if (ps_div_bits > 0 && (!rates || ps_arith != PsArith::Fixed))
    throw config::ConfigError("cc.ps_div_bits: the pacer's dividers are those of the fixed-point pacer; set "
                              "ps_arith: fixed (and rates: true), or ps_div_bits: 0");
  if (prc_entries > 0 && !tree)
    throw config::ConfigError("cc.prc_entries: limited flow tables need a multistage topology (fattree, clos, "
                              "modified_fattree, multicluster), where a flow without an entry is pinned to one path; "
                              "not '" + ctx.topology.name() + "' (0 = unlimited)");
  return std::make_unique<Saa>(*this, ctx);
}

}  // namespace ccnet::saa
