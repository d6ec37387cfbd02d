// Explicit-rate SAA with adaptive path setup and paced injection (paper 004, Birk and Zdornov,
// SYSTOR'09; docs/mechanisms/saa.md, notes shared/notes/paper-004-birk.md).
//
// Per flow (one message), the source sends a setup packet that chooses its path hop by hop (the
// output with the fewest flows among the topology's candidates, recorded per input port as a
// virtual circuit) and, with explicit rates, announces the flow's weight w_f on every link of it
// (W_l += w_f) and returns the largest W_l it saw (W_f). Data follows the circuit at the rate
// r_f = w_f / W_f, paced per source by periodic selection (PS); probes re-read W_f; a teardown
// (announce-end, W_l -= w_f) frees the circuit once the destination has the whole flow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cc/mechanism.hpp"

namespace ccnet::saa {

// Theorem 1 golden model (paper section 5.1, Eqs. 1-2): flows given by weight and the links of
// their paths. W_l = sum of the weights on link l, W_f = max over f's links, W = max over all;
// the SAA rate r_f = w_f / W_f is feasible (every link's load <= 1) and every flow ends by W.
struct FluidFlow {
  std::uint64_t weight = 0;             // w_f: time to send f at line rate (flits)
  std::vector<std::uint32_t> links;     // L_f: link ids
};
struct FluidResult {
  std::vector<std::uint64_t> link_weight;  // W_l per link id
  std::vector<std::uint64_t> flow_weight;  // W_f per flow
  std::vector<double> rate;                // r_f = w_f / W_f (fraction of line rate)
  std::uint64_t W = 0;                     // max_l W_l: the optimal phase completion time
};
FluidResult fluid_optimum(const std::vector<FluidFlow>& flows, std::uint32_t num_links);

// `cc:` parameters (shared by the four registered names, which differ in their defaults).
struct Params : MechanismParams {
  std::string name = "saa_ar";  // the registered name (stats.json `mechanism`)
  bool adaptive = true;        // setup chooses among the topology's candidates (AR)
  bool rates = true;           // explicit SAA rates and PS pacing
  std::uint32_t prc_entries = 0;  // per input port; 0 = unlimited
  enum class Metric : std::uint8_t { Flows, Weight } metric = Metric::Flows;
  std::uint32_t probe_stable = 2;  // probes with an unchanged W_f before probing stops
  Cycle probe_gap = 0;             // cycles between a probe's return and the next probe
  bool wait_for_stable = false;    // no data before W_f is stable (else: from the setup's return)
  enum class PsStart : std::uint8_t { Zero, Join } ps_start = PsStart::Join;  // a new flow's PS virtual time
  enum class PsArith : std::uint8_t { Float, Fixed } ps_arith = PsArith::Float;  // the PS pacer's times: double or Q16
  std::uint32_t ps_div_bits = 0;   // fixed: quotient bits per cycle of the pacer's dividers (0: one cycle)
  Cycle max_gap = 1u << 16;        // longest PS wait the watchdogs allow for (cycles)
  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
};

}  // namespace ccnet::saa
