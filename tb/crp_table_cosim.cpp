// Co-simulation of ccn_crp_table (RTL) against CrpTable (systemc/blocks/crp_table_sc.hpp).
//
// Stimulus: a participating resource's table under a mix of operations per phase: requests
// (vectors all ones, random or sparse; aligned 0, 1, 2 or many epochs back; with or without
// reservation, preferred slots in and out of the vector, lead 0 or 1 and sometimes beyond the
// table), grants for slots from 3 epochs in the past to the last cell, releases of the bench's
// own earlier reservations (each once, also after their slots shifted out), charges of any size
// with and without spill, and idle cycles; sizes at the edges (1, C_max, C_max + 1, 2 C_max) or
// random. Inputs an operation ignores carry garbage. Heavy phases drain the table so long and
// short retries, conversions and full cells occur; every run crosses many epoch boundaries, and
// the sets with small EpochWidth wrap the epoch counter. Sparse phases (about one operation per
// C_max / 2 cycles) let the shifts refill the table.
// Directed start (runs without --violate, on the paper's Figs. 3-5 set: Cells 32, Cmax 512): the
// worked examples of notes 1.6 on a fresh table, one script per run (run index mod 5), checked
// against the paper's numbers, not only against the model (tables built by grants):
//   0 TV-1, TV-3: destination [30, 40, 100, 512, 100], request x = 80 with vector TTTFF1...: final
//     F T T F F, slot B at offset 472 (timestamp 512 + 472 = 984), 40 + 40, leaving
//     [30, 0, 60, 512, 100]; TV-5: a grant for slot B that no longer fits is converted, nothing
//     changes; a grant for slot C splits 60 / 20.
//   1 TV-2: channel [512, 10, 100, 0, 10, 0], request x = 80 -> T T T F F F 1...; idle to the end
//     of the epoch; TV-6: the table shifted to [10, 100, 0, 10, 0, 512, ...], the old vector
//     aligned (T T F F F 1 ... 1: a 1 entered at the top); TV-4: the grant for slot B (ts 984, now
//     cell 0) takes 10 + 70, leaving [0, 30, 0, 10, 0, 512, ...].
//   2 TV-8 with spill: 32 flits on [0, 10, 100] -> [0, 0, 78]; a request whose vector holds only
//     cells that cannot take x: short retry; the table emptied; TV-9: long retry.
//   3 TV-8 without spill: 32 flits on [0, 10, 100] -> [0, 0, 100], 10 charged.
//   4 TV-7: destination [30, 0, 100], request x = 80 -> slot C at offset 412 (ts 1024 + 412 = 1436),
//     C -> 20.
// A random reset during a script ends it (the coverage line counts the scripts completed).
// With --violate P > 0 each run starts with directed violations (op code 7, a grant of size 0, a
// request vector from a future epoch) and then breaks the contract with probability P per cycle
// (bad op codes, sizes 0 or above 2 C_max, future vectors, slots beyond the table, releases above
// C_max or past the last cell); the RTL assertions must fire exactly when the model reports one.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "blocks/crp_table_sc.hpp"
#include "ccn_crp_table_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class CrpTableBench : public cosim::Harness {
  static constexpr unsigned V = Set::Cells;
  static constexpr unsigned C = Set::Cmax;
  static constexpr unsigned EW = Set::EpochWidth;
  using Model = CrpTableSc<V, C, EW>;
  static constexpr unsigned kCellW = Model::kCellW;
  static constexpr unsigned kSizeW = Model::kSizeW;
  static constexpr unsigned kPhaseW = Model::kPhaseW;
  static constexpr unsigned kLeadW = Model::kLeadW;
  static constexpr unsigned kOpW = Model::kOpW;
  static constexpr unsigned kRetryW = Model::kRetryW;
  static constexpr std::uint64_t kEpochMask = (std::uint64_t{1} << EW) - 1;
  static constexpr std::int64_t kHalf = std::int64_t{1} << (EW - 1);  // epochs either way a port can name
  static constexpr std::uint64_t kMaxSize = (std::uint64_t{1} << kSizeW) - 1;
  static constexpr bool kFig5 = V == 32 && C == 512;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  CrpTableBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), m_("model"), r_("rtl"), model_("model", mutation(opt)), rtl_("rtl") {
    bind(model_, m_);
    bind(rtl_, r_);
    input("op_i", op_);
    input("size_i", size_);
    input("vec_i", vec_);
    input("vec_epoch_i", vec_epoch_);
    input("reserve_i", reserve_);
    input("prefer_i", prefer_);
    input("lead_i", lead_);
    input("slot_i", slot_);
    input("take0_i", take0_);
    input("take1_i", take1_);
    input("spill_i", spill_);
    compare("vec_o", r_.vec, m_.vec);
    compare("reserved_o", r_.reserved, m_.reserved);
    compare("slot_o", r_.slot, m_.slot);
    compare("offset_o", r_.offset, m_.offset);
    compare("take0_o", r_.take0, m_.take0);
    compare("take1_o", r_.take1, m_.take1);
    compare("retry_o", r_.retry, m_.retry);
    compare("pass_o", r_.pass, m_.pass);
    compare("charged_o", r_.charged, m_.charged);
    compare("cells_o", r_.cells, m_.cells);
    compare("epoch_o", r_.epoch, m_.epoch);
    compare("phase_o", r_.phase, m_.phase);
    compare("violation_o", r_.violation, m_.violation);
    compare("error_o", r_.error, m_.error);
    expect_assertions_when(m_.violation);
  }

 private:
  // One side's outputs (signals named <side>_<port>).
  struct Outs {
    explicit Outs(const std::string& side)
        : vec((side + "_vec_o").c_str()),
          reserved((side + "_reserved_o").c_str()),
          slot((side + "_slot_o").c_str()),
          offset((side + "_offset_o").c_str()),
          take0((side + "_take0_o").c_str()),
          take1((side + "_take1_o").c_str()),
          retry((side + "_retry_o").c_str()),
          pass((side + "_pass_o").c_str()),
          charged((side + "_charged_o").c_str()),
          cells((side + "_cells_o").c_str()),
          epoch((side + "_epoch_o").c_str()),
          phase((side + "_phase_o").c_str()),
          violation((side + "_violation_o").c_str()),
          error((side + "_error_o").c_str()) {}
    Sig<V> vec;
    sc_core::sc_signal<bool> reserved;
    Sig<EW> slot;
    Sig<kCellW> offset, take0, take1;
    Sig<kRetryW> retry;
    sc_core::sc_signal<bool> pass;
    Sig<kSizeW> charged;
    Sig<V * kCellW> cells;
    Sig<EW> epoch;
    Sig<kPhaseW> phase;
    sc_core::sc_signal<bool> violation, error;
  };

  template <class Block>
  void bind(Block& b, Outs& o) {
    b.clk_i(clk);
    b.rst_ni(rst_n);
    b.op_i(op_);
    b.size_i(size_);
    b.vec_i(vec_);
    b.vec_epoch_i(vec_epoch_);
    b.reserve_i(reserve_);
    b.prefer_i(prefer_);
    b.lead_i(lead_);
    b.slot_i(slot_);
    b.take0_i(take0_);
    b.take1_i(take1_);
    b.spill_i(spill_);
    b.vec_o(o.vec);
    b.reserved_o(o.reserved);
    b.slot_o(o.slot);
    b.offset_o(o.offset);
    b.take0_o(o.take0);
    b.take1_o(o.take1);
    b.retry_o(o.retry);
    b.pass_o(o.pass);
    b.charged_o(o.charged);
    b.cells_o(o.cells);
    b.epoch_o(o.epoch);
    b.phase_o(o.phase);
    b.violation_o(o.violation);
    b.error_o(o.error);
  }

  static CrpTableMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, CrpTableMutation> kNames[] = {
        {"none", CrpTableMutation::None},
        {"vector_not_aligned", CrpTableMutation::VectorNotAligned},
        {"charge_always_spills", CrpTableMutation::ChargeAlwaysSpills},
        {"prefer_ignored", CrpTableMutation::PreferIgnored},
        {"shift_before_op", CrpTableMutation::ShiftBeforeOp},
    };
    return cosim::mutation(opt, kNames);
  }

  // The operation the bench drives this cycle (full epochs; written to the ports modulo 2^EW).
  struct Op {
    unsigned code = 0;
    std::uint64_t size = 0, vec = 0, vec_epoch = 0, slot = 0, lead = 0, take0 = 0, take1 = 0;
    bool reserve = false, prefer = false, spill = false;
  };
  struct Held {
    std::uint64_t slot, take0, take1;
  };

  std::uint64_t epoch() const { return model_.core().epoch(); }
  std::uint32_t cell(std::uint32_t i) const { return model_.core().cell(i); }

  // A size: an edge (1, C, C + 1, 2C) or any legal one.
  std::uint64_t size(cosim::Rng& rng) {
    switch (rng.below(6)) {
      case 0: return 1;
      case 1: return C;
      case 2: return std::min<std::uint64_t>(C + 1, 2 * C);
      case 3: return 2 * C;
      default: return 1 + rng.below(2 * C);
    }
  }
  // The epoch rel epochs from now, never before epoch 0 and within the ports' reach.
  std::uint64_t near(std::int64_t rel) const {
    const auto e = static_cast<std::int64_t>(epoch());
    rel = std::clamp<std::int64_t>(rel, -std::min<std::int64_t>(e, kHalf), kHalf - 1);
    return static_cast<std::uint64_t>(e + rel);
  }

  Op legal(cosim::Rng& rng) {
    Op op;
    // Sparse phases: about one operation per cell's worth of cycles, so the table refills.
    if (sparse_ && !rng.chance(2.0 / C)) return op;
    const unsigned pick = rng.below(100);
    const unsigned req = mix_[0], gnt = req + mix_[1], rel = gnt + mix_[2], chg = rel + mix_[3];
    if (pick < req) {
      op.code = static_cast<unsigned>(CrpOp::Request);
      op.size = size(rng);
      switch (rng.below(4)) {
        case 0: op.vec = vl::field_mask(V); break;
        case 1: op.vec = rng.bits(V); break;
        case 2: op.vec = rng.bits(V) & rng.bits(V) & rng.bits(V); break;
        default: op.vec = vl::field_mask(V) & ~(std::uint64_t{1} << rng.below(V)); break;
      }
      const std::int64_t back = rng.chance(0.6) ? 0 : rng.chance(0.7) ? 1 + rng.below(2) : rng.below(kHalf);
      op.vec_epoch = near(-back);
      op.reserve = rng.chance(0.75);
      op.prefer = rng.chance(0.35);
      op.slot = near(static_cast<std::int64_t>(rng.below(V + 3)) - 2);
      op.lead = rng.chance(0.7) ? 0 : rng.chance(0.8) ? 1 : rng.bits(kLeadW);
    } else if (pick < gnt) {
      op.code = static_cast<unsigned>(CrpOp::Grant);
      op.size = size(rng);
      op.slot = near(static_cast<std::int64_t>(rng.below(V + 3)) - 3);
      if (op.slot >= epoch() && op.slot - epoch() >= V) op.slot = epoch() + V - 1;
    } else if (pick < rel && !held_.empty()) {
      const std::size_t k = rng.below(static_cast<std::uint32_t>(held_.size()));
      const Held h = held_[k];
      held_.erase(held_.begin() + static_cast<long>(k));
      op.code = static_cast<unsigned>(CrpOp::Release);
      op.slot = h.slot;
      op.take0 = h.take0;
      op.take1 = h.take1;
      // A slot this far back names a future epoch in EW bits: give up the release (its cycles
      // have shifted out anyway).
      if (epoch() > h.slot && epoch() - h.slot >= static_cast<std::uint64_t>(kHalf)) op.code = 0;
    } else if (pick < chg) {
      op.code = static_cast<unsigned>(CrpOp::Charge);
      op.size = rng.chance(0.5) ? rng.below(2 * C + 1) : rng.bits(kSizeW);
      op.spill = rng.chance(0.5);
    }
    return op;
  }

  // A deliberate contract violation (or a legal op where the set cannot express that one).
  Op violation(cosim::Rng& rng, unsigned kind) {
    Op op;
    op.vec = vl::field_mask(V);
    op.vec_epoch = epoch();
    op.slot = epoch();
    switch (kind) {
      case 0: op.code = 5 + rng.below(3); break;  // no such op
      case 1:
        op.code = static_cast<unsigned>(rng.chance(0.5) ? CrpOp::Request : CrpOp::Grant);
        op.size = rng.chance(0.5) || 2 * C == kMaxSize ? 0 : 2 * C + 1 + rng.below(static_cast<std::uint32_t>(kMaxSize - 2 * C));
        break;
      case 2:  // a vector from the future
        op.code = static_cast<unsigned>(CrpOp::Request);
        op.size = size(rng);
        op.vec_epoch = epoch() + 1 + rng.below(kHalf - 1);
        break;
      case 3:  // a slot beyond the last cell (if the port can name one)
        op.code = static_cast<unsigned>(rng.chance(0.5) ? CrpOp::Grant : CrpOp::Release);
        op.size = size(rng);
        if (static_cast<std::int64_t>(V) < kHalf) op.slot = epoch() + V + rng.below(static_cast<std::uint32_t>(kHalf - V));
        else op.code = 0;
        break;
      default: {  // a release above C_max, or into the cell after the last
        op.code = static_cast<unsigned>(CrpOp::Release);
        const std::uint32_t i = rng.below(V);
        op.slot = epoch() + i;
        if (i == V - 1 && rng.chance(0.5)) {
          op.take1 = 1 + rng.below(C);
        } else {
          op.take0 = C - cell(i) + 1 + rng.below(cell(i));
          if (cell(i) == 0) op.code = 0;
        }
        break;
      }
    }
    return op;
  }

  // ---- directed start (the worked examples; see the top of the file) ----
  struct DStep {
    Op op;                        // this cycle's operation (code 0: idle)
    std::uint64_t at_epoch = 0;   // idle until the table is in this epoch
    std::function<void()> check;  // the RTL's outputs this cycle (cells: before the operation)
  };

  static Op grant(std::uint64_t slot, std::uint64_t x) {
    Op o;
    o.code = static_cast<unsigned>(CrpOp::Grant);
    o.slot = slot;
    o.size = x;
    return o;
  }
  static Op request(std::uint64_t x, std::uint64_t vec, bool reserve, std::uint64_t vec_epoch = 0) {
    Op o;
    o.code = static_cast<unsigned>(CrpOp::Request);
    o.size = x;
    o.vec = vec;
    o.vec_epoch = vec_epoch;
    o.reserve = reserve;
    return o;
  }
  static Op charge(std::uint64_t n, bool spill) {
    Op o;
    o.code = static_cast<unsigned>(CrpOp::Charge);
    o.size = n;
    o.spill = spill;
    return o;
  }

  void dfail(const std::string& what) const {
    std::printf("ERROR block=crp_table set=%s: directed script %u (notes 1.6) at cycle %llu: %s\n", Set::kName,
                static_cast<unsigned>(run_ % 5), static_cast<unsigned long long>(cycle()), what.c_str());
  }
  template <class T>
  static std::uint64_t rtl(const sc_core::sc_signal<T>& s, unsigned width) {
    return vl::get(s.read(), 0, width);
  }
  // The RTL's first cells are `want` and (from > 0) cells from .. V-1 are full.
  void cells_are(std::initializer_list<std::uint32_t> want, unsigned from = 0) const {
    std::uint32_t i = 0;
    bool ok = true;
    for (const std::uint32_t w : want) ok &= vl::get(r_.cells.read(), i++ * kCellW, kCellW) == w;
    for (i = from; from > 0 && i < V; ++i) ok &= vl::get(r_.cells.read(), i * kCellW, kCellW) == C;
    if (!ok) {
      std::string got;
      for (i = 0; i < 6; ++i) got += std::to_string(vl::get(r_.cells.read(), i * kCellW, kCellW)) + " ";
      dfail("cells are " + got + "...");
    }
  }
  void reserved_is(std::uint64_t slot, std::uint64_t offset, std::uint64_t take0, std::uint64_t take1) const {
    if (!r_.reserved.read() || rtl(r_.slot, EW) != slot || rtl(r_.offset, kCellW) != offset || rtl(r_.take0, kCellW) != take0 ||
        rtl(r_.take1, kCellW) != take1)
      dfail("not reserved slot " + std::to_string(slot) + " at offset " + std::to_string(offset) + ", " +
            std::to_string(take0) + " + " + std::to_string(take1));
  }
  void vec_is(std::uint64_t want, const char* what) const {
    if (rtl(r_.vec, V) != want) dfail(std::string("vector is not ") + what);
  }
  void retry_is(CrpRetry want) const {
    if (r_.reserved.read() || rtl(r_.retry, kRetryW) != static_cast<unsigned>(want))
      dfail(want == CrpRetry::Long ? "no long retry" : "no short retry");
  }

  using Build = std::initializer_list<std::pair<std::uint64_t, std::uint64_t>>;  // grants (slot, x)

  std::vector<DStep> script(unsigned k) const {
    const std::uint64_t ones = vl::field_mask(V);
    std::vector<DStep> s;
    switch (k) {
      case 0:
        for (const auto& [slot, x] : Build{{0, 482}, {1, 472}, {2, 412}, {4, 412}}) s.push_back({grant(slot, x), 0, {}});
        s.push_back({request(80, ones & ~std::uint64_t{0x18}, true), 0, [this, ones] {
                       cells_are({30, 40, 100, 512, 100});
                       vec_is(0x6 | (ones & ~std::uint64_t{0x1f}), "F T T F F 1 ...");
                       reserved_is(1, 472, 40, 40);
                     }});
        s.push_back({grant(1, 80), 0, [this] {
                       cells_are({30, 0, 60, 512, 100});
                       if (r_.pass.read()) dfail("the grant for B passed though B + C = 60 < 80");
                     }});
        s.push_back({grant(2, 80), 0, [this] {
                       cells_are({30, 0, 60, 512, 100});
                       if (!r_.pass.read() || rtl(r_.take0, kCellW) != 60 || rtl(r_.take1, kCellW) != 20)
                         dfail("the grant for C did not split 60 / 20");
                     }});
        s.push_back({Op{}, 0, [this] { cells_are({30, 0, 0, 492, 100}); }});
        break;
      case 1: {
        const std::uint64_t tv2 = ones & ~std::uint64_t{0x38};  // T T T F F F 1 ...
        for (const auto& [slot, x] : Build{{1, 502}, {2, 412}, {3, 512}, {4, 502}, {5, 512}})
          s.push_back({grant(slot, x), 0, {}});
        s.push_back({request(80, ones, false), 0, [this, tv2] {
                       cells_are({512, 10, 100, 0, 10, 0}, 6);
                       vec_is(tv2, "T T T F F F 1 ...");
                     }});
        s.push_back({request(80, tv2, false, 0), 1, [this, ones] {
                       cells_are({10, 100, 0, 10, 0}, 5);
                       if (rtl(r_.epoch, EW) != 1) dfail("not in epoch 1");
                       vec_is(ones & ~std::uint64_t{0x1c}, "T T F F F 1 ... 1 (aligned, a 1 entered at the top)");
                     }});
        s.push_back({grant(1, 80), 1, [this] {
                       if (!r_.pass.read() || rtl(r_.take0, kCellW) != 10 || rtl(r_.take1, kCellW) != 70)
                         dfail("the grant for B did not take 10 + 70");
                     }});
        s.push_back({Op{}, 1, [this] { cells_are({0, 30, 0, 10, 0}, 5); }});
        break;
      }
      case 2:
      case 3: {
        const bool spill = k == 2;
        for (const auto& [slot, x] : Build{{0, 512}, {1, 502}, {2, 412}}) s.push_back({grant(slot, x), 0, {}});
        s.push_back({charge(32, spill), 0, [this, spill] {
                       cells_are({0, 10, 100}, 3);
                       if (rtl(r_.charged, kSizeW) != (spill ? 32u : 10u)) dfail(spill ? "not 32 charged" : "not 10 charged");
                     }});
        if (!spill) {
          s.push_back({Op{}, 0, [this] { cells_are({0, 0, 100}, 3); }});
          break;
        }
        s.push_back({request(80, 0x3, true), 0, [this] {
                       cells_are({0, 0, 78}, 3);
                       vec_is(0, "empty");
                       retry_is(CrpRetry::Short);
                     }});
        s.push_back({grant(2, 78 + 512), 0, {}});
        for (std::uint64_t slot = 4; slot < V; slot += 2) s.push_back({grant(slot, 2 * C), 0, {}});
        s.push_back({request(80, ones, true), 0, [this] {
                       for (unsigned i = 0; i < V; ++i)
                         if (vl::get(r_.cells.read(), i * kCellW, kCellW) != 0) dfail("the table is not empty");
                       vec_is(0, "empty");
                       retry_is(CrpRetry::Long);
                     }});
        break;
      }
      default:
        for (const auto& [slot, x] : Build{{0, 482}, {1, 512}, {2, 412}}) s.push_back({grant(slot, x), 0, {}});
        s.push_back({request(80, ones, true), 0, [this, ones] {
                       cells_are({30, 0, 100}, 3);
                       vec_is(ones & ~std::uint64_t{0x3}, "F F T 1 ...");
                       reserved_is(2, 412, 80, 0);
                     }});
        s.push_back({Op{}, 0, [this] { cells_are({30, 0, 20}, 3); }});
        break;
    }
    return s;
  }

  // The directed operation of this cycle (false: the script is over or was cut by a reset).
  bool directed(Op& op) {
    cur_ = nullptr;
    if (!kFig5 || directed_violations() || !clean_ || dpos_ >= script_.size()) return false;
    const DStep& st = script_[dpos_];
    if (epoch() < st.at_epoch) return true;  // idle
    op = st.op;
    cur_ = &st;
    if (++dpos_ == script_.size()) ++cov_.directed;
    return true;
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    if (in_reset) {
      held_.clear();
      clean_ = cycle() < 2;
      if (cycle() == 0) ++run_;
      if (clean_ && kFig5) script_ = script(static_cast<unsigned>(run_ % 5));
      dpos_ = 0;
      cur_ = nullptr;
    }
    if (phase_.left == 0) {
      // Per phase: the operation mix (percent: request, grant, release, charge; the rest idle).
      static const unsigned kMixes[][4] = {{40, 20, 15, 15}, {70, 10, 5, 10}, {20, 50, 5, 20}, {10, 10, 10, 60}, {5, 5, 5, 5}};
      const unsigned m = rng.below(5);
      std::copy(kMixes[m], kMixes[m] + 4, mix_);
      sparse_ = C > 2 && rng.chance(0.4);
    }
    phase_.step(rng);
    Op op;
    const std::uint64_t c = cycle();
    const bool violate_runs = directed_violations();
    if (in_reset) {
      // Nothing to do (the table's epoch restarts at 0: epochs drawn now would be stale).
    } else if (violate_runs && c >= 2 && c <= 4) {
      op = violation(rng, c == 2 ? 0 : c == 3 ? 1 : 2);
      if (c == 2) op.code = 7;
      if (c == 3) op.size = 0;
    } else if (directed(op)) {
      // directed
    } else if (violate_runs && rng.chance(opt().violate)) {
      op = violation(rng, rng.below(5));
    } else {
      op = legal(rng);
    }
    // Garbage in what the operation ignores.
    const auto code = static_cast<CrpOp>(op.code);
    if (code != CrpOp::Request && code != CrpOp::Grant && code != CrpOp::Charge) op.size = rng.bits(kSizeW);
    if (code != CrpOp::Request) {
      op.vec = rng.bits(V);
      op.vec_epoch = rng.bits(EW);
      op.reserve = rng.chance(0.5);
      op.prefer = rng.chance(0.5);
      op.lead = rng.bits(kLeadW);
    }
    if (code != CrpOp::Release) {
      op.take0 = rng.bits(kCellW);
      op.take1 = rng.bits(kCellW);
    }
    if (code != CrpOp::Grant && code != CrpOp::Release && !(code == CrpOp::Request && op.prefer)) op.slot = rng.bits(EW);
    if (code != CrpOp::Charge) op.spill = rng.chance(0.5);
    write(op);
  }

  void write(const Op& op) {
    auto w = [](auto& sig, unsigned width, std::uint64_t v) {
      auto x = vl::zero<std::decay_t<decltype(sig.read())>>();
      vl::set(x, 0, width, v);
      sig.write(x);
    };
    w(op_, kOpW, op.code);
    w(size_, kSizeW, op.size);
    w(vec_, V, op.vec);
    w(vec_epoch_, EW, op.vec_epoch & kEpochMask);
    reserve_.write(op.reserve);
    prefer_.write(op.prefer);
    w(lead_, kLeadW, op.lead);
    w(slot_, EW, op.slot & kEpochMask);
    w(take0_, kCellW, op.take0);
    w(take1_, kCellW, op.take1);
    spill_.write(op.spill);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    if (cur_ != nullptr && cur_->check) cur_->check();
    const auto code = static_cast<CrpOp>(vl::get(op_.read(), 0, kOpW));
    const bool bad = m_.violation.read();
    cov_.violations += bad;
    if (bad) return;
    const auto retry = static_cast<CrpRetry>(vl::get(m_.retry.read(), 0, kRetryW));
    switch (code) {
      case CrpOp::Request:
        ++cov_.requests;
        cov_.aligned_back += vl::get(vec_epoch_.read(), 0, EW) != (epoch() & kEpochMask);
        if (m_.reserved.read()) {
          ++cov_.reserved;
          cov_.split += vl::get(m_.take1.read(), 0, kCellW) > 0;
          cov_.preferred += prefer_.read() && vl::get(m_.slot.read(), 0, EW) == vl::get(slot_.read(), 0, EW);
          if (held_.size() < 64)
            held_.push_back({full(vl::get(m_.slot.read(), 0, EW)), vl::get(m_.take0.read(), 0, kCellW),
                             vl::get(m_.take1.read(), 0, kCellW)});
        }
        cov_.short_retries += retry == CrpRetry::Short;
        cov_.long_retries += retry == CrpRetry::Long;
        break;
      case CrpOp::Grant:
        ++cov_.grants;
        cov_.converted += !m_.pass.read();
        break;
      case CrpOp::Release: ++cov_.releases; break;
      case CrpOp::Charge:
        ++cov_.charges;
        cov_.charge_short += vl::get(m_.charged.read(), 0, kSizeW) < vl::get(size_.read(), 0, kSizeW);
        break;
      default: break;
    }
    unsigned zero = 0;
    for (unsigned i = 0; i < V; ++i) zero += cell(i) == 0;
    cov_.full_table_cycles += zero == V;
    cov_.shifts += model_.core().phase() + 1 == C;
  }

  std::uint64_t full(std::uint64_t low) const { return model_.full_epoch(low); }

  std::string coverage() const override {
    return cosim::counts({{"requests", cov_.requests},
                          {"reserved", cov_.reserved},
                          {"split_reservations", cov_.split},
                          {"preferred", cov_.preferred},
                          {"aligned_back", cov_.aligned_back},
                          {"short_retries", cov_.short_retries},
                          {"long_retries", cov_.long_retries},
                          {"grants", cov_.grants},
                          {"converted", cov_.converted},
                          {"releases", cov_.releases},
                          {"charges", cov_.charges},
                          {"charges_short", cov_.charge_short},
                          {"full_table_cycles", cov_.full_table_cycles},
                          {"shifts", cov_.shifts},
                          {"violations", cov_.violations},
                          {"directed_scripts", cov_.directed}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t requests = 0, reserved = 0, split = 0, preferred = 0, aligned_back = 0, short_retries = 0,
                  long_retries = 0, grants = 0, converted = 0, releases = 0, charges = 0, charge_short = 0,
                  full_table_cycles = 0, shifts = 0, violations = 0, directed = 0;
  } cov_;

  Sig<kOpW> op_{"op_i"};
  Sig<kSizeW> size_{"size_i"};
  Sig<V> vec_{"vec_i"};
  Sig<EW> vec_epoch_{"vec_epoch_i"};
  sc_core::sc_signal<bool> reserve_{"reserve_i"}, prefer_{"prefer_i"};
  Sig<kLeadW> lead_{"lead_i"};
  Sig<EW> slot_{"slot_i"};
  Sig<kCellW> take0_{"take0_i"}, take1_{"take1_i"};
  sc_core::sc_signal<bool> spill_{"spill_i"};
  Outs m_, r_;
  Model model_;
  typename Set::Rtl rtl_;
  cosim::Phase phase_;
  unsigned mix_[4] = {40, 20, 15, 15};
  bool sparse_ = false;
  std::vector<Held> held_;  // the bench's reservations, released at most once each
  bool clean_ = false;      // no reset since the run's first one (the directed checks hold)
  std::uint64_t run_ = ~std::uint64_t{0};  // runs started - 1 (the seed is --seed + run_)
  std::vector<DStep> script_;       // this run's directed script
  std::size_t dpos_ = 0;            // its next step
  const DStep* cur_ = nullptr;      // the step driven this cycle (checked when sampled)
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "crp_table");
  return cosim::dispatch<ccn_sets::crp_table_sets, CrpTableBench>(opt);
}
