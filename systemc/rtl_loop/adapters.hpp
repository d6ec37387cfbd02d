// Adapters from the block slots (blocks/swap.hpp) to the Verilated RTL of the block (Verilator's
// plain C++ models, rtl/CMakeLists.txt "RTL in the loop"). Each adapter translates a call of the
// core's interface into the RTL's ports: a pure evaluation drives the inputs and evaluates the
// model (combinational outputs), a commit drives the inputs and applies one rising edge of
// clk_i. In check mode the adapter also runs the C++ core and compares every output of every
// call; the first difference throws ModelError naming cycle, component, block, signal and both
// values. Included only by the generated rtl_loop/sets.cpp, which instantiates the adapters for
// the Verilated parameter sets.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <optional>
#include <sstream>
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
  } else {
    for (unsigned b = 0; b < width; ++b) {
      const unsigned pos = lsb + b;
      const EData m = EData{1} << (pos % 32);
      if ((value >> b) & 1u) port[pos / 32] |= m;
      else port[pos / 32] &= ~m;
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
    for (unsigned b = 0; b < width; ++b) {
      const unsigned pos = lsb + b;
      v |= static_cast<std::uint64_t>((port[pos / 32] >> (pos % 32)) & 1u) << b;
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

// One Verilated model, reset on construction (rst_ni low across a rising edge).
template <class V>
class Model {
 public:
  Model() {
    m_.clk_i = 0;
    m_.rst_ni = 1;
    m_.eval();
    m_.rst_ni = 0;
    m_.eval();
    edge();
    m_.rst_ni = 1;
    m_.eval();
  }
  V* operator->() { return &m_; }
  const V* operator->() const { return &m_; }
  void eval() { m_.eval(); }
  // One rising edge with the inputs as they are, then the combinational outputs settle.
  void edge() {
    m_.clk_i = 1;
    m_.eval();
    m_.clk_i = 0;
    m_.eval();
  }

 private:
  V m_;
};

// The first difference between the RTL and the C++ core.
class Checker {
 public:
  Checker(const AdapterContext& c, const char* block) : c_(c), block_(block) {}
  bool on() const { return c_.check; }
  void expect(const char* signal, std::int64_t rtl, std::int64_t model) const {
    if (rtl == model) return;
    std::ostringstream os;
    os << "RTL check failed at cycle " << static_cast<std::uint64_t>(sc_core::sc_time_stamp() / c_.period) << ": "
       << c_.where << ", block " << block_ << ", signal " << signal << ": rtl=" << rtl << " model=" << model;
    throw ModelError(os.str());
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
  bool commit(std::uint32_t give, bool take) override {
    m_->give_i = static_cast<std::remove_reference_t<decltype(m_->give_i)>>(give);
    m_->take_i = take;
    m_.eval();
    const bool ok = !m_->violation_o;
    if (ref_) chk_.expect("violation_o", !ok, !ref_->commit(give, take));
    m_.edge();
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
    m_.eval();
    if (granted >= 0 && !(m_->gnt_valid_o && static_cast<int>(m_->gnt_vc_o) == granted))
      chk_.expect("gnt_vc_o (-1: gnt_valid_o low; a commit of a VC the RTL does not grant)",
                  m_->gnt_valid_o ? static_cast<std::int64_t>(m_->gnt_vc_o) : -1, granted);
    const bool ok = !m_->violation_o;
    if (ref_) chk_.expect("violation_o", !ok, !ref_->commit(granted, granted_prio, give_vc, give_count));
    m_.edge();
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
        lane_w_(idx_width(p.speedup_in)) {
    if (chk_.on()) ref_.emplace(p);
  }
  void allocate(const blocks::SwitchAllocator::Request* reqs, std::size_t n,
                std::vector<blocks::SwitchAllocator::Grant>& grants) override {
    bits::zero(m_->req_i);
    m_->ack_i = 0;
    prio_.assign(static_cast<std::size_t>(p_.num_in) * p_.reqs_per_in, 0);
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

}  // namespace ccnet::rtl_loop
