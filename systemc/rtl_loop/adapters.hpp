// Adapters from the block slots (blocks/swap.hpp) to the Verilated RTL of the block (Verilator's
// plain C++ models, rtl/CMakeLists.txt "RTL in the loop"). Each adapter translates a call of the
// core's interface into the RTL's ports: a pure evaluation drives the inputs and evaluates the
// model (combinational outputs), a commit drives the inputs and applies one rising edge of
// clk_i. In check mode the adapter also runs the C++ core and compares every output of every
// call; the first difference throws ModelError naming cycle, component, block, signal and both
// values. Every model registers with the run's waves (rtl_loop/waves.hpp; FstWaves below writes
// them). Included only by the generated rtl_loop/sets.cpp, which instantiates the adapters for
// the Verilated parameter sets.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "blocks/swap.hpp"
#include "core/error.hpp"
#include "rtl_loop/sets.hpp"

namespace ccnet::rtl_loop {

// Bit fields of Verilator's port types: CData/SData/IData/QData (integers) and VlWide<N>.
namespace bits {
template <class T>
void set(T& port, unsigned lsb, unsigned width, std::uint64_t value) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    port = static_cast<T>((static_cast<std::uint64_t>(port) & ~mask) | ((value << lsb) & mask));
  } else {  // at most three 32-bit words (width <= 64)
    if (width < 64) value &= (1ull << width) - 1;
    unsigned w = lsb / 32, off = lsb % 32, done = 0;
    while (done < width) {
      const unsigned n = std::min(32u - off, width - done);
      const EData m = static_cast<EData>((n >= 32 ? ~0ull : ((1ull << n) - 1)) << off);
      port[w] = (port[w] & ~m) | (static_cast<EData>((value >> done) << off) & m);
      done += n;
      off = 0;
      ++w;
    }
  }
}
template <class T>
std::uint64_t get(const T& port, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t v = static_cast<std::uint64_t>(port) >> lsb;
    return width >= 64 ? v : v & ((1ull << width) - 1);
  } else {
    std::uint64_t v = 0;
    unsigned w = lsb / 32, off = lsb % 32, done = 0;
    while (done < width) {
      const unsigned n = std::min(32u - off, width - done);
      v |= (static_cast<std::uint64_t>(port[w] >> off) & (n >= 32 ? 0xffffffffull : ((1ull << n) - 1))) << done;
      done += n;
      off = 0;
      ++w;
    }
    return v;
  }
}
template <class T>
void zero(T& port) {
  if constexpr (std::is_integral_v<T>) port = 0;
  else
    for (auto& w : port.m_storage) w = 0;
}
}  // namespace bits

// Whether a Verilated model has a clock (a combinational block, e.g. ccn_mvcm_marker, has none).
template <class V, class = void>
struct Clocked : std::false_type {};
template <class V>
struct Clocked<V, std::void_t<decltype(std::declval<V&>().clk_i)>> : std::true_type {};

// Whether the model's root exposes the clock's trigger state (Verilator 5.006: the value of clk_i
// at the last evaluation, from which the next one detects a rising edge). The generated table
// includes the root headers (rtl/CMakeLists.txt); without them, or with another Verilator, the
// falling edge costs an evaluation (Model::edge).
template <class V, class = void>
struct ClockTrigger : std::false_type {};
template <class V>
struct ClockTrigger<V, std::void_t<decltype(std::declval<V&>().rootp->__Vtrigrprev__TOP__clk_i)>> : std::true_type {};

// The adapter being built (set by the table's factory around the adapter's constructor): its
// models take their names and register for waveforms from it, whatever the adapter.
inline thread_local const AdapterContext* t_building = nullptr;
class Building {
 public:
  explicit Building(const AdapterContext& c) : prev_(t_building) { t_building = &c; }
  ~Building() { t_building = prev_; }
  Building(const Building&) = delete;
  Building& operator=(const Building&) = delete;

 private:
  const AdapterContext* prev_;
};

// The Verilated model's name: the instance within its component, with the block's name in front
// unless the instance already says it ("net.router_3 output 2 vc 1" -> credit_counter_output_2_vc_1,
// "net.router_3 switch allocator" -> switch_allocator); the component is the waves' scope.
inline std::string model_name(const AdapterContext* c) {
  if (!c) return "TOP";
  std::string n;
  const auto sp = c->where.find(' ');
  if (sp != std::string::npos)
    for (std::size_t i = sp + 1; i < c->where.size(); ++i) {
      const char ch = c->where[i];
      n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    }
  if (n.find(c->block) != std::string::npos) return n;
  return n.empty() ? std::string(c->block) : std::string(c->block) + "_" + n;
}

// One Verilated model, reset on construction (rst_ni low across a rising edge), registered for
// waveforms with the adapter being built.
template <class V>
class Model {
 public:
  Model() : m_(Verilated::threadContextp(), model_name(t_building).c_str()) {
    if (t_building && t_building->waves) {
      const std::string& where = t_building->where;
      t_building->waves->add({where.substr(0, where.find(' ')), m_.name(), [this](VerilatedFstC& f) { m_.trace(&f, 99); }});
    }
    if constexpr (Clocked<V>::value) {
      m_.clk_i = 0;
      m_.rst_ni = 1;
      m_.eval();
      m_.rst_ni = 0;
      m_.eval();
      edge();
      m_.rst_ni = 1;
    }
    eval();
  }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  V* operator->() { return &m_; }
  const V* operator->() const { return &m_; }
  void eval() {
    m_.eval();
    low_seen_ = true;
  }
  // One rising edge with the inputs as they are; the combinational outputs settle in the same
  // evaluation. clk_i goes back low without an evaluation of its own: the next eval() sees it
  // low (an idle falling edge). An edge right after an edge needs the model to have seen the clock
  // low: where the root exposes the trigger state, it is set as an evaluation with clk_i low would
  // set it (nothing else depends on clk_i), else the model evaluates once more.
  void edge() {
    if constexpr (Clocked<V>::value) {
      if (!low_seen_) {
        if constexpr (ClockTrigger<V>::value) m_.rootp->__Vtrigrprev__TOP__clk_i = 0;
        else m_.eval();
      }
      m_.clk_i = 1;
      m_.eval();
      m_.clk_i = 0;
      low_seen_ = false;
    }
  }

 private:
  V m_;
  bool low_seen_ = true;  // the model has evaluated clk_i low since the last edge
};

// The first difference between the RTL and the C++ core.
class Checker {
 public:
  Checker(const AdapterContext& c, const char* block) : c_(c), block_(block) {}
  bool on() const { return c_.check; }
  void expect(const char* signal, std::int64_t rtl, std::int64_t model) const {
    if (rtl == model) return;
    const auto cycle = static_cast<Cycle>(sc_core::sc_time_stamp() / c_.period);
    std::ostringstream os;
    os << "RTL check failed at cycle " << cycle << ": " << c_.where << ", block " << block_ << ", signal " << signal
       << ": rtl=" << rtl << " model=" << model;
    throw Mismatch(os.str(), cycle, c_.where.substr(0, c_.where.find(' ')));
  }

 private:
  AdapterContext c_;
  const char* block_;
};

// ccn_credit_counter: count_o is the count, violation_o what commit() returns false for.
template <class V>
class CreditCounterRtl final : public blocks::CreditCounterImpl {
 public:
  CreditCounterRtl(const blocks::CreditCounterParams& p, const AdapterContext& c) : chk_(c, "credit_counter") {
    if (chk_.on()) ref_.emplace(p);
  }
  std::uint32_t count() override {
    const auto n = static_cast<std::uint32_t>(m_->count_o);
    if (ref_) chk_.expect("count_o", n, ref_->count());
    return n;
  }
  // Without the check, the violation is read after the edge, from the sticky error_o rising (one
  // evaluation per commit instead of two); with it, violation_o before the edge.
  bool commit(std::uint32_t give, bool take) override {
    m_->give_i = static_cast<std::remove_reference_t<decltype(m_->give_i)>>(give);
    m_->take_i = take;
    bool ok;
    if (ref_) {
      m_.eval();
      ok = !m_->violation_o;
      chk_.expect("violation_o", !ok, !ref_->commit(give, take));
      m_.edge();
    } else {
      const bool error_before = m_->error_o;
      m_.edge();
      ok = error_before || !m_->error_o;
    }
    if (ref_) chk_.expect("count_o", m_->count_o, ref_->count());
    return ok;
  }

 private:
  Model<V> m_;
  Checker chk_;
  std::optional<blocks::CreditCounter> ref_;
};

// ccn_output_arbiter. Lengths above the deepest VC are driven as that depth + 1 (LenW holds it):
// such a head is ineligible either way.
template <class V>
class OutputArbiterRtl final : public blocks::OutputArbiterImpl {
 public:
  OutputArbiterRtl(const blocks::OutputArbiterParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "output_arbiter"),
        vc_w_(idx_width(p.num_vc)),
        prio_w_(idx_width(p.num_prio)),
        cnt_w_(clog2(p.credits + 1ull)),
        len_w_(clog2(p.credits + 2ull)) {
    if (chk_.on()) ref_.emplace(p);
  }
  std::uint32_t credits(std::uint32_t vc) override {
    const auto n = static_cast<std::uint32_t>(bits::get(m_->credits_o, vc * cnt_w_, cnt_w_));
    if (ref_) chk_.expect("credits_o", n, ref_->credits(vc));
    return n;
  }
  int pick(const blocks::OutputArbiter::Request* reqs, std::size_t n) override {
    drive(reqs, n);
    m_.eval();
    const int g = m_->gnt_valid_o ? static_cast<int>(m_->gnt_vc_o) : -1;
    if (ref_) chk_.expect("gnt_vc_o (-1: gnt_valid_o low)", g, ref_->pick(reqs, n));
    return g;
  }
  bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc, std::uint32_t give_count) override {
    // The grant is used (the router sends the flit pick() chose): the RTL sees that request again.
    bits::zero(m_->req_i);
    m_->enable_i = granted >= 0;
    if (granted >= 0) {
      const auto v = static_cast<unsigned>(granted);
      bits::set(m_->req_i, v, 1, 1);
      bits::set(m_->head_i, v, 1, 0);  // a body flit needs one credit: the grant stands
      bits::set(m_->prio_i, v * prio_w_, prio_w_, p_.num_prio > 1 ? granted_prio : 0);
    }
    bits::zero(m_->give_valid_i);
    for (std::uint32_t k = 0; k < give_count; ++k) {
      bits::set(m_->give_valid_i, k, 1, 1);
      bits::set(m_->give_vc_i, k * vc_w_, vc_w_, give_vc[k]);
    }
    bool ok;
    if (ref_) {  // the grant and violation_o before the edge
      m_.eval();
      if (granted >= 0 && !(m_->gnt_valid_o && static_cast<int>(m_->gnt_vc_o) == granted))
        chk_.expect("gnt_vc_o (-1: gnt_valid_o low; a commit of a VC the RTL does not grant)",
                    m_->gnt_valid_o ? static_cast<std::int64_t>(m_->gnt_vc_o) : -1, granted);
      ok = !m_->violation_o;
      chk_.expect("violation_o", !ok, !ref_->commit(granted, granted_prio, give_vc, give_count));
      m_.edge();
    } else {  // one evaluation: the violation from the sticky error_o rising at the edge
      const bool error_before = m_->error_o;
      m_.edge();
      ok = error_before || !m_->error_o;
    }
    bits::zero(m_->give_valid_i);
    if (ref_)
      for (std::uint32_t v = 0; v < p_.num_vc; ++v) credits(v);
    return ok;
  }

 private:
  void drive(const blocks::OutputArbiter::Request* reqs, std::size_t n) {
    bits::zero(m_->req_i);
    bits::zero(m_->head_i);
    bits::zero(m_->give_valid_i);
    m_->enable_i = 1;
    const std::uint64_t len_max = (1ull << len_w_) - 1;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& r = reqs[k];
      bits::set(m_->req_i, r.vc, 1, 1);
      bits::set(m_->head_i, r.vc, 1, r.head);
      bits::set(m_->prio_i, r.vc * prio_w_, prio_w_, p_.num_prio > 1 ? r.prio : 0);
      bits::set(m_->len_i, r.vc * len_w_, len_w_, r.len < len_max ? r.len : len_max);
    }
  }

  blocks::OutputArbiterParams p_;
  Model<V> m_;
  Checker chk_;
  unsigned vc_w_, prio_w_, cnt_w_, len_w_;
  std::optional<blocks::OutputArbiter> ref_;
};

// ccn_switch_allocator. The grants are read back in the core's order: by output, then output lane.
template <class V>
class SwitchAllocatorRtl final : public blocks::SwitchAllocatorImpl {
 public:
  SwitchAllocatorRtl(const blocks::SwitchAllocatorParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "switch_allocator"),
        req_w_(idx_width(p.reqs_per_in)),
        in_w_(idx_width(p.num_in)),
        out_w_(idx_width(p.num_out)),
        prio_w_(idx_width(p.num_prio)),
        lane_w_(idx_width(p.speedup_in)),
        prio_(static_cast<std::size_t>(p.num_in) * p.reqs_per_in, 0) {
    if (chk_.on()) ref_.emplace(p);
  }
  // prio_ holds the level of each request driven now; a granted requester is always one of them
  // (the RTL asserts GrantRequested_A), so the entries of the others are never read.
  void allocate(const blocks::SwitchAllocator::Request* reqs, std::size_t n,
                std::vector<blocks::SwitchAllocator::Grant>& grants) override {
    bits::zero(m_->req_i);
    m_->ack_i = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& r = reqs[k];
      const unsigned q = r.input * p_.reqs_per_in + r.req;
      const std::uint32_t prio = p_.num_prio > 1 ? r.prio : 0;
      prio_[q] = prio;
      bits::set(m_->req_i, q, 1, 1);
      bits::set(m_->req_out_i, q * out_w_, out_w_, r.output);
      bits::set(m_->req_prio_i, q * prio_w_, prio_w_, prio);
    }
    m_.eval();
    grants.clear();
    for (unsigned o = 0; o < p_.num_out; ++o)
      for (unsigned j = 0; j < p_.speedup_out; ++j) {
        const unsigned ol = o * p_.speedup_out + j;
        if (!bits::get(m_->out_gnt_o, ol, 1)) continue;
        const auto in = static_cast<std::uint32_t>(bits::get(m_->out_gnt_in_o, ol * in_w_, in_w_));
        const auto lane = static_cast<std::uint32_t>(bits::get(m_->out_gnt_lane_o, ol * lane_w_, lane_w_));
        const auto req = static_cast<std::uint32_t>(bits::get(m_->in_gnt_req_o, (in * p_.speedup_in + lane) * req_w_, req_w_));
        grants.push_back({in, req, o, prio_[in * p_.reqs_per_in + req], lane, j});
      }
    if (ref_) {
      ref_->allocate(reqs, n, ref_grants_);
      chk_.expect("grants (count)", static_cast<std::int64_t>(grants.size()), static_cast<std::int64_t>(ref_grants_.size()));
      for (std::size_t k = 0; k < grants.size(); ++k) {
        const auto &a = grants[k], &b = ref_grants_[k];
        chk_.expect("out_gnt_in_o", a.input, b.input);
        chk_.expect("in_gnt_req_o", a.req, b.req);
        chk_.expect("out_gnt_o (output)", a.output, b.output);
        chk_.expect("out_gnt_lane_o (input lane)", a.in_rank, b.in_rank);
        chk_.expect("out_gnt_o (output lane)", a.out_rank, b.out_rank);
      }
    }
  }
  // Every grant of the allocation is used (the router's contract): one edge with ack_i.
  void commit(const std::vector<blocks::SwitchAllocator::Grant>& grants) override {
    m_->ack_i = 1;
    m_.edge();
    m_->ack_i = 0;
    if (ref_) ref_->commit(grants);
  }

 private:
  blocks::SwitchAllocatorParams p_;
  Model<V> m_;
  Checker chk_;
  unsigned req_w_, in_w_, out_w_, prio_w_, lane_w_;
  std::vector<std::uint32_t> prio_;
  std::optional<blocks::SwitchAllocator> ref_;
  std::vector<blocks::SwitchAllocator::Grant> ref_grants_;
};

// ccn_ecn_marker: mark_o for the head passing now; an edge per head (the network calls the marker
// once per head, in order, as the C++ core is).
template <class V>
class EcnMarkerRtl final : public blocks::EcnMarkerImpl {
 public:
  EcnMarkerRtl(const EcnMarkerSetParams& p, const AdapterContext& c) : chk_(c, "ecn_marker") {
    if (chk_.on()) ref_.emplace(p.core);
  }
  bool mark(bool valid, bool data, std::uint32_t occupancy) override {
    drive(valid, data, occupancy);
    m_.eval();
    const bool mk = m_->mark_o;
    if (ref_) chk_.expect("mark_o", mk, ref_->mark(valid, data, occupancy));
    return mk;
  }
  void commit(bool valid, bool data, std::uint32_t occupancy) override {
    drive(valid, data, occupancy);
    m_.edge();
    m_->valid_i = 0;
    if (ref_) {
      ref_->commit(valid, data, occupancy);
      chk_.expect("skip_o", m_->skip_o, ref_->skip());
    }
  }

 private:
  void drive(bool valid, bool data, std::uint32_t occupancy) {
    m_->valid_i = valid;
    m_->data_i = data;
    bits::set(m_->occupancy_i, 0, 32, occupancy);  // OccWidth bits: the measured buffer's capacity fits
  }

  Model<V> m_;
  Checker chk_;
  std::optional<blocks::EcnMarker> ref_;
};

// ccn_injection_engine (LenWidth = kInjectionLenWidth, NumBecn = kInjectionBecnLanes). The RTL
// keeps time as per-queue down-counters and a free-running CCTI timer, so it must see an edge for
// every cycle: the NIC calls the block only in the cycles it evaluates (always for a clocked
// policy, with a timer; else at grants), so before each call the adapter applies the edges of the
// cycles in between, with ready_i low and no BECN (what those cycles were). That is exact and
// bounded: without a timer no edge changes anything once the longest gap granted so far ran out;
// with one, after WaitMax idle edges every gap is 0, after CctiLimit timer periods more every CCTI
// is 0, and from then on an idle edge only advances the timer (modulo TimerPeriod).
template <class V>
class InjectionEngineRtl final : public blocks::InjectionEngineImpl {
 public:
  InjectionEngineRtl(const blocks::InjectionEngineParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "injection_engine"),
        where_(c.where),
        idx_w_(idx_width(p.num_queues)),
        ccti_w_(p.ccti_limit > 0 ? clog2(p.ccti_limit + 1ull) : 1u),
        wait_max_(((1ull << kInjectionLenWidth) - 1) + std::uint64_t{p.ccti_limit} * p.ipd_unit),
        wait_w_(wait_max_ > 1 ? clog2(wait_max_) : 1u),
        settle_(wait_max_ + (std::uint64_t{p.ccti_limit} + 1) * p.timer_period) {
    if (chk_.on()) ref_.emplace(p);
  }
  void set_nonempty(std::uint32_t q, bool nonempty) override {
    if (bits::get(m_->nonempty_i, q, 1) != nonempty) {
      bits::set(m_->nonempty_i, q, 1, nonempty);
      settled_ = false;
    }
    if (ref_) ref_->set_nonempty(q, nonempty);
  }
  // The model is evaluated again only when its inputs or its state changed since the last pick.
  int pick(Cycle now, bool ready) override {
    catch_up(now);
    if (!settled_ || ready != m_->ready_i) {
      m_->ready_i = ready;
      bits::zero(m_->becn_valid_i);
      m_.eval();
      settled_ = true;
    }
    const int g = m_->gnt_valid_o ? static_cast<int>(m_->gnt_idx_o) : -1;
    if (ref_) chk_.expect("gnt_idx_o (-1: gnt_valid_o low)", g, ref_->pick(now, ready));
    return g;
  }
  // The grant is used: the RTL sees the granted queue's request alone at the edge (the NIC may
  // have emptied that queue since pick(), or filled others); the state after the edge depends on
  // the grant only.
  void commit(Cycle now, int granted, std::uint32_t len, const std::uint32_t* becn_queues, std::size_t n_becn) override {
    catch_up(now);
    if (len >> kInjectionLenWidth)
      throw ModelError(where_ + ": a packet of " + std::to_string(len) +
                       " flits is longer than the injection engine's RTL in the loop takes (LenWidth " +
                       std::to_string(kInjectionLenWidth) + ")");
    if (n_becn > kInjectionBecnLanes)
      throw ModelError(where_ + ": " + std::to_string(n_becn) +
                       " BECNs in one cycle; the injection engine's RTL in the loop has " +
                       std::to_string(kInjectionBecnLanes) + " BECN lane(s) (NumBecn)");
    const auto nonempty = m_->nonempty_i;
    bits::zero(m_->nonempty_i);
    if (granted >= 0) bits::set(m_->nonempty_i, static_cast<unsigned>(granted), 1, 1);
    m_->ready_i = granted >= 0;
    m_->len_i = static_cast<std::remove_reference_t<decltype(m_->len_i)>>(len);
    bits::zero(m_->becn_valid_i);
    for (std::size_t k = 0; k < n_becn; ++k) {
      // A lane naming no queue is ignored by both views; IdxW bits cannot name every such queue.
      if (becn_queues[k] >= p_.num_queues) continue;
      bits::set(m_->becn_valid_i, static_cast<unsigned>(k), 1, 1);
      bits::set(m_->becn_queue_i, static_cast<unsigned>(k) * idx_w_, idx_w_, becn_queues[k]);
    }
    if (ref_) {  // the RTL grants the committed queue alone (pick() chose it)
      m_.eval();
      const int g = m_->gnt_valid_o ? static_cast<int>(m_->gnt_idx_o) : -1;
      if (g != granted) chk_.expect("gnt_idx_o (-1: gnt_valid_o low; a commit of a queue the RTL does not grant)", g, granted);
    }
    m_.edge();
    settled_ = false;
    m_->nonempty_i = nonempty;
    m_->ready_i = 0;
    bits::zero(m_->becn_valid_i);
    at_ = now + 1;
    if (granted >= 0) {  // every gap is 0 from quiet_ on (the granted queue's is the longest)
      const auto q = static_cast<unsigned>(granted);
      quiet_ = std::max<Cycle>(quiet_, at_ + bits::get(m_->wait_o, q * wait_w_, wait_w_));
    }
    if (ref_) {
      ref_->commit(now, granted, len, becn_queues, n_becn);
      for (std::uint32_t q = 0; q < p_.num_queues; ++q) {
        chk_.expect("ccti_o", ccti(q), ref_->ccti(q));
        const Cycle next_ok = ref_->next_ok(q);
        chk_.expect("wait_o", static_cast<std::int64_t>(bits::get(m_->wait_o, q * wait_w_, wait_w_)),
                    static_cast<std::int64_t>(next_ok > at_ ? next_ok - at_ : 0));
      }
    }
  }
  std::uint32_t ccti(std::uint32_t q) override {
    return static_cast<std::uint32_t>(bits::get(m_->ccti_o, q * ccti_w_, ccti_w_));
  }
  std::size_t throttled() override {
    std::size_t n = 0;
    for (std::uint32_t q = 0; q < p_.num_queues; ++q) n += ccti(q) != 0;
    return n;
  }

 private:
  // The idle edges of cycles at_ .. now - 1 (none called the block), as few as give the same state.
  // Without a timer only the gaps change, and none after quiet_.
  void catch_up(Cycle now) {
    if (now <= at_) return;
    std::uint64_t n = now - at_;
    if (p_.timer_period == 0) n = std::min<std::uint64_t>(n, quiet_ > at_ ? quiet_ - at_ : 0);
    else if (n > settle_) n = settle_ + (n - settle_) % p_.timer_period;
    m_->ready_i = 0;
    bits::zero(m_->becn_valid_i);
    if (n) settled_ = false;
    for (; n; --n) m_.edge();
    at_ = now;
  }

  blocks::InjectionEngineParams p_;
  Model<V> m_;
  Checker chk_;
  std::string where_;
  unsigned idx_w_, ccti_w_;
  std::uint64_t wait_max_;
  unsigned wait_w_;
  std::uint64_t settle_;
  Cycle at_ = 0;     // the cycle whose edge the RTL sees next
  Cycle quiet_ = 0;  // every gap is 0 from this cycle on
  bool settled_ = false;  // the outputs are those of the inputs and state as they are (no eval needed)
  std::optional<blocks::InjectionEngine> ref_;
};

// ccn_lhrp_scheduler (NumLanes = the router's input ports, LenWidth = kLhrpLenWidth, QueueWidth =
// 32, TimeWidth = 64, BacklogWidth = 32). The router calls the core's arrive() for each head as
// it arrives and depart() as queues and outputs move, arrivals first within a cycle; the adapter
// puts the cycle's k-th arrival on lane k (evaluating the lanes so far: lane k's decision with the
// lanes before it), sums the departures per endpoint (one dep lane each: the same result as the
// core's departures one by one, violations included) and applies the cycle's edge at the first
// call of a later cycle (sync() included), then one idle edge per cycle in between (now_i advances
// by one per edge, as the RTL asserts; the backlogs count down). The waveforms' queued counts are
// the RTL's registers (queued_o): the core's counts at the start of the cycle. The core's per-lane NACK slot
// (a free slot for this head) becomes nack_slots_i = drops so far + slot: the RTL gives lane k a
// slot while fewer lanes before it dropped than that. The core's T_next (next_free, waveforms) is
// the time of the last drop or grant plus its length, from time_o.
template <class V>
class LhrpSchedulerRtl final : public blocks::LhrpSchedulerImpl {
 public:
  LhrpSchedulerRtl(const LhrpSchedulerSetParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "lhrp_scheduler"),
        where_(c.where),
        ep_w_(idx_width(p.core.endpoints)),
        queued_(p.core.endpoints, 0),
        next_free_(p.core.endpoints, 0),
        dep_(p.core.endpoints, 0),
        lane_drop_(p.lanes, 0),
        lane_grant_(p.lanes, 0) {
    if (chk_.on()) ref_.emplace(p.core);
    clear_lanes();
  }
  blocks::LhrpScheduler::Decision arrive(const blocks::LhrpScheduler::Arrival& a, Cycle now, bool nack_slot) override {
    advance(now);
    if (deps_)
      throw ModelError(where_ + ": an LHRP arrival after a departure in one cycle (cycle " + std::to_string(now) +
                       "); the RTL applies departures after the arrival lanes");
    if (lanes_ == p_.lanes)
      throw ModelError(where_ + ": more LHRP arrivals in one cycle than the RTL's " + std::to_string(p_.lanes) + " lanes");
    if (a.len >> kLhrpLenWidth)
      throw ModelError(where_ + ": an LHRP arrival of " + std::to_string(a.len) + " flits is longer than the RTL in the loop takes (LenWidth " +
                       std::to_string(kLhrpLenWidth) + ")");
    const unsigned l = lanes_++;
    bits::set(m_->arr_valid_i, l, 1, 1);
    bits::set(m_->arr_endpoint_i, l * ep_w_, ep_w_, a.endpoint);
    bits::set(m_->arr_len_i, l * kLhrpLenWidth, kLhrpLenWidth, a.len);
    bits::set(m_->arr_kind_i, l * 2, 2, static_cast<std::uint8_t>(a.kind));
    m_->nack_slots_i = static_cast<std::remove_reference_t<decltype(m_->nack_slots_i)>>(drops_ + (nack_slot ? 1u : 0u));
    m_->now_i = now;
    m_.eval();
    // The lanes before this one keep their decisions (the NACK slots only run out within a cycle).
    for (unsigned k = 0; k < l; ++k)
      if (bits::get(m_->drop_o, k, 1) != lane_drop_[k] || bits::get(m_->grant_o, k, 1) != lane_grant_[k])
        throw ModelError(where_ + ": at cycle " + std::to_string(now) + " an LHRP arrival's NACK slot changed an earlier "
                         "lane's decision (a slot freed within the cycle, which the RTL's nack_slots_i cannot express)");
    blocks::LhrpScheduler::Decision d;
    d.drop = bits::get(m_->drop_o, l, 1);
    d.grant = bits::get(m_->grant_o, l, 1);
    d.time = bits::get(m_->time_o, l * 64, 64);
    lane_drop_[l] = d.drop;
    lane_grant_[l] = d.grant;
    drops_ += d.drop;
    if (m_->violation_o) error_now_ = true;
    if (a.endpoint < p_.core.endpoints && (d.drop || d.grant)) next_free_[a.endpoint] = d.time + a.len;
    if (ref_) {
      const auto r = ref_->arrive(a, now, nack_slot);
      chk_.expect("drop_o", d.drop, r.drop);
      chk_.expect("grant_o", d.grant, r.grant);
      chk_.expect("time_o", static_cast<std::int64_t>(d.time), static_cast<std::int64_t>(r.drop || r.grant ? r.time : 0));
    }
    return d;
  }
  void depart(Cycle now, std::uint32_t endpoint, std::uint32_t len) override {
    advance(now);
    if (endpoint >= p_.core.endpoints) {  // a departure naming no endpoint: a violation, nothing else
      error_now_ = true;
      return;
    }
    const std::uint64_t sum = std::uint64_t{dep_[endpoint]} + len;
    if (sum >> kLhrpLenWidth)
      throw ModelError(where_ + ": LHRP departures of " + std::to_string(sum) + " flits in one cycle for endpoint " + std::to_string(endpoint) +
                       " exceed the RTL in the loop's dep_len_i (LenWidth " + std::to_string(kLhrpLenWidth) + ")");
    dep_[endpoint] = static_cast<std::uint32_t>(sum);
    ++deps_;
    if (ref_) ref_->depart(endpoint, len);
  }
  void sync(Cycle now) override { advance(now); }
  const std::uint32_t& queued_ref(std::uint32_t e) override { return queued_[e]; }
  const Cycle& next_free_ref(std::uint32_t e) override { return next_free_[e]; }
  bool error() override { return m_->error_o || error_now_ || pending_violation(); }

 private:
  // A departure's violation shows in its cycle (violation_o), and error() is asked right after it.
  bool pending_violation() {
    if (!deps_) return false;
    drive_deps();
    m_.eval();
    return m_->violation_o;
  }
  // A departure of 0 flits changes nothing in either view: it needs no dep lane.
  void drive_deps() {
    bits::zero(m_->dep_valid_i);
    for (std::uint32_t e = 0; e < p_.core.endpoints; ++e)
      if (dep_[e]) {
        bits::set(m_->dep_valid_i, e, 1, 1);
        bits::set(m_->dep_len_i, e * kLhrpLenWidth, kLhrpLenWidth, dep_[e]);
      }
  }
  // A call of cycle `now`: the edges of the cycles before it (the last one called, then idle ones).
  void advance(Cycle now) {
    if (now < at_)
      throw ModelError(where_ + ": LHRP scheduler called at cycle " + std::to_string(now) + " after a call at cycle " +
                       std::to_string(at_));
    while (at_ < now) edge();
  }
  // The edge of cycle at_ with its lanes and departures; the next cycle's lanes start empty.
  void edge() {
    drive_deps();
    m_->now_i = at_;
    m_.edge();
    ++at_;
    for (std::uint32_t e = 0; e < p_.core.endpoints; ++e) {
      queued_[e] = static_cast<std::uint32_t>(bits::get(m_->queued_o, e * 32, 32));
      if (ref_) {
        chk_.expect("queued_o", queued_[e], ref_->queued(e));
        const Cycle b = bits::get(m_->backlog_o, e * 32, 32), t = ref_->next_free(e);
        chk_.expect("backlog_o", static_cast<std::int64_t>(b), static_cast<std::int64_t>(t > at_ ? t - at_ : 0));
      }
    }
    if (ref_) chk_.expect("error_o", m_->error_o, ref_->error());
    error_now_ = false;
    clear_lanes();
  }
  void clear_lanes() {
    bits::zero(m_->arr_valid_i);
    bits::zero(m_->dep_valid_i);
    m_->nack_slots_i = 0;
    std::fill(dep_.begin(), dep_.end(), 0);
    lanes_ = drops_ = deps_ = 0;
  }

  LhrpSchedulerSetParams p_;
  Model<V> m_;
  Checker chk_;
  std::string where_;
  unsigned ep_w_;
  std::vector<std::uint32_t> queued_;
  std::vector<Cycle> next_free_;
  std::vector<std::uint32_t> dep_;
  std::vector<std::uint8_t> lane_drop_, lane_grant_;
  unsigned lanes_ = 0, drops_ = 0, deps_ = 0;
  bool error_now_ = false;
  Cycle at_ = 0;  // the cycle whose edge the RTL sees next (the driven lanes are of this cycle)
  std::optional<blocks::LhrpScheduler> ref_;
};

// ccn_rr_arbiter (NumPass = 1, NumGroup = 0), as the router's VC allocation uses it: several
// grants per output and cycle, each a pick() among the requests left and a commit() of the winner.
// The arbiter's only state is its pointers, which move only with a used grant, so one rising edge
// per grant (with the winner's request and ack_i) is the core exactly: VC allocation grants a
// winner, then picks again among the rest with the moved pointer, as a chain of one-grant cycles
// of the RTL would. No time passes in the RTL between the network's cycles (idle edges leave it
// alone: no request, no grant).
template <class V>
class RrArbiterRtl final : public blocks::RrArbiterImpl {
 public:
  RrArbiterRtl(const blocks::RrArbiterParams& p, const AdapterContext& c)
      : p_(p), chk_(c, "rr_arbiter"), prio_w_(idx_width(p.num_prio)) {
    if (chk_.on()) ref_.emplace(p);
  }
  int pick(const blocks::RrArbiter::Request* reqs, std::size_t n) override {
    bits::zero(m_->req_i);
    for (std::size_t k = 0; k < n; ++k) drive(reqs[k].index, reqs[k].prio);
    m_->ack_i = 0;
    m_.eval();
    const int g = m_->gnt_valid_o ? static_cast<int>(m_->gnt_idx_o) : -1;
    if (ref_) chk_.expect("gnt_idx_o (-1: gnt_valid_o low)", g, ref_->pick(reqs, n));
    picked_ = g;
    return g;
  }
  // The grant is used: one edge with ack_i. The commit of the grant pick() just evaluated keeps
  // its requests (the RTL grants the same winner: the grant never depends on ack_i or last_i);
  // any other commit (the router's lone waiting head, granted without pick()) drives the winner's
  // request alone and checks that the RTL grants it: with --rtl-check before the edge (an
  // evaluation of its own); else after it, from the edge's own evaluation (a lone request is
  // granted before the edge exactly when it is after it: unlocked, a lone request always wins;
  // locked onto another owner, the edge changes nothing and it still does not win).
  void commit(int granted, std::uint32_t prio, bool last) override {
    if (granted < 0) return;
    bits::set(m_->last_i, static_cast<unsigned>(granted), 1, last);
    m_->ack_i = 1;
    const bool lone = granted != picked_;
    if (lone) {
      bits::zero(m_->req_i);
      drive(static_cast<std::uint32_t>(granted), prio);
      if (ref_) {
        m_.eval();
        expect_lone(granted);
      }
    }
    picked_ = -1;
    m_.edge();
    if (lone && !ref_) expect_lone(granted);
    m_->ack_i = 0;
    bits::zero(m_->req_i);
    if (ref_) {
      ref_->commit(granted, prio, last);
      chk_.expect("locked_o", m_->locked_o, ref_->locked());
    }
  }

 private:
  void drive(std::uint32_t index, std::uint32_t prio) {
    bits::set(m_->req_i, index, 1, 1);
    bits::set(m_->prio_i, index * prio_w_, prio_w_, p_.num_prio > 1 ? prio : 0);
  }
  void expect_lone(int granted) const {
    const int g = m_->gnt_valid_o ? static_cast<int>(m_->gnt_idx_o) : -1;
    if (g != granted) chk_.expect("gnt_idx_o (-1: gnt_valid_o low; a commit of a requester the RTL does not grant)", g, granted);
  }

  blocks::RrArbiterParams p_;
  Model<V> m_;
  Checker chk_;
  unsigned prio_w_;
  int picked_ = -1;  // the grant of the last pick() (its requests are still driven), -1: none
  std::optional<blocks::RrArbiter> ref_;
};

// ccn_mvcm_marker (combinational, no state): each call drives one lane and evaluates. The other
// lane is idle (its inputs are ignored). An occupancy beyond OccWidth bits is a model error (the
// set was made for the larger buffer's capacity).
template <class V>
class MvcmMarkerRtl final : public blocks::MvcmMarkerImpl {
 public:
  MvcmMarkerRtl(const MvcmMarkerSetParams& p, const AdapterContext& c)
      : chk_(c, "mvcm_marker"), where_(c.where), occ_max_(mask(occ_width(p.max_occupancy))) {
    if (chk_.on()) ref_.emplace(p.core);
  }
  static unsigned occ_width(std::uint32_t max_occupancy) { return std::max(1u, clog2(max_occupancy + 1ull)); }
  bool mark(bool valid, bool data, bool mb, std::uint32_t occupancy) override {
    m_->out_valid_i = 0;
    m_->in_valid_i = valid;
    m_->in_data_i = data;
    m_->in_mb_i = mb;
    m_->in_occupancy_i = static_cast<std::remove_reference_t<decltype(m_->in_occupancy_i)>>(occ(occupancy));
    m_.eval();
    const bool r = m_->in_mark_o;
    if (ref_) {
      chk_.expect("in_mark_o", r, ref_->mark(valid, data, mb, occupancy));
      chk_.expect("in_mb_o", m_->in_mb_o, ref_->mb_out(valid, data, mb, occupancy));
    }
    return r;
  }
  bool violation(bool valid, bool mb, bool vb) override {
    out(valid, false, mb, vb, 0);
    const bool r = m_->out_violation_o;
    if (ref_) chk_.expect("out_violation_o", r, ref_->violation(valid, mb, vb));
    return r;
  }
  bool validate(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) override {
    out(valid, data, mb, vb, occupancy);
    const bool r = m_->out_validate_o;
    if (ref_) {
      chk_.expect("out_validate_o", r, ref_->validate(valid, data, mb, vb, occupancy));
      chk_.expect("out_vb_o", m_->out_vb_o, ref_->vb_out(valid, data, mb, vb, occupancy));
    }
    return r;
  }
  bool out_above(std::uint32_t occupancy) override {
    out(false, false, false, false, occupancy);
    const bool r = m_->out_above_o;
    if (ref_) chk_.expect("out_above_o", r, ref_->out_above(occupancy));
    return r;
  }

 private:
  static std::uint32_t mask(unsigned w) { return w >= 32 ? ~0u : (1u << w) - 1; }
  std::uint32_t occ(std::uint32_t occupancy) const {
    if (occupancy > occ_max_)
      throw ModelError(where_ + ": an occupancy of " + std::to_string(occupancy) + " flits exceeds the MVCM marker's OccWidth (" +
                       std::to_string(occ_max_) + " at most)");
    return occupancy;
  }
  void out(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) {
    m_->in_valid_i = 0;
    m_->out_valid_i = valid;
    m_->out_data_i = data;
    m_->out_mb_i = mb;
    m_->out_vb_i = vb;
    m_->out_occupancy_i = static_cast<std::remove_reference_t<decltype(m_->out_occupancy_i)>>(occ(occupancy));
    m_.eval();
  }

  Model<V> m_;
  Checker chk_;
  std::string where_;
  std::uint32_t occ_max_;
  std::optional<blocks::MvcmMarker> ref_;
};

// ccn_saa_link_unit (NumLanes = 1): each apply() is one lane and one edge (the link unit is called
// once per control packet crossing the link, in order: a chain of one-lane cycles gives the same
// states as the core's lanes). A violating lane changes nothing; the adapter applies no edge for
// it (the RTL's LaneLegal_A would stop the process) and keeps the sticky error itself, and the
// violation's kind (for the message) is the core's: the adapter always runs the core beside the
// RTL (control packets are rare), and compares their outputs in check mode.
template <class V>
class SaaLinkUnitRtl final : public blocks::SaaLinkUnitImpl {
 public:
  SaaLinkUnitRtl(const blocks::SaaLinkUnitParams& p, const AdapterContext& c) : chk_(c, "saa_link_unit"), where_(c.where), ref_(p) {}
  blocks::SaaLinkResult apply(const blocks::SaaLinkLane& lane) override {
    m_->start_i = lane.start;
    m_->end_i = lane.end;
    m_->probe_i = lane.probe;
    m_->weight_i = lane.weight;
    m_->wmax_i = lane.wmax;
    m_.eval();
    blocks::SaaLinkResult r;
    r.wmax = m_->wmax_o;
    const bool bad = m_->bad_o;
    const blocks::SaaLinkResult c = ref_.apply(lane);
    if (chk_.on()) {
      chk_.expect("bad_o", bad, c.bad());
      chk_.expect("wmax_o", static_cast<std::int64_t>(r.wmax), static_cast<std::int64_t>(c.wmax));
    }
    if (bad) {
      if (!c.bad()) throw ModelError(where_ + ": the SAA link unit's RTL flags a lane (bad_o) that its C++ core accepts");
      r.violation = c.violation;
      error_ = true;
    } else {
      m_.edge();
    }
    m_->start_i = m_->end_i = m_->probe_i = 0;
    weight_ = m_->weight_o;
    flows_ = m_->flows_o;
    if (chk_.on()) {
      chk_.expect("weight_o", static_cast<std::int64_t>(weight_), static_cast<std::int64_t>(ref_.weight()));
      chk_.expect("flows_o", flows_, ref_.flows());
    }
    return r;
  }
  const std::uint64_t& weight_ref() override { return weight_; }
  const std::uint32_t& flows_ref() override { return flows_; }
  bool error() override { return error_ || m_->error_o; }

 private:
  Model<V> m_;
  Checker chk_;
  std::string where_;
  blocks::SaaLinkUnit ref_;
  std::uint64_t weight_ = 0;
  std::uint32_t flows_ = 0;
  bool error_ = false;
};

// ccn_mvcm_flow_ctrl (NumRestart = kMvcmRestartLanes). The RTL keeps each flow's remaining wait as
// a down-counter, so it must see an edge for every cycle: the NIC calls the block in the cycles it
// evaluates, so before each call the adapter applies the idle edges of the cycles in between (no
// start, ACK or restart: what those cycles were), and none after the cycle where the longest wait
// armed so far runs out (from then on an idle edge changes nothing). eligible() reads eligible_o
// of the state at the start of cycle `now` (registered state: no evaluation).
template <class V>
class MvcmFlowCtrlRtl final : public blocks::MvcmFlowCtrlImpl {
 public:
  MvcmFlowCtrlRtl(const blocks::MvcmFlowCtrlParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "mvcm_flow_ctrl"),
        where_(c.where),
        idx_w_(idx_width(p.num_flows)),
        dw_w_(clog2(p.dw_max + 1ull)),
        inc_w_(clog2(p.ws_increases + 1ull)),
        wait_w_(wait_width(p)) {
    if (chk_.on()) ref_.emplace(p);
  }
  bool eligible(std::uint32_t f, Cycle now) override {
    catch_up(now);
    const bool e = bits::get(m_->eligible_o, f, 1);
    if (ref_) chk_.expect("eligible_o", e, ref_->eligible(f, now));
    return e;
  }
  bool commit(Cycle now, const blocks::MvcmFlowCtrl::Events& e) override {
    catch_up(now);
    if (e.num_restarts > kMvcmRestartLanes)
      throw ModelError(where_ + ": " + std::to_string(e.num_restarts) + " flow restarts in one cycle; the MVCM flow controller's RTL in the loop has " +
                       std::to_string(kMvcmRestartLanes) + " restart lane(s) (NumRestart)");
    m_->start_valid_i = e.sent >= 0;
    bits::set(m_->start_flow_i, 0, idx_w_, e.sent >= 0 ? flow(static_cast<std::uint32_t>(e.sent)) : 0);
    m_->ack_valid_i = e.ack.valid;
    bits::set(m_->ack_flow_i, 0, idx_w_, e.ack.valid ? flow(e.ack.flow) : 0);
    bits::set(m_->ack_kind_i, 0, 2, static_cast<std::uint8_t>(e.ack.kind));
    bits::zero(m_->restart_valid_i);
    for (std::size_t k = 0; k < e.num_restarts; ++k) {
      bits::set(m_->restart_valid_i, static_cast<unsigned>(k), 1, 1);
      bits::set(m_->restart_flow_i, static_cast<unsigned>(k) * idx_w_, idx_w_, flow(e.restarts[k]));
    }
    bool ok;
    if (ref_) {
      m_.eval();
      ok = !m_->violation_o;
      chk_.expect("violation_o", !ok, !ref_->commit(now, e));
      m_.edge();
    } else {  // the violation from the sticky error_o rising at the edge
      const bool error_before = m_->error_o;
      m_.edge();
      ok = error_before || !m_->error_o;
    }
    m_->start_valid_i = m_->ack_valid_i = 0;
    bits::zero(m_->restart_valid_i);
    at_ = now + 1;
    for (std::uint32_t f = 0; f < p_.num_flows; ++f) {
      const std::uint64_t w = bits::get(m_->wait_o, f * wait_w_, wait_w_);
      quiet_ = std::max<Cycle>(quiet_, at_ + w);
      if (ref_) {
        chk_.expect("dw_o", window(f), ref_->window(f));
        chk_.expect("outstanding_o", outstanding(f), ref_->outstanding(f));
        chk_.expect("incs_o", ws_increases(f), ref_->ws_increases(f));
        const Cycle nb = ref_->not_before(f);
        chk_.expect("wait_o", static_cast<std::int64_t>(w), static_cast<std::int64_t>(nb > at_ ? nb - at_ : 0));
      }
    }
    return ok;
  }
  std::uint32_t window(std::uint32_t f) override { return static_cast<std::uint32_t>(bits::get(m_->dw_o, f * dw_w_, dw_w_)); }
  std::uint32_t outstanding(std::uint32_t f) override {
    return static_cast<std::uint32_t>(bits::get(m_->outstanding_o, f * dw_w_, dw_w_));
  }
  std::uint32_t ws_increases(std::uint32_t f) override {
    return static_cast<std::uint32_t>(bits::get(m_->incs_o, f * inc_w_, inc_w_));
  }

 private:
  // WaitW of the RTL: $clog2 of RttMin * WsFactor^(WsIncreases - 1), at least 1.
  static unsigned wait_width(const blocks::MvcmFlowCtrlParams& p) {
    std::uint64_t w = p.rtt_min;
    for (std::uint32_t e = 1; e < p.ws_increases; ++e) w *= p.ws_factor;
    return w > 1 ? clog2(w) : 1u;
  }
  // A flow number IdxW bits hold and the core knows (else the two views could not agree).
  std::uint32_t flow(std::uint32_t f) const {
    if (f >= p_.num_flows)
      throw ModelError(where_ + ": flow " + std::to_string(f) + " is beyond the MVCM flow controller's " + std::to_string(p_.num_flows) + " flows");
    return f;
  }
  // The idle edges of cycles at_ .. now - 1, none after every wait ran out.
  void catch_up(Cycle now) {
    if (now <= at_) return;
    std::uint64_t n = std::min<std::uint64_t>(now - at_, quiet_ > at_ ? quiet_ - at_ : 0);
    for (; n; --n) m_.edge();
    at_ = now;
  }

  blocks::MvcmFlowCtrlParams p_;
  Model<V> m_;
  Checker chk_;
  std::string where_;
  unsigned idx_w_, dw_w_, inc_w_, wait_w_;
  Cycle at_ = 0;     // the cycle whose edge the RTL sees next
  Cycle quiet_ = 0;  // every wait is 0 from this cycle on
  std::optional<blocks::MvcmFlowCtrl> ref_;
};

// The waves of RTL in the loop in Verilator's FST writer: the selected models in one file, each
// under its component's scope and `rtl` (waves.hpp). Models trace into one file only if they share
// a Verilated context: all use the thread's default one.
class FstWaves final : public Waves {
 public:
  std::size_t open(const std::string& path, const std::vector<bool>& selected, sc_core::sc_time period) override {
    Verilated::traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    prefixes_.clear();
    prefixes_.reserve(models_.size());  // the init callbacks keep pointers to them
    std::size_t n = 0;
    for (std::size_t i = 0; i < models_.size(); ++i) {
      if (!selected[i]) continue;
      std::string scope;  // "net router_3 rtl ": the FST writer splits scopes at spaces
      for (const char c : models_[i].component) scope += c == '.' ? ' ' : c;
      prefixes_.push_back(scope + " rtl ");
      fst_->spTrace()->addInitCb(&push_scope, &prefixes_.back());
      models_[i].trace(*fst_);
      fst_->spTrace()->addInitCb(&pop_scope, nullptr);
      ++n;
    }
    // One cycle in the file's time unit (its precision: the models' timeprecision).
    scale_ = static_cast<std::uint64_t>(
        std::llround(period.to_seconds() / std::pow(10.0, Verilated::threadContextp()->timeprecision())));
    if (scale_ == 0) scale_ = 1;
    fst_->open(path.c_str());
    return n;
  }
  void dump(Cycle cycle) override { fst_->dump(static_cast<std::uint64_t>(cycle) * scale_); }
  void close() override {
    fst_->close();
    fst_.reset();
  }
  bool is_open() const override { return fst_ != nullptr; }

 private:
  static void push_scope(void* prefix, VerilatedFst* t, std::uint32_t) { t->pushNamePrefix(*static_cast<const std::string*>(prefix)); }
  static void pop_scope(void*, VerilatedFst* t, std::uint32_t) { t->popNamePrefix(); }

  std::unique_ptr<VerilatedFstC> fst_;
  std::vector<std::string> prefixes_;
  std::uint64_t scale_ = 1;
};

// ccn_crp_table (EpochWidth = kCrpEpochWidth). The RTL takes one operation per edge and shifts at
// the edge that ends an epoch (phase Cmax - 1); its outputs depend on the cells and the epoch, not
// on the cycle within the epoch. The network applies several lanes in one cycle, in order (a
// router's arrivals), and syncs the table every cycle. So each lane gets its own edge, the
// earliest of the epoch not used yet: entering a new epoch, the adapter applies the idle edges
// (CrpOpNop) that bring the RTL to that epoch's first cycle, and each lane then takes the next
// edge. The RTL's epoch is always the network's and a cycle's lanes see each other's updates, as
// the core's do; the RTL's phase_o counts the edges the epoch used so far, not the network's
// cycle. An epoch with more than Cmax operations does not fit (a model error naming the table).
// A violating lane changes nothing: the adapter applies no edge for it (the RTL's OpLegal_A would
// stop the process) and keeps the sticky error itself.
template <class V>
class CrpTableRtl final : public blocks::CrpTableImpl {
 public:
  CrpTableRtl(const blocks::CrpTableParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "crp_table"),
        where_(c.where),
        cell_w_(clog2(p.cmax + 1ull)),
        size_w_(clog2(2ull * p.cmax + 1)),
        lead_w_(clog2(p.cells + 1ull)),
        cells_(p.cells, p.cmax) {
    if (chk_.on()) ref_.emplace(p);
  }
  void sync(Cycle now) override {
    const std::uint64_t e = now / p_.cmax;
    if (e < net_epoch_) throw ModelError(where_ + ": CRP table synced back to cycle " + std::to_string(now));
    if (e > net_epoch_) {
      // Idle edges up to the epoch's first cycle (at most Cmax per epoch; a table idle for a whole
      // table length shifts in fresh cells only, as the core's jump does).
      while (edges_ < e * p_.cmax) {
        m_.edge();
        ++edges_;
      }
      read_state();
      net_epoch_ = e;
      epoch_ = rtl_epoch_;
    }
    if (ref_) {
      ref_->sync(now);
      if (edges_ / p_.cmax == net_epoch_) compare_state();  // (not after a lane's edge that ended the epoch)
    }
  }
  blocks::CrpResult apply(const blocks::CrpLane& lane) override {
    if (edges_ / p_.cmax != net_epoch_)
      throw ModelError(where_ + ": more than Cmax = " + std::to_string(p_.cmax) +
                       " operations in epoch " + std::to_string(net_epoch_) +
                       "; the CRP table's RTL takes one per cycle (an epoch has Cmax cycles)");
    const std::uint64_t x = lane.size;
    if (x >> size_w_ || lane.take0 >> cell_w_ || lane.take1 >> cell_w_)
      throw ModelError(where_ + ": a CRP lane's size " + std::to_string(x) + " or take " + std::to_string(lane.take0) + "/" +
                       std::to_string(lane.take1) + " is wider than the RTL's ports (SizeW " + std::to_string(size_w_) +
                       ", CellW " + std::to_string(cell_w_) + " bits)");
    const std::uint64_t mod = 1ull << kCrpEpochWidth;
    bits::set(m_->op_i, 0, 8, static_cast<std::uint8_t>(lane.op));
    bits::set(m_->size_i, 0, size_w_, x);
    bits::set(m_->vec_i, 0, p_.cells, lane.vec);
    bits::set(m_->vec_epoch_i, 0, kCrpEpochWidth, lane.vec_epoch % mod);
    m_->reserve_i = lane.reserve;
    m_->prefer_i = lane.prefer;
    bits::set(m_->lead_i, 0, lead_w_, std::min(lane.lead, p_.cells));  // lead >= Cells: no cell pickable either way
    bits::set(m_->slot_i, 0, kCrpEpochWidth, lane.slot % mod);
    bits::set(m_->take0_i, 0, cell_w_, lane.take0);
    bits::set(m_->take1_i, 0, cell_w_, lane.take1);
    m_->spill_i = lane.spill;
    m_.eval();
    blocks::CrpResult r;
    r.violation = m_->violation_o;
    r.vec = bits::get(m_->vec_o, 0, p_.cells);
    r.reserved = m_->reserved_o;
    // The reserved slot E + i: its distance from the epoch, modulo 2^EpochWidth, on the 64-bit epoch.
    r.slot = r.reserved ? epoch_ + ((bits::get(m_->slot_o, 0, kCrpEpochWidth) - epoch_) % mod) : 0;
    r.offset = static_cast<std::uint32_t>(bits::get(m_->offset_o, 0, cell_w_));
    r.take0 = static_cast<std::uint32_t>(bits::get(m_->take0_o, 0, cell_w_));
    r.take1 = static_cast<std::uint32_t>(bits::get(m_->take1_o, 0, cell_w_));
    r.retry = static_cast<blocks::CrpRetry>(m_->retry_o);
    r.pass = m_->pass_o;
    r.charged = static_cast<std::uint32_t>(bits::get(m_->charged_o, 0, size_w_));
    if (ref_) {
      const blocks::CrpResult c = ref_->apply(lane);
      chk_.expect("violation_o", r.violation, c.violation);
      chk_.expect("vec_o", static_cast<std::int64_t>(r.vec), static_cast<std::int64_t>(c.vec));
      chk_.expect("reserved_o", r.reserved, c.reserved);
      chk_.expect("slot_o", static_cast<std::int64_t>(r.slot), static_cast<std::int64_t>(c.slot));
      chk_.expect("offset_o", r.offset, c.offset);
      chk_.expect("take0_o", r.take0, c.take0);
      chk_.expect("take1_o", r.take1, c.take1);
      chk_.expect("retry_o", static_cast<std::int64_t>(r.retry), static_cast<std::int64_t>(c.retry));
      chk_.expect("pass_o", r.pass, c.pass);
      chk_.expect("charged_o", r.charged, c.charged);
    }
    if (r.violation) {
      error_ = true;
    } else {
      m_.edge();
      ++edges_;
    }
    m_->op_i = 0;  // CrpOpNop
    read_state();
    if (ref_ && edges_ / p_.cmax == net_epoch_) compare_state();  // (the lane's edge that ends the epoch shifted the RTL already)
    return r;
  }
  const std::uint64_t& epoch_ref() override { return epoch_; }
  const std::uint32_t& cell_ref(std::uint32_t i) override { return cells_[i]; }
  bool invariants_hold() override {
    if (error_ || m_->error_o) return false;
    for (std::uint32_t c : cells_)
      if (c > p_.cmax) return false;
    return true;
  }

 private:
  // The RTL's cells and its epoch_o (modulo 2^EpochWidth) on 64 bits. After a lane's edge that
  // ended the RTL's epoch they show the next epoch's (epoch_ stays until the next epoch's sync).
  void read_state() {
    for (std::uint32_t i = 0; i < p_.cells; ++i) cells_[i] = static_cast<std::uint32_t>(bits::get(m_->cells_o, i * cell_w_, cell_w_));
    const std::uint64_t rtl = bits::get(m_->epoch_o, 0, kCrpEpochWidth);
    rtl_epoch_ += (rtl - rtl_epoch_) % (1ull << kCrpEpochWidth);
  }
  void compare_state() {
    chk_.expect("epoch_o", static_cast<std::int64_t>(rtl_epoch_), static_cast<std::int64_t>(ref_->epoch()));
    for (std::uint32_t i = 0; i < p_.cells; ++i) chk_.expect("cells_o", cells_[i], ref_->cell(i));
  }

  blocks::CrpTableParams p_;
  Model<V> m_;
  Checker chk_;
  std::string where_;
  unsigned cell_w_, size_w_, lead_w_;
  std::vector<std::uint32_t> cells_;
  std::uint64_t edges_ = 0;      // edges the RTL saw since reset (its epoch: edges_ / Cmax)
  std::uint64_t rtl_epoch_ = 0;  // the RTL's epoch_o on 64 bits
  std::uint64_t net_epoch_ = 0;  // the network's epoch (of the cycle synced to)
  std::uint64_t epoch_ = 0;      // the RTL's epoch at that cycle (what the mechanism reads)
  bool error_ = false;
  std::optional<blocks::CrpTable> ref_;
};

// ccn_credit_arbiter (NumReq = 1, DistOffset = 0: CreditArbiterSetParams). No state of the arbiter
// moves with time alone: its counters change with what arrives and with the grants used, its
// pointers only with a used grant. So each add_request() and add_credit() is one edge with that
// request or credit and gnt_ready_i low (a chain of one-arrival cycles leaves the core's state:
// arrivals take effect at once and are seen by the next pick()), pick() evaluates the choice (again
// only after an edge), and commit() is one edge with gnt_ready_i high. The paths are wired rotated
// (the core's path p is the RTL's (p - rotation) mod M). The RTL shows only the sum of the request
// counters (pending_o); requests(i) is the adapter's count, the requests the RTL accepted minus the
// grants it made for input i (check mode compares it with the core's). A request or credit that
// breaks the contract changes nothing: no edge (NoViolation_A would stop the process) and the
// core's std::invalid_argument.
template <class V>
class CreditArbiterRtl final : public blocks::CreditArbiterImpl {
 public:
  CreditArbiterRtl(const CreditArbiterSetParams& p, const AdapterContext& c)
      : p_(p),
        chk_(c, "credit_arbiter"),
        n_(p.core.num_inputs),
        m_paths_(p.core.num_paths),
        in_w_(idx_width(p.core.num_inputs)),
        path_w_(idx_width(p.core.num_paths)),
        cnt_w_(clog2(p.core.max_requests + 1ull)),
        pend_w_(clog2(std::uint64_t{p.core.num_inputs} * p.core.max_requests + 1)),
        taken_w_(clog2(std::uint64_t{p.core.num_paths} * p.core.credits + 1)),
        req_(p.core.num_inputs, 0) {
    // Configuration inputs, stable from now on (the reset state does not depend on them).
    for (std::uint32_t pos = 0; pos < n_; ++pos) bits::set(m_->order_i, pos * in_w_, in_w_, p.order[pos]);
    for (std::uint32_t i = 0; i < n_; ++i) bits::set(m_->weight_i, i * p.weight_width, p.weight_width, p.weights[i]);
    if (chk_.on()) {
      std::vector<std::uint32_t> dist0(n_);
      for (std::uint32_t i = 0; i < n_; ++i) dist0[i] = (i + p.rotation) % m_paths_;
      ref_.emplace(p.core, p.order, dist0, p.weights);
    }
  }
  void add_request(std::uint32_t input, std::uint32_t n) override {
    if (input >= n_) bad("request from input " + std::to_string(input) + " >= inputs " + std::to_string(n_));
    const std::uint64_t want = req_[input] + std::uint64_t{n};
    if (n > p_.core.max_requests) overflow(input, want);  // wider than req_count_i: a violation either way
    m_->req_valid_i = 1;
    bits::set(m_->req_input_i, 0, in_w_, input);
    bits::set(m_->req_count_i, 0, cnt_w_, n);
    m_.eval();
    const bool viol = m_->violation_o;
    if (ref_) chk_.expect("violation_o (request)", viol, !ref_->request_ok(input, n));
    if (!viol) edge();
    m_->req_valid_i = 0;
    if (viol) overflow(input, want);
    req_[input] += n;
    if (ref_) {
      ref_->add_request(input, n);
      compare_state();
    }
  }
  void add_credit(std::uint32_t path) override {
    if (path >= m_paths_) bad("credit for path " + std::to_string(path) + " >= paths " + std::to_string(m_paths_));
    m_->cred_valid_i = 1;
    bits::set(m_->cred_path_i, 0, path_w_, (path + m_paths_ - p_.rotation % m_paths_) % m_paths_);
    m_.eval();
    const bool viol = m_->violation_o;
    if (ref_) chk_.expect("violation_o (credit)", viol, !ref_->credit_ok(path));
    if (!viol) edge();
    m_->cred_valid_i = 0;
    if (viol)
      bad("credit returned for path " + std::to_string(path) + " whose counter is already full (" +
          std::to_string(p_.core.credits) + ")");
    if (ref_) {
      ref_->add_credit(path);
      compare_state();
    }
  }
  blocks::CreditArbiter::Grant pick() override {
    if (dirty_) {
      m_.eval();
      offer_ = {};
      if (m_->gnt_valid_o) {
        offer_.input = static_cast<int>(bits::get(m_->gnt_input_o, 0, in_w_));
        offer_.path = static_cast<std::uint32_t>((bits::get(m_->gnt_path_o, 0, path_w_) + p_.rotation) % m_paths_);
      }
      dirty_ = false;
    }
    if (ref_) {
      const blocks::CreditArbiter::Grant g = ref_->pick();
      chk_.expect("gnt_input_o (-1: gnt_valid_o low)", offer_.input, g.input);
      if (g.valid()) chk_.expect("gnt_path_o", offer_.path, g.path);
    }
    return offer_;
  }
  // The grant is used: one edge with gnt_ready_i (the inputs pick() evaluated are still driven).
  void commit(const blocks::CreditArbiter::Grant& g) override {
    pick();
    if (g.input != offer_.input || (g.valid() && g.path != offer_.path))
      chk_.expect("gnt_input_o/gnt_path_o (a commit of a grant the RTL does not offer; input*65536+path)", grant_code(offer_),
                  grant_code(g));
    if (!g.valid()) return;
    m_->gnt_ready_i = 1;
    edge();
    m_->gnt_ready_i = 0;
    --req_[static_cast<std::uint32_t>(g.input)];
    if (ref_) {
      ref_->commit(g);
      chk_.expect("ptr_o", static_cast<std::int64_t>(bits::get(m_->ptr_o, 0, in_w_)), ref_->pointer());
      compare_state();
    }
  }
  std::uint32_t requests(std::uint32_t input) override { return req_.at(input); }
  std::uint64_t pending() override { return bits::get(m_->pending_o, 0, pend_w_); }
  std::uint32_t credits_taken() override { return static_cast<std::uint32_t>(bits::get(m_->taken_o, 0, taken_w_)); }
  std::uint32_t pointer() override { return static_cast<std::uint32_t>(bits::get(m_->ptr_o, 0, in_w_)); }

 private:
  [[noreturn]] static void bad(const std::string& what) { throw std::invalid_argument("credit arbiter: " + what); }
  [[noreturn]] void overflow(std::uint32_t input, std::uint64_t want) const {
    bad("request counter of input " + std::to_string(input) + " would reach " + std::to_string(want) + " > max_requests " +
        std::to_string(p_.core.max_requests));
  }
  static std::int64_t grant_code(const blocks::CreditArbiter::Grant& g) {
    return g.valid() ? std::int64_t{g.input} * 65536 + g.path : -1;
  }
  void edge() {
    m_.edge();
    dirty_ = true;
  }
  void compare_state() {
    chk_.expect("pending_o", static_cast<std::int64_t>(pending()), static_cast<std::int64_t>(ref_->pending()));
    chk_.expect("taken_o", credits_taken(), ref_->credits_taken());
  }

  CreditArbiterSetParams p_;
  Model<V> m_;
  Checker chk_;
  std::uint32_t n_, m_paths_;
  unsigned in_w_, path_w_, cnt_w_, pend_w_, taken_w_;
  std::vector<std::uint32_t> req_;  // per input: requests accepted minus grants
  bool dirty_ = true;               // an edge since the last evaluation of the choice
  blocks::CreditArbiter::Grant offer_;
  std::optional<blocks::CreditArbiter> ref_;
};

// ccn_ps_pacer (SAA's `ps_arith: fixed` source pacing). The NIC drives the pacer with events as
// they happen (open, set_rate, set_ready), pick() once when it can start a packet and commit() of
// the grant at its clock edge; the RTL takes one cycle's events per edge in a fixed order (open,
// rate write, ready levels, then the send of the grant its registers give), with now_i the cycle.
// No state moves with time alone, so an edge costs nothing but its operations:
//  * Outside a grant (no pick() answered since the last commit) each event is an edge of its own:
//    the core's event alone, the same state.
//  * Between a grant's pick() and its commit() (the NIC forms the packet, the granted flow's last
//    packet clears its ready, a new flow opens) the events wait and join the commit's edge: the
//    RTL grants from its registers, which must stay those pick() evaluated. They fit one edge
//    exactly (the core applies them one by one) when there is at most one open, of a slot whose
//    level does not change before it, at most one rate write (or several to one slot: the last
//    wins), at most one level change per slot, and no fall or rise of a flow already sending after
//    a fresh flow's first ready (which joins at the V of the flows ready after the edge). Other
//    sequences are a model error naming the NIC (none occurs in the tests). A pick() that does
//    not lead to a commit (the NIC never does that) applies the waiting events as an edge alone.
// Slots: the core has a slot per destination the source has sent to (numbered by the mechanism);
// the RTL slot of a model slot is given at its first open or rate, in order (the grant's
// tie-break is the destination, not the slot, so the numbering changes no choice), NumFlows of
// them; one more is a model error naming the NIC. The adapter always runs the core beside the RTL
// (an event per packet or flow: cheap): the RTL has only violation_o, the violation's kind (for
// the message) is the core's; in check mode every output is compared after every edge (vtime_o,
// rate_o of every used slot, next_o, error_o) and at every pick (grant_valid_o, grant_o).
template <class V>
class PsPacerRtl final : public blocks::PsPacerImpl {
 public:
  PsPacerRtl(const PsPacerSetParams& p, const AdapterContext& c)
      : p_(p), chk_(c, "ps_pacer"), where_(c.where), slot_w_(idx_width(p.num_flows)), ref_(p.core) {}

  blocks::PsPacerViolation open(std::uint32_t slot, std::uint32_t dst) override {
    const blocks::PsPacerViolation v = ref_.open(slot, dst);
    if (v != blocks::PsPacerViolation::None && !mapped(slot)) return refused(v);  // no RTL slot to show it to
    const std::uint32_t r = rtl_slot(slot);
    model_dst_[slot] = dst;
    if (granted_) {
      if (pend_.open || (pend_.changed >> r & 1u))
        unfit("opens a flow in slot " + std::to_string(slot) + (pend_.open ? " after another open" : " after its ready changed"));
      pend_.open = true;
      pend_.open_slot = r;
      pend_.open_dst = dst;
      return pending(v);
    }
    Edge e = idle();
    e.open = true;
    e.open_slot = r;
    e.open_dst = dst;
    return apply(e, v, "open");
  }
  blocks::PsPacerViolation set_rate(std::uint32_t slot, std::uint32_t rate_q16) override {
    const blocks::PsPacerViolation v = ref_.set_rate(slot, rate_q16);
    if (v != blocks::PsPacerViolation::None && !mapped(slot)) return refused(v);
    const std::uint32_t r = rtl_slot(slot);
    if (granted_) {
      if (pend_.rate && pend_.rate_slot != r) unfit("writes the rates of two slots");
      pend_.rate = true;
      pend_.rate_slot = r;
      pend_.rate_value = rate_q16;
      return pending(v);
    }
    Edge e = idle();
    e.rate = true;
    e.rate_slot = r;
    e.rate_value = rate_q16;
    return apply(e, v, "rate");
  }
  blocks::PsPacerViolation set_ready(std::uint32_t slot, bool ready) override {
    const bool fresh = slot < ref_.slots() && ref_.slot(slot).fresh;  // before the event
    const blocks::PsPacerViolation v = ref_.set_ready(slot, ready);
    if (!mapped(slot)) return refused(v);  // never opened: a rise is a violation, a fall nothing
    const std::uint32_t r = map_[slot];
    const std::uint32_t bit = 1u << r;
    Edge e = granted_ ? pend_ : idle();
    if (((e.levels & bit) != 0) == ready) return v;  // no change
    if (granted_) {
      if (pend_.changed & bit) unfit("changes the ready level of slot " + std::to_string(slot) + " twice");
      if (pend_.fresh_rise && !(ready && fresh)) unfit("changes a sending flow's ready level after a fresh flow's first ready");
      pend_.changed |= bit;
      pend_.levels ^= bit;
      pend_.fresh_rise = pend_.fresh_rise || (ready && fresh);
      return pending(v);
    }
    e.levels ^= bit;
    return apply(e, v, "ready");
  }
  int pick(Cycle now) override {
    if (granted_) {  // a grant the NIC did not use: its events alone
      granted_ = false;
      apply(pend_, pend_.viol, "the events after an unused grant");
    }
    now_ = now;
    drive(idle(), false, 0);
    m_.eval();
    const int g = m_->grant_valid_o ? model_of_[bits::get(m_->grant_o, 0, slot_w_)] : -1;
    if (chk_.on()) chk_.expect("grant_o (-1: grant_valid_o low)", g, ref_.pick(now));
    if (g >= 0) {
      granted_ = true;
      pend_ = idle();
    }
    return g;
  }
  blocks::PsPacerViolation commit(Cycle now, std::uint32_t slot, std::uint32_t len) override {
    const blocks::PsPacerViolation v = ref_.commit(now, slot, len);
    Edge e = granted_ ? pend_ : idle();
    granted_ = false;
    now_ = now;
    if (!mapped(slot) || len == 0 || len >= (1u << p_.core.len_width)) {
      // Not a grant the RTL can be shown: the waiting events alone, the core's violation.
      apply(e, e.viol, "the events of a commit the core refuses");
      return refused(v);
    }
    drive(e, true, len);
    m_.eval();
    const int g = m_->grant_valid_o ? model_of_[bits::get(m_->grant_o, 0, slot_w_)] : -1;
    if (g != static_cast<int>(slot)) {
      if (chk_.on()) chk_.expect("grant_o (a commit of a slot the RTL does not grant; -1: grant_valid_o low)", g, static_cast<int>(slot));
      throw ModelError(where_ + ": PS pacer: the NIC commits slot " + std::to_string(slot) + ", the RTL grants " +
                       std::to_string(g) + " (-1: none)");
    }
    return finish(e, v != blocks::PsPacerViolation::None ? v : e.viol, "send");
  }
  bool opened(std::uint32_t slot) override { return mapped(slot) && (opened_ >> map_[slot] & 1u); }
  std::uint32_t dst(std::uint32_t slot) override { return model_dst_.at(slot); }
  std::uint64_t vtime(std::uint32_t slot) override {
    return mapped(slot) ? bits::get(m_->vtime_o, map_[slot] * p_.core.time_width, p_.core.time_width) : 0;
  }
  std::uint64_t next() override { return bits::get(m_->next_o, 0, p_.core.time_width); }

 private:
  // One edge's inputs (the ready levels are those after the edge).
  struct Edge {
    bool open = false, rate = false;
    std::uint32_t open_slot = 0, open_dst = 0, rate_slot = 0, rate_value = 0;
    std::uint32_t levels = 0;   // per RTL slot
    std::uint32_t changed = 0;  // the slots whose level an event between pick and commit changed
    bool fresh_rise = false;    // one of them was a fresh flow's first ready
    blocks::PsPacerViolation viol = blocks::PsPacerViolation::None;  // the core's first violation among them
  };
  // A violation the RTL is not shown (no slot of it involved): the core's, the sticky error kept here.
  blocks::PsPacerViolation refused(blocks::PsPacerViolation v) {
    if (v != blocks::PsPacerViolation::None) error_ = true;
    return v;
  }
  // An event that waits for the commit's edge: the core's verdict now, the RTL's at the edge.
  blocks::PsPacerViolation pending(blocks::PsPacerViolation v) {
    if (pend_.viol == blocks::PsPacerViolation::None) pend_.viol = v;
    return v;
  }
  Edge idle() const {
    Edge e;
    e.levels = levels_;
    return e;
  }
  bool mapped(std::uint32_t slot) const { return slot < map_.size() && map_[slot] < p_.num_flows; }
  // The RTL slot of model slot `slot`, given at its first open or rate write.
  std::uint32_t rtl_slot(std::uint32_t slot) {
    if (mapped(slot)) return map_[slot];
    if (used_ == p_.num_flows)
      throw ModelError(where_ + ": PS pacer: a flow in slot " + std::to_string(slot) + " needs an RTL slot more than its " +
                       std::to_string(p_.num_flows) + " (NumFlows: a slot per destination the source sends to)");
    if (slot >= map_.size()) {
      map_.resize(slot + 1, p_.num_flows);
      model_dst_.resize(slot + 1, 0);
    }
    map_[slot] = used_;
    model_of_[used_] = static_cast<int>(slot);
    return used_++;
  }
  [[noreturn]] void unfit(const std::string& what) const {
    throw ModelError(where_ + ": PS pacer in the loop: between the grant of cycle " + std::to_string(now_) +
                     " and its commit the NIC " + what + ": the RTL's one edge cannot take that order");
  }
  void drive(const Edge& e, bool send, std::uint32_t len) {
    bits::set(m_->now_i, 0, p_.core.time_width - 16, now_);
    m_->open_i = e.open;
    bits::set(m_->open_slot_i, 0, slot_w_, e.open_slot);
    bits::set(m_->open_dst_i, 0, p_.dst_width, e.open_dst);
    m_->rate_we_i = e.rate;
    bits::set(m_->rate_slot_i, 0, slot_w_, e.rate_slot);
    bits::set(m_->rate_i, 0, 17, e.rate_value);
    bits::set(m_->ready_i, 0, p_.num_flows, e.levels);
    m_->send_i = send;
    bits::set(m_->len_i, 0, p_.core.len_width, len);
  }
  // Drive and apply an edge without a send.
  blocks::PsPacerViolation apply(const Edge& e, blocks::PsPacerViolation v, const char* what) {
    drive(e, false, 0);
    m_.eval();
    return finish(e, v, what);
  }
  // The edge of the evaluated inputs unless they break the contract (Legal_A would stop the
  // process: no edge, the sticky error kept here); the violation's kind is the core's.
  blocks::PsPacerViolation finish(const Edge& e, blocks::PsPacerViolation v, const char* what) {
    const bool bad = m_->violation_o;
    if (chk_.on()) chk_.expect("violation_o", bad, v != blocks::PsPacerViolation::None);
    if (bad) {
      if (v == blocks::PsPacerViolation::None)
        throw ModelError(where_ + ": PS pacer: the RTL flags the inputs of an edge (" + what + ", violation_o) that its C++ core accepts");
      error_ = true;
    } else {
      m_.edge();
      levels_ = e.levels;
      if (e.open) opened_ |= 1u << e.open_slot;
    }
    m_->open_i = m_->rate_we_i = m_->send_i = 0;
    if (chk_.on()) compare();
    return bad ? v : blocks::PsPacerViolation::None;
  }
  void compare() {
    for (std::uint32_t r = 0; r < used_; ++r) {
      const auto& s = ref_.slot(static_cast<std::uint32_t>(model_of_[r]));
      chk_.expect("vtime_o", static_cast<std::int64_t>(bits::get(m_->vtime_o, r * p_.core.time_width, p_.core.time_width)),
                  static_cast<std::int64_t>(s.vtime));
      chk_.expect("rate_o", static_cast<std::int64_t>(bits::get(m_->rate_o, r * 17, 17)), s.rate);
    }
    chk_.expect("next_o", static_cast<std::int64_t>(next()), static_cast<std::int64_t>(ref_.next()));
    chk_.expect("error_o", m_->error_o || error_, ref_.error());
  }

  PsPacerSetParams p_;
  Model<V> m_;
  Checker chk_;
  std::string where_;
  unsigned slot_w_;
  blocks::PsPacer ref_;
  std::vector<std::uint32_t> map_;        // model slot -> RTL slot (num_flows: none)
  std::vector<std::uint32_t> model_dst_;  // model slot -> its flow's destination
  std::vector<int> model_of_ = std::vector<int>(kPsPacerMaxFlows, -1);  // RTL slot -> model slot
  std::uint32_t used_ = 0;                // RTL slots given
  std::uint32_t levels_ = 0;              // the ready levels the RTL's registers hold
  std::uint32_t opened_ = 0;              // RTL slots opened
  bool granted_ = false;                  // pick() granted; the events wait for its commit
  Edge pend_;                             // those events
  Cycle now_ = 0;
  bool error_ = false;                    // a violation the RTL was not shown an edge of
};

}  // namespace ccnet::rtl_loop
