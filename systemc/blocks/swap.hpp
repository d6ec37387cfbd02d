// The swap point of the mirrored blocks (RTL in the loop, docs/rtl-verification.md).
//
// The router, the NIC and the mechanisms' hooks hold their mirrored blocks through a slot
// (CreditCounterSlot, OutputArbiterSlot, SwitchAllocatorSlot, RrArbiterSlot, EcnMarkerSlot,
// InjectionEngineSlot, LhrpSchedulerSlot, MvcmMarkerSlot, MvcmFlowCtrlSlot, SaaLinkUnitSlot,
// CrpTableSlot, CreditArbiterSlot, PsPacerSlot): the same calls as the block's C++ core, answered by
// the core itself or, when the slot was given another implementation of the block, by that (the
// Verilated RTL of the block, stepped inside the same cycle with the same inputs, possibly
// checked against the core). A BlockSource hands out those implementations
// (RouterApi::block_source, NicApi::block_source); the default one hands out none, so every slot
// runs its core. The slot forwards with one predictable branch, no virtual call, when it runs
// the core.
//
// An implementation sees exactly the calls the core would see, in the same order: a pure
// evaluation (count, pick, allocate) reads the block's combinational outputs for the inputs of
// the call, and commit applies one clock edge with those inputs held.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "blocks/credit_arbiter.hpp"
#include "blocks/credit_counter.hpp"
#include "blocks/crp_table.hpp"
#include "blocks/ecn_marker.hpp"
#include "blocks/injection_engine.hpp"
#include "blocks/lhrp_scheduler.hpp"
#include "blocks/mvcm_flow_ctrl.hpp"
#include "blocks/mvcm_marker.hpp"
#include "blocks/output_arbiter.hpp"
#include "blocks/ps_pacer.hpp"
#include "blocks/rr_arbiter.hpp"
#include "blocks/saa_link_unit.hpp"
#include "blocks/switch_allocator.hpp"

namespace ccnet::blocks {

class CreditCounterImpl {
 public:
  virtual ~CreditCounterImpl() = default;
  virtual std::uint32_t count() = 0;
  virtual bool commit(std::uint32_t give, bool take) = 0;
};

class OutputArbiterImpl {
 public:
  virtual ~OutputArbiterImpl() = default;
  virtual std::uint32_t credits(std::uint32_t vc) = 0;
  virtual int pick(const OutputArbiter::Request* reqs, std::size_t n) = 0;
  virtual bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc, std::uint32_t give_count) = 0;
};

class SwitchAllocatorImpl {
 public:
  virtual ~SwitchAllocatorImpl() = default;
  virtual void allocate(const SwitchAllocator::Request* reqs, std::size_t n, std::vector<SwitchAllocator::Grant>& grants) = 0;
  virtual void commit(const std::vector<SwitchAllocator::Grant>& grants) = 0;
};

class EcnMarkerImpl {
 public:
  virtual ~EcnMarkerImpl() = default;
  virtual bool mark(bool valid, bool data, std::uint32_t occupancy) = 0;
  virtual void commit(bool valid, bool data, std::uint32_t occupancy) = 0;
};

// The round-robin arbiter as the router's VC allocation uses it (unlocked, one pass): several
// grants per cycle, each a pick() among the requests left and a commit() of the winner.
class RrArbiterImpl {
 public:
  virtual ~RrArbiterImpl() = default;
  virtual int pick(const RrArbiter::Request* reqs, std::size_t n) = 0;
  virtual void commit(int granted, std::uint32_t prio, bool last) = 0;
};

// The injection engine keeps time (per-queue gaps, the CCTI timer): an implementation sees the
// cycle of every call and accounts for the cycles between calls itself.
class InjectionEngineImpl {
 public:
  virtual ~InjectionEngineImpl() = default;
  virtual void set_nonempty(std::uint32_t q, bool nonempty) = 0;
  virtual int pick(Cycle now, bool ready) = 0;
  virtual void commit(Cycle now, int granted, std::uint32_t len, const std::uint32_t* becn_queues, std::size_t n_becn) = 0;
  virtual std::uint32_t ccti(std::uint32_t q) = 0;
  virtual std::size_t throttled() = 0;
};

// The LHRP scheduler: the core's arrive() and depart() calls of one cycle, arrivals first (the
// router's order: heads arrive, then queues and outputs move). sync(now): cycle `now` has begun
// (the mechanism's tick calls it every cycle, so that an implementation that applies a cycle's
// effect only when the next one begins shows its state in the waveforms without lagging more than
// its registers do). queued_ref()/next_free_ref(): the state for waveforms.
class LhrpSchedulerImpl {
 public:
  virtual ~LhrpSchedulerImpl() = default;
  virtual LhrpScheduler::Decision arrive(const LhrpScheduler::Arrival& a, Cycle now, bool nack_slot) = 0;
  virtual void depart(Cycle now, std::uint32_t endpoint, std::uint32_t len) = 0;
  virtual void sync(Cycle now) = 0;
  virtual const std::uint32_t& queued_ref(std::uint32_t e) = 0;
  virtual const Cycle& next_free_ref(std::uint32_t e) = 0;
  virtual bool error() = 0;
};

// The MVCM marker (combinational, no state): each call evaluates one lane.
class MvcmMarkerImpl {
 public:
  virtual ~MvcmMarkerImpl() = default;
  virtual bool mark(bool valid, bool data, bool mb, std::uint32_t occupancy) = 0;
  virtual bool violation(bool valid, bool mb, bool vb) = 0;
  virtual bool validate(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) = 0;
  virtual bool out_above(std::uint32_t occupancy) = 0;
};

// The MVCM flow controller keeps time (the waiting slots): an implementation sees the cycle of
// every call and accounts for the cycles between calls itself. commit(now, e) is the edge ending
// cycle `now`; eligible() reads the state at the start of cycle `now`.
class MvcmFlowCtrlImpl {
 public:
  virtual ~MvcmFlowCtrlImpl() = default;
  virtual bool eligible(std::uint32_t f, Cycle now) = 0;
  virtual bool commit(Cycle now, const MvcmFlowCtrl::Events& e) = 0;
  virtual std::uint32_t window(std::uint32_t f) = 0;
  virtual std::uint32_t outstanding(std::uint32_t f) = 0;
  virtual std::uint32_t ws_increases(std::uint32_t f) = 0;
};

// The SAA link unit: each apply() is one lane of a cycle, in order (one edge each: the next lane
// sees its update). weight_ref()/flows_ref(): the state for waveforms.
class SaaLinkUnitImpl {
 public:
  virtual ~SaaLinkUnitImpl() = default;
  virtual SaaLinkResult apply(const SaaLinkLane& lane) = 0;
  virtual const std::uint64_t& weight_ref() = 0;
  virtual const std::uint32_t& flows_ref() = 0;
  virtual bool error() = 0;
};

// The CRP reservation table keeps time (it shifts at the end of every epoch of Cmax cycles):
// sync(now) brings it to cycle `now` (never backwards); each apply() is one lane of that cycle, in
// order (the next lane sees its update). epoch_ref()/cell_ref(): the state for waveforms.
class CrpTableImpl {
 public:
  virtual ~CrpTableImpl() = default;
  virtual void sync(Cycle now) = 0;
  virtual CrpResult apply(const CrpLane& lane) = 0;
  virtual const std::uint64_t& epoch_ref() = 0;
  virtual const std::uint32_t& cell_ref(std::uint32_t i) = 0;
  // Every cell within 0..Cmax and no contract violation so far.
  virtual bool invariants_hold() = 0;
};

// The request/grant scheduler's per-output credit arbiter: add_request()/add_credit() take effect
// at once (seen by the next pick()), pick() is the choice, commit() uses it (the clock edge).
class CreditArbiterImpl {
 public:
  virtual ~CreditArbiterImpl() = default;
  virtual void add_request(std::uint32_t input, std::uint32_t n) = 0;
  virtual void add_credit(std::uint32_t path) = 0;
  virtual CreditArbiter::Grant pick() = 0;
  virtual void commit(const CreditArbiter::Grant& g) = 0;
  virtual std::uint32_t requests(std::uint32_t input) = 0;
  virtual std::uint64_t pending() = 0;
  virtual std::uint32_t credits_taken() = 0;
  virtual std::uint32_t pointer() = 0;
};

// The PS pacer as the NIC drives it (SAA's `ps_arith: fixed`): events one at a time as they
// happen (open, set_rate, set_ready), pick() once when the NIC can start a packet and, if it
// granted, commit() at the clock edge; the events between a grant's pick and its commit belong to
// the cycle of that commit. opened/dst/vtime/next: the state (after every event so far).
class PsPacerImpl {
 public:
  virtual ~PsPacerImpl() = default;
  virtual PsPacerViolation open(std::uint32_t slot, std::uint32_t dst) = 0;
  virtual PsPacerViolation set_rate(std::uint32_t slot, std::uint32_t rate_q16) = 0;
  virtual PsPacerViolation set_ready(std::uint32_t slot, bool ready) = 0;
  virtual int pick(Cycle now) = 0;
  virtual PsPacerViolation commit(Cycle now, std::uint32_t slot, std::uint32_t len) = 0;
  virtual bool opened(std::uint32_t slot) = 0;
  virtual std::uint32_t dst(std::uint32_t slot) = 0;
  virtual std::uint64_t vtime(std::uint32_t slot) = 0;  // Q16 cycles
  virtual std::uint64_t next() = 0;                     // Q16 cycles
};

// Hands out the implementations of the blocks a run swaps. `where` names the instance for
// messages (e.g. "net.router_3 output 2 vc 1"). Null: the slot runs the C++ core.
class BlockSource {
 public:
  virtual ~BlockSource() = default;
  virtual std::unique_ptr<CreditCounterImpl> credit_counter(const CreditCounterParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<OutputArbiterImpl> output_arbiter(const OutputArbiterParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<SwitchAllocatorImpl> switch_allocator(const SwitchAllocatorParams&, const std::string& where) const = 0;
  // `max_occupancy`: the largest occupancy the marker is shown (the measured buffer's capacity).
  virtual std::unique_ptr<EcnMarkerImpl> ecn_marker(const EcnMarkerParams&, std::uint32_t max_occupancy,
                                                    const std::string& where) const = 0;
  virtual std::unique_ptr<RrArbiterImpl> rr_arbiter(const RrArbiterParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<InjectionEngineImpl> injection_engine(const InjectionEngineParams&, const std::string& where) const = 0;
  // `lanes`: the most arrivals in one cycle (the router's input ports).
  virtual std::unique_ptr<LhrpSchedulerImpl> lhrp_scheduler(const LhrpSchedulerParams&, std::uint32_t lanes,
                                                            const std::string& where) const = 0;
  // `max_occupancy`: the largest occupancy either lane is shown (the larger buffer's capacity).
  virtual std::unique_ptr<MvcmMarkerImpl> mvcm_marker(const MvcmMarkerParams&, std::uint32_t max_occupancy,
                                                      const std::string& where) const = 0;
  virtual std::unique_ptr<MvcmFlowCtrlImpl> mvcm_flow_ctrl(const MvcmFlowCtrlParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<SaaLinkUnitImpl> saa_link_unit(const SaaLinkUnitParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<CrpTableImpl> crp_table(const CrpTableParams&, const std::string& where) const = 0;
  // The arbiter's configuration as CreditArbiter's constructor takes it (visiting order, first
  // paths, weights; empty: the defaults).
  virtual std::unique_ptr<CreditArbiterImpl> credit_arbiter(const CreditArbiterParams&, const std::vector<std::uint32_t>& order,
                                                            const std::vector<std::uint32_t>& dist0,
                                                            const std::vector<std::uint32_t>& weights,
                                                            const std::string& where) const = 0;
  // `nodes`: the network's nodes (the destinations a source can open flows to: ids below it).
  virtual std::unique_ptr<PsPacerImpl> ps_pacer(const PsPacerParams&, std::uint32_t nodes, const std::string& where) const = 0;
};

class CreditCounterSlot {
 public:
  CreditCounterSlot() = default;
  CreditCounterSlot(const CreditCounterParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->credit_counter(p, where) : nullptr) {}
  std::uint32_t count() const { return alt_ ? alt_->count() : core_.count(); }
  bool commit(std::uint32_t give, bool take) { return alt_ ? alt_->commit(give, take) : core_.commit(give, take); }
  // Whether the C++ core answers (no other implementation swapped in).
  bool runs_core() const { return !alt_; }

 private:
  CreditCounter core_;
  std::unique_ptr<CreditCounterImpl> alt_;
};

class OutputArbiterSlot {
 public:
  OutputArbiterSlot() = default;
  OutputArbiterSlot(const OutputArbiterParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->output_arbiter(p, where) : nullptr) {}
  std::uint32_t credits(std::uint32_t vc) const { return alt_ ? alt_->credits(vc) : core_.credits(vc); }
  int pick(const OutputArbiter::Request* reqs, std::size_t n) const {
    return alt_ ? alt_->pick(reqs, n) : core_.pick(reqs, n);
  }
  bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc, std::uint32_t give_count) {
    return alt_ ? alt_->commit(granted, granted_prio, give_vc, give_count)
                : core_.commit(granted, granted_prio, give_vc, give_count);
  }

 private:
  OutputArbiter core_;
  std::unique_ptr<OutputArbiterImpl> alt_;
};

class SwitchAllocatorSlot {
 public:
  SwitchAllocatorSlot() = default;
  SwitchAllocatorSlot(const SwitchAllocatorParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->switch_allocator(p, where) : nullptr) {}
  void allocate(const SwitchAllocator::Request* reqs, std::size_t n, std::vector<SwitchAllocator::Grant>& grants) {
    if (alt_) alt_->allocate(reqs, n, grants);
    else core_.allocate(reqs, n, grants);
  }
  void commit(const std::vector<SwitchAllocator::Grant>& grants) {
    if (alt_) alt_->commit(grants);
    else core_.commit(grants);
  }
  // Whether the C++ core answers (no other implementation swapped in): a caller may then take
  // the core's documented results of allocate() without the call, and commit a single grant of
  // the input stage's first pass with commit_one.
  bool runs_core() const { return !alt_; }
  void commit_one(const SwitchAllocator::Grant& g) { core_.commit_one(g); }  // only when runs_core()

 private:
  SwitchAllocator core_;
  std::unique_ptr<SwitchAllocatorImpl> alt_;
};

class EcnMarkerSlot {
 public:
  EcnMarkerSlot() = default;
  EcnMarkerSlot(const EcnMarkerParams& p, std::uint32_t max_occupancy, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->ecn_marker(p, max_occupancy, where) : nullptr) {}
  bool mark(bool valid, bool data, std::uint32_t occupancy) const {
    return alt_ ? alt_->mark(valid, data, occupancy) : core_.mark(valid, data, occupancy);
  }
  void commit(bool valid, bool data, std::uint32_t occupancy) {
    if (alt_) alt_->commit(valid, data, occupancy);
    else core_.commit(valid, data, occupancy);
  }

 private:
  EcnMarker core_;
  std::unique_ptr<EcnMarkerImpl> alt_;
};

class RrArbiterSlot {
 public:
  RrArbiterSlot(const RrArbiterParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->rr_arbiter(p, where) : nullptr) {}
  int pick(const RrArbiter::Request* reqs, std::size_t n) const { return alt_ ? alt_->pick(reqs, n) : core_.pick(reqs, n); }
  void commit(int granted, std::uint32_t prio, bool last) {
    if (alt_) alt_->commit(granted, prio, last);
    else core_.commit(granted, prio, last);
  }

 private:
  RrArbiter core_;
  std::unique_ptr<RrArbiterImpl> alt_;
};

class InjectionEngineSlot {
 public:
  InjectionEngineSlot() = default;
  InjectionEngineSlot(const InjectionEngineParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->injection_engine(p, where) : nullptr) {}
  void set_nonempty(std::uint32_t q, bool nonempty) {
    if (alt_) alt_->set_nonempty(q, nonempty);
    else core_.set_nonempty(q, nonempty);
  }
  int pick(Cycle now, bool ready) const { return alt_ ? alt_->pick(now, ready) : core_.pick(now, ready); }
  void commit(Cycle now, int granted, std::uint32_t len, const std::uint32_t* becn_queues, std::size_t n_becn) {
    if (alt_) alt_->commit(now, granted, len, becn_queues, n_becn);
    else core_.commit(now, granted, len, becn_queues, n_becn);
  }
  std::uint32_t ccti(std::uint32_t q) const { return alt_ ? alt_->ccti(q) : core_.ccti(q); }
  std::size_t throttled() const { return alt_ ? alt_->throttled() : core_.throttled(); }
  const InjectionEngineParams& params() const { return core_.params(); }

 private:
  InjectionEngine core_;
  std::unique_ptr<InjectionEngineImpl> alt_;
};

class LhrpSchedulerSlot {
 public:
  LhrpSchedulerSlot(const LhrpSchedulerParams& p, std::uint32_t lanes, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->lhrp_scheduler(p, lanes, where) : nullptr) {}
  LhrpScheduler::Decision arrive(const LhrpScheduler::Arrival& a, Cycle now, bool nack_slot) {
    return alt_ ? alt_->arrive(a, now, nack_slot) : core_.arrive(a, now, nack_slot);
  }
  void depart(Cycle now, std::uint32_t endpoint, std::uint32_t len) {
    if (alt_) alt_->depart(now, endpoint, len);
    else core_.depart(endpoint, len);
  }
  void sync(Cycle now) {
    if (alt_) alt_->sync(now);
  }
  const std::uint32_t& queued_ref(std::uint32_t e) const { return alt_ ? alt_->queued_ref(e) : core_.queued_ref(e); }
  const Cycle& next_free_ref(std::uint32_t e) const { return alt_ ? alt_->next_free_ref(e) : core_.next_free_ref(e); }
  bool error() const { return alt_ ? alt_->error() : core_.error(); }
  const LhrpSchedulerParams& params() const { return core_.params(); }

 private:
  LhrpScheduler core_;
  std::unique_ptr<LhrpSchedulerImpl> alt_;
};

class MvcmMarkerSlot {
 public:
  MvcmMarkerSlot(const MvcmMarkerParams& p, std::uint32_t max_occupancy, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->mvcm_marker(p, max_occupancy, where) : nullptr) {}
  bool mark(bool valid, bool data, bool mb, std::uint32_t occupancy) const {
    return alt_ ? alt_->mark(valid, data, mb, occupancy) : core_.mark(valid, data, mb, occupancy);
  }
  bool violation(bool valid, bool mb, bool vb) const { return alt_ ? alt_->violation(valid, mb, vb) : core_.violation(valid, mb, vb); }
  bool validate(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) const {
    return alt_ ? alt_->validate(valid, data, mb, vb, occupancy) : core_.validate(valid, data, mb, vb, occupancy);
  }
  bool out_above(std::uint32_t occupancy) const { return alt_ ? alt_->out_above(occupancy) : core_.out_above(occupancy); }
  const MvcmMarkerParams& params() const { return core_.params(); }

 private:
  MvcmMarker core_;
  std::unique_ptr<MvcmMarkerImpl> alt_;
};

class MvcmFlowCtrlSlot {
 public:
  MvcmFlowCtrlSlot(const MvcmFlowCtrlParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->mvcm_flow_ctrl(p, where) : nullptr) {}
  bool eligible(std::uint32_t f, Cycle now) const { return alt_ ? alt_->eligible(f, now) : core_.eligible(f, now); }
  bool commit(Cycle now, const MvcmFlowCtrl::Events& e) { return alt_ ? alt_->commit(now, e) : core_.commit(now, e); }
  std::uint32_t window(std::uint32_t f) const { return alt_ ? alt_->window(f) : core_.window(f); }
  std::uint32_t outstanding(std::uint32_t f) const { return alt_ ? alt_->outstanding(f) : core_.outstanding(f); }
  // number_WS from the times it grew (MvcmFlowCtrl::waiting_slots: WsFactor^(incs - 1), 0 for none).
  std::uint64_t waiting_slots(std::uint32_t f) const {
    if (!alt_) return core_.waiting_slots(f);
    const std::uint32_t incs = alt_->ws_increases(f);
    std::uint64_t ws = incs > 0 ? 1 : 0;
    for (std::uint32_t e = 1; e < incs; ++e) ws *= core_.params().ws_factor;
    return ws;
  }
  const MvcmFlowCtrlParams& params() const { return core_.params(); }

 private:
  MvcmFlowCtrl core_;
  std::unique_ptr<MvcmFlowCtrlImpl> alt_;
};

class SaaLinkUnitSlot {
 public:
  SaaLinkUnitSlot(const SaaLinkUnitParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->saa_link_unit(p, where) : nullptr) {}
  SaaLinkResult apply(const SaaLinkLane& lane) { return alt_ ? alt_->apply(lane) : core_.apply(lane); }
  SaaLinkResult start(std::uint64_t weight, std::uint64_t wmax) { return apply({true, false, false, weight, wmax}); }
  SaaLinkResult end(std::uint64_t weight) { return apply({false, true, false, weight, 0}); }
  SaaLinkResult probe(std::uint64_t wmax) { return apply({false, false, true, 0, wmax}); }
  const std::uint64_t& weight_ref() const { return alt_ ? alt_->weight_ref() : core_.weight_ref(); }
  const std::uint32_t& flows_ref() const { return alt_ ? alt_->flows_ref() : core_.flows_ref(); }
  std::uint64_t weight() const { return weight_ref(); }
  std::uint32_t flows() const { return flows_ref(); }
  bool error() const { return alt_ ? alt_->error() : core_.error(); }
  const SaaLinkUnitParams& params() const { return core_.params(); }

 private:
  SaaLinkUnit core_;
  std::unique_ptr<SaaLinkUnitImpl> alt_;
};

class CrpTableSlot {
 public:
  CrpTableSlot(const CrpTableParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->crp_table(p, where) : nullptr) {}
  void sync(Cycle now) { alt_ ? alt_->sync(now) : core_.sync(now); }
  CrpResult apply(const CrpLane& lane) { return alt_ ? alt_->apply(lane) : core_.apply(lane); }
  const std::uint64_t& epoch_ref() const { return alt_ ? alt_->epoch_ref() : core_.epoch_ref(); }
  std::uint64_t epoch() const { return epoch_ref(); }
  const std::uint32_t& cell_ref(std::uint32_t i) const { return alt_ ? alt_->cell_ref(i) : core_.cell_ref(i); }
  bool invariants_hold() const { return alt_ ? alt_->invariants_hold() : core_.invariants_hold(); }
  const CrpTableParams& params() const { return core_.params(); }

 private:
  CrpTable core_;
  std::unique_ptr<CrpTableImpl> alt_;
};

class CreditArbiterSlot {
 public:
  CreditArbiterSlot(const CreditArbiterParams& p, const std::vector<std::uint32_t>& order, const std::vector<std::uint32_t>& dist0,
                    const std::vector<std::uint32_t>& weights, const BlockSource* src, const std::string& where)
      : core_(p, order, dist0, weights), alt_(src ? src->credit_arbiter(p, order, dist0, weights, where) : nullptr) {}
  void add_request(std::uint32_t input, std::uint32_t n = 1) { alt_ ? alt_->add_request(input, n) : core_.add_request(input, n); }
  void add_credit(std::uint32_t path) { alt_ ? alt_->add_credit(path) : core_.add_credit(path); }
  CreditArbiter::Grant pick() const { return alt_ ? alt_->pick() : core_.pick(); }
  void commit(const CreditArbiter::Grant& g) { alt_ ? alt_->commit(g) : core_.commit(g); }
  std::uint32_t requests(std::uint32_t input) const { return alt_ ? alt_->requests(input) : core_.requests(input); }
  std::uint64_t pending() const { return alt_ ? alt_->pending() : core_.pending(); }
  std::uint32_t credits_taken() const { return alt_ ? alt_->credits_taken() : core_.credits_taken(); }
  std::uint32_t pointer() const { return alt_ ? alt_->pointer() : core_.pointer(); }
  const std::vector<std::uint32_t>& order() const { return core_.order(); }  // configuration
  const CreditArbiterParams& params() const { return core_.params(); }

 private:
  CreditArbiter core_;
  std::unique_ptr<CreditArbiterImpl> alt_;
};

// The PS pacer with the core's event interface (blocks/ps_pacer.hpp): slot k is the core's k.
class PsPacerSlot {
 public:
  PsPacerSlot(const PsPacerParams& p, std::uint32_t nodes, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->ps_pacer(p, nodes, where) : nullptr) {}
  PsPacerViolation open(std::uint32_t slot, std::uint32_t dst) { return alt_ ? alt_->open(slot, dst) : core_.open(slot, dst); }
  PsPacerViolation set_rate(std::uint32_t slot, std::uint32_t rate_q16) {
    return alt_ ? alt_->set_rate(slot, rate_q16) : core_.set_rate(slot, rate_q16);
  }
  PsPacerViolation set_ready(std::uint32_t slot, bool ready) { return alt_ ? alt_->set_ready(slot, ready) : core_.set_ready(slot, ready); }
  int pick(Cycle now) const { return alt_ ? alt_->pick(now) : core_.pick(now); }
  PsPacerViolation commit(Cycle now, std::uint32_t slot, std::uint32_t len) {
    return alt_ ? alt_->commit(now, slot, len) : core_.commit(now, slot, len);
  }
  bool opened(std::uint32_t slot) const { return alt_ ? alt_->opened(slot) : slot < core_.slots() && core_.slot(slot).open; }
  std::uint32_t dst(std::uint32_t slot) const { return alt_ ? alt_->dst(slot) : core_.slot(slot).dst; }
  std::uint64_t vtime(std::uint32_t slot) const { return alt_ ? alt_->vtime(slot) : core_.slot(slot).vtime; }
  // The next send time rounded up to a cycle.
  std::uint64_t next_cycle() const {
    const std::uint64_t n = alt_ ? alt_->next() : core_.next();
    return (n + PsPacer::kLineRate - 1) >> PsPacer::kFrac;
  }
  const PsPacerParams& params() const { return core_.params(); }

 private:
  PsPacer core_;
  std::unique_ptr<PsPacerImpl> alt_;
};

}  // namespace ccnet::blocks
