// The Verilated parameter sets ccnet was built with (generated from rtl/CMakeLists.txt,
// ccn_rtl_loop_set lines, into <build>/rtl/rtl_loop_sets.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "blocks/swap.hpp"
#include "core/error.hpp"
#include "rtl_loop/waves.hpp"

namespace ccnet::rtl_loop {

// What every adapter needs besides its parameters.
struct AdapterContext {
  std::string where;        // the instance, e.g. "net.router_3 output 2 vc 1"
  bool check = false;       // also run the C++ core and compare
  sc_core::sc_time period;  // of the clock (the cycle in messages)
  const char* block = "";   // the block, e.g. "credit_counter"
  Waves* waves = nullptr;   // where the adapter's models register for waveforms (null: nowhere)
};

// The first difference between the RTL and the C++ core in check mode (sim.rtl_check): a model
// error that also says where, so that the run can write the waves around it (sim/main.cpp).
class Mismatch : public ModelError {
 public:
  Mismatch(const std::string& what, Cycle at, std::string where)
      : ModelError(what), cycle(at), component(std::move(where)) {}
  Cycle cycle;
  std::string component;  // e.g. net.router_3
};

inline unsigned clog2(std::uint64_t n) {  // $clog2
  unsigned w = 0;
  while ((1ull << w) < n) ++w;
  return w;
}
inline unsigned idx_width(std::uint64_t n) { return n > 1 ? clog2(n) : 1u; }

template <class P, class I>
struct LoopSet {
  const char* params;  // RTL parameters in RTL order, "Init=4 MaxGive=4"
  const char* mutant;  // "" or the name of a deliberately broken build (mutation test)
  std::unique_ptr<I> (*make)(const P&, const AdapterContext&);
};

const std::vector<LoopSet<blocks::CreditCounterParams, blocks::CreditCounterImpl>>& credit_counter_sets();
const std::vector<LoopSet<blocks::OutputArbiterParams, blocks::OutputArbiterImpl>>& output_arbiter_sets();
const std::vector<LoopSet<blocks::SwitchAllocatorParams, blocks::SwitchAllocatorImpl>>& switch_allocator_sets();
const std::vector<LoopSet<blocks::RrArbiterParams, blocks::RrArbiterImpl>>& rr_arbiter_sets();
// The ECN marker's parameters with the RTL's occupancy width (the measured buffer's capacity).
struct EcnMarkerSetParams {
  blocks::EcnMarkerParams core;
  std::uint32_t max_occupancy;
};
const std::vector<LoopSet<EcnMarkerSetParams, blocks::EcnMarkerImpl>>& ecn_marker_sets();
// The injection engine in the loop takes packets of up to 2^16 - 1 flits (LenWidth = 16) and one
// BECN per cycle (NumBecn = 1: a NIC completes at most one control packet per cycle).
constexpr unsigned kInjectionLenWidth = 16;
constexpr unsigned kInjectionBecnLanes = 1;
const std::vector<LoopSet<blocks::InjectionEngineParams, blocks::InjectionEngineImpl>>& injection_engine_sets();
// The LHRP scheduler's parameters with its arrival lanes. In the loop it takes packets and
// reservations of up to 2^16 - 1 flits (LenWidth = 16) and keeps 32-bit queued-flit counts and
// backlogs and 64-bit times (QueueWidth = 32, BacklogWidth = 32, TimeWidth = 64: the core's time).
struct LhrpSchedulerSetParams {
  blocks::LhrpSchedulerParams core;
  std::uint32_t lanes;
};
constexpr unsigned kLhrpLenWidth = 16;
const std::vector<LoopSet<LhrpSchedulerSetParams, blocks::LhrpSchedulerImpl>>& lhrp_scheduler_sets();
// The MVCM marker's thresholds with the RTL's occupancy width (the larger of the port's input buffer
// and output queue).
struct MvcmMarkerSetParams {
  blocks::MvcmMarkerParams core;
  std::uint32_t max_occupancy;
};
const std::vector<LoopSet<MvcmMarkerSetParams, blocks::MvcmMarkerImpl>>& mvcm_marker_sets();
// The MVCM flow controller in the loop takes one restart per cycle (NumRestart = 1: a NIC starts at
// most one message per cycle).
constexpr unsigned kMvcmRestartLanes = 1;
const std::vector<LoopSet<blocks::MvcmFlowCtrlParams, blocks::MvcmFlowCtrlImpl>>& mvcm_flow_ctrl_sets();
const std::vector<LoopSet<blocks::SaaLinkUnitParams, blocks::SaaLinkUnitImpl>>& saa_link_unit_sets();
// The CRP table in the loop numbers epochs modulo 2^32 (EpochWidth = 32: a slot or request vector
// is told from the past only 2^31 epochs away, as the core's 64-bit epochs never alias in a run).
constexpr unsigned kCrpEpochWidth = 32;
const std::vector<LoopSet<blocks::CrpTableParams, blocks::CrpTableImpl>>& crp_table_sets();
// The credit arbiter's parameters with its configuration inputs. The RTL starts input i's
// distribution pointer at path (i + DistOffset) mod NumPath; the loop builds DistOffset = 0 and
// wires the paths rotated: the core's path p is the RTL's (p - rotation) mod NumPath, which gives
// every first-path list of the form (i + rotation) mod M (reqgrant's cc.path_start: spread). It
// takes one request per edge (NumReq = 1) and WeightW = the widest weight (1 unweighted).
struct CreditArbiterSetParams {
  blocks::CreditArbiterParams core;
  std::vector<std::uint32_t> order;    // visiting order
  std::uint32_t rotation = 0;          // the first paths' offset
  std::vector<std::uint32_t> weights;  // per input (all 1 unweighted)
  unsigned weight_width = 1;
};
const std::vector<LoopSet<CreditArbiterSetParams, blocks::CreditArbiterImpl>>& credit_arbiter_sets();

// The PS pacer's parameters with the RTL's slots and destination width: a slot per other node (at
// most 32, the RTL's limit: a source that opens flows to more destinations stops with a model
// error), destinations of $clog2(nodes) bits.
constexpr std::uint32_t kPsPacerMaxFlows = 32;  // ccn_ps_pacer's ParamNumFlows_A
struct PsPacerSetParams {
  blocks::PsPacerParams core;
  std::uint32_t num_flows;
  std::uint32_t dst_width;
};
const std::vector<LoopSet<PsPacerSetParams, blocks::PsPacerImpl>>& ps_pacer_sets();

// Every set the shipped configurations need ("block parameters", rtl/rtl_loop_sets.txt), built or
// not: the sets `cmake -DCCNET_RTL_LOOP_SETS=all` adds.
const std::vector<std::string>& listed_sets();

}  // namespace ccnet::rtl_loop
