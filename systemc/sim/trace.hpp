// Waveforms of a whole network (`ccnet run ... --trace FILE.vcd [--trace-scope PATTERN]...
// [--trace-window START:END]`, docs/tracing.md).
//
// Selection happens once, before the run: every router and NIC registers its channels and state
// (Router::trace, Nic::trace, and the mechanism's hooks), and so does every module the mechanism
// added (NetworkBuilder::trace), with a collecting TraceSink, which keeps
// a signal when a scope pattern matches its component's name or its own full name. Patterns
// that match nothing are an error before any cycle is simulated.
//
// The window [START, END) is honoured with SystemC's own VCD writer, which cannot pause but does
// initialise lazily: the trace file is created, and every sc_trace registered, while the
// simulation is paused just before cycle START's clock edge; it dumps the state after that edge
// as the initial values. It is closed while paused before cycle END's edge, which writes a final
// `#END` time stamp. Trace-only probe state is updated only inside the window, so cycles outside
// it cost what an untraced run costs, and the file holds only the window. The file is written
// as FILE.partial.vcd and renamed to FILE.vcd when closed, so a crash never leaves a truncated
// FILE.vcd nor destroys a previous one.
//
// With RTL in the loop (sim.rtl), the Verilated models of the selected components go to FILE.rtl.fst
// over the same window (rtl_loop/waves.hpp): a pattern selects a model when it matches its
// component, the component's `rtl` scope or the model's full name (net.router_3.rtl.switch_allocator).
// The models' state is dumped once per cycle, after the cycle's evaluation, as the VCD shows it; so
// the run pauses at every cycle of the window. At a model error the models' state at that moment
// (mid-cycle: the inputs of the failing call) is dumped at the error's cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "core/types.hpp"
#include "sim/network.hpp"

namespace sc_core {
class sc_trace_file;
}

namespace ccnet {

struct TraceOptions {
  std::string file;                 // FILE.vcd (".vcd" is added if missing)
  std::vector<std::string> scopes;  // glob patterns; none = everything
  Cycle start = 0;
  Cycle end = kNever;               // exclusive
};

// "START:END", "START:" or ":END" (cycles, END exclusive). Throws OptionError.
void parse_trace_window(const std::string& text, Cycle& start, Cycle& end);

// The waveform's file name: FILE, with ".vcd" added if missing. Throws OptionError if empty.
std::string trace_path(const std::string& file);
// Checks, before anything is simulated, that the waveform can be written: its directory exists
// (it is created) and takes new files, and no directory sits at the file's own path. Throws
// OptionError naming the path and the reason.
void check_trace_file(const std::string& file);

class NetworkTrace : public RunObserver {
 public:
  // Selects the signals now (throws OptionError for a pattern that matches nothing).
  NetworkTrace(Network& net, TraceOptions opt);
  ~NetworkTrace() override;

  Cycle next_stop(Cycle now) const override;
  void at(Cycle now) override;
  void finish(Cycle now, Json& stats) override;

  // What was selected: components (hierarchical names) and signals (full names).
  const std::vector<std::string>& components() const { return components_; }
  std::size_t signal_count() const { return entries_.size(); }
  std::vector<std::string> signal_names() const;
  bool opened() const { return opened_at_ != kNever; }
  const std::string& path() const { return path_; }
  // FILE.rtl.fst, written when RTL models were selected; empty otherwise.
  const std::string& rtl_path() const { return rtl_models_ ? rtl_path_ : empty_; }
  std::size_t rtl_models() const { return rtl_models_; }

 private:
  struct Entry {
    enum class Kind : std::uint8_t { Bool, U32, U64, Flit, Credit } kind;
    const void* ref;  // the value, or the sc_port_base of a channel
    std::string name;
    int width;
  };
  struct Channel {
    std::string name;
    const std::uint64_t* counter;
    std::uint64_t at_open = 0, flits = 0;
  };
  class Collector;
  void select_rtl(const std::vector<std::string>& patterns, std::vector<bool>& used);
  void open(Cycle now);
  void close(Cycle now, bool at_error);

  Network& net_;
  TraceOptions opt_;
  std::string path_;  // FILE.vcd as written
  std::vector<Entry> entries_;
  std::vector<Channel> channels_;
  std::vector<std::string> components_;
  std::vector<Router*> routers_;
  std::vector<Nic*> nics_;
  std::vector<TracedComponent*> extensions_;  // the mechanism's own modules
  sc_core::sc_trace_file* file_ = nullptr;
  Cycle opened_at_ = kNever, closed_at_ = kNever;
  // RTL in the loop: the selected models (one flag per registered model), their file, and the next
  // cycle whose state is to be dumped.
  std::vector<bool> rtl_selected_;
  std::size_t rtl_models_ = 0;
  std::string rtl_path_;
  const std::string empty_;
  bool rtl_open_ = false;
  Cycle rtl_next_ = 0;
};

}  // namespace ccnet
