#include "nic/nic.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include "core/channel.hpp"
#include "core/error.hpp"
#include "core/process_error.hpp"
#include "core/watch.hpp"

namespace ccnet {

Nic::Nic(sc_core::sc_module_name name, NodeId id, NicEnv env)
    : sc_core::sc_module(name),
      id_(id),
      env_(std::move(env)),
      round_robin_(env_.num_nodes, env_.blocks, std::string(this->name()) + " injection engine"),
      policy_(&round_robin_),
      cc_counters_(env_.series_window) {
  std::uint8_t max_prio = 0;
  for (auto p : env_.vnet_priority) max_prio = std::max(max_prio, p);
  arbiter_ = blocks::OutputArbiterSlot(
      blocks::OutputArbiterParams{env_.num_vcs, max_prio + 1u, env_.inject_depth, kMaxCreditLanes, env_.vct}, env_.blocks,
      std::string(this->name()) + " injection");
  send_queues_.resize(env_.num_nodes);
  hold_until_.assign(env_.num_nodes, 0);
  acks_ = env_.acks;
  keep_sent_ = env_.keep_sent;
  if (keep_sent_ && !acks_) throw ModelError(std::string(this->name()) + ": a retransmit buffer needs ACKs");
  control_streams_.resize(env_.vnet_priority.size());
  control_queues_.resize(env_.vnet_priority.size());
  requests_.resize(2 + control_streams_.size());
  eject_occupancy_.assign(env_.num_vcs, 0);
  eject_stalled_.assign(env_.vnet_priority.size(), 0);
  eject_waiting_.resize(env_.num_vcs);
  if (env_.config.port_speedup != 1.0) {
    inject_port_ = eject_port_ = PortRate(speedup_ratio(env_.config.port_speedup));
    eject_slow_ = true;
  }
  period_ps_ = env_.period.value();
  host.bind(*this);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void Nic::attach(std::unique_ptr<NicHooks> hooks) {
  hooks_ = std::move(hooks);
  hook_uses_ = hooks_ ? hooks_->uses() : 0;
  InjectionPolicy* own = hooks_ ? hooks_->injection_policy() : nullptr;
  policy_ = own ? own : &round_robin_;
  own_policy_ = own != nullptr;
  policy_clocked_ = policy_->clocked();
  rare_ = rare_ || policy_clocked_;
}

Nic::~Nic() = default;

void Nic::fail(const std::string& what) const {
  std::ostringstream os;
  os << name() << " @cycle " << now_ << ": " << what;
  throw ModelError(os.str());
}

void Nic::end_of_elaboration() {
  flit_in_if_ = flit_in.operator->();
  flit_out_if_ = flit_out.operator->();
  credit_in_if_ = credit_in.operator->();
  credit_out_if_ = credit_out.operator->();
  flit_in_val_ = &flit_in_if_->read();
  credit_in_val_ = &credit_in_if_->read();
}

void Nic::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (gp.get_command() != tlm::TLM_WRITE_COMMAND || gp.get_data_length() != sizeof(MessageRequest) ||
      gp.get_data_ptr() == nullptr) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  MessageRequest req;
  std::copy_n(gp.get_data_ptr(), sizeof req, reinterpret_cast<unsigned char*>(&req));
  if (req.dst >= env_.num_nodes || req.dst == id_ || req.size == 0) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // Stamped with the posting cycle (plus the initiator's annotated delay); visible from the
  // next cycle on.
  const Cycle at = (sc_core::sc_time_stamp() + delay).value() / period_ps_;
  posted_due_ = posted_.empty() ? at : std::min(posted_due_, at);
  posted_.push_back({at, req});
  // (idle_ stays: it ignores posted messages, which evaluate() tests itself.)
  if (asleep_) domain_->wake(slot_);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum Nic::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase&, sc_core::sc_time&) {
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // hosts post with b_transport only
  return tlm::TLM_COMPLETED;
}

bool Nic::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }

unsigned int Nic::transport_dbg(tlm::tlm_generic_payload&) { return 0; }

bool Nic::idle() {
  // (gives_ is empty here: commit_and_write takes every credit given.)
  if (queued_messages_ || data_stream_.busy() || control_pending_ || !in_link_.empty() ||
      !credit_link_.empty() || !credit_return_.empty() ||
      (exact_ && (last_written_.valid() || !last_credit_written_.empty())))
    return false;
  return !rare_ || rare_idle();
}

bool Nic::rare_idle() {
  if (policy_clocked_ || eject_waiting_flits_ != 0 || retx_stream_.busy() || !scheduled_.empty() || !wakes_.empty())
    return false;
  rare_ = false;
  return true;
}

void Nic::tick() {
  process_error::guard(*this, env_.period, [this] {
    if (domain_) {  // the domain's process evaluates it from the next edge on
      slot_ = domain_->enlist(*this);
      // Channels that wake the NIC when their value changes; without them it never sleeps.
      auto* fc = dynamic_cast<Channel<Flit>*>(const_cast<sc_core::sc_signal_in_if<Flit>*>(flit_in_if_));
      auto* cc = dynamic_cast<Channel<CreditLanes>*>(const_cast<sc_core::sc_signal_in_if<CreditLanes>*>(credit_in_if_));
      if (fc && cc) {
        fc->notify(domain_->awake_set(), slot_);
        cc->notify(domain_->awake_set(), slot_);
      }
      // Sleeps from its first evaluation by the domain's process on, whose edge count gives its
      // cycle on waking (this edge may or may not be counted yet).
      evaluate();
      can_sleep_ = fc && cc;
      return;
    }
    evaluate();
  });
}

void Nic::evaluate() {
  // Idle fast path: nothing queued or in flight and both input channels idle: no state changes.
  // idle_ caches idle() from the end of the last evaluation (which leaves out the host's posted
  // messages); the NIC is evaluated at every rising edge while awake, so the cycle count just
  // advances (it is read from the kernel's time at the first evaluation and from the domain's
  // edge count on waking).
  if (__builtin_expect(asleep_, 0)) {  // the cycles skipped asleep are the fast path's
    asleep_ = false;
    now_ = domain_->edge() + edge_offset_;
  } else if (__builtin_expect(!counting_, 0)) {
    counting_ = true;
    now_ = sc_core::sc_time_stamp().value() / period_ps_;
  } else {
    ++now_;
  }
  // (idle_ false means idle() was false at the end of the last evaluation, or this is the first
  // evaluation: without hooks nothing but the host's posts changes the state between
  // evaluations, so idle() is not asked again here; an idle first evaluation changes nothing.)
  if (idle_ && (posted_.empty() || posted_due_ >= now_)) {
    // Nothing queued or in flight, and what the host posted (at this cycle or later, by a host
    // that ran before this evaluation) is not visible yet: only the input channels bring work.
    const Flit& f = *flit_in_val_;
    if (f.fresh(flit_taken_)) {
      if (!credit_in_val_->fresh(credit_taken_) && env_.link_latency <= 1 && !eject_slow_ && env_.config.credit_delay == 0) {
        eject_input(f);
        return;
      }
    } else {
      const CreditLanes& c = *credit_in_val_;
      if (!c.fresh(credit_taken_)) {
        // Woken by a channel change that brought nothing new (a clear, with waveforms on), or by
        // a post: nothing changes now (awake, for the cycle the post becomes visible).
        if (posted_.empty()) sleep();
        return;
      }
      if (env_.link_latency <= 1) {
        // Credits only, due at once: what receive() and commit_and_write() would do with them
        // (the credit link is empty while idle); the NIC stays idle.
        credit_taken_ = c.seq;
        if (!arbiter_.commit(-1, send_prio_, c.vc.data(), c.count))
          fail("injection credit counter violation (credits beyond the router's buffer depth)");
        if (probe_live_) update_probe();
        if (posted_.empty()) sleep();
        return;
      }
    }
    evaluate_input();
    return;
  }
  if (!wakes_.empty()) wake_holds();
  ingest_posted();
  receive();
  start_streams();
  send_flit();
  if (hooks_) hooks_->tick(*this);
  commit_and_write();
  if (probe_live_) update_probe();
  idle_ = !hooks_ && idle();
  if (idle_ && posted_.empty()) sleep();
}

void Nic::evaluate_input() {
  // evaluate() from the idle state (no hooks) with a flit or credit on an input channel: the
  // steps that can change anything then. Nothing is queued or streaming, so the injection policy
  // grants nothing and only an answer formed at ejection (an ACK) can start a stream.
  receive();
  if (control_queued_) {
    start_streams();
    send_flit();
  }
  commit_and_write();
  if (probe_live_) update_probe();
  idle_ = idle();
  if (idle_ && posted_.empty()) sleep();
}

void Nic::eject_input(const Flit& g) {
  // evaluate_input() for a flit alone, due at once and ejected at once (no stall, no throttled
  // port) with its credit due at once: as receive() and commit_and_write() would take it, the
  // credit written straight to the channel (the credit return line is empty while idle) unless
  // the ejection formed an answer to send, which takes the general steps.
  flit_taken_ = g.seq;
  check_arrival(g);
  flit_ejected(g);
  if (control_queued_) {
    credit_return_.push_back({now_, g.vc});
    start_streams();
    send_flit();
    commit_and_write();
  } else {
    CreditLanes lanes;
    lanes.push(g.vc);
    lanes.seq = static_cast<std::uint8_t>(last_credit_written_.seq + 1);
    credit_out_if_->write(lanes);
    last_credit_written_ = lanes;
  }
  if (probe_live_) update_probe();
  idle_ = idle();
  if (idle_ && posted_.empty()) sleep();
}

void Nic::sleep() {
  // Only from the idle state: the next evaluations would be the fast path until an input
  // channel changes (which wakes the NIC in the update phase) or b_transport posts (which wakes it).
  if (!can_sleep_) return;
  if (!offset_known_) {  // evaluated by the domain's process: its edge count is this edge's
    edge_offset_ = now_ - domain_->edge();
    offset_known_ = true;
  }
  asleep_ = true;
  domain_->sleep(slot_);
}

void Nic::ingest_posted() {
  if (posted_.empty()) return;
  std::size_t kept = 0;
  for (std::size_t k = 0; k < posted_.size(); ++k) {
    const auto& [at, req] = posted_[k];
    if (at >= now_) {
      posted_[kept++] = posted_[k];
      continue;
    }
    std::int32_t mi;
    if (!free_messages_.empty()) {
      mi = free_messages_.back();
      free_messages_.pop_back();
    } else {
      mi = static_cast<std::int32_t>(messages_.size());
      messages_.emplace_back();
    }
    Message& m = messages_[mi];
    m = Message{};
    m.id = (static_cast<MessageId>(id_) << kMessageNodeShift) | next_message_++;
    m.dst = req.dst;
    m.size = req.size;
    m.packets = (req.size + env_.config.max_packet - 1) / env_.config.max_packet;
    m.created = at;
    m.traffic_class = req.traffic_class;
    m.measured = env_.stats.in_window(at);
    env_.stats.message_created(id_, req.traffic_class, req.size, at);
    SendQueue& q = send_queues_[req.dst];
    const bool was_empty = q.head < 0;
    if (!was_empty) messages_[q.tail].next = mi;
    else {
      q.head = mi;
      policy_set_ready(req.dst, now_ >= hold_until_[req.dst]);
    }
    q.tail = mi;
    ++queued_messages_;
    ++counters_.messages_posted;
    if (hooks_)
      hooks_->on_message(*this, MessageInfo{m.id, m.dst, m.size, m.packets, m.traffic_class, m.created}, was_empty);
  }
  posted_.resize(kept);
  for (std::size_t k = 0; k < kept; ++k) posted_due_ = k == 0 ? posted_[0].first : std::min(posted_due_, posted_[k].first);
}

void Nic::receive() {
  // A flit or credit due at once (a 1-cycle link) with nothing older on its link skips the delay
  // line: taken as the loop below would take it.
  const Flit& f = *flit_in_val_;
  if (f.fresh(flit_taken_)) {
    flit_taken_ = f.seq;
    const Cycle due = now_ - 1 + env_.link_latency;
    if (due <= now_ && in_link_.empty()) take_flit(f);
    else in_link_.push_back({due, f});
  }
  while (!in_link_.empty() && in_link_.front().first <= now_) {
    const Flit g = in_link_.front().second;
    in_link_.pop_front();
    take_flit(g);
  }
  if (__builtin_expect(eject_waiting_flits_ != 0, 0)) drain_stalled();
  const CreditLanes& c = *credit_in_val_;
  if (c.fresh(credit_taken_)) {
    credit_taken_ = c.seq;
    const Cycle due = now_ - 1 + env_.link_latency;
    if (due <= now_ && credit_link_.empty()) take_credit(c);
    else credit_link_.push_back({due, c});
  }
  while (!credit_link_.empty() && credit_link_.front().first <= now_) {
    take_credit(credit_link_.front().second);
    credit_link_.pop_front();
  }
}

void Nic::check_arrival(const Flit& g) const {
  if (g.vc >= env_.num_vcs) fail("flit " + to_text(g) + " on nonexistent VC");
  if (eject_occupancy_[g.vc] + 1 > env_.config.ejection_buffer)
    fail("ejection buffer overflow on VC " + std::to_string(g.vc) + " (flit sent without a credit)");
}

void Nic::take_flit(const Flit& g) {
  check_arrival(g);
  ++eject_occupancy_[g.vc];
  if (__builtin_expect(eject_slow_, 0) && eject_waits(g)) {
    // Stalled vnet, flits of this VC still waiting, or a data flit under a throttled host port:
    // the flit stays in the buffer (drain_stalled).
    eject_waiting_[g.vc].push_back(g);
    ++eject_waiting_flits_;
    rare_ = true;
    return;
  }
  eject_flit(g);
}

void Nic::eject_flit(const Flit& g) {
  // The NIC drains its ejection buffer at link rate: the slot is freed at once.
  --eject_occupancy_[g.vc];
  credit_return_.push_back({now_ + env_.config.credit_delay, g.vc});
  flit_ejected(g);
}

void Nic::flit_ejected(const Flit& g) {
  ++counters_.flits_ejected;
  if (g.tail) {
    const Packet& p = env_.packets[g.packet];
    if (p.dst != id_) fail("packet " + std::to_string(p.id) + " for node " + std::to_string(p.dst) + " ejected here (misrouted)");
    if (g.index + 1u != p.size) fail("packet " + std::to_string(p.id) + " tail flit index does not match its size");
    eject(p);
  }
}

bool Nic::eject_waits(const Flit& g) const {
  return eject_stalled_[vnet_of_vc(g.vc)] || !eject_waiting_[g.vc].empty() ||
         (eject_port_.on() && env_.packets[g.packet].kind == PacketKind::Data);
}

void Nic::drain_stalled() {
  // One waiting flit per VC and cycle, oldest first, from vnets no longer stalled; under a
  // throttled host port at most one data flit per cycle in all, when the port has its tokens,
  // from the VCs in round-robin order (control flits pass at fabric rate).
  const bool port = eject_port_.on();
  bool data_ready = port && eject_port_.ready(now_);
  for (std::uint32_t k = 0; k < env_.num_vcs; ++k) {
    const auto v = static_cast<VcId>(port ? (eject_next_ + k) % env_.num_vcs : k);
    Ring<Flit>& w = eject_waiting_[v];
    if (w.empty() || eject_stalled_[vnet_of_vc(v)]) continue;
    const Flit g = w.front();
    if (port && env_.packets[g.packet].kind == PacketKind::Data) {
      if (!data_ready) continue;
      data_ready = false;
      eject_port_.take();
      eject_next_ = static_cast<VcId>((v + 1) % env_.num_vcs);
    }
    w.pop_front();
    --eject_waiting_flits_;
    eject_flit(g);
  }
  eject_slow_ = any_stall_ || eject_waiting_flits_ != 0 || port;
}

void Nic::stall_ejection(std::uint8_t vnet, bool stalled) {
  if (vnet >= eject_stalled_.size()) fail("stall_ejection of nonexistent vnet " + std::to_string(vnet));
  eject_stalled_[vnet] = stalled ? 1 : 0;
  any_stall_ = std::any_of(eject_stalled_.begin(), eject_stalled_.end(), [](std::uint8_t s) { return s != 0; });
  eject_slow_ = any_stall_ || eject_waiting_flits_ != 0 || eject_port_.on();
}

void Nic::eject(const Packet& cp) {
  Packet& p = env_.packets[cp.id];
  p.ejected = now_;
  ++counters_.packets_ejected;
  if (__builtin_expect((hook_uses_ & NicHooks::kDeliveryHold) == 0, 1)) {
    deliver_now(p);  // nothing is ever held: no hook calls deliver()
    return;
  }
  delivering_ = true;
  if (p.kind == PacketKind::Data && hooks_->on_data_arrival(*this, p) == Delivery::Hold) {
    ++held_packets_;
    if (watching(p)) env_.packets.watch()->event(now_, p, name(), "held");
  } else {
    deliver_now(p);
  }
  // Packets the hooks released meanwhile follow, in the order they were released.
  for (std::size_t k = 0; k < releasing_.size(); ++k) deliver_now(env_.packets[releasing_[k]]);
  releasing_.clear();
  delivering_ = false;
}

void Nic::deliver(PacketId id) {
  const Packet& p = env_.packets[id];
  if (held_packets_ == 0 || p.id != id || p.kind != PacketKind::Data || p.dst != id_ || p.ejected == kNever)
    fail("deliver(" + std::to_string(id) + "): not a data packet held by this NIC");
  --held_packets_;
  releasing_.push_back(id);
  if (delivering_) return;
  delivering_ = true;
  for (std::size_t k = 0; k < releasing_.size(); ++k) deliver_now(env_.packets[releasing_[k]]);
  releasing_.clear();
  delivering_ = false;
}

void Nic::deliver_now(Packet& p) {
  env_.stats.packet_ejected(p, id_, now_);
  if (watching(p)) watch_ejected(p);
  if (p.kind == PacketKind::Data) {
    ++counters_.data_packets_received;
    // Reassembly: a message completes when its last packet arrives.
    bool complete = p.message_packets == 1;
    if (!complete) {
      auto& r = reassembly_[p.message];
      if (++r.received == p.message_packets) {
        complete = true;
        reassembly_.erase(p.message);
      }
    }
    if (complete) env_.stats.message_completed(p.traffic_class, p.created, now_, p.has(kFlagMeasured));
    Packet* ack = nullptr;
    if (acks_ && !p.has(kFlagNoAck)) {
      ack = &env_.packets.control(PacketKind::Ack, p, id_, p.src, now_);
      ack->amount = p.size;  // flits acknowledged
      ack->ref = p.ref;
    }
    if (hooks_) hooks_->on_data(*this, p, ack);
    if (ack && env_.packets.watch()) env_.packets.watch()->answered(p, *ack, now_, name());
    if (ack) send_control(*ack);
  } else {
    const Answer answer = env_.packets.format().answer(p.kind);
    if (answer != Answer::None) {
      // Each injected data packet is answered once: delivered (ACK) or refused (e.g. dropped).
      if (counters_.unacked == 0)
        fail(env_.packets.format().kind_name(p.kind) + " without an outstanding data packet (message " +
             std::to_string(p.message) + " seq " + std::to_string(p.seq) + ")");
      --counters_.unacked;
      if (answer == Answer::Delivered) {
        ++counters_.acks_received;
        if (keep_sent_ && sent_.erase(SentKey{p.message, p.seq}) != 1)
          fail(env_.packets.format().kind_name(p.kind) + " for message " + std::to_string(p.message) + " seq " +
               std::to_string(p.seq) + " that is not in the retransmit buffer (duplicate delivery?)");
      } else {
        ++counters_.refusals_received;
      }
    }
    if (hooks_) hooks_->on_control(*this, p);
  }
  env_.packets.release(p.id);
}

void Nic::send_control(Packet& p) {
  if (p.kind == PacketKind::Data) fail("send_control of a data packet (" + std::to_string(p.id) + ")");
  p.src = id_;
  p.vnet = env_.vnets.vnet_of(p);
  if (p.vnet >= control_queues_.size()) fail("control packet on nonexistent vnet " + std::to_string(p.vnet));
  if (p.created == 0) p.created = now_;
  control_queues_[p.vnet].push_back(p.id);
  ++control_queued_;
  ++control_pending_;
}

VcId Nic::choose_vc(std::uint8_t vnet, VcId exclude) const {
  // Level-0 VCs of the vnet at the router's injection port; the one with most credits.
  const VcId base = static_cast<VcId>(vnet * env_.vc_levels * env_.vcs_per_level);
  VcId best = kNoVc;
  for (std::uint32_t k = 0; k < env_.vcs_per_level; ++k) {
    const auto v = static_cast<VcId>(base + k);
    if (v == exclude) continue;
    if (best == kNoVc || arbiter_.credits(v) > arbiter_.credits(best)) best = v;
  }
  return best;
}

std::uint32_t Nic::injection_credits(std::uint8_t vnet) const {
  if (vnet >= env_.vnet_priority.size()) fail("injection_credits: vnet " + std::to_string(vnet) + " does not exist");
  // After this cycle's send (a hook's tick runs after it, before the commit takes the credit):
  // the flit on the link now holds one of the VC's credits already.
  const VcId v = choose_vc(vnet);
  const std::uint32_t c = arbiter_.credits(v);
  return send_.valid() && send_.vc == v && c > 0 ? c - 1 : c;
}

void Nic::update_ready(NodeId dst) { policy_set_ready(dst, send_queues_[dst].head >= 0 && now_ >= hold_until_[dst]); }

void Nic::hold(NodeId dst, Cycle until) {
  hold_until_[dst] = until;
  if (until > now_ && until != kNever) {
    wakes_.push({until, dst});
    rare_ = true;
  }
  update_ready(dst);
}

void Nic::wake_holds() {
  while (!wakes_.empty() && wakes_.top().first <= now_) {
    const NodeId dst = wakes_.top().second;
    wakes_.pop();
    update_ready(dst);  // a stale wake (the hold was changed since) just re-evaluates
  }
}

bool Nic::head_message(NodeId dst, MessageId& id) const {
  const SendQueue& q = send_queues_[dst];
  if (q.head < 0) return false;
  id = messages_[q.head].id;
  return true;
}

SendQueueLength Nic::send_queue(NodeId dst) const {
  // Walked on demand (the queues keep no counts: one per destination per NIC adds up).
  if (dst >= send_queues_.size()) fail("send_queue of nonexistent node " + std::to_string(dst));
  SendQueueLength n;
  for (std::int32_t k = send_queues_[dst].head; k >= 0; k = messages_[k].next) {
    const Message& m = messages_[k];
    if (m.packetized == m.size) continue;  // fully formed, leaving the queue this cycle
    ++n.messages;
    n.packets += m.packets - m.next_seq;
    n.flits += m.size - m.packetized;
  }
  return n;
}

bool Nic::retransmit(MessageId message, std::uint32_t seq, Cycle at, std::uint32_t flags) {
  if (flags & ~(env_.packets.format().mechanism_flags() | kFlagNoAck))
    fail("retransmit with flags that are not the mechanism's or no_ack (" + env_.packets.format().flag_names(flags) + ")");
  const SentKey key{message, seq};
  if (!keep_sent_ || !sent_.count(key)) return false;
  scheduled_.push(Scheduled{std::max(at, now_), scheduled_order_++, key, flags});
  rare_ = true;
  return true;
}

void Nic::start_retransmission() {
  if (retx_stream_.busy() || scheduled_.empty() || scheduled_.top().at > now_) return;
  const Scheduled s = scheduled_.top();
  scheduled_.pop();
  const auto it = sent_.find(s.key);
  if (it == sent_.end()) fail("retransmission of a packet that is no longer in the retransmit buffer");
  // The same packet again (kernel fields and the mechanism's payload as formed), with the
  // mechanism flags the retransmission asked for; routing state and timestamps start afresh.
  const Packet& formed = it->second.packet;
  Packet& p = env_.packets.allocate();
  const PacketId pid = p.id;
  p = formed;
  p.id = pid;
  p.ref = pid;
  p.flags = kFlagRetransmit | (formed.flags & kFlagMeasured) | s.flags;
  p.vnet = env_.vnets.vnet_of(p);
  retx_stream_.packet = p.id;
  retx_stream_.next_flit = 0;
  retx_stream_.vc = kNoVc;  // assigned when a VC not used by the data stream is free
  ++counters_.retransmissions;
  if (env_.packets.watch()) env_.packets.watch()->formed(p, now_, name(), "retransmitted");
}

void Nic::start_streams() {
  // Control packets: one stream per vnet.
  if (control_queued_) {
    for (std::size_t v = 0; v < control_streams_.size(); ++v) {
      Stream& s = control_streams_[v];
      if (s.busy() || control_queues_[v].empty()) continue;
      s.packet = control_queues_[v].front();
      control_queues_[v].pop_front();
      --control_queued_;
      s.next_flit = 0;
      s.vc = choose_vc(static_cast<std::uint8_t>(v));
    }
  }
  if (!scheduled_.empty()) start_retransmission();
  // Data: the injection policy grants a send queue when the data stream is free.
  policy_grant_ = queued_messages_ && !data_stream_.busy() ? policy_pick() : -1;
  if (policy_grant_ < 0) return;
  if (static_cast<std::uint32_t>(policy_grant_) >= env_.num_nodes || send_queues_[policy_grant_].head < 0)
    fail("injection policy granted send queue " + std::to_string(policy_grant_) + ", which has nothing to send");
  const auto dst = static_cast<NodeId>(policy_grant_);
  SendQueue& q = send_queues_[dst];
  Message& m = messages_[q.head];
  const std::uint32_t size = std::min(env_.config.max_packet, m.size - m.packetized);
  Packet& p = env_.packets.allocate();
  p.kind = PacketKind::Data;
  p.src = id_;
  p.dst = dst;
  p.size = static_cast<std::uint16_t>(size);
  p.message = m.id;
  p.seq = m.next_seq++;
  p.message_packets = m.packets;
  p.created = m.created;
  p.traffic_class = m.traffic_class;
  p.ref = p.id;
  p.amount = m.size;  // data packets carry their message's size in flits
  if (m.measured) p.set(kFlagMeasured);
  m.packetized += size;
  if (hooks_) hooks_->on_packet_formed(*this, p);
  p.vnet = env_.vnets.vnet_of(p);
  if (env_.packets.watch()) env_.packets.watch()->formed(p, now_, name());
  if (keep_sent_ && !p.has(kFlagNoAck)) {
    sent_.emplace(SentKey{p.message, p.seq}, Sent{p, kNever});
    counters_.retransmit_buffer_peak = std::max<std::uint64_t>(counters_.retransmit_buffer_peak, sent_.size());
  }
  policy_len_ = size;
  data_stream_.packet = p.id;
  data_stream_.next_flit = 0;
  data_stream_.vc = kNoVc;  // assigned in send_flit
  if (m.packetized == m.size) {
    const std::int32_t done = q.head;
    q.head = m.next;
    if (q.head < 0) {
      q.tail = -1;
      policy_set_ready(dst, false);
    }
    free_messages_.push_back(done);
    --queued_messages_;
  }
}

void Nic::send_flit() {
  if (!data_stream_.busy() && !retx_stream_.busy() && control_pending_ == 0) return;
  // The two data streams may carry the same vnet: each needs a VC the other is not using.
  if (data_stream_.busy() && data_stream_.vc == kNoVc)
    data_stream_.vc = choose_vc(env_.packets[data_stream_.packet].vnet, retx_stream_.busy() ? retx_stream_.vc : kNoVc);
  if (retx_stream_.busy() && retx_stream_.vc == kNoVc)
    retx_stream_.vc = choose_vc(env_.packets[retx_stream_.packet].vnet, data_stream_.busy() ? data_stream_.vc : kNoVc);
  // A throttled host port lets a new data flit through only when its tokens are due.
  const bool data_ready = !inject_port_.on() || !data_stream_.busy() || inject_port_.ready(now_);
  blocks::OutputArbiter::Request* const requests = requests_.data();  // one per stream at most
  std::size_t n = 0;
  auto add = [&](const Stream& s) {
    if (!s.busy() || s.vc == kNoVc || (&s == &data_stream_ && !data_ready)) return;
    const Packet& p = env_.packets[s.packet];
    requests[n++] = blocks::OutputArbiter::Request{s.vc, env_.vnet_priority[p.vnet], p.size, s.next_flit == 0};
  };
  add(data_stream_);
  add(retx_stream_);
  for (const auto& s : control_streams_) add(s);
  const int g = arbiter_.pick(requests, n);
  if (g < 0) return;
  Stream* s = data_stream_.busy() && data_stream_.vc == g ? &data_stream_ : nullptr;
  if (!s && retx_stream_.busy() && retx_stream_.vc == g) s = &retx_stream_;
  for (auto& cs : control_streams_)
    if (!s && cs.busy() && cs.vc == g) s = &cs;
  if (s == &data_stream_ && inject_port_.on()) inject_port_.take();
  Packet& p = env_.packets[s->packet];
  Flit f;
  f.packet = p.id;
  f.index = s->next_flit;
  f.vc = s->vc;
  f.head = s->next_flit == 0;
  f.tail = s->next_flit + 1u == p.size;
  send_ = f;
  send_prio_ = env_.vnet_priority[p.vnet];
  ++counters_.flits_injected;
  if (f.head) {
    p.injected = now_;
    const auto it = keep_sent_ && p.kind == PacketKind::Data ? sent_.find(SentKey{p.message, p.seq}) : sent_.end();
    if (it != sent_.end()) {
      // Network latency of a retransmission counts from the packet's first injection (unless
      // sim.latency_from_first_injection is off).
      Sent& e = it->second;
      if (e.first_injected == kNever) e.first_injected = now_;
      else if (env_.latency_from_first_injection) p.injected = e.first_injected;
      // A retransmission that expects no answer leaves the retransmit buffer now.
      if (p.has(kFlagNoAck)) sent_.erase(it);
    }
    ++counters_.packets_injected;
    if (p.kind == PacketKind::Data && acks_ && !p.has(kFlagNoAck)) ++counters_.unacked;
    env_.stats.packet_injected(p, now_);
    if (watching(p)) watch_injected(p, f.vc);
  }
  if (f.tail) {
    s->packet = kNoPacket;
    if (s != &data_stream_ && s != &retx_stream_) --control_pending_;
  } else {
    ++s->next_flit;
  }
}

void Nic::commit_and_write() {
  const int g = send_.valid() ? static_cast<int>(send_.vc) : -1;
  if (g >= 0 || !gives_.empty()) {
    if (!arbiter_.commit(g, send_prio_, gives_.data(), static_cast<std::uint32_t>(gives_.size())))
      fail("injection credit counter violation (credits beyond the router's buffer depth)");
    gives_.clear();
  }
  // A policy's state changes with a grant, or on every cycle for clocked ones (timers).
  if (policy_grant_ >= 0 || policy_clocked_) policy_commit(policy_grant_, policy_len_);
  policy_grant_ = -1;
  // Channel protocol (core/flit.hpp): every value written gets the next seq; exact channels are
  // cleared the cycle after a flit or credit, others keep the old value, which the router ignores.
  const std::uint8_t seq = last_written_.seq;
  if (send_.valid()) {
    last_written_ = send_;
    last_written_.seq = static_cast<std::uint8_t>(seq + 1);
    flit_out_if_->write(last_written_);
    written_at_ = now_;
  } else if (exact_ && last_written_.valid()) {
    last_written_ = Flit{};
    last_written_.seq = seq;
    flit_out_if_->write(last_written_);
  }
  send_ = Flit{};
  if (!credit_return_.empty() && credit_return_.front().first <= now_) {
    CreditLanes lanes;
    do {
      lanes.push(credit_return_.front().second);
      credit_return_.pop_front();
    } while (!credit_return_.empty() && credit_return_.front().first <= now_ && lanes.count < kMaxCreditLanes);
    lanes.seq = static_cast<std::uint8_t>(last_credit_written_.seq + 1);
    credit_out_if_->write(lanes);
    last_credit_written_ = lanes;
  } else if (exact_ && !last_credit_written_.empty()) {
    last_credit_written_.count = 0;
    last_credit_written_.vc = {};
    credit_out_if_->write(last_credit_written_);
  }
}

void Nic::dump_state(std::ostream& os) const {
  // Everything that can hold a packet of this NIC: posted and queued messages, the data,
  // retransmission and control streams, control queues, the retransmit buffer and its schedule,
  // the ejection link; and the injection credits.
  auto pkt = [&](PacketId id) { return PacketWatch::describe(env_.packets[id], env_.packets.format()); };
  auto key = [](const SentKey& k) {
    return std::to_string(k.message >> kMessageNodeShift) + "." + std::to_string(k.message & ((1ull << kMessageNodeShift) - 1)) +
           "." + std::to_string(k.seq);
  };
  const Cycle now = current();
  os << name() << " (node " << id_ << ") at cycle " << now << ": " << queued_messages() << " messages queued, "
     << control_queued_ << " control packets queued, " << counters_.unacked << " unacknowledged, " << sent_.size()
     << " in the retransmit buffer, " << scheduled_.size() << " retransmissions scheduled, "
     << held_packets_ << " delivered packets held, " << eject_waiting_flits_ << " flits waiting in the ejection buffer\n";
  for (NodeId d = 0; d < send_queues_.size(); ++d) {
    const SendQueue& q = send_queues_[d];
    if (q.head < 0) continue;
    std::uint32_t n = 0;
    for (std::int32_t i = q.head; i >= 0; i = messages_[i].next) ++n;
    const Message& m = messages_[q.head];
    os << "  send queue to " << d << ": " << n << " messages, head message " << key(SentKey{m.id, m.next_seq}) << " ("
       << m.packetized << "/" << m.size << " flits formed)";
    if (hold_until_[d] > now) os << ", held until " << (hold_until_[d] == kNever ? std::string("released") : std::to_string(hold_until_[d]));
    os << "\n";
  }
  auto stream = [&](const Stream& st, const std::string& what) {
    if (!st.busy()) return;
    os << "  " << what << " stream: flit " << st.next_flit << " of " << pkt(st.packet) << " on vc "
       << (st.vc == kNoVc ? -1 : static_cast<int>(st.vc));
    if (st.vc != kNoVc) os << " (credits " << arbiter_.credits(st.vc) << ")";
    os << "\n";
  };
  stream(data_stream_, "data");
  stream(retx_stream_, "retransmission");
  for (std::size_t v = 0; v < control_streams_.size(); ++v) {
    stream(control_streams_[v], "control vnet " + std::to_string(v));
    for (std::size_t k = 0; k < control_queues_[v].size(); ++k)
      os << "  control queue vnet " << v << ": " << pkt(control_queues_[v][k]) << "\n";
  }
  for (const auto& [k, e] : sent_)
    os << "  retransmit buffer: " << key(k) << " to " << e.packet.dst << ", " << e.packet.size << " flits"
       << (e.first_injected == kNever ? ", not injected yet" : ", first injected at " + std::to_string(e.first_injected)) << "\n";
  auto sched = scheduled_;
  for (; !sched.empty(); sched.pop())
    os << "  retransmission scheduled at " << sched.top().at << ": " << key(sched.top().key)
       << (sched.top().flags ? " (" + env_.packets.format().flag_names(sched.top().flags) + ")" : std::string()) << "\n";
  if (on_wire())
    os << "  injection wire: " << last_written_ << " (written at the last edge), " << pkt(last_written_.packet) << "\n";
  for (std::size_t k = 0; k < in_link_.size(); ++k)
    os << "  ejection link: " << in_link_[k].second << " due at " << in_link_[k].first << ", " << pkt(in_link_[k].second.packet)
       << "\n";
  for (VcId v = 0; v < env_.num_vcs; ++v)
    if (arbiter_.credits(v) != env_.inject_depth)
      os << "  injection vc " << v << ": credits " << arbiter_.credits(v) << "/" << env_.inject_depth << "\n";
  if (!credit_link_.empty()) os << "  " << credit_link_.size() << " injection credit lanes on the link\n";
  if (!credit_return_.empty()) os << "  " << credit_return_.size() << " ejection credits not yet returned to the router\n";
  if (!reassembly_.empty()) os << "  " << reassembly_.size() << " messages partially reassembled\n";
}

bool Nic::holds_state() const {
  if (queued_messages() || control_queued_ || data_stream_.busy() || retx_stream_.busy() || counters_.unacked ||
      !sent_.empty() || !scheduled_.empty() || !reassembly_.empty() || !in_link_.empty() || !credit_link_.empty() ||
      !credit_return_.empty() || on_wire() || held_packets_ || eject_waiting_flits_)
    return true;
  for (const auto& s : control_streams_)
    if (s.busy()) return true;
  for (VcId v = 0; v < env_.num_vcs; ++v)
    if (arbiter_.credits(v) != env_.inject_depth) return true;
  return false;
}

void Nic::mark_held(std::vector<char>& held) const {
  auto mark = [&](PacketId id) {
    if (id != kNoPacket && id < held.size()) held[id] = 1;
  };
  mark(data_stream_.packet);
  mark(retx_stream_.packet);
  for (const auto& s : control_streams_) mark(s.packet);
  for (const auto& q : control_queues_)
    for (std::size_t k = 0; k < q.size(); ++k) mark(q[k]);
  for (std::size_t k = 0; k < in_link_.size(); ++k) mark(in_link_[k].second.packet);
  for (const auto& w : eject_waiting_)
    for (std::size_t k = 0; k < w.size(); ++k) mark(w[k].packet);
  if (on_wire()) mark(last_written_.packet);  // written at the last edge, not yet sampled by the router
}

void Nic::check_quiescent() const {
  std::ostringstream os;
  if (data_stream_.busy()) os << "data stream busy; ";
  if (retx_stream_.busy()) os << "retransmission stream busy; ";
  if (!sent_.empty()) os << sent_.size() << " packets in the retransmit buffer; ";
  if (!scheduled_.empty()) os << scheduled_.size() << " retransmissions scheduled; ";
  if (control_queued_) os << control_queued_ << " control packets queued; ";
  if (!in_link_.empty()) os << "flits on the ejection link; ";
  for (VcId v = 0; v < env_.num_vcs; ++v)
    if (arbiter_.credits(v) != env_.inject_depth) os << "injection vc " << v << " credits " << arbiter_.credits(v) << "; ";
  if (!reassembly_.empty()) os << reassembly_.size() << " messages partially reassembled; ";
  if (held_packets_) os << held_packets_ << " received packets held (never delivered); ";
  if (eject_waiting_flits_) os << eject_waiting_flits_ << " flits waiting in the ejection buffer; ";
  if (!os.str().empty()) fail("not quiescent after drain: " + os.str());
}

}  // namespace ccnet
