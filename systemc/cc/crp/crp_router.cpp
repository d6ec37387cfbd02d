// Switch side of CRP (paper 000 section 2; notes rules R1-R9, R11).
//
// Participating resources are the router output ports whose link is of the configured class
// (cc.channel_class, the inter-cluster channels): each has a reservation table.
//   REQ routed to a participating output (point A, R2): the request vector is ANDed with the
//     table; with eager reservation (R7) the earliest slot still in the vector is reserved for
//     the request's flow and written into the request (kEagerWord), so the destination prefers
//     it and a second channel tries the same slot first (G4).
//   GRANT / RETRY arriving on the input paired with a participating output (point C, R6: the
//     reverse direction of the same link): the flow's eager reservation is released; a GRANT
//     then takes its cycles from the cells of its time (R5) or, when they no longer have room,
//     is converted into a (short) RETRY here; nothing already decremented downstream is undone.
//   Non-participating data (neither speculative nor sent in a granted slot) routed to a
//     participating output is charged to the table's earliest non-zero cell (R9, G6).
// Every router: speculative packets accumulate their queuing time in kQueuedWord (at each router,
// from the end of the head flit's zero-load stay, routing + VC allocation, to its departure); a
// blocked input-queue head whose total exceeds TTW is dropped and NACKed (R11), from the switch's
// own control source (never dropped when the NACK has no room). Granted (reserved) packets
// accumulate theirs too, never to be dropped: the destination counts it (the queuing a reservation
// did not prevent, e.g. from the timestamp uncertainty of up to 2 C_max).
#include <memory>
#include <unordered_map>
#include <vector>

#include "cc/crp/crp.hpp"
#include "core/error.hpp"
#include "core/trace_sink.hpp"
#include "core/watch.hpp"

namespace ccnet::crp {
namespace {

class RouterSide : public RouterHooks {
 public:
  RouterSide(const Params& p, const Format& f, LinkClassId channel_class, Cycle zero_load, const RouterApi& router,
             CounterSet& counters)
      : p_(p),
        f_(f),
        zero_load_(zero_load),
        table_of_(router.num_ports(), kNone),
        converted_(counters.counter("grants_converted")),
        eager_(counters.counter("eager_reservations")),
        charged_(counters.counter("charged_flits")),
        drops_(counters.counter("speculative_drops")) {
    for (PortId port = 0; port < router.num_ports(); ++port) {
      const PortInfo& info = router.port(port);
      if (channel_class == kNoLinkClass || info.peer.kind != PortPeer::Kind::Router || info.peer.link != channel_class)
        continue;
      table_of_[port] = static_cast<std::uint32_t>(tables_.size());
      tables_.push_back(Channel{port,
                                blocks::CrpTableSlot(p.table(), router.block_source(),
                                                     std::string(router.component_name()) + " crp table " + std::to_string(port)),
                                {}});
    }
  }

  std::uint32_t uses() const override { return kHeadScan; }

  ArrivalAction on_arrival(RouterApi& api, Packet& pkt, const BufferState& b) override {
    if (pkt.kind == f_.request) {
      if (Channel* c = channel(b.out_port)) request(api, *c, pkt);
    } else if (pkt.kind == f_.grant || pkt.kind == f_.retry) {
      if (Channel* c = channel(b.port)) response(api, *c, pkt);
    } else if (pkt.kind == PacketKind::Data && !pkt.has(f_.spec) && !pkt.has(f_.reserved)) {
      if (Channel* c = channel(b.out_port)) {
        blocks::CrpLane lane;
        lane.op = blocks::CrpOp::Charge;
        lane.size = pkt.size;
        lane.spill = p_.charge_spill;
        charged_ += apply(api, *c, lane).charged;
      }
    }
    return ArrivalAction::Accept;
  }

  void on_input_dequeue(RouterApi& api, Packet& pkt, const BufferState&) override {
    if (pkt.kind == PacketKind::Data && (pkt.has(f_.spec) || pkt.has(f_.reserved)))
      pkt.payload[kQueuedWord] += queued_since(api, pkt.hop_arrival + zero_load_);
  }

  bool on_queue_head(RouterApi& api, Packet& pkt, PortId, Cycle waiting_since) override {
    if (pkt.kind != PacketKind::Data || !pkt.has(f_.spec)) return false;
    if (pkt.payload[kQueuedWord] + queued_since(api, waiting_since) <= p_.ttw || !api.can_emit(Vnets::kResponse, 1))
      return false;
    Packet& n = api.packets().control(f_.nack, pkt, pkt.dst, pkt.src, api.now());
    n.amount = pkt.size;
    if (PacketWatch* w = api.packets().watch()) w->answered(pkt, n, api.now(), {});
    if (!api.emit(n)) throw ModelError("router " + std::to_string(api.id()) + ": NACK queue full after a drop");
    ++drops_;
    return true;
  }

  void tick(RouterApi& api) override {
    // Keep the cells current every cycle so waveforms show the shift at each epoch boundary.
    for (Channel& c : tables_) c.table.sync(api.now());
  }

  void trace(TraceSink& s) override {
    for (Channel& c : tables_) {
      const std::string stem = "crp.port_" + std::to_string(c.port) + ".";
      s.value(c.table.epoch_ref(), stem + "epoch");
      for (std::uint32_t i = 0; i < p_.cells; ++i) s.value(c.table.cell_ref(i), stem + "cell_" + std::to_string(i));
    }
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Eager {
    std::uint64_t slot;
    std::uint32_t take0, take1;
  };
  struct Channel {
    PortId port;
    blocks::CrpTableSlot table;
    std::unordered_map<FlowKey, Eager, FlowKeyHash> eager;  // the eager-reservation store (R7)
  };

  static Cycle queued_since(const RouterApi& api, Cycle t) { return api.now() > t ? api.now() - t : 0; }

  Channel* channel(PortId port) {
    if (port >= table_of_.size() || table_of_[port] == kNone) return nullptr;
    return &tables_[table_of_[port]];
  }

  blocks::CrpResult apply(RouterApi& api, Channel& c, const blocks::CrpLane& lane) {
    c.table.sync(api.now());
    const blocks::CrpResult r = c.table.apply(lane);
    if (r.violation || !c.table.invariants_hold())
      throw ModelError("router " + std::to_string(api.id()) + " port " + std::to_string(c.port) +
                       ": CRP reservation table contract violated (op " + std::to_string(static_cast<int>(lane.op)) +
                       ", cycle " + std::to_string(api.now()) + ")");
    return r;
  }

  // Point A (R2, R7).
  void request(RouterApi& api, Channel& c, Packet& req) {
    blocks::CrpLane lane;
    lane.op = blocks::CrpOp::Request;
    lane.size = req.amount;
    lane.vec = req.payload[kVectorWord];
    lane.vec_epoch = req.payload[kEpochWord];
    const FlowKey key{req.src, req.message, req.seq};
    lane.reserve = p_.eager && c.eager.find(key) == c.eager.end();
    lane.prefer = req.payload[kEagerWord] != 0;
    lane.slot = lane.prefer ? req.payload[kEagerWord] - 1 : 0;
    const blocks::CrpResult r = apply(api, c, lane);
    req.payload[kVectorWord] = r.vec;
    req.payload[kEpochWord] = c.table.epoch();
    if (r.reserved) {
      c.eager.emplace(key, Eager{r.slot, r.take0, r.take1});
      req.payload[kEagerWord] = r.slot + 1;
      ++eager_;
    }
  }

  // Point C (R5, R6, R7).
  void response(RouterApi& api, Channel& c, Packet& rsp) {
    const FlowKey key{rsp.dst, rsp.message, rsp.seq};  // the response travels back to the flow's source
    if (auto it = c.eager.find(key); it != c.eager.end()) {
      blocks::CrpLane rel;
      rel.op = blocks::CrpOp::Release;
      rel.slot = it->second.slot;
      rel.take0 = it->second.take0;
      rel.take1 = it->second.take1;
      apply(api, c, rel);
      c.eager.erase(it);
    }
    if (rsp.kind != f_.grant) return;
    blocks::CrpLane lane;
    lane.op = blocks::CrpOp::Grant;
    lane.size = rsp.amount;
    lane.slot = rsp.payload[kTimeWord] / p_.cmax;
    if (!apply(api, c, lane).pass) {
      rsp.kind = f_.retry;  // converted: a short retry from here on (R5)
      ++converted_;
    }
  }

  const Params& p_;
  Format f_;
  Cycle zero_load_;                      // routing + VC-allocation delay: not queuing
  std::vector<std::uint32_t> table_of_;  // per output port: index into tables_, or kNone
  std::vector<Channel> tables_;
  std::uint64_t& converted_;  // whole run: grants converted into retries at channels
  std::uint64_t& eager_;      // whole run: eager reservations made at channels
  std::uint64_t& charged_;    // whole run: non-participating flits charged to channel tables
  std::uint64_t& drops_;      // whole run: speculative packets dropped after TTW
};

}  // namespace

std::unique_ptr<RouterHooks> make_router_hooks(const Params& p, const Format& f, LinkClassId channel_class, Cycle zero_load,
                                               const RouterApi& router, CounterSet& counters) {
  return std::make_unique<RouterSide>(p, f, channel_class, zero_load, router, counters);
}

}  // namespace ccnet::crp
