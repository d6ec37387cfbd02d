// NIC side of SRP/SMSRP/LHRP.
//
// Source, per message (paper 003 sections 2.2, 3.1, 3.2; notes 1.3-1.7):
//   SRP    first packet formed: send RES(ceil(size x (1+eps))); packets are speculative until
//          the grant or a NACK; a NACK stops speculation (the send queue is held) and marks the
//          packet for resending; GNT(t): resend NACKed packets and the rest non-speculatively
//          from t.
//   SMSRP  packets are speculative; the first NACK sends RES(flits not yet acknowledged) and
//          stops speculation; then as SRP.
//   LHRP   every new packet is speculative; NACK(t) from the last-hop switch: resend that
//          packet non-speculatively at t. A NACK without time (fabric drop, section 6.1):
//          resend speculatively at once, or, after `coalesce_after` consecutive ones to the
//          same destination, reserve for all of them (RES served at the last hop).
//          Messages of at least `srp_from` flits follow SRP (section 6.4).
// Destination: with the destination scheduler (SRP/SMSRP default), RES(n) from s is granted at
// t = max(now, T_next), T_next = t + n (T_next never decreases).
#include <unordered_map>
#include <vector>

#include "cc/srp_lhrp/srp_lhrp.hpp"
#include "core/watch.hpp"
#include "core/error.hpp"

namespace ccnet::srp_lhrp {
namespace {

constexpr std::uint32_t kCoalesced = 0xffffffffu;  // seq of a coalesced (LHRP 6.1) reservation

class NicSide : public NicHooks {
 public:
  NicSide(const Params& p, const Format& f, NodeId node, CounterSet& counters)
      : p_(p),
        f_(f),
        node_(node),
        nacks_(counters.counter("nacks_received")),
        nacks_timed_(counters.counter("nacks_timed")) {}

  void on_packet_formed(NicApi& api, Packet& p) override {
    const bool srp_path = p_.protocol != Protocol::Lhrp || (p_.srp_from > 0 && p.amount >= p_.srp_from);
    if (!srp_path) {
      p.set(f_.spec);
      return;
    }
    auto it = msgs_.find(p.message);
    if (it == msgs_.end()) {
      Msg m;
      m.dst = p.dst;
      m.packets = p.message_packets;
      m.size = p.amount;
      it = msgs_.emplace(p.message, m).first;
      if (p_.protocol != Protocol::Smsrp) reserve(api, p.dst, p.message, 0, p_.reservation_length(m.size), p.traffic_class);
    }
    if (it->second.phase == Phase::Speculative) p.set(f_.spec);
  }

  void on_control(NicApi& api, const Packet& c) override {
    if (c.kind == PacketKind::Ack) on_ack(c);
    else if (c.kind == f_.nack) on_nack(api, c);
    else if (c.kind == f_.gnt) on_grant(api, c);
    else if (c.kind == f_.res) on_reservation(api, c);
  }

 private:
  enum class Phase : std::uint8_t { Speculative, WaitingForGrant, Granted };
  struct Msg {
    NodeId dst = 0;
    Phase phase = Phase::Speculative;
    Cycle grant_time = 0;
    std::uint32_t packets = 0, acked = 0, size = 0, acked_flits = 0;
    std::vector<std::uint32_t> nacked;  // packets waiting for the grant
  };
  struct Coalescing {
    std::uint32_t streak = 0;  // consecutive NACKs without time
    std::vector<std::pair<MessageId, std::uint32_t>> pending;
    std::uint32_t pending_flits = 0;
    bool outstanding = false;  // a coalesced reservation is on its way
  };

  void reserve(NicApi& api, NodeId dst, MessageId message, std::uint32_t seq, std::uint32_t flits, std::uint8_t cls) {
    Packet about;
    about.message = message;
    about.seq = seq;
    about.traffic_class = cls;
    Packet& r = api.packets().control(f_.res, about, api.id(), dst, api.now());
    r.amount = flits;
    if (PacketWatch* w = api.packets().watch()) w->control_formed(r, api.now(), {});
    api.send_control(r);
  }

  void on_ack(const Packet& a) {
    auto& co = coalescing_[a.src];
    co.streak = 0;
    auto it = msgs_.find(a.message);
    if (it == msgs_.end()) return;
    Msg& m = it->second;
    ++m.acked;
    m.acked_flits += a.amount;
    if (m.acked == m.packets) msgs_.erase(it);
  }

  void on_nack(NicApi& api, const Packet& n) {
    ++nacks_;
    if (n.has(f_.timed)) {
      // Dropped at the last hop: that switch reserved a slot for it.
      ++nacks_timed_;
      coalescing_[n.src].streak = 0;
      resend(api, n.message, n.seq, n.payload[kTimeWord], false);
      return;
    }
    auto it = msgs_.find(n.message);
    if (it == msgs_.end()) {
      // LHRP packet dropped in the fabric: no reservation came with the NACK.
      auto& co = coalescing_[n.src];
      ++co.streak;
      if (p_.coalesce_after == 0 || co.streak < p_.coalesce_after) {
        resend(api, n.message, n.seq, api.now(), true);
        return;
      }
      co.pending.push_back({n.message, n.seq});
      co.pending_flits += n.amount;
      if (!co.outstanding) {
        co.outstanding = true;
        reserve(api, n.src, n.message, kCoalesced, p_.reservation_length(co.pending_flits), n.traffic_class);
      }
      return;
    }
    Msg& m = it->second;
    switch (m.phase) {
      case Phase::Speculative: {
        if (p_.protocol == Protocol::Smsrp)
          reserve(api, m.dst, n.message, 0, p_.reservation_length(m.size - m.acked_flits), n.traffic_class);
        m.phase = Phase::WaitingForGrant;
        MessageId head;
        if (api.head_message(m.dst, head) && head == n.message) api.hold(m.dst, kNever);  // stop speculating
        m.nacked.push_back(n.seq);
        break;
      }
      case Phase::WaitingForGrant: m.nacked.push_back(n.seq); break;
      case Phase::Granted: resend(api, n.message, n.seq, std::max(api.now(), m.grant_time), false); break;
    }
  }

  void on_grant(NicApi& api, const Packet& g) {
    if (g.seq == kCoalesced) {
      auto& co = coalescing_[g.src];
      for (const auto& [msg, seq] : co.pending) resend(api, msg, seq, g.payload[kTimeWord], false);
      co.pending.clear();
      co.pending_flits = 0;
      co.outstanding = false;
      co.streak = 0;
      return;
    }
    auto it = msgs_.find(g.message);
    if (it == msgs_.end()) return;  // every packet already got through speculatively: the slot goes unused
    Msg& m = it->second;
    m.phase = Phase::Granted;
    m.grant_time = g.payload[kTimeWord];
    for (const std::uint32_t seq : m.nacked) resend(api, g.message, seq, m.grant_time, false);
    m.nacked.clear();
    MessageId head;
    if (api.head_message(m.dst, head) && head == g.message) api.hold(m.dst, m.grant_time);  // the rest from t
  }

  void on_reservation(NicApi& api, const Packet& r) {
    if (p_.last_hop_scheduler())
      throw ModelError("node " + std::to_string(node_) + ": reservation reached the NIC but the last-hop switch should serve it");
    const Cycle t = std::max(api.now(), t_next_);
    t_next_ = t + r.amount;
    Packet& g = api.packets().control(f_.gnt, r, api.id(), r.src, api.now());
    g.set(f_.timed);
    g.payload[kTimeWord] = t;
    if (PacketWatch* w = api.packets().watch()) w->answered(r, g, api.now(), {});
    api.send_control(g);
  }

  void resend(NicApi& api, MessageId msg, std::uint32_t seq, Cycle at, bool speculative) {
    if (!api.retransmit(msg, seq, at, speculative ? static_cast<std::uint32_t>(f_.spec) : 0u))
      throw ModelError("node " + std::to_string(node_) + ": NACKed packet (message " + std::to_string(msg) + " seq " +
                       std::to_string(seq) + ") is not in the retransmit buffer");
  }

  const Params& p_;
  Format f_;
  NodeId node_;
  std::uint64_t& nacks_;        // whole run: NACKs received
  std::uint64_t& nacks_timed_;  // of which carried a retransmission time (last-hop drops)
  std::unordered_map<MessageId, Msg> msgs_;
  std::unordered_map<NodeId, Coalescing> coalescing_;
  Cycle t_next_ = 0;  // destination reservation scheduler
};

}  // namespace

std::unique_ptr<NicHooks> make_nic_hooks(const Params& p, const Format& f, NodeId node, CounterSet& counters) {
  return std::make_unique<NicSide>(p, f, node, counters);
}

}  // namespace ccnet::srp_lhrp
