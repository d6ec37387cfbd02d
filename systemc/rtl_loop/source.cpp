#include "rtl_loop/source.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "blocks/hw_consts.hpp"
#include "core/config.hpp"
#include "rtl_loop/sets.hpp"

namespace ccnet::rtl_loop {

namespace {

// Blocks that can be swapped, in the order of `--rtl all`.
const std::vector<std::string> kLoopBlocks = {"credit_counter",   "output_arbiter", "switch_allocator", "rr_arbiter",
                                              "ecn_marker",       "injection_engine", "lhrp_scheduler", "mvcm_marker",
                                              "mvcm_flow_ctrl",   "saa_link_unit",    "crp_table",      "credit_arbiter",
                                              "ps_pacer"};
// Mirrored blocks with RTL that the loop cannot swap yet (docs/rtl-verification.md): none.
const std::vector<std::string> kNotYet = {};

std::vector<std::string> split(const std::string& spec) {
  std::vector<std::string> out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    out.push_back(item);
  }
  return out;
}

std::string key(const blocks::CreditCounterParams& p) {
  return "Init=" + std::to_string(p.init) + " MaxGive=" + std::to_string(p.max_give);
}
std::string key(const blocks::OutputArbiterParams& p) {
  return "NumVc=" + std::to_string(p.num_vc) + " NumPrio=" + std::to_string(p.num_prio) +
         " Credits=" + std::to_string(p.credits) + " MaxGive=" + std::to_string(p.max_give) +
         " Vct=" + (p.vct ? "1" : "0") + " LenW=" + std::to_string(clog2(p.credits + 2ull));
}
std::string key(const blocks::SwitchAllocatorParams& p) {
  return "NumIn=" + std::to_string(p.num_in) + " NumOut=" + std::to_string(p.num_out) +
         " ReqsPerIn=" + std::to_string(p.reqs_per_in) + " NumPrio=" + std::to_string(p.num_prio) +
         " SpeedupIn=" + std::to_string(p.speedup_in) + " SpeedupOut=" + std::to_string(p.speedup_out);
}

std::string key(const blocks::RrArbiterParams& p) {
  return "NumReq=" + std::to_string(p.num_req) + " NumPrio=" + std::to_string(p.num_prio) + " Lock=" + (p.lock ? "1" : "0") +
         " NumPass=1 NumGroup=0";
}
std::string key(const blocks::InjectionEngineParams& p) {
  return "NumQueues=" + std::to_string(p.num_queues) + " LenWidth=" + std::to_string(kInjectionLenWidth) +
         " IpdUnit=" + std::to_string(p.ipd_unit) + " CctiIncrease=" + std::to_string(p.ccti_increase) +
         " CctiLimit=" + std::to_string(p.ccti_limit) + " TimerPeriod=" + std::to_string(p.timer_period) +
         " NumBecn=" + std::to_string(kInjectionBecnLanes);
}

std::string key(const LhrpSchedulerSetParams& p) {
  return "NumEndpoints=" + std::to_string(p.core.endpoints) + " NumLanes=" + std::to_string(p.lanes) +
         " LenWidth=" + std::to_string(kLhrpLenWidth) + " QueueWidth=32 TimeWidth=64 BacklogWidth=32 Threshold=" +
         std::to_string(p.core.threshold);
}

std::string key(const MvcmMarkerSetParams& p) {
  return "OccWidth=" + std::to_string(std::max(1u, clog2(p.max_occupancy + 1ull))) +
         " InThreshold=" + std::to_string(p.core.in_threshold) + " OutThreshold=" + std::to_string(p.core.out_threshold);
}
std::string key(const blocks::MvcmFlowCtrlParams& p) {
  return "NumFlows=" + std::to_string(p.num_flows) + " DwMax=" + std::to_string(p.dw_max) + " WsFactor=" +
         std::to_string(p.ws_factor) + " WsIncreases=" + std::to_string(p.ws_increases) + " RttMin=" +
         std::to_string(p.rtt_min) + " NumRestart=" + std::to_string(kMvcmRestartLanes);
}
std::string key(const blocks::SaaLinkUnitParams& p) {
  return "NumLanes=1 WeightW=" + std::to_string(p.weight_width) + " CountW=" + std::to_string(p.count_width);
}

std::string key(const blocks::CrpTableParams& p) {
  return "Cells=" + std::to_string(p.cells) + " Cmax=" + std::to_string(p.cmax) + " EpochWidth=" + std::to_string(kCrpEpochWidth);
}
std::string key(const CreditArbiterSetParams& p) {
  return "NumIn=" + std::to_string(p.core.num_inputs) + " NumPath=" + std::to_string(p.core.num_paths) +
         " Credits=" + std::to_string(p.core.credits) + " MaxReq=" + std::to_string(p.core.max_requests) +
         " NumReq=1 StrictPath=" + (p.core.strict_path ? "1" : "0") + " Weighted=" + (p.core.weighted ? "1" : "0") +
         " WeightW=" + std::to_string(p.weight_width) + " DistOffset=0";
}

std::string key(const PsPacerSetParams& p) {
  return "NumFlows=" + std::to_string(p.num_flows) + " DstW=" + std::to_string(p.dst_width) + " TimeW=" +
         std::to_string(p.core.time_width) + " LenW=" + std::to_string(p.core.len_width) + " Join=" + (p.core.join ? "1" : "0") +
         " DivBits=" + std::to_string(p.core.div_bits);
}

// The rtl/CMakeLists.txt line that builds the set "block P1=v1 P2=v2": ccn_rtl_loop_set(block
// p1v1_p2v2 P1=v1 P2=v2) (the set's name is its parameters, lower case).
std::string set_line(const std::string& set) {
  const auto sp = set.find(' ');
  const std::string block = set.substr(0, sp), params = sp == std::string::npos ? "" : set.substr(sp + 1);
  std::string name;
  for (char c : params) {
    if (c == '=') continue;
    name += c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return "ccn_rtl_loop_set(" + block + " " + name + " " + params + ")";
}

}  // namespace

RtlSource::RtlSource(std::vector<std::string> blocks, bool all, bool check, std::string mutant, sc_core::sc_time period)
    : blocks_(std::move(blocks)), all_(all), check_(check), mutant_(std::move(mutant)), period_(period), waves_(make_waves()) {}

std::string key(const EcnMarkerSetParams& p) {
  const unsigned w = std::max(1u, clog2(p.max_occupancy + 1ull));
  return "OccWidth=" + std::to_string(w) + " Threshold=" + std::to_string(p.core.threshold) +
         " MarkingRate=" + std::to_string(p.core.marking_rate);
}

template <class P, class I>
std::unique_ptr<I> RtlSource::find(const std::vector<LoopSet<P, I>>& sets, const char* block, const P& p,
                                   const std::string& where) const {
  if (std::find(blocks_.begin(), blocks_.end(), block) == blocks_.end()) return nullptr;
  used_.insert(block);
  const std::string k = key(p);
  const LoopSet<P, I>* real = nullptr;
  for (const auto& s : sets) {
    if (k != s.params) continue;
    if (!mutant_.empty() && mutant_ == s.mutant) {
      needs_.emplace(std::string(block) + " " + k, std::make_pair("built", where));
      return s.make(p, AdapterContext{where, check_, period_, block, waves_.get()});
    }
    if (*s.mutant == '\0') real = &s;
  }
  needs_.emplace(std::string(block) + " " + k, std::make_pair(real ? "built" : "missing", where));
  if (real) return real->make(p, AdapterContext{where, check_, period_, block, waves_.get()});
  missing_.emplace(std::string(block) + " " + k, where);  // the first instance that needs it
  return nullptr;
}

std::unique_ptr<blocks::CreditCounterImpl> RtlSource::credit_counter(const blocks::CreditCounterParams& p,
                                                                     const std::string& where) const {
  return find(credit_counter_sets(), "credit_counter", p, where);
}
std::unique_ptr<blocks::OutputArbiterImpl> RtlSource::output_arbiter(const blocks::OutputArbiterParams& p,
                                                                     const std::string& where) const {
  return find(output_arbiter_sets(), "output_arbiter", p, where);
}
std::unique_ptr<blocks::SwitchAllocatorImpl> RtlSource::switch_allocator(const blocks::SwitchAllocatorParams& p,
                                                                         const std::string& where) const {
  // No set can be built beyond the RTL's requesters per input (a VOQ router has VCs x outputs).
  if (p.reqs_per_in > hw::kMaxVcs && std::find(blocks_.begin(), blocks_.end(), "switch_allocator") != blocks_.end()) {
    used_.insert("switch_allocator");
    needs_.emplace("switch_allocator " + key(p), std::make_pair("beyond-rtl", where));
    unsupported_.emplace("switch_allocator " + key(p) + ": ReqsPerIn " + std::to_string(p.reqs_per_in) +
                             " is above the RTL's limit of " + std::to_string(hw::kMaxVcs) +
                             " requesters per input (ccn_pkg::MaxVcs; VOQ routers have VCs x outputs of them)",
                         where);
    return nullptr;
  }
  return find(switch_allocator_sets(), "switch_allocator", p, where);
}

std::unique_ptr<blocks::EcnMarkerImpl> RtlSource::ecn_marker(const blocks::EcnMarkerParams& p, std::uint32_t max_occupancy,
                                                             const std::string& where) const {
  return find(ecn_marker_sets(), "ecn_marker", EcnMarkerSetParams{p, max_occupancy}, where);
}

std::unique_ptr<blocks::RrArbiterImpl> RtlSource::rr_arbiter(const blocks::RrArbiterParams& p, const std::string& where) const {
  return find(rr_arbiter_sets(), "rr_arbiter", p, where);
}
std::unique_ptr<blocks::InjectionEngineImpl> RtlSource::injection_engine(const blocks::InjectionEngineParams& p,
                                                                         const std::string& where) const {
  return find(injection_engine_sets(), "injection_engine", p, where);
}

std::unique_ptr<blocks::LhrpSchedulerImpl> RtlSource::lhrp_scheduler(const blocks::LhrpSchedulerParams& p,
                                                                     std::uint32_t lanes, const std::string& where) const {
  return find(lhrp_scheduler_sets(), "lhrp_scheduler", LhrpSchedulerSetParams{p, lanes}, where);
}

std::unique_ptr<blocks::MvcmMarkerImpl> RtlSource::mvcm_marker(const blocks::MvcmMarkerParams& p, std::uint32_t max_occupancy,
                                                               const std::string& where) const {
  return find(mvcm_marker_sets(), "mvcm_marker", MvcmMarkerSetParams{p, max_occupancy}, where);
}
std::unique_ptr<blocks::MvcmFlowCtrlImpl> RtlSource::mvcm_flow_ctrl(const blocks::MvcmFlowCtrlParams& p,
                                                                   const std::string& where) const {
  return find(mvcm_flow_ctrl_sets(), "mvcm_flow_ctrl", p, where);
}
std::unique_ptr<blocks::SaaLinkUnitImpl> RtlSource::saa_link_unit(const blocks::SaaLinkUnitParams& p,
                                                                 const std::string& where) const {
  return find(saa_link_unit_sets(), "saa_link_unit", p, where);
}

std::unique_ptr<blocks::CrpTableImpl> RtlSource::crp_table(const blocks::CrpTableParams& p, const std::string& where) const {
  return find(crp_table_sets(), "crp_table", p, where);
}
std::unique_ptr<blocks::CreditArbiterImpl> RtlSource::credit_arbiter(const blocks::CreditArbiterParams& p,
                                                                     const std::vector<std::uint32_t>& order,
                                                                     const std::vector<std::uint32_t>& dist0,
                                                                     const std::vector<std::uint32_t>& weights,
                                                                     const std::string& where) const {
  // The core (constructed first) accepted the configuration; the RTL takes first paths
  // (i + rotation) mod M only, and weights of up to 16 bits.
  CreditArbiterSetParams s{p, order, dist0.empty() ? 0u : dist0[0], weights, 1};
  if (s.weights.empty()) s.weights.assign(p.num_inputs, 1);
  bool rotated = true;
  for (std::uint32_t i = 0; i < dist0.size(); ++i) rotated = rotated && dist0[i] == (i + s.rotation) % p.num_paths;
  std::uint32_t wmax = 1;
  if (p.weighted)
    for (std::uint32_t w : s.weights) wmax = std::max(wmax, w);
  s.weight_width = clog2(wmax + 1ull);
  const bool selected = std::find(blocks_.begin(), blocks_.end(), "credit_arbiter") != blocks_.end();
  if (selected && (!rotated || s.weight_width > 16)) {
    used_.insert("credit_arbiter");
    needs_.emplace("credit_arbiter " + key(s), std::make_pair("beyond-rtl", where));
    unsupported_.emplace("credit_arbiter " + key(s) + ": " +
                             (!rotated ? std::string("first paths that are not (input + offset) mod NumPath (the RTL's "
                                                     "DistOffset; e.g. reqgrant's cc.path_start: zero)")
                                       : "a weight of " + std::to_string(wmax) + " is wider than the RTL's 16 bits (WeightW)"),
                         where);
    return nullptr;
  }
  return find(credit_arbiter_sets(), "credit_arbiter", s, where);
}

std::unique_ptr<blocks::PsPacerImpl> RtlSource::ps_pacer(const blocks::PsPacerParams& p, std::uint32_t nodes,
                                                         const std::string& where) const {
  // The adapter applies the NIC's events as edges of their own (PsPacerRtl); an iterative divider
  // would need its busy cycles stepped in time, which it does not do.
  if (p.div_bits != 0)
    throw config::ConfigError("sim.rtl: " + where + ": the PS pacer's iterative dividers (cc.ps_div_bits = " +
                              std::to_string(p.div_bits) +
                              ") do not run in the loop; use cc.ps_div_bits: 0 or run ps_pacer as C++ (name the other "
                              "blocks in sim.rtl)");
  const std::uint32_t flows = std::min<std::uint32_t>(std::max<std::uint32_t>(nodes, 2) - 1, kPsPacerMaxFlows);
  return find(ps_pacer_sets(), "ps_pacer", PsPacerSetParams{p, flows, idx_width(nodes)}, where);
}

void RtlSource::check_complete() const {
  if (!all_)
    for (const auto& b : blocks_)
      if (!used_.count(b))
        throw config::ConfigError("sim.rtl: no router, NIC or mechanism module of this network uses block " + b +
                                  " (so it would run no RTL; name only blocks the network has, or all)");
  if (!unsupported_.empty()) {
    std::string msg = "sim.rtl: the RTL of a block cannot take the parameters this network needs:";
    for (const auto& [set, where] : unsupported_) msg += "\n  " + set + " (first needed by " + where + ")";
    msg += "\nrun those blocks as C++: name the other blocks in sim.rtl instead of all (docs/rtl-verification.md, \"RTL in the loop\")";
    throw config::ConfigError(msg);
  }
  if (missing_.empty()) return;
  std::string msg = "sim.rtl: this ccnet was not built with the RTL parameter sets the network needs:";
  const auto& listed = listed_sets();
  std::vector<std::string> unlisted;
  for (const auto& [set, where] : missing_) {
    const bool in_list = std::find(listed.begin(), listed.end(), set) != listed.end();
    msg += "\n  " + set + " (first needed by " + where + (in_list ? "; a set of the shipped configurations)" : ")");
    if (!in_list) unlisted.push_back(set);
  }
  if (unlisted.size() < missing_.size())
    msg += "\nthe shipped configurations' sets (rtl/rtl_loop_sets.txt) are built by configuring with "
           "-DCCNET_RTL_LOOP_SETS=all and rebuilding (about a minute of CPU per set)";
  if (!unlisted.empty()) {
    msg += "\nadd these lines to rtl/CMakeLists.txt (\"RTL in the loop\" sets) and rebuild:";
    for (const auto& set : unlisted) msg += "\n  " + set_line(set);
  }
  msg += "\nor run those blocks as C++ (docs/rtl-verification.md, \"RTL in the loop\")";
  throw config::ConfigError(msg);
}

std::string RtlSource::survey() const {
  std::string out;
  for (const auto& [set, need] : needs_) out += need.first + "\t" + set + "\t" + need.second + "\n";
  return out;
}

std::string loop_blocks() {
  std::string s;
  for (const auto& b : kLoopBlocks) s += (s.empty() ? "" : ", ") + b;
  return s;
}

std::string check_spec(const std::string& spec) {
  if (spec.empty() || spec == "all") return "";
  for (const auto& b : split(spec)) {
    if (std::find(kLoopBlocks.begin(), kLoopBlocks.end(), b) != kLoopBlocks.end()) continue;
    if (std::find(kNotYet.begin(), kNotYet.end(), b) != kNotYet.end())
      return "block " + b + " has RTL but cannot run in the loop yet (blocks that can: " + loop_blocks() + ", or all)";
    return "unknown block '" + b + "' (blocks with RTL in the loop: " + loop_blocks() + ", or all)";
  }
  return "";
}

std::string check_mutant(const std::string& mutant) {
  if (mutant.empty()) return "";
  std::string names;
  auto scan = [&](const auto& sets) {
    for (const auto& s : sets)
      if (*s.mutant != '\0') {
        if (mutant == s.mutant) return true;
        names += std::string(names.empty() ? "" : ", ") + s.mutant;
      }
    return false;
  };
  if (scan(credit_counter_sets()) || scan(output_arbiter_sets()) || scan(switch_allocator_sets()) || scan(rr_arbiter_sets()) ||
      scan(ecn_marker_sets()) || scan(injection_engine_sets()) || scan(lhrp_scheduler_sets()) || scan(mvcm_marker_sets()) || scan(mvcm_flow_ctrl_sets()) ||
      scan(saa_link_unit_sets()) || scan(crp_table_sets()) || scan(credit_arbiter_sets()) || scan(ps_pacer_sets()))
    return "";
  return "unknown RTL mutant '" + mutant + "' (built: " + (names.empty() ? "none" : names) + ")";
}

std::unique_ptr<RtlSource> make_source(const std::string& spec, bool check, const std::string& mutant,
                                       sc_core::sc_time period) {
  if (spec.empty()) return nullptr;
  const bool all = spec == "all";
  return std::make_unique<RtlSource>(all ? kLoopBlocks : split(spec), all, check, mutant, period);
}

}  // namespace ccnet::rtl_loop
