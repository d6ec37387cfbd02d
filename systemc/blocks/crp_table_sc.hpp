// Thin signal-accurate wrapper of CrpTable with the ports of rtl/ccn_crp_table.sv (same names,
// Verilator --sc types). Template parameters are the RTL parameters.
//   * vec_o .. charged_o, violation_o: CrpTable::eval() of this cycle's lane (pure);
//   * cells_o, epoch_o (modulo 2^EpochWidth), phase_o, error_o: the core's state (registered);
//   * state: CrpTable::apply() of the lane, then CrpTable::tick(), on clk_i's rising edge;
//     rst_ni: asynchronous, active low.
// Epochs: the core keeps 64-bit epochs, the RTL ports EpochWidth bits. The wrapper reads
// slot_i and vec_epoch_i as the epoch within 2^(EpochWidth-1) of the table's epoch E that has
// those low bits (the RTL's modular comparison), so the core sees full epochs. A value naming an
// epoch before 0 reads as epoch 0: such values are outside the contract where they matter (the
// bench never drives them) and are don't-cares where the operation ignores them.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/crp_table.hpp"
#include "blocks/hw_consts.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class CrpTableMutation {
  None,
  VectorNotAligned,  // the request vector is taken as of the current epoch (no shift)
  ChargeAlwaysSpills,  // spill_i ignored
  PreferIgnored,     // prefer_i ignored
  ShiftBeforeOp,     // at an epoch's last edge the table shifts before the operation lands
};

template <unsigned Cells, unsigned Cmax, unsigned EpochWidth>
class CrpTableSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kCellW = hw::count_width(Cmax);
  static constexpr unsigned kSizeW = hw::count_width(2 * Cmax);
  static constexpr unsigned kPhaseW = hw::index_width(Cmax);
  static constexpr unsigned kLeadW = hw::count_width(Cells);
  static constexpr unsigned kOpW = hw::kCrpOpWidth;
  static constexpr unsigned kRetryW = hw::kCrpRetryWidth;
  static_assert(Cells >= 2 && Cells <= 64, "CrpTableSc: Cells out of 2..64");
  static_assert(Cmax >= 1 && Cmax <= 65535, "CrpTableSc: Cmax out of 1..65535");
  static_assert(EpochWidth >= 2 && EpochWidth <= 32 && Cells <= (1u << (EpochWidth - 1)),
                "CrpTableSc: EpochWidth out of 2..32, or Cells above 2^(EpochWidth-1)");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<kOpW>> op_i{"op_i"};
  sc_core::sc_in<vl::port_t<kSizeW>> size_i{"size_i"};
  sc_core::sc_in<vl::port_t<Cells>> vec_i{"vec_i"};
  sc_core::sc_in<vl::port_t<EpochWidth>> vec_epoch_i{"vec_epoch_i"};
  sc_core::sc_in<bool> reserve_i{"reserve_i"};
  sc_core::sc_in<bool> prefer_i{"prefer_i"};
  sc_core::sc_in<vl::port_t<kLeadW>> lead_i{"lead_i"};
  sc_core::sc_in<vl::port_t<EpochWidth>> slot_i{"slot_i"};
  sc_core::sc_in<vl::port_t<kCellW>> take0_i{"take0_i"};
  sc_core::sc_in<vl::port_t<kCellW>> take1_i{"take1_i"};
  sc_core::sc_in<bool> spill_i{"spill_i"};
  sc_core::sc_out<vl::port_t<Cells>> vec_o{"vec_o"};
  sc_core::sc_out<bool> reserved_o{"reserved_o"};
  sc_core::sc_out<vl::port_t<EpochWidth>> slot_o{"slot_o"};
  sc_core::sc_out<vl::port_t<kCellW>> offset_o{"offset_o"};
  sc_core::sc_out<vl::port_t<kCellW>> take0_o{"take0_o"};
  sc_core::sc_out<vl::port_t<kCellW>> take1_o{"take1_o"};
  sc_core::sc_out<vl::port_t<kRetryW>> retry_o{"retry_o"};
  sc_core::sc_out<bool> pass_o{"pass_o"};
  sc_core::sc_out<vl::port_t<kSizeW>> charged_o{"charged_o"};
  sc_core::sc_out<vl::port_t<Cells * kCellW>> cells_o{"cells_o"};
  sc_core::sc_out<vl::port_t<EpochWidth>> epoch_o{"epoch_o"};
  sc_core::sc_out<vl::port_t<kPhaseW>> phase_o{"phase_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(CrpTableSc);
  explicit CrpTableSc(const sc_core::sc_module_name& name, CrpTableMutation mutation = CrpTableMutation::None)
      : sc_core::sc_module(name), core_(CrpTableParams{Cells, Cmax}), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << op_i << size_i << vec_i << vec_epoch_i << reserve_i << prefer_i << lead_i << slot_i << take0_i << take1_i
              << spill_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const CrpTable& core() const { return core_; }
  // The full epoch a port value names (see above).
  std::uint64_t full_epoch(std::uint64_t low) const {
    const std::uint64_t e = core_.epoch();
    const std::uint64_t d = (low - e) & kEpochMask;
    if ((d >> (EpochWidth - 1)) == 0) return e + d;
    const std::uint64_t back = kEpochMask + 1 - d;
    return back > e ? 0 : e - back;
  }

 private:
  static constexpr std::uint64_t kEpochMask = (std::uint64_t{1} << EpochWidth) - 1;  // EpochWidth <= 32

  CrpLane lane() const {
    CrpLane l;
    l.op = static_cast<CrpOp>(vl::get(op_i.read(), 0, kOpW));
    l.size = static_cast<std::uint32_t>(vl::get(size_i.read(), 0, kSizeW));
    l.vec = vl::get(vec_i.read(), 0, Cells);
    l.vec_epoch = mutation_ == CrpTableMutation::VectorNotAligned ? core_.epoch()
                                                                   : full_epoch(vl::get(vec_epoch_i.read(), 0, EpochWidth));
    l.reserve = reserve_i.read();
    l.prefer = prefer_i.read() && mutation_ != CrpTableMutation::PreferIgnored;
    l.lead = static_cast<std::uint32_t>(vl::get(lead_i.read(), 0, kLeadW));
    l.slot = full_epoch(vl::get(slot_i.read(), 0, EpochWidth));
    l.take0 = static_cast<std::uint32_t>(vl::get(take0_i.read(), 0, kCellW));
    l.take1 = static_cast<std::uint32_t>(vl::get(take1_i.read(), 0, kCellW));
    l.spill = spill_i.read() || mutation_ == CrpTableMutation::ChargeAlwaysSpills;
    return l;
  }

  void comb() {
    const CrpResult r = core_.eval(lane());
    auto vec = vl::zero<vl::port_t<Cells>>();
    vl::set(vec, 0, Cells, r.vec);
    auto slot = vl::zero<vl::port_t<EpochWidth>>();
    vl::set(slot, 0, EpochWidth, r.slot & kEpochMask);
    auto offset = vl::zero<vl::port_t<kCellW>>();
    vl::set(offset, 0, kCellW, r.offset);
    auto take0 = vl::zero<vl::port_t<kCellW>>();
    vl::set(take0, 0, kCellW, r.take0);
    auto take1 = vl::zero<vl::port_t<kCellW>>();
    vl::set(take1, 0, kCellW, r.take1);
    auto retry = vl::zero<vl::port_t<kRetryW>>();
    vl::set(retry, 0, kRetryW, static_cast<std::uint64_t>(r.retry));
    auto charged = vl::zero<vl::port_t<kSizeW>>();
    vl::set(charged, 0, kSizeW, r.charged);
    auto cells = vl::zero<vl::port_t<Cells * kCellW>>();
    for (unsigned i = 0; i < Cells; ++i) vl::set(cells, i * kCellW, kCellW, core_.cell(i));
    auto epoch = vl::zero<vl::port_t<EpochWidth>>();
    vl::set(epoch, 0, EpochWidth, core_.epoch() & kEpochMask);
    auto phase = vl::zero<vl::port_t<kPhaseW>>();
    vl::set(phase, 0, kPhaseW, core_.phase());
    vec_o.write(vec);
    reserved_o.write(r.reserved);
    slot_o.write(slot);
    offset_o.write(offset);
    take0_o.write(take0);
    take1_o.write(take1);
    retry_o.write(retry);
    pass_o.write(r.pass);
    charged_o.write(charged);
    cells_o.write(cells);
    epoch_o.write(epoch);
    phase_o.write(phase);
    violation_o.write(r.violation);
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      const CrpLane l = lane();  // read against the table before the edge
      const bool last = core_.phase() + 1 == Cmax;
      if (mutation_ == CrpTableMutation::ShiftBeforeOp && last) {
        core_.tick();
        core_.apply(l);
      } else {
        core_.apply(l);
        core_.tick();
      }
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  CrpTable core_;
  CrpTableMutation mutation_;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
