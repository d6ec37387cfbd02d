// Waveforms of RTL in the loop: the Verilated models' own signals (ports and internal registers and
// nets) in one FST file, beside the model's VCD (sim/trace.hpp: `ccnet run --rtl ... --trace`,
// docs/rtl-verification.md "Waves"). Every model registers here when its adapter builds it, under
// its component (e.g. net.router_3) and a name made of the block and the instance
// (credit_counter_output_2_vc_1); opening a file traces the models of the selected components,
// which then appear as net.router_3.rtl.credit_counter_output_2_vc_1 (the model's ports) and
// net.router_3.rtl.credit_counter_output_2_vc_1.ccn_credit_counter (the module's internals).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/types.hpp"

class VerilatedFstC;

namespace ccnet::rtl_loop {

class Waves {
 public:
  struct Model {
    std::string component;  // net.router_3
    std::string name;       // credit_counter_output_2_vc_1
    std::function<void(VerilatedFstC&)> trace;  // adds the model to a trace file (before it opens)
  };
  virtual ~Waves() = default;
  void add(Model m) { models_.push_back(std::move(m)); }
  const std::vector<Model>& models() const { return models_; }
  // Opens `path` (FST) with the models `selected` marks (one flag per models() entry); one FST time
  // unit is the file's time precision, a cycle is `period`. Returns the number of models traced.
  virtual std::size_t open(const std::string& path, const std::vector<bool>& selected, sc_core::sc_time period) = 0;
  // The models' state at `cycle` (after its evaluation; models are traced in the open file only).
  virtual void dump(Cycle cycle) = 0;
  virtual void close() = 0;
  virtual bool is_open() const = 0;

 protected:
  std::vector<Model> models_;
};

// The FST writer of this build, or null when ccnet was built without Verilated models
// (CCNET_BUILD_RTL off: no model can run in the loop). Defined with the table of sets.
std::unique_ptr<Waves> make_waves();

}  // namespace ccnet::rtl_loop
