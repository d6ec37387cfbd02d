#include "router/router.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/process_error.hpp"
#include "core/watch.hpp"

namespace ccnet {

Router::Router(sc_core::sc_module_name name, RouterId id, std::vector<RouterPortSpec> ports, RouterEnv env)
    : sc_core::sc_module(name),
      id_(id),
      env_(std::move(env)),
      cc_counters_(env_.series_window),
      rng_(env_.seed, std::string(this->name()) + ".routing"),
      route_state_(env_.routing.make_state(id)) {
  const RouterConfig& cfg = env_.config;
  const auto nports = static_cast<PortId>(ports.size());
  const auto num_vnets = static_cast<std::uint32_t>(env_.vnet_priority.size());
  vcs_per_level_ = cfg.vcs_per_level;
  num_vcs_ = num_vnets * env_.vc_levels * vcs_per_level_;
  voq_ = cfg.voq;
  cioq_ = cfg.output_buffer > 0;
  early_take_ = !cioq_;
  vct_ = cfg.flow_control == FlowControl::VirtualCutThrough;
  queues_per_vc_ = voq_ ? nports : 1u;
  if (num_vcs_ * queues_per_vc_ > 0xffff) fail("too many VCs x VOQs for one input port");
  std::uint8_t max_prio = 0;
  for (auto p : env_.vnet_priority) max_prio = std::max(max_prio, p);
  const unsigned num_prio = max_prio + 1u;
  num_prio_ = num_prio;

  flit_in.init(nports);
  flit_out.init(nports);
  credit_in.init(nports);
  credit_out.init(nports);

  queues_per_port_ = num_vcs_ * queues_per_vc_;
  // The flat arrays are sized first (ports plus the control source) and never reallocated: the
  // ports' pointers into them are set once all are built.
  std::vector<std::uint32_t> depths;  // per input port
  for (const RouterPortSpec& spec : ports) depths.push_back(spec.connected() ? spec.in_depth : 0);
  depths.push_back(cfg.control_queue);
  std::size_t total_slots = 0;
  for (const auto d : depths) total_slots += std::size_t{d} * num_vcs_;
  ivcs_.resize(depths.size() * num_vcs_);
  queues_.resize(depths.size() * queues_per_port_);
  slots_.resize(total_slots);
  std::size_t next_slot = 0;
  auto make_input = [&](const RouterPortSpec& spec, std::uint32_t depth, bool internal) {
    InputPort in;
    in.spec = spec;
    in.latency = spec.latency;
    in.internal = internal;
    const std::size_t p = inputs_.size();
    in.vcs = &ivcs_[p * num_vcs_];
    in.queues = &queues_[p * queues_per_port_];
    for (VcId v = 0; v < num_vcs_; ++v) {
      InputVc& vc = in.vcs[v];
      vc.capacity = depth;
      vc.slots = slots_.data() + next_slot;
      next_slot += depth;
      for (std::uint32_t s = 0; s < depth; ++s) vc.slots[s].next = s + 1 < depth ? static_cast<std::int32_t>(s + 1) : -1;
      vc.free_head = depth ? 0 : -1;
    }
    return in;
  };
  if (!cioq_) credits_.reserve(std::size_t{nports} * num_vcs_);
  owned_ = std::make_unique<bool[]>(std::size_t{nports} * num_vcs_);
  for (PortId p = 0; p < nports; ++p) {
    const RouterPortSpec& spec = ports[p];
    port_info_.push_back(PortInfo{spec.peer, spec.connected() ? spec.in_depth : 0, spec.connected() ? spec.out_depth : 0,
                                  spec.connected() ? spec.latency : 0});
    inputs_.push_back(make_input(spec, spec.connected() ? spec.in_depth : 0, false));
    OutputPort out;
    out.spec = spec;
    out.latency = spec.latency;
    out.vcs.resize(num_vcs_);
    if (spec.connected()) {
      if (cioq_) {
        out.arbiter = blocks::OutputArbiterSlot(
            blocks::OutputArbiterParams{num_vcs_, num_prio, spec.out_depth, kMaxCreditLanes, vct_}, env_.blocks,
            std::string(this->name()) + " output " + std::to_string(p));
      }
    }
    if (!cioq_) {
      // Unconnected ports keep default counters (never read: credits() answers 0 for them).
      for (VcId v = 0; v < num_vcs_; ++v) {
        if (spec.connected()) {
          credits_.emplace_back(blocks::CreditCounterParams{spec.out_depth, kMaxCreditLanes}, env_.blocks,
                                std::string(this->name()) + " output " + std::to_string(p) + " vc " + std::to_string(v));
          early_take_ = early_take_ && credits_.back().runs_core();
        } else {
          credits_.emplace_back();
        }
      }
      out.credits = &credits_[std::size_t{p} * num_vcs_];
    }
    out.owned = &owned_[std::size_t{p} * num_vcs_];
    ports_.push_back(std::move(out));
  }
  // The switch's own control-packet source (NACKs, congestion notifications): an extra input.
  inputs_.push_back(make_input(RouterPortSpec{}, cfg.control_queue, true));

  allocator_ = blocks::SwitchAllocatorSlot(
      blocks::SwitchAllocatorParams{static_cast<unsigned>(nports + 1), nports, num_vcs_ * queues_per_vc_, num_prio,
                                    cfg.speedup, cioq_ ? cfg.speedup : 1u},
      env_.blocks, std::string(this->name()) + " switch allocator");
  // VC allocation: one round-robin arbiter per output port over every input queue (ports and
  // the control source).
  va_arbiters_.reserve(nports);
  for (PortId p = 0; p < nports; ++p)
    va_arbiters_.emplace_back(
        blocks::RrArbiterParams{static_cast<unsigned>(inputs_.size() * num_vcs_ * queues_per_vc_), 1, false}, env_.blocks,
        std::string(this->name()) + " vc allocator output " + std::to_string(p));
  va_core_ = env_.blocks == nullptr;
  give_count_.assign(num_vcs_, 0);
  for (VcId v = 0; v < num_vcs_; ++v) {
    vc_vnet_.push_back(vnet_of_vc(v));
    vc_prio_.push_back(env_.vnet_priority[vc_vnet_.back()]);
  }
  take_flag_.assign(num_vcs_, 0);
  for (PortId p = 0; p < nports; ++p)
    if (ports[p].connected()) connected_.push_back(p);
  out_dirty_.resize(nports);
  arrived_.resize(nports);
  // The delay lines' due-time wheel: one slot per cycle of the longest link latency (a power of
  // two); beyond kMaxDueWheel cycles the ports with entries are visited every cycle instead.
  std::uint32_t max_latency = 1;
  for (const auto& spec : ports) max_latency = std::max(max_latency, spec.latency);
  if (max_latency < kMaxDueWheel) {
    std::size_t slots = 1;
    while (slots <= max_latency) slots <<= 1;
    due_wheel_.assign(slots * arrived_.words(), 0);
    due_wheel_mask_ = slots - 1;
  } else {
    link_ports_.resize(nports);
  }
  if (!cioq_) {
    std::size_t slots = 1;
    while (slots <= Cycle{cfg.delays.sw_alloc} + cfg.delays.traversal) slots <<= 1;
    pipe_mask_ = slots - 1;
    pipe_.assign(nports * slots, Flit{});
    pipe_due_.assign(slots * out_dirty_.words(), 0);
    pipe_count_.assign(slots, 0);
  }
  va_recheck_.resize(nports);
  credit_dirty_.resize(nports);
  credit_soon_.assign(credit_dirty_.words(), 0);
  trav_pending_.resize(nports);
  counters_.flits_out.assign(nports, 0);
  counters_.flits_in.assign(nports, 0);
  period_ps_ = env_.period.value();

  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

Router::~Router() = default;

void Router::attach(std::unique_ptr<RouterHooks> hooks) {
  hooks_ = std::move(hooks);
  hook_uses_ = hooks_ ? hooks_->uses() : 0;
  early_take_ = early_take_ && !hooks_;
}

void Router::fail(const std::string& what) const {
  std::ostringstream os;
  os << name() << " @cycle " << current() << ": " << what;
  throw ModelError(os.str());
}

void Router::end_of_elaboration() {
  for (PortId p = 0; p < num_ports(); ++p) {
    flit_in_if_.push_back(flit_in[p].operator->());
    flit_out_if_.push_back(flit_out[p].operator->());
    credit_in_if_.push_back(credit_in[p].operator->());
    credit_out_if_.push_back(credit_out[p].operator->());
    flit_in_val_.push_back(&flit_in_if_.back()->read());
    credit_in_val_.push_back(&credit_in_if_.back()->read());
  }
  for (const PortId p : connected_) {
    // The input channels tell the router when they changed (core/channel.hpp): it reads only those.
    auto* fc = dynamic_cast<Channel<Flit>*>(const_cast<sc_core::sc_signal_in_if<Flit>*>(flit_in_if_[p]));
    auto* cc = dynamic_cast<Channel<CreditLanes>*>(const_cast<sc_core::sc_signal_in_if<CreditLanes>*>(credit_in_if_[p]));
    if (!fc || !cc) fail("input port " + std::to_string(p) + " is not bound to a ccnet::Channel (core/channel.hpp)");
    fc->notify(arrived_, p);
    cc->notify(arrived_, p);
  }
}

// ---- per-cycle evaluation ------------------------------------------------------------------------

void Router::join(ClockDomain& domain) {
  domain_ = &domain;
  // Timed wakes as far ahead as the longest link (the delay lines' wheel covers the same).
  if (!due_wheel_.empty()) domain.need_horizon(due_wheel_mask_);
}

void Router::tick() {
  process_error::guard(*this, env_.period, [this] {
    if (domain_) {
      // The domain's process evaluates it from the next edge on; its input channels wake it.
      slot_ = domain_->enlist(*this);
      for (const PortId p : connected_) {
        dynamic_cast<Channel<Flit>*>(const_cast<sc_core::sc_signal_in_if<Flit>*>(flit_in_if_[p]))
            ->also_wake(domain_->awake_set(), slot_);
        dynamic_cast<Channel<CreditLanes>*>(const_cast<sc_core::sc_signal_in_if<CreditLanes>*>(credit_in_if_[p]))
            ->also_wake(domain_->awake_set(), slot_);
      }
    }
    evaluate();
    can_sleep_ = domain_ != nullptr;
    // Long links are sampled into their delay lines in the update phase (sample_flit) where
    // nothing observes the half cycle; from this edge's update phase on (the domain's edge count
    // is then this edge's, as wake_in needs).
    if (can_sleep_ && !hooks_ && !exact_ && !env_.blocks && !due_wheel_.empty()) {
      for (const PortId p : connected_) {
        if (inputs_[p].spec.latency < 2) continue;  // due at the next edge anyway: sampled by it
        dynamic_cast<Channel<Flit>*>(const_cast<sc_core::sc_signal_in_if<Flit>*>(flit_in_if_[p]))
            ->sample_with(&Router::sample_flit, this);
        dynamic_cast<Channel<CreditLanes>*>(const_cast<sc_core::sc_signal_in_if<CreditLanes>*>(credit_in_if_[p]))
            ->sample_with(&Router::sample_credit, this);
      }
    }
  });
}

bool Router::sample_flit(void* self, std::size_t p) {
  auto& r = *static_cast<Router*>(self);
  if (r.probe_live_) return false;
  InputPort& in = r.inputs_[p];
  const Flit& f = *r.flit_in_val_[p];
  if (f.fresh(in.flit_taken)) {  // else a clear: nothing to take
    in.flit_taken = f.seq;
    ++r.counters_.flits_in[p];
    const Cycle now = r.current();
    r.delay_flit(static_cast<PortId>(p), f, now + in.latency, now);
    r.idle_ = false;  // the next evaluation takes its due entries
  }
  return true;
}

bool Router::sample_credit(void* self, std::size_t p) {
  auto& r = *static_cast<Router*>(self);
  if (r.probe_live_) return false;
  OutputPort& out = r.ports_[p];
  const CreditLanes& c = *r.credit_in_val_[p];
  if (c.fresh(out.credit_taken)) {
    out.credit_taken = c.seq;
    const Cycle now = r.current();
    r.delay_credit(static_cast<PortId>(p), c, now + out.latency, now);
    r.idle_ = false;
  }
  return true;
}

void Router::evaluate() {
  // Evaluated at every rising edge while awake (by its own process at the first, by the domain's
  // after), so the cycle count just advances; it is read from the kernel's time at the first
  // evaluation and on waking.
  if (__builtin_expect(asleep_, 0)) {
    now_ = domain_->edge() + edge_offset_;
    asleep_ = false;
  } else if (__builtin_expect(!started_, 0)) {
    now_ = sc_core::sc_time_stamp().value() / period_ps_;
    started_ = true;
  } else {
    ++now_;
  }
  // Idle fast path: nothing held or pending and nothing arriving, so nothing would change (not
  // even a signal). A router with hooks or an open trace window is never idle.
  if (idle_ && !input_arriving()) {
    if (can_sleep_) sleep_if_waiting();
    return;
  }
  receive();
  if (!va_list_.empty()) allocate_vcs(false);
  vc_released_ = false;
  va_recheck_.clear();
  if (!sa_list_.empty()) allocate_switch();
  // A tail that won the switch released its output VC: the next packet may take it in this
  // same cycle, so back-to-back packets on one output VC leave no gap (docs/architecture.md).
  if (vc_released_ && !va_list_.empty()) allocate_vcs(true);
  // Heads still blocked after this cycle's allocation (e.g. SRP queuing timeout drops).
  if (hook_uses_ & RouterHooks::kHeadScan) scan_queue_heads();
  if (in_traversal_) {
    if (cioq_) traverse();
    else reach_outputs();
  }
  if (cioq_ && oq_total_) arbitrate_links();
  if (hooks_) hooks_->tick(*this);
  if (!out_dirty_.empty() || !credit_dirty_.empty()) commit_and_write();
  if (credit_soon_any_) {
    credit_dirty_.take(credit_soon_.data());
    credit_soon_any_ = false;
  }
  if (probe_live_) update_probe();
  idle_ = !hooks_ && !probe_live_ && quiescent();
  if (can_sleep_ && !hooks_ && !probe_live_) sleep_if_waiting();
}

void Router::sleep_if_waiting() {
  if (!waiting()) return;
  if (link_entries_ != 0) {
    // Woken when its delay-line entries are due (schedule) or earlier by a channel; without the
    // wheel (very long links) the delay lines are visited every cycle instead (receive).
    if (due_wheel_.empty() || untimed_) return;
  } else {
    untimed_ = false;
  }
  if (!offset_known_) {  // evaluated by the domain's process: its edge count is this edge's
    edge_offset_ = now_ - domain_->edge();
    offset_known_ = true;
  }
  asleep_ = true;
  domain_->sleep(slot_);
}

void Router::receive() {
  // Only the ports whose input channels changed at the last edge (Channel::notify) and those
  // with a flit or credit due now in their links' delay lines, in ascending order, as a scan of
  // every port would take them.
  if (link_entries_) {
    if (!due_wheel_.empty()) {
      arrived_.take(&due_wheel_[(now_ & due_wheel_mask_) * arrived_.words()]);
    } else {
      arrived_.merge(link_ports_.data());
    }
  }
  visit_set(arrived_, [&](std::size_t pi) { receive_port(static_cast<PortId>(pi)); });
  arrived_.clear();
}

void Router::receive_port(PortId p) {
  InputPort& in = inputs_[p];
  OutputPort& out = ports_[p];
  const Flit& f = *flit_in_val_[p];
  if (f.fresh(in.flit_taken)) {
    in.flit_taken = f.seq;
    // Written by the sender at the previous edge; due after the link latency.
    ++counters_.flits_in[p];
    const Cycle due = now_ - 1 + in.latency;
    if (due <= now_ && in.link.empty()) accept_flit(p, Flit(f));
    else delay_flit(p, f, due, now_);
  }
  while (!in.link.empty() && in.link.front().first <= now_) {
    const Flit g = in.link.front().second;
    in.link.pop_front();
    --link_entries_;
    accept_flit(p, g);
  }
  const CreditLanes& c = *credit_in_val_[p];
  auto give = [&](const CreditLanes& lanes) {
    for (int k = 0; k < lanes.count; ++k) {
      if (lanes.vc[k] >= num_vcs_) fail("credit for nonexistent VC " + std::to_string(lanes.vc[k]) + " on port " + std::to_string(p));
      out.gives.push_back(lanes.vc[k]);
    }
    out_dirty_.insert(p);
  };
  if (c.fresh(out.credit_taken)) {
    out.credit_taken = c.seq;
    const Cycle due = now_ - 1 + out.latency;
    if (due <= now_ && out.credit_link.empty()) give(c);
    else delay_credit(p, c, due, now_);
  }
  while (!out.credit_link.empty() && out.credit_link.front().first <= now_) {
    give(out.credit_link.front().second);
    out.credit_link.pop_front();
    --link_entries_;
  }
  if (due_wheel_.empty()) {
    if (in.link.empty() && out.credit_link.empty()) link_ports_.erase(p);
    else link_ports_.insert(p);
  }
}

BufferState Router::input_state(PortId port, VcId vc, const Queue& q, PortId out, std::uint32_t head_outside) const {
  const InputVc& ivc = inputs_[port].vcs[vc];
  return BufferState{port, vc, ivc.used + head_outside, ivc.capacity, q.flits + head_outside, out};
}

void Router::accept_flit(PortId port, const Flit& f) {
  InputPort& in = inputs_[port];
  if (f.vc >= num_vcs_) fail("flit " + to_text(f) + " on nonexistent VC at input " + std::to_string(port));
  InputVc& ivc = in.vcs[f.vc];
  PortId out_port = kNoPort;
  std::uint8_t level = 0;
  std::uint32_t size = 0;
  if (f.head) {
    if (ivc.arriving_queue >= 0 || ivc.dropping)
      fail("head flit " + to_text(f) + " on input " + std::to_string(port) + " VC " + std::to_string(f.vc) +
           " before the previous packet's tail");
    Packet& pkt = env_.packets[f.packet];
    pkt.hop_arrival = now_;
    RouteResult r;
    if (__builtin_expect((hook_uses_ & RouterHooks::kRouting) != 0, 0)) {
      r = hooks_->route(*this, pkt, port);
    } else {
      RouteContext ctx{id_, port, pkt, rng_, *this, route_state_.get()};
      r = env_.routing.route(ctx);
    }
    if (r.port >= num_ports() || !ports_[r.port].spec.connected())
      fail("routing chose unconnected output " + std::to_string(r.port) + " for packet " + std::to_string(pkt.id) +
           " to node " + std::to_string(pkt.dst));
    if (r.level >= env_.vc_levels) fail("routing chose VC level beyond the configured levels");
    out_port = r.port;
    level = r.level;
    size = pkt.size;
    if (!ports_[r.port].spec.terminal()) pkt.hops = static_cast<std::uint16_t>(pkt.hops + 1);
    const std::uint32_t qi = queue_index(f.vc, out_port);
    ArrivalAction action = ArrivalAction::Accept;
    if (hooks_ && !in.internal) action = hooks_->on_arrival(*this, pkt, input_state(port, f.vc, in.queues[qi], out_port, 1));
    if (action == ArrivalAction::Accept) {
      ivc.arriving_queue = static_cast<std::int32_t>(qi);
    } else {
      if (pkt.has(kFlagWatched)) watch_ended(pkt, port, f.vc, action == ArrivalAction::Drop ? "drop" : "consumed", "arrival");
      ivc.dropping = true;
      if (action == ArrivalAction::Drop) {
        ++counters_.packets_dropped;
        counters_.flits_dropped += pkt.size;
      } else {
        ++counters_.packets_consumed;
      }
    }
  } else if (ivc.arriving_queue < 0 && !ivc.dropping) {
    fail("body flit " + to_text(f) + " without a head on input " + std::to_string(port) + " VC " + std::to_string(f.vc));
  }
  if (ivc.dropping) {
    // A dropped (or consumed) packet takes no buffer: its credits go straight back upstream.
    if (!in.internal) return_credit(port, f.vc);
    if (f.tail) {
      ivc.dropping = false;
      env_.packets.release(f.packet);
    }
    return;
  }
  if (ivc.free_head < 0)
    fail("input " + std::to_string(port) + " VC " + std::to_string(f.vc) + " overflow (flit " + to_text(f) +
         " sent without a credit)");
  const auto idx = ivc.free_head;
  Slot& s = ivc.slots[idx];
  ivc.free_head = s.next;
  s.flit = f;
  s.arrival = now_;
  s.next = -1;
  s.out_port = out_port;
  s.level = level;
  s.size = size;
  ++ivc.used;
  ++in.buffered;
  ++buffered_;
  const auto qi = static_cast<std::uint32_t>(ivc.arriving_queue);
  Queue& q = in.queues[qi];
  if (q.tail >= 0) ivc.slots[q.tail].next = idx;
  else q.head = idx;
  q.tail = idx;
  ++q.flits;
  if (f.tail) ivc.arriving_queue = -1;
  if (q.state == QueueState::Empty) start_head(port, qi, q, now_);
  counters_.last_progress = now_;
}

Router::Slot Router::pop_head(InputPort& in, InputVc& ivc, Queue& q) {
  const auto idx = q.head;
  const Slot s = ivc.slots[idx];
  q.head = s.next;
  if (q.head < 0) q.tail = -1;
  --q.flits;
  ivc.slots[idx].next = ivc.free_head;
  ivc.free_head = idx;
  --ivc.used;
  --in.buffered;
  return s;
}

void Router::start_head(PortId port, std::uint32_t qi, Queue& q, Cycle earliest) {
  const Slot& s = inputs_[port].vcs[qi / queues_per_vc_].slots[q.head];
  q.state = QueueState::WaitVc;
  q.out_port = s.out_port;
  q.level = s.level;
  q.size = s.size;
  q.out_vc = kNoVc;
  q.ready = std::max(earliest, s.arrival + env_.config.delays.routing);
  va_wait((static_cast<std::uint32_t>(port) << 16) | qi, q);
}

void Router::va_wait(std::uint32_t ref, Queue& q) {
  va_not_before_ = va_list_.empty() ? q.ready : std::min(va_not_before_, q.ready);
  list_add(va_list_, ref, q);
  va_recheck_.insert(q.out_port);
}


void Router::list_add(std::vector<std::uint32_t>& list, std::uint32_t ref, Queue& q) {
  q.list_pos = static_cast<std::int32_t>(list.size());
  list.push_back(ref);
}

void Router::list_remove(std::vector<std::uint32_t>& list, Queue& q) {
  const auto pos = static_cast<std::size_t>(q.list_pos);
  const std::uint32_t last = list.back();
  list[pos] = last;
  queue_ref(last).list_pos = static_cast<std::int32_t>(pos);
  list.pop_back();
  q.list_pos = -1;
}

VcId Router::free_vc(std::uint32_t ref, bool after_switch) const {
  const Queue& q = queue_ref(ref);
  const OutputPort& out = ports_[q.out_port];
  const auto in_vc = static_cast<VcId>((ref & 0xffff) / queues_per_vc_);
  const VcId base = vc_for(vc_vnet_[in_vc], q.level, 0);
  for (std::uint32_t j = 0, c = va_vc_start_; j < vcs_per_level_; ++j, c = c + 1 == vcs_per_level_ ? 0 : c + 1) {
    const auto v = static_cast<VcId>(base + c);
    if (out.owned[v]) continue;
    if (vct_) {
      // Input-queued: a credit taken by this cycle's switch grants is still in the counter (unless
      // committed at the grant, early_take_: out.take is then empty).
      const auto taken = after_switch && !cioq_ ? static_cast<std::uint32_t>(std::count(out.take.begin(), out.take.end(), v)) : 0u;
      if (out_space(q.out_port, v) < q.size + taken) continue;
    }
    return v;
  }
  return kNoVc;
}

void Router::allocate_vcs(bool after_switch) {
  // Separable by output port: the waiting heads routed to one output compete for its free VCs
  // (of their vnet and level, with room for the whole packet under virtual cut-through) in the
  // round-robin order of that output's arbiter (the mirrored RrArbiter, one requester per input
  // queue), which moves past each winner. The pass after switch allocation sees the VCs
  // released by this cycle's tails (and heads that became ready meanwhile); it looks only at the
  // outputs where that happened, since elsewhere nothing became free. Its winners bid for the
  // switch from the next cycle on.
  const Cycle ready = now_ + (after_switch ? std::max(env_.config.delays.vc_alloc, 1u) : env_.config.delays.vc_alloc);
  if (!after_switch) {
    ++va_rotate_;
    va_vc_start_ = vcs_per_level_ > 1 ? va_rotate_ % vcs_per_level_ : 0;
  }
  // No waiting head is past its routing delay yet (e.g. heads that arrived this cycle): no grant.
  if (now_ < va_not_before_) return;
  if (!after_switch) va_not_before_ = 0;  // the heads left waiting may be ready from now on
  if (va_list_.size() == 1) {
    // One waiting head in the router (the common case below saturation): its output is the only
    // one with a waiting head, so the pass is that output's (allocate_vcs_at, one head).
    const std::uint32_t ref = va_list_[0];
    const Queue& q = queue_ref(ref);
    if (q.ready > now_ || (after_switch && !va_recheck_.contains(q.out_port))) return;
    const VcId v = free_vc(ref, after_switch);
    if (v != kNoVc) va_grant(q.out_port, ref, v, ready);
    return;
  }
  // The waiting heads grouped by routed output, outputs ascending (the order of the per-output
  // passes; within an output the order is immaterial, the arbiter picks by requester index); the
  // pass after switch allocation takes only the outputs of va_recheck_. Grouped here, once per
  // pass, rather than kept in a list per output that every head would join and leave.
  va_keys_.clear();
  if (va_core_) {
    // The C++ arbiters: a pick is pure and grants a lone request, so only the heads past their
    // routing delay are grouped (an output's pass grants nothing else), and a head that is the
    // only one ready is granted as its output's pass would, whatever else waits there. The heads
    // not yet ready bound the next cycle a pass can grant.
    Cycle next = ~Cycle{0};
    for (const std::uint32_t ref : va_list_) {
      const Queue& q = queue_ref(ref);
      if (q.ready > now_) {
        next = std::min(next, q.ready);
        continue;
      }
      if (after_switch && !va_recheck_.contains(q.out_port)) continue;
      va_keys_.push_back((std::uint64_t{q.out_port} << 32) | ref);
    }
    if (va_keys_.empty()) {
      if (!after_switch) va_not_before_ = next;
      return;
    }
    if (va_keys_.size() == 1) {
      const auto only = static_cast<std::uint32_t>(va_keys_[0]);
      const VcId v = free_vc(only, after_switch);
      if (v == kNoVc) return;  // a ready head left waiting: va_not_before_ stays 0
      va_grant(static_cast<PortId>(va_keys_[0] >> 32), only, v, ready);
      if (!after_switch) va_not_before_ = next;
      return;
    }
  } else {
    for (const std::uint32_t ref : va_list_) {
      const PortId o = queue_ref(ref).out_port;
      if (after_switch && !va_recheck_.contains(o)) continue;
      va_keys_.push_back((std::uint64_t{o} << 32) | ref);
    }
  }
  const std::size_t n = va_keys_.size();
  if (n <= 16) {
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t k = i; k > 0 && va_keys_[k - 1] > va_keys_[k]; --k) std::swap(va_keys_[k - 1], va_keys_[k]);
  } else {
    std::sort(va_keys_.begin(), va_keys_.end());
  }
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t o = va_keys_[i] >> 32;
    std::size_t j = i + 1;
    while (j < n && (va_keys_[j] >> 32) == o) ++j;
    allocate_vcs_at(static_cast<PortId>(o), after_switch, ready, i, j);
    i = j;
  }
}

void Router::allocate_vcs_at(PortId out_port, bool after_switch, Cycle ready, std::size_t begin, std::size_t end) {
  if (end - begin == 1) {
    // One waiting head (the common case below saturation): the arbiter grants it if it can go.
    const auto ref = static_cast<std::uint32_t>(va_keys_[begin]);
    if (queue_ref(ref).ready > now_) return;
    const VcId v = free_vc(ref, after_switch);
    if (v != kNoVc) va_grant(out_port, ref, v, ready);
    return;
  }
  // Candidates: heads past their routing delay with a free VC now.
  scratch_.clear();
  va_vc_.clear();
  for (std::size_t k = begin; k < end; ++k) {
    const auto ref = static_cast<std::uint32_t>(va_keys_[k]);
    if (queue_ref(ref).ready > now_) continue;
    const VcId v = free_vc(ref, after_switch);
    if (v == kNoVc) continue;
    scratch_.push_back(ref);
    va_vc_.push_back(v);
  }
  blocks::RrArbiterSlot& arb = va_arbiters_[out_port];
  for (bool first = true; !scratch_.empty(); first = false) {
    // The arbiter's choice among the candidates with a free VC; after a grant the candidates
    // left may have lost their VC: look again (one pick and one commit per grant).
    va_reqs_.clear();
    for (std::size_t k = 0; k < scratch_.size(); ++k) {
      if (!first && (va_vc_[k] = free_vc(scratch_[k], after_switch)) == kNoVc) continue;
      va_reqs_.push_back({queue_pos(scratch_[k]), 0});
    }
    const int winner = va_reqs_.empty() ? -1 : arb.pick(va_reqs_.data(), va_reqs_.size());
    if (winner < 0) break;
    std::size_t best = 0;
    while (best < scratch_.size() && queue_pos(scratch_[best]) != static_cast<std::uint32_t>(winner)) ++best;
    if (best == scratch_.size())
      fail("VC allocator of output " + std::to_string(out_port) + " granted requester " + std::to_string(winner) +
           ", which did not request");
    va_grant(out_port, scratch_[best], va_vc_[best], ready);
    scratch_[best] = scratch_.back();
    va_vc_[best] = va_vc_.back();
    scratch_.pop_back();
    va_vc_.pop_back();
  }
}

void Router::va_grant(PortId out_port, std::uint32_t ref, VcId vc, Cycle ready) {
  va_arbiters_[out_port].commit(static_cast<int>(queue_pos(ref)), 0, true);
  Queue& q = queue_ref(ref);
  ports_[out_port].owned[vc] = true;
  q.out_vc = vc;
  q.state = QueueState::Active;
  q.ready = ready;
  if (watching(inputs_[ref >> 16].vcs[(ref & 0xffff) / queues_per_vc_].slots[q.head].flit.packet)) watch_vc_granted(ref);
  list_remove(va_list_, q);
  list_add(sa_list_, ref, q);
}

void Router::allocate_switch() {
  const bool watch = env_.packets.watch() != nullptr;
  const Cycle due = now_ + env_.config.delays.sw_alloc + env_.config.delays.traversal;
  if (sa_list_.size() == 1 && allocator_.runs_core() && !probe_live_) {
    // One queue competes (the common case below saturation): if it requests, the core's
    // allocate() would grant it in the first pass of both stages (its no-conflict path), and its
    // commit moves the two arbiters of that grant. Not while traced: the probe shows the
    // requests and grants of the scratch vectors.
    const std::uint32_t ref = sa_list_[0];
    const Queue& q = queue_ref(ref);
    if (q.flits == 0 || q.ready > now_ || out_space(q.out_port, q.out_vc) < 1) return;
    const blocks::SwitchAllocator::Grant g{ref >> 16, ref & 0xffff, q.out_port, num_prio_ > 1 ? vc_prio_[q.out_vc] : 0u,
                                           0, 0};
    switch_grant(g, due, watch);
    allocator_.commit_one(g);
    counters_.last_progress = now_;
    return;
  }
  sa_requests_.clear();
  for (const std::uint32_t ref : sa_list_) {
    const Queue& q = queue_ref(ref);
    if (q.flits == 0 || q.ready > now_) continue;
    if (out_space(q.out_port, q.out_vc) < 1) continue;
    sa_requests_.push_back(blocks::SwitchAllocator::Request{
        ref >> 16, ref & 0xffff, q.out_port, vc_prio_[q.out_vc]});
  }
  if (sa_requests_.empty()) return;
  if (sa_requests_.size() == 1 && allocator_.runs_core() && !probe_live_) {
    // One request (the others' heads not ready or without room): conflict_free_grants' one grant,
    // without its checks and vector.
    const auto& r = sa_requests_[0];
    const blocks::SwitchAllocator::Grant g{r.input, r.req, r.output, num_prio_ > 1 ? r.prio : 0u, 0, 0};
    switch_grant(g, due, watch);
    allocator_.commit_one(g);
    counters_.last_progress = now_;
    return;
  }
  if (allocator_.runs_core() && conflict_free_grants()) {
    // No two requests share an input or an output: the core's allocate() would grant them all in
    // the first pass of both stages (its no-conflict path, grants in output order), and its
    // commit moves each grant's two arbiters (commit_one per grant: every grant is of the first
    // input pass, and each arbiter sees its moves in the same order).
    for (const auto& g : sa_grants_) switch_grant(g, due, watch);
    for (const auto& g : sa_grants_) allocator_.commit_one(g);
    counters_.last_progress = now_;
    return;
  }
  allocator_.allocate(sa_requests_.data(), sa_requests_.size(), sa_grants_);
  for (const auto& g : sa_grants_) switch_grant(g, due, watch);
  allocator_.commit(sa_grants_);
  counters_.last_progress = now_;
}

bool Router::conflict_free_grants() {
  if (inputs_.size() > 64) return false;  // ports fit one word (inputs_ includes the control source)
  std::uint64_t in_seen = 0, out_seen = 0;
  for (const auto& r : sa_requests_) {
    const std::uint64_t ib = std::uint64_t{1} << r.input, ob = std::uint64_t{1} << r.output;
    if ((in_seen & ib) != 0 || (out_seen & ob) != 0) return false;
    in_seen |= ib;
    out_seen |= ob;
  }
  // Every request granted, in output order (insertion sort: a handful of requests).
  sa_grants_.clear();
  for (const auto& r : sa_requests_) {
    sa_grants_.push_back(blocks::SwitchAllocator::Grant{r.input, r.req, r.output, num_prio_ > 1 ? r.prio : 0u, 0, 0});
    for (std::size_t k = sa_grants_.size() - 1; k > 0 && sa_grants_[k - 1].output > sa_grants_[k].output; --k)
      std::swap(sa_grants_[k - 1], sa_grants_[k]);
  }
  return true;
}

void Router::switch_grant(const blocks::SwitchAllocator::Grant& g, Cycle due, bool watch) {
  const auto in_port = static_cast<PortId>(g.input);
  InputPort& in = inputs_[in_port];
  Queue& q = in.queues[g.req];
  const auto in_vc = static_cast<VcId>(g.req / queues_per_vc_);
  InputVc& ivc = in.vcs[in_vc];
  const Slot s = pop_head(in, ivc, q);
  if (!in.internal) return_credit(in_port, in_vc);
  Flit f = s.flit;
  f.vc = q.out_vc;
  OutputPort& out = ports_[q.out_port];
  if (cioq_) {
    ++out.vcs[q.out_vc].reserved;
    out.traversal.push_back({due, f});
    trav_pending_.insert(q.out_port);
  } else {
    if (early_take_) {
      // The credit counter's take committed now rather than at this cycle's edge
      // (commit_and_write): nothing reads the count in between (no hooks), and the core's
      // commit(0, true) now and commit(gives, false) later give its commit(gives, true).
      if (!out.credits[q.out_vc].commit(0, true)) credit_violation(q.out_port);
    } else {
      out.take.push_back(q.out_vc);
      out_dirty_.insert(q.out_port);
    }
    Flit& p = pipe_at(q.out_port, due);
    if (p.valid()) fail("two flits for output " + std::to_string(q.out_port) + " in one cycle");
    p = f;
    const std::size_t slot = due & pipe_mask_;
    pipe_due_[slot * out_dirty_.words() + (q.out_port >> 6)] |= std::uint64_t{1} << (q.out_port & 63);
    ++pipe_count_[slot];
  }
  if (watch && f.head) watch_switch_granted(f.packet);
  ++in_traversal_;
  if (f.head && hooks_)
    hooks_->on_input_dequeue(*this, env_.packets[f.packet], input_state(in_port, in_vc, q, q.out_port, 1));
  if (f.tail) {
    out.owned[q.out_vc] = false;
    vc_released_ = true;
    va_recheck_.insert(q.out_port);
    list_remove(sa_list_, q);
    if (q.flits > 0) start_head(in_port, g.req, q, now_);
    else q.state = QueueState::Empty;
  }
}

void Router::traverse() {
  trav_pending_.for_each([&](std::size_t op) {
    const auto o = static_cast<PortId>(op);
    OutputPort& out = ports_[o];
    while (!out.traversal.empty() && out.traversal.front().first <= now_) {
      const Flit f = out.traversal.front().second;
      out.traversal.pop_front();
      --in_traversal_;
      OutputVc& ov = out.vcs[f.vc];
      ov.queue.push_back(f);
      --ov.reserved;
      ++out.oq_flits;
      ++oq_total_;
      if (f.head && hooks_) {
        Packet& pkt = env_.packets[f.packet];
        hooks_->on_output_enqueue(*this, pkt,
                                  BufferState{o, f.vc, static_cast<std::uint32_t>(ov.queue.size()),
                                              env_.config.output_buffer, static_cast<std::uint32_t>(ov.queue.size()), o});
      }
    }
    if (out.traversal.empty()) trav_pending_.erase(o);
  });
}

void Router::arbitrate_links() {
  const auto nports = num_ports();
  for (PortId o = 0; o < nports; ++o) {
    OutputPort& out = ports_[o];
    if (out.oq_flits == 0) continue;
    link_requests_.clear();
    for (VcId v = 0; v < num_vcs_; ++v) {
      const OutputVc& ov = out.vcs[v];
      if (ov.queue.empty()) continue;
      const Flit& f = ov.queue.front();
      link_requests_.push_back(blocks::OutputArbiter::Request{
          v, vc_prio_[v], env_.packets[f.packet].size, f.head});
    }
    const int g = out.arbiter.pick(link_requests_.data(), link_requests_.size());
    if (g < 0) continue;
    OutputVc& ov = out.vcs[static_cast<VcId>(g)];
    out.send = ov.queue.front();
    out_dirty_.insert(o);
    ov.queue.pop_front();
    --out.oq_flits;
    --oq_total_;
    --buffered_;
  }
}

void Router::commit_and_write() {
  const bool watch = env_.packets.watch() != nullptr;
  visit_set(out_dirty_, [&](std::size_t o) { commit_port(static_cast<PortId>(o), watch); });
  visit_set(credit_dirty_, [&](std::size_t pi) {
    const auto p = static_cast<PortId>(pi);
    InputPort& in = inputs_[p];
    CreditLanes lanes;
    while (!in.credit_return.empty() && in.credit_return.front().first <= now_ && lanes.count < kMaxCreditLanes) {
      lanes.push(in.credit_return.front().second);
      in.credit_return.pop_front();
    }
    if (!lanes.empty()) {
      lanes.seq = static_cast<std::uint8_t>(in.last_credit_written.seq + 1);
      credit_out_if_[p]->write(lanes);
      in.last_credit_written = lanes;
    } else if (!in.last_credit_written.empty()) {
      // Exact channels are cleared the cycle after a credit; otherwise the receiver ignores the
      // old value (core/flit.hpp). The seq runs on.
      in.last_credit_written.count = 0;
      in.last_credit_written.vc = {};
      if (exact_) credit_out_if_[p]->write(in.last_credit_written);
    }
    if (in.credit_return.empty() && (!exact_ || in.last_credit_written.empty())) credit_dirty_.erase(p);
  });
}

void Router::commit_port(PortId o, bool watch) {
  OutputPort& out = ports_[o];
  Flit& sent = cioq_ ? out.send : pipe_at(o, now_);
  if (early_take_ && !sent.valid() && out.gives.size() == 1 && !(exact_ && out.last_written.valid())) {
    // One credit back and nothing to send or to clear (the common visit besides a flit's): that
    // counter's give alone (no take is pending: early_take_).
    if (!out.credits[out.gives[0]].commit(1, false)) credit_violation(o);
    out.gives.clear();
    out_dirty_.erase(o);
    return;
  }
  const Flit f = sent;
  if (f.valid() && f.head && hooks_) {
    // CIOQ: the output queue with the departing head flit still counted; otherwise the
    // downstream buffer as the credits see it.
    const std::uint32_t occ = cioq_ ? static_cast<std::uint32_t>(out.vcs[f.vc].queue.size()) + 1
                                    : out.spec.out_depth - out.credits[f.vc].count();
    hooks_->on_output_dequeue(*this, env_.packets[f.packet],
                              BufferState{o, f.vc, occ, cioq_ ? env_.config.output_buffer : out.spec.out_depth, occ, o});
  }
  bool ok = true;
  if (cioq_) {
    const int g = f.valid() ? static_cast<int>(f.vc) : -1;
    if (g >= 0 || !out.gives.empty())
      ok = out.arbiter.commit(g, vc_prio_[f.valid() ? f.vc : 0], out.gives.data(),
                              static_cast<std::uint32_t>(out.gives.size()));
  } else if (out.gives.size() + out.take.size() <= 1) {
    // One give or one take (the common case): that counter's commit alone.
    if (!out.gives.empty()) ok = out.credits[out.gives[0]].commit(1, false);
    else if (!out.take.empty()) ok = out.credits[out.take[0]].commit(0, true);
    out.take.clear();
  } else {
    // Each touched counter commits once with all its gives and its take of this cycle.
    for (const VcId v : out.gives) ++give_count_[v];
    for (const VcId v : out.take) take_flag_[v] = 1;
    for (const VcId v : out.gives) {
      if (give_count_[v] == 0) continue;
      ok = out.credits[v].commit(give_count_[v], take_flag_[v] != 0) && ok;
      give_count_[v] = 0;
      take_flag_[v] = 0;
    }
    for (const VcId v : out.take) {
      if (!take_flag_[v]) continue;
      ok = out.credits[v].commit(0, true) && ok;
      take_flag_[v] = 0;
    }
    out.take.clear();
  }
  if (!ok) credit_violation(o);
  out.gives.clear();
  const std::uint8_t seq = out.last_written.seq;
  if (f.valid()) {
    out.last_written = f;
    out.last_written.seq = static_cast<std::uint8_t>(seq + 1);
    flit_out_if_[o]->write(out.last_written);
    out.written_at = now_;
  } else if (exact_ && out.last_written.valid()) {
    // Exact channels are cleared the cycle after a flit; otherwise the receiver ignores the old
    // value (core/flit.hpp). The seq runs on.
    out.last_written = Flit{};
    out.last_written.seq = seq;
    flit_out_if_[o]->write(out.last_written);
  }
  if (f.valid()) {
    ++counters_.flits_out[o];
    if (watch && f.head) watch_departed(f.packet);
    counters_.last_progress = now_;
    if (f.tail && hooks_) hooks_->on_output_tail(*this, env_.packets[f.packet], o);
  }
  sent = Flit{};
  // An exact channel's flit is cleared next cycle; otherwise nothing changes on this port until new work.
  if (!exact_ || !out.last_written.valid()) out_dirty_.erase(o);
}

void Router::credit_violation(PortId o) const {
  fail("credit counter violation on output " + std::to_string(o) + " (credits beyond buffer depth or taken when empty)");
}

void Router::return_credit(PortId port, VcId vc) {
  const Cycle delay = env_.config.delays.credit;
  inputs_[port].credit_return.push_back({now_ + delay, vc});
  if (port >= ports_.size()) return;  // the control source returns no credits
  if (delay == 0) {
    credit_dirty_.insert(port);
  } else {
    // Not due before the next cycle: visited from then on (evaluate merges credit_soon_).
    credit_soon_[port >> 6] |= std::uint64_t{1} << (port & 63);
    credit_soon_any_ = true;
  }
}

void Router::scan_queue_heads() {
  // Blocked heads: packets whose head flit is still in the input buffer after this cycle's
  // allocation although it could have been allocated (its routing or VC-allocation delay has
  // elapsed): it lost VC or switch allocation, or its output has no room.
  scratch_.clear();
  for (const auto ref : va_list_) scratch_.push_back(ref);
  for (const auto ref : sa_list_) scratch_.push_back(ref);
  for (const auto ref : scratch_) {
    const auto port = static_cast<PortId>(ref >> 16);
    if (inputs_[port].internal) continue;
    const std::uint32_t qi = ref & 0xffff;
    Queue& q = inputs_[port].queues[qi];
    if (q.state == QueueState::Empty || q.flits == 0 || q.ready > now_) continue;
    const Slot& s = inputs_[port].vcs[qi / queues_per_vc_].slots[q.head];
    if (!s.flit.head) continue;
    const Cycle waiting_since = s.arrival + env_.config.delays.routing + env_.config.delays.vc_alloc;
    if (hooks_->on_queue_head(*this, env_.packets[s.flit.packet], port, waiting_since)) drop_head_packet(port, qi, q);
  }
}

void Router::drop_head_packet(PortId port, std::uint32_t qi, Queue& q) {
  InputPort& in = inputs_[port];
  const auto vc = static_cast<VcId>(qi / queues_per_vc_);
  InputVc& ivc = in.vcs[vc];
  if (q.state == QueueState::WaitVc) list_remove(va_list_, q);
  else if (q.state == QueueState::Active) {
    list_remove(sa_list_, q);
    ports_[q.out_port].owned[q.out_vc] = false;
  }
  const PacketId id = ivc.slots[q.head].flit.packet;
  if (watching(id)) watch_ended(env_.packets[id], port, vc, "drop", "queue_head");
  bool tail_found = false;
  while (q.head >= 0 && ivc.slots[q.head].flit.packet == id) {
    tail_found = pop_head(in, ivc, q).flit.tail;
    --buffered_;
    ++counters_.flits_dropped;
    return_credit(port, vc);
  }
  ++counters_.packets_dropped;
  if (!tail_found) {
    // The rest of the packet is still arriving: discard it as it comes.
    ivc.dropping = true;
    ivc.arriving_queue = -1;
  } else {
    env_.packets.release(id);
  }
  q.state = QueueState::Empty;
  if (q.flits > 0) start_head(port, qi, q, now_ + 1);
}

// ---- RouterApi -------------------------------------------------------------------------------------

bool Router::can_emit(std::uint8_t vnet, std::uint32_t flits) const {
  const InputVc& ivc = inputs_.back().vcs[vc_for(vnet, 0, 0)];
  return ivc.capacity - ivc.used >= flits;
}

RouteResult Router::default_route(Packet& p, PortId in_port) {
  RouteContext ctx{id_, in_port, p, rng_, *this, route_state_.get()};
  return env_.routing.route(ctx);
}

bool Router::emit(Packet& p) {
  const std::uint8_t vnet = env_.vnets.vnet_of(p);
  if (vnet >= env_.vnet_priority.size()) fail("emit of a packet on nonexistent vnet " + std::to_string(vnet));
  if (!can_emit(vnet, p.size)) return false;
  p.vnet = vnet;
  const auto port = static_cast<PortId>(inputs_.size() - 1);
  p.injected = now_;
  for (std::uint16_t i = 0; i < p.size; ++i) {
    Flit f;
    f.packet = p.id;
    f.index = i;
    f.vc = vc_for(vnet, 0, 0);
    f.head = i == 0;
    f.tail = i + 1 == p.size;
    accept_flit(port, f);
  }
  ++counters_.control_emitted;
  return true;
}

PortId Router::terminal_port_of(NodeId n) const {
  const auto [r, p] = env_.topology.attach(n);
  return r == id_ ? p : kNoPort;
}

std::uint32_t Router::credits(PortId port, VcId vc) const {
  const OutputPort& out = ports_[port];
  if (!out.spec.connected()) return 0;
  return cioq_ ? out.arbiter.credits(vc) : out.credits[vc].count();
}

std::uint32_t Router::input_occupancy(PortId port, VcId vc) const {
  if (vc >= num_vcs_) throw std::out_of_range("Router::input_occupancy: VC " + std::to_string(vc));
  return inputs_.at(port).vcs[vc].used;
}

std::uint32_t Router::output_queue_occupancy(PortId port, VcId vc) const {
  return static_cast<std::uint32_t>(ports_.at(port).vcs.at(vc).queue.size());
}

void Router::visit_input(PortId in, const QueuedPacketVisitor& visit) {
  const InputPort& ip = inputs_.at(in);
  for (VcId v = 0; v < num_vcs_; ++v) {
    const InputVc& ivc = ip.vcs[v];
    if (ivc.used == 0) continue;
    for (std::uint32_t qi = v * queues_per_vc_; qi < (v + 1u) * queues_per_vc_; ++qi)
      for (std::int32_t k = ip.queues[qi].head; k >= 0; k = ivc.slots[k].next) {
        const Slot& s = ivc.slots[k];
        if (s.flit.head) visit(env_.packets[s.flit.packet], QueuedAt{in, v, s.out_port, false});
      }
  }
}

void Router::visit_output(PortId out, const QueuedPacketVisitor& visit) {
  if (out >= num_ports()) fail("visit_output of nonexistent port " + std::to_string(out));
  for (PortId in = 0; in < inputs_.size(); ++in)
    visit_input(in, [&](Packet& p, const QueuedAt& at) {
      if (at.out_port == out) visit(p, at);
    });
  const OutputPort& op = ports_[out];
  for (VcId v = 0; v < num_vcs_; ++v) {
    const Ring<Flit>& q = op.vcs[v].queue;
    for (std::size_t i = 0; i < q.size(); ++i)
      if (q[i].head) visit(env_.packets[q[i].packet], QueuedAt{kNoPort, v, out, true});
  }
}

std::uint32_t Router::output_occupancy(PortId port) const {
  const OutputPort& out = ports_[port];
  if (!out.spec.connected()) return 0;
  std::uint32_t used = 0;
  for (VcId v = 0; v < num_vcs_; ++v) used += out.spec.out_depth - credits(port, v);
  return used + out.oq_flits;
}

void Router::dump_state(std::ostream& os) const {
  // Everything that can hold a flit or a packet of this router: input link delay lines, input
  // VCs (the control source as "ctl"), switch traversal, output VCs and their queues, credits
  // not yet returned or not yet due.
  auto pkt = [&](PacketId id) { return PacketWatch::describe(env_.packets[id], env_.packets.format()); };
  auto port_name = [&](std::size_t p) { return inputs_[p].internal ? std::string("ctl") : std::to_string(p); };
  os << name() << " (router " << id_ << ") at cycle " << current() << ": " << buffered_ << " flits buffered (" << in_traversal_
     << " crossing the switch, " << oq_total_ << " in output queues)\n";
  for (std::size_t p = 0; p < inputs_.size(); ++p) {
    const InputPort& in = inputs_[p];
    for (std::size_t k = 0; k < in.link.size(); ++k)
      if (!sampled_early(in.link[k].first, in.spec.latency))
        os << "  in " << p << " link: " << in.link[k].second << " due at " << in.link[k].first << ", " << pkt(in.link[k].second.packet)
         << "\n";
    if (!in.credit_return.empty())
      os << "  in " << port_name(p) << ": " << in.credit_return.size() << " credits not yet returned upstream (first due at "
         << in.credit_return.front().first << ")\n";
    for (VcId v = 0; v < num_vcs_; ++v) {
      const InputVc& ivc = in.vcs[v];
      if (ivc.used == 0 && !ivc.dropping && ivc.arriving_queue < 0) continue;
      os << "  in " << port_name(p) << " vc " << v << ": " << ivc.used << "/" << ivc.capacity << " flits"
         << (ivc.dropping ? ", discarding the rest of a dropped packet" : "");
      if (ivc.arriving_queue >= 0) os << ", receiving a packet into queue " << ivc.arriving_queue % queues_per_vc_;
      os << "\n";
      for (std::uint32_t qi = v * queues_per_vc_; qi < (v + 1u) * queues_per_vc_; ++qi) {
        const Queue& q = in.queues[qi];
        if (q.flits == 0 && q.state == QueueState::Empty) continue;
        os << "    queue " << qi % queues_per_vc_ << ": " << q.flits << " flits, "
           << (q.state == QueueState::WaitVc ? "waiting for a VC" : q.state == QueueState::Active ? "active" : "empty")
           << " -> out " << q.out_port << " vc " << (q.out_vc == kNoVc ? -1 : static_cast<int>(q.out_vc)) << ", ready at "
           << q.ready << "\n";
        // The packets in the queue, in order, with their flit counts.
        PacketId cur = kNoPacket;
        std::uint32_t count = 0;
        Flit first;
        auto flush = [&] {
          if (cur != kNoPacket) os << "      " << first << " +" << count - 1 << " flits: " << pkt(cur) << "\n";
        };
        for (std::int32_t i = q.head; i >= 0; i = ivc.slots[i].next) {
          const Flit& f = ivc.slots[i].flit;
          if (f.packet != cur) {
            flush();
            cur = f.packet;
            count = 0;
            first = f;
          }
          ++count;
        }
        flush();
      }
    }
  }
  for (std::size_t o = 0; o < ports_.size(); ++o) {
    const OutputPort& out = ports_[o];
    if (!out.spec.connected()) continue;
    auto crossing = [&](const Flit& f, Cycle due) {
      os << "  out " << o << " switch traversal: " << f << " due at " << due << ", " << pkt(f.packet) << "\n";
    };
    for (std::size_t k = 0; k < out.traversal.size(); ++k) crossing(out.traversal[k].second, out.traversal[k].first);
    if (!cioq_)
      for (Cycle due = now_; due <= now_ + pipe_mask_; ++due)
        if (pipe_at(static_cast<PortId>(o), due).valid()) crossing(pipe_at(static_cast<PortId>(o), due), due);
    if (on_wire(out))
      os << "  out " << o << " wire: " << out.last_written << " (written at the last edge), " << pkt(out.last_written.packet) << "\n";
    for (std::size_t k = 0; k < out.credit_link.size(); ++k)
      if (!sampled_early(out.credit_link[k].first, out.spec.latency))
        os << "  out " << o << " credit link: " << out.credit_link[k].second << " due at " << out.credit_link[k].first << "\n";
    for (VcId v = 0; v < num_vcs_; ++v) {
      const OutputVc& ov = out.vcs[v];
      const std::uint32_t c = credits(static_cast<PortId>(o), v);
      if (!out.owned[v] && c == out.spec.out_depth && ov.queue.empty() && ov.reserved == 0) continue;
      os << "  out " << o << " vc " << v << ": credits " << c << "/" << out.spec.out_depth;
      if (out.owned[v]) {
        // The owner is the input queue whose head packet holds this VC.
        os << ", owned";
        for (std::size_t p = 0; p < inputs_.size(); ++p)
          for (std::uint32_t qi = 0; qi < queues_per_port_; ++qi) {
            const Queue& q = inputs_[p].queues[qi];
            if (q.state == QueueState::Active && q.out_port == o && q.out_vc == v)
              os << " by in " << port_name(p) << " vc " << qi / queues_per_vc_ << " queue " << qi % queues_per_vc_;
          }
      }
      if (cioq_) os << ", output queue " << ov.queue.size() << " flits, " << ov.reserved << " reserved";
      os << "\n";
      for (std::size_t k = 0; k < ov.queue.size(); ++k)
        if (k == 0 || ov.queue[k].head) os << "      " << ov.queue[k] << ": " << pkt(ov.queue[k].packet) << "\n";
    }
  }
  if (hooks_) hooks_->dump_state(os);
}

bool Router::holds_state() const {
  if (buffered_ != 0) return true;
  for (const InputPort& in : inputs_) {
    if (in_link(in) || !in.credit_return.empty()) return true;
    for (VcId v = 0; v < num_vcs_; ++v)
      if (in.vcs[v].dropping || in.vcs[v].arriving_queue >= 0) return true;
  }
  for (std::size_t o = 0; o < ports_.size(); ++o) {
    const OutputPort& out = ports_[o];
    if (!out.spec.connected()) continue;
    if (in_credit_link(out) || on_wire(out)) return true;
    for (VcId v = 0; v < num_vcs_; ++v)
      if (out.owned[v] || credits(static_cast<PortId>(o), v) != out.spec.out_depth) return true;
  }
  return false;
}

void Router::mark_held(std::vector<char>& held) const {
  auto mark = [&](const Flit& f) {
    if (f.valid() && f.packet < held.size()) held[f.packet] = 1;
  };
  for (const InputPort& in : inputs_) {
    for (std::size_t k = 0; k < in.link.size(); ++k)
      if (!sampled_early(in.link[k].first, in.spec.latency)) mark(in.link[k].second);
    for (std::size_t qi = 0; qi < queues_per_port_; ++qi) {
      const InputVc& ivc = in.vcs[qi / queues_per_vc_];
      for (std::int32_t i = in.queues[qi].head; i >= 0; i = ivc.slots[i].next) mark(ivc.slots[i].flit);
    }
  }
  for (const Flit& f : pipe_) mark(f);
  for (const OutputPort& out : ports_) {
    for (std::size_t k = 0; k < out.traversal.size(); ++k) mark(out.traversal[k].second);
    for (const OutputVc& ov : out.vcs)
      for (std::size_t k = 0; k < ov.queue.size(); ++k) mark(ov.queue[k]);
    if (on_wire(out)) mark(out.last_written);  // written at the last edge, not yet sampled downstream
  }
}

void Router::check_quiescent() const {
  std::ostringstream os;
  if (buffered_ != 0) os << buffered_ << " flits still buffered; ";
  for (std::size_t p = 0; p < inputs_.size(); ++p) {
    if (in_link(inputs_[p])) os << "flits on input link " << p << "; ";
    for (VcId v = 0; v < num_vcs_; ++v) {
      if (inputs_[p].vcs[v].dropping) os << "input " << p << " vc " << v << " mid-drop; ";
      if (inputs_[p].vcs[v].arriving_queue >= 0) os << "input " << p << " vc " << v << " mid-packet (tail not arrived); ";
    }
  }
  for (std::size_t o = 0; o < ports_.size(); ++o) {
    const OutputPort& out = ports_[o];
    if (!out.spec.connected()) continue;
    for (VcId v = 0; v < num_vcs_; ++v) {
      if (out.owned[v]) os << "out " << o << " vc " << v << " still owned; ";
      if (credits(static_cast<PortId>(o), v) != out.spec.out_depth)
        os << "out " << o << " vc " << v << " credits " << credits(static_cast<PortId>(o), v) << " != depth "
           << out.spec.out_depth << "; ";
    }
  }
  if (!os.str().empty()) fail("not quiescent after drain: " + os.str());
}

}  // namespace ccnet
