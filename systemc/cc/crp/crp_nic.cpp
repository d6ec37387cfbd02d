// NIC side of CRP (paper 000 sections 2.1-2.5; notes rules R3, R4, R8, R10-R12).
//
// Source. A message of at least n_min packets is split into segments of n_max packets (R8; a
// last segment of fewer than n_min packets joins the non-participating traffic); smaller messages
// are sent as normal, non-participating packets. A segment's first packet sends its request
// (REQ: x = ceil(flits x (1 + epsilon)) cycles, an all-ones vector of the current epoch) and its
// packets are speculative until the grant (G2: or only after the first NACK with request_on:
// nack). A NACK stops the segment's speculation (nack_stops: segment holds the send queue while
// the segment is still being formed; destination holds the queue to its destination, whatever
// is being formed, until every stopped segment to it is granted); GRANT(ts) sends the NACKed packets
// and the rest of the segment from ts on, non-speculative and marked reserved (R12); RETRY
// re-sends the request after retry_cycles (short) or cells x cmax - RTT (long, R4b). A segment
// whose packets were all delivered speculatively forgets its request: a late grant goes unused.
// Every segment (also its packets) is pinned to one inter-cluster channel (G8) so that the data
// uses the channel its request reserved; grants and retries retrace the request (R6).
//
// Destination. Its egress table (R3, R4): the request's vector is ANDed with it, the leftmost
// slot (the eagerly reserved one first) is granted at ts = slot x cmax + (cmax - t[slot]),
// otherwise a short (no common slot) or long (own table full) retry. Non-participating data
// delivered here is charged to the table (R9).
#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include "cc/crp/crp.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "topology/multistage.hpp"

namespace ccnet::crp {
namespace {

class NicSide : public NicHooks {
 public:
  NicSide(const Params& p, const Format& f, const Topology& topology, std::uint64_t seed, NicApi& nic, CounterSet& counters)
      : p_(p),
        f_(f),
        node_(nic.id()),
        multistage_(dynamic_cast<const MultistageTopology*>(&topology)),
        rng_(seed, "crp.nic_" + std::to_string(nic.id())),
        table_(p.table(), nic.block_source(), std::string(nic.component_name()) + " crp egress table"),
        requests_(counters.counter("requests_sent")),
        grants_(counters.counter("grants_received")),
        retries_short_(counters.counter("retries_short")),
        retries_long_(counters.counter("retries_long")),
        retries_intra_(counters.counter("retries_intra_cluster")),
        retries_intra_short_(counters.counter("retries_intra_cluster_short")),
        nacks_(counters.counter("nacks_received")),
        unused_(counters.counter("grants_unused")),
        segments_(counters.counter("segments")),
        unreserved_(counters.counter("nonparticipating_packets")),
        dest_charged_(counters.counter("destination_charged_flits")),
        reserved_packets_(counters.counter("reserved_packets")),
        reserved_queued_(counters.counter("reserved_queued_cycles")),
        reserved_queued_max_(counters.counter("reserved_queued_max", CounterSet::Merge::Max)),
        reserved_late_(counters.counter("reserved_queued_over_cmax")) {
    if (multistage_ && multistage_->channels() > 0 && multistage_->shape().clusters > 1) channels_ = multistage_->channels();
  }

  void on_packet_formed(NicApi& api, Packet& p) override {
    const std::uint32_t seg = p.seq / p_.n_max;
    const std::uint32_t first = seg * p_.n_max;
    const std::uint32_t packets = std::min(p_.n_max, p.message_packets - first);
    if (p.message_packets < p_.n_min || packets < p_.n_min) {
      p.set(kFlagNoAck);  // lossless: nothing to answer
      ++unreserved_;
      return;
    }
    const Key key{p.message, seg};
    auto it = segs_.find(key);
    if (it == segs_.end()) {
      Segment s;
      s.dst = p.dst;
      s.traffic_class = p.traffic_class;
      s.packets = packets;
      // Packets before the message's last all have p.size flits.
      s.flits = std::min<std::uint32_t>(p.amount - first * p.size, packets * p.size);
      if (packets == 1) s.flits = p.size;
      if (channels_ > 0) s.channel = p_.channel == ChannelChoice::Random
                                         ? static_cast<std::uint32_t>(rng_.below(channels_))
                                         : multistage_->default_channel(node_, p.dst);
      it = segs_.emplace(key, std::move(s)).first;
      ++segments_;
      if (p_.request_on == RequestOn::Start) request(api, key, it->second, false);
    }
    Segment& s = it->second;
    if (channels_ > 0) MultistageRoute::pin_channel(p, s.channel);
    ++s.formed;
    if (s.phase == Phase::Granted) {
      p.set(f_.reserved);
      p.set(kFlagNoAck);
    } else {
      p.set(f_.spec);
      ++s.spec_out;
    }
    finish_if_done(key, s);
  }

  void on_data(NicApi& api, const Packet& d, Packet*) override {
    if (d.has(f_.reserved)) {
      // The input queuing a granted packet met on its way (the routers' sum in kQueuedWord).
      const std::uint64_t q = d.payload[kQueuedWord];
      ++reserved_packets_;
      reserved_queued_ += q;
      reserved_queued_max_ = std::max(reserved_queued_max_, q);
      if (q > p_.cmax) ++reserved_late_;
      return;
    }
    if (d.has(f_.spec)) return;
    blocks::CrpLane lane;  // non-participating traffic on the egress channel (R9)
    lane.op = blocks::CrpOp::Charge;
    lane.size = d.size;
    lane.spill = p_.charge_spill;
    dest_charged_ += apply(api, lane).charged;
  }

  void on_control(NicApi& api, const Packet& c) override {
    if (c.kind == PacketKind::Ack) on_answer(api, c, false);
    else if (c.kind == f_.nack) on_answer(api, c, true);
    else if (c.kind == f_.request) on_request(api, c);
    else if (c.kind == f_.grant) on_grant(api, c);
    else if (c.kind == f_.retry) on_retry(api, c);
  }

  void tick(NicApi& api) override {
    table_.sync(api.now());
    while (!rerequests_.empty() && rerequests_.begin()->first <= api.now()) {
      const Key key = rerequests_.begin()->second;
      rerequests_.erase(rerequests_.begin());
      auto it = segs_.find(key);
      if (it != segs_.end() && it->second.phase == Phase::Retrying) want_rerequest(api, key, it->second);
    }
    // Segments waiting for a free re-request slot (max_retrying), oldest first.
    while (!waiting_.empty() && (p_.max_retrying == 0 || rerequesting_ < p_.max_retrying)) {
      const Key key = waiting_.front();
      waiting_.pop_front();
      auto it = segs_.find(key);
      if (it != segs_.end() && it->second.phase == Phase::Waiting) request(api, key, it->second, true);
    }
  }

  void trace(TraceSink& s) override {
    s.value(table_.epoch_ref(), "crp.egress.epoch");
    for (std::uint32_t i = 0; i < p_.cells; ++i) s.value(table_.cell_ref(i), "crp.egress.cell_" + std::to_string(i));
  }

 private:
  // Idle: no request yet (request_on: nack, before the first NACK). Requesting: a request is
  // outstanding. Retrying: a retry came back; the request goes again after the retry delay.
  // Waiting: the delay is over but max_retrying segments are re-requesting. Granted: the rest of
  // the segment goes at ts.
  enum class Phase : std::uint8_t { Idle, Waiting, Requesting, Retrying, Granted };
  struct Key {
    MessageId message;
    std::uint32_t segment;
    bool operator<(const Key& o) const { return message != o.message ? message < o.message : segment < o.segment; }
  };
  struct Segment {
    NodeId dst = 0;
    std::uint8_t traffic_class = 0;
    std::uint32_t packets = 0, flits = 0, formed = 0, spec_out = 0;
    std::uint32_t channel = 0;
    Phase phase = Phase::Idle;
    bool stopped = false;  // a NACK stopped speculation
    bool rerequest = false;  // the outstanding request follows a retry
    Cycle ts = 0;
    std::vector<std::uint32_t> nacked;  // waiting for the grant
  };

  blocks::CrpResult apply(NicApi& api, const blocks::CrpLane& lane) {
    table_.sync(api.now());
    const blocks::CrpResult r = table_.apply(lane);
    if (r.violation || !table_.invariants_hold())
      throw ModelError("node " + std::to_string(node_) + ": CRP egress reservation table contract violated (op " +
                       std::to_string(static_cast<int>(lane.op)) + ", cycle " + std::to_string(api.now()) + ")");
    return r;
  }

  // After a retry: re-request now, or as soon as fewer than max_retrying segments are
  // re-requesting (first requests never wait).
  void want_rerequest(NicApi& api, const Key& key, Segment& s) {
    if (p_.max_retrying == 0 || rerequesting_ < p_.max_retrying) {
      request(api, key, s, true);
    } else {
      s.phase = Phase::Waiting;
      waiting_.push_back(key);
    }
  }

  void leave_requesting(Segment& s) {
    if (s.phase == Phase::Requesting && s.rerequest) --rerequesting_;
  }

  void request(NicApi& api, const Key& key, Segment& s, bool rerequest) {
    Packet about;
    about.message = key.message;
    about.seq = key.segment;
    about.traffic_class = s.traffic_class;
    Packet& r = api.packets().control(f_.request, about, node_, s.dst, api.now());
    r.amount = p_.request_size(s.flits);
    r.payload[kVectorWord] = p_.cells >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p_.cells) - 1;
    r.payload[kEpochWord] = api.now() / p_.cmax;
    r.payload[kSentWord] = api.now();
    if (channels_ > 0) MultistageRoute::pin_channel(r, s.channel);
    if (PacketWatch* w = api.packets().watch()) w->control_formed(r, api.now(), {});
    api.send_control(r);
    s.phase = Phase::Requesting;
    s.rerequest = rerequest;
    if (rerequest) ++rerequesting_;
    ++requests_;
  }

  // The head message of the queue to s.dst is still forming this segment's packets.
  bool forming(NicApi& api, const Key& key, const Segment& s) const {
    MessageId head;
    return s.formed < s.packets && api.head_message(s.dst, head) && head == key.message;
  }

  void finish_if_done(const Key& key, Segment& s) {
    if (s.formed == s.packets && s.spec_out == 0 && s.nacked.empty()) {
      leave_requesting(s);  // a Waiting segment is skipped when its turn comes
      segs_.erase(key);
    }
  }

  void on_answer(NicApi& api, const Packet& a, bool nack) {
    if (nack) ++nacks_;
    const Key key{a.message, a.seq / p_.n_max};
    auto it = segs_.find(key);
    if (it == segs_.end()) {
      // Only speculative packets are answered (the others carry no_ack), and their segment
      // lives until every one of them is.
      throw ModelError("node " + std::to_string(node_) + ": " + (nack ? "NACK" : "ACK") +
                       " for a packet of no open segment (message " + std::to_string(a.message) + " seq " +
                       std::to_string(a.seq) + ")");
    }
    Segment& s = it->second;
    --s.spec_out;
    if (!nack) {
      finish_if_done(key, s);
      return;
    }
    if (s.phase == Phase::Granted) {
      resend(api, a.message, a.seq, std::max(api.now(), s.ts));
      return;
    }
    s.nacked.push_back(a.seq);
    if (!s.stopped) {
      s.stopped = true;  // R11: stop speculating until the grant
      if (p_.nack_stops == NackStops::Destination) {
        ++held_[s.dst].stopped;
        api.hold(s.dst, kNever);
      } else if (forming(api, key, s)) {
        api.hold(s.dst, kNever);
      }
    }
    if (s.phase == Phase::Idle) request(api, key, s, false);
  }

  void on_grant(NicApi& api, const Packet& g) {
    ++grants_;
    const Key key{g.message, g.seq};
    auto it = segs_.find(key);
    if (it == segs_.end() || it->second.phase != Phase::Requesting) {
      ++unused_;  // every packet got through speculatively: the slot goes unused (R12)
      return;
    }
    Segment& s = it->second;
    leave_requesting(s);
    s.phase = Phase::Granted;
    s.ts = std::max(api.now(), static_cast<Cycle>(g.payload[kTimeWord]));  // G7: a time already past means now
    for (const std::uint32_t seq : s.nacked) resend(api, g.message, seq, s.ts);
    s.nacked.clear();
    auto held = held_.find(s.dst);
    if (held != held_.end()) {
      // nack_stops: destination. The queue stays held until the last stopped segment to this
      // destination is granted, then opens at the latest time one of the granted segments it
      // held (stopped or still forming) may send.
      if (s.stopped || forming(api, key, s)) held->second.until = std::max(held->second.until, s.ts);
      if (s.stopped) --held->second.stopped;
      if (held->second.stopped == 0) {
        api.hold(s.dst, held->second.until);
        held_.erase(held);
      }
    } else if (forming(api, key, s)) {
      api.hold(s.dst, s.ts);
    }
    finish_if_done(key, s);
  }

  void on_retry(NicApi& api, const Packet& r) {
    const bool long_retry = r.has(f_.long_retry);
    ++(long_retry ? retries_long_ : retries_short_);
    if (multistage_ && multistage_->cluster_of_node(r.src) == multistage_->cluster_of_node(node_)) {
      ++retries_intra_;
      if (!long_retry) ++retries_intra_short_;  // C9: never (no channel on the way, an all-ones vector)
    }
    const Key key{r.message, r.seq};
    auto it = segs_.find(key);
    if (it == segs_.end() || it->second.phase != Phase::Requesting) return;
    leave_requesting(it->second);  // the slot goes to the next waiting segment meanwhile
    it->second.phase = Phase::Retrying;
    Cycle wait = p_.retry_cycles;
    if (long_retry) {
      // The retry carries its request's send cycle: the round trip of this very request.
      const Cycle horizon = Cycle{p_.cells} * p_.cmax, rtt = api.now() - r.payload[kSentWord];
      wait = horizon > rtt ? horizon - rtt : 0;
    }
    // R13: a random share of the delay taken off breaks the phase lock of sources that keep
    // coming back just after the same epoch boundary.
    if (p_.retry_jitter > 0)
      wait -= static_cast<Cycle>(p_.retry_jitter * rng_.uniform() * static_cast<double>(wait));
    rerequests_.emplace(api.now() + wait, key);
  }

  void on_request(NicApi& api, const Packet& req) {
    blocks::CrpLane lane;
    lane.op = blocks::CrpOp::Request;
    lane.size = req.amount;
    lane.vec = req.payload[kVectorWord];
    lane.vec_epoch = req.payload[kEpochWord];
    lane.reserve = true;
    lane.prefer = req.payload[kEagerWord] != 0;
    lane.slot = lane.prefer ? req.payload[kEagerWord] - 1 : 0;
    lane.lead = p_.grant_current_cell ? 0 : 1;
    const blocks::CrpResult r = apply(api, lane);
    Packet& a = api.packets().control(r.reserved ? f_.grant : f_.retry, req, node_, req.src, api.now());
    a.amount = req.amount;
    a.payload[kSentWord] = req.payload[kSentWord];
    if (r.reserved) a.payload[kTimeWord] = r.slot * p_.cmax + r.offset;
    if (r.retry == blocks::CrpRetry::Long) a.set(f_.long_retry);
    MultistageRoute::pin_reverse_of(a, req);
    if (PacketWatch* w = api.packets().watch()) w->answered(req, a, api.now(), {});
    api.send_control(a);
  }

  void resend(NicApi& api, MessageId msg, std::uint32_t seq, Cycle at) {
    if (!api.retransmit(msg, seq, at, static_cast<std::uint32_t>(f_.reserved) | kFlagNoAck))
      throw ModelError("node " + std::to_string(node_) + ": NACKed packet (message " + std::to_string(msg) + " seq " +
                       std::to_string(seq) + ") is not in the retransmit buffer");
  }

  const Params& p_;
  Format f_;
  NodeId node_;
  const MultistageTopology* multistage_;
  std::uint32_t channels_ = 0;  // inter-cluster channels to pin (0: none)
  RngStream rng_;
  blocks::CrpTableSlot table_;  // the egress channel's reservation table
  std::map<Key, Segment> segs_;
  std::multimap<Cycle, Key> rerequests_;
  std::deque<Key> waiting_;       // segments waiting for a request slot
  // nack_stops: destination: per held destination, its stopped segments not yet granted and
  // the latest granted time among the grants it received meanwhile (the queue opens then).
  struct Held {
    std::uint32_t stopped = 0;
    Cycle until = 0;
  };
  std::unordered_map<NodeId, Held> held_;
  std::uint32_t rerequesting_ = 0;  // segments whose outstanding request is a re-request
  std::uint64_t& requests_;      // whole run: requests sent (first ones and re-requests)
  std::uint64_t& grants_;        // whole run: grants received
  std::uint64_t& retries_short_; // whole run: short retries received (no common slot, or converted at a channel)
  std::uint64_t& retries_long_;  // whole run: long retries received (destination table full)
  std::uint64_t& retries_intra_; // whole run: retries received from destinations in the source's own cluster
  std::uint64_t& retries_intra_short_;  // of which short (C9: must be 0)
  std::uint64_t& nacks_;         // whole run: NACKs received (dropped speculative packets)
  std::uint64_t& unused_;        // whole run: grants that arrived after the segment had no use for them
  std::uint64_t& segments_;      // whole run: segments that reserved (or speculated)
  std::uint64_t& unreserved_;    // whole run: non-participating data packets formed
  std::uint64_t& dest_charged_;  // whole run: non-participating flits charged to egress tables
  std::uint64_t& reserved_packets_;     // whole run: granted (reserved) data packets delivered here
  std::uint64_t& reserved_queued_;      // whole run: their input queuing cycles, summed over the routers
  std::uint64_t& reserved_queued_max_;  // the most one of them queued (merged as a maximum)
  std::uint64_t& reserved_late_;        // whole run: of them, those that queued more than cmax cycles
};

}  // namespace

std::unique_ptr<NicHooks> make_nic_hooks(const Params& p, const Format& f, const Topology& topology, std::uint64_t seed,
                                         NicApi& nic, CounterSet& counters) {
  return std::make_unique<NicSide>(p, f, topology, seed, nic, counters);
}

}  // namespace ccnet::crp
