// RTL in the loop: the BlockSource that hands the router and the NIC the Verilated RTL of the
// blocks a run names (`sim.rtl`, `ccnet run --rtl`), optionally checked against the C++ cores
// (`sim.rtl_check`). Wired in by sim/ only.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <systemc>

#include "blocks/swap.hpp"
#include "rtl_loop/waves.hpp"

namespace ccnet::rtl_loop {

// The blocks that can run as RTL in the loop, comma-separated.
std::string loop_blocks();
// "" if `spec` ("", "all" or a comma-separated list of block names) is valid, else why not.
std::string check_spec(const std::string& spec);
// "" if `mutant` names a mutant build (or is empty), else why not.
std::string check_mutant(const std::string& mutant);

template <class P, class I>
struct LoopSet;

class RtlSource final : public blocks::BlockSource {
 public:
  // `all`: `blocks` came from sim.rtl = all (a network need not use every one of them).
  RtlSource(std::vector<std::string> blocks, bool all, bool check, std::string mutant, sc_core::sc_time period);
  std::unique_ptr<blocks::CreditCounterImpl> credit_counter(const blocks::CreditCounterParams&,
                                                            const std::string& where) const override;
  std::unique_ptr<blocks::OutputArbiterImpl> output_arbiter(const blocks::OutputArbiterParams&,
                                                            const std::string& where) const override;
  std::unique_ptr<blocks::SwitchAllocatorImpl> switch_allocator(const blocks::SwitchAllocatorParams&,
                                                                const std::string& where) const override;
  std::unique_ptr<blocks::EcnMarkerImpl> ecn_marker(const blocks::EcnMarkerParams&, std::uint32_t max_occupancy,
                                                    const std::string& where) const override;
  std::unique_ptr<blocks::RrArbiterImpl> rr_arbiter(const blocks::RrArbiterParams&, const std::string& where) const override;
  std::unique_ptr<blocks::InjectionEngineImpl> injection_engine(const blocks::InjectionEngineParams&,
                                                                const std::string& where) const override;
  std::unique_ptr<blocks::LhrpSchedulerImpl> lhrp_scheduler(const blocks::LhrpSchedulerParams&, std::uint32_t lanes,
                                                            const std::string& where) const override;
  std::unique_ptr<blocks::MvcmMarkerImpl> mvcm_marker(const blocks::MvcmMarkerParams&, std::uint32_t max_occupancy,
                                                      const std::string& where) const override;
  std::unique_ptr<blocks::MvcmFlowCtrlImpl> mvcm_flow_ctrl(const blocks::MvcmFlowCtrlParams&, const std::string& where) const override;
  std::unique_ptr<blocks::SaaLinkUnitImpl> saa_link_unit(const blocks::SaaLinkUnitParams&, const std::string& where) const override;
  std::unique_ptr<blocks::CrpTableImpl> crp_table(const blocks::CrpTableParams&, const std::string& where) const override;
  std::unique_ptr<blocks::CreditArbiterImpl> credit_arbiter(const blocks::CreditArbiterParams&, const std::vector<std::uint32_t>& order,
                                                            const std::vector<std::uint32_t>& dist0,
                                                            const std::vector<std::uint32_t>& weights,
                                                            const std::string& where) const override;
  std::unique_ptr<blocks::PsPacerImpl> ps_pacer(const blocks::PsPacerParams&, std::uint32_t nodes,
                                                const std::string& where) const override;
  // After the network is built: throws config::ConfigError for a block named in sim.rtl that no
  // router or NIC uses, and listing every parameter set the selected blocks needed but this ccnet
  // was not built with (block, parameters, first instance) with the line that adds one.
  void check_complete() const;
  // The models built so far, for waveforms (sim/trace.hpp); null without Verilated models.
  Waves* waves() const { return waves_.get(); }
  // Every parameter set the selected blocks asked for, one line each: "built", "missing" or
  // "beyond-rtl" (no set can take it), a tab, "block parameters", a tab, the first instance.
  std::string survey() const;

 private:
  template <class P, class I>
  std::unique_ptr<I> find(const std::vector<LoopSet<P, I>>& sets, const char* block, const P& p,
                          const std::string& where) const;

  std::vector<std::string> blocks_;
  bool all_;
  bool check_;
  std::string mutant_;
  sc_core::sc_time period_;
  std::unique_ptr<Waves> waves_;
  mutable std::map<std::string, std::string> missing_;  // "block parameters" -> first instance
  mutable std::map<std::string, std::string> unsupported_;  // parameters no set can have -> first instance
  mutable std::set<std::string> used_;                  // blocks some router or NIC asked for
  mutable std::map<std::string, std::pair<std::string, std::string>> needs_;  // "block parameters" -> state, first instance
};

// Null when `spec` selects no block.
std::unique_ptr<RtlSource> make_source(const std::string& spec, bool check, const std::string& mutant,
                                       sc_core::sc_time period);

}  // namespace ccnet::rtl_loop
