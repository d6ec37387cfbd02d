// Builds a network (routers, NICs, links, traffic generator) from a Config and runs it.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "cc/mechanism.hpp"
#include "core/clock_domain.hpp"
#include "core/counters.hpp"
#include "core/network_stats.hpp"
#include "core/process_error.hpp"
#include "core/packet.hpp"
#include "nic/nic.hpp"
#include "router/router.hpp"
#include "rtl_loop/source.hpp"
#include "sim/config.hpp"
#include "traffic/generator.hpp"

namespace ccnet {

class Network : public sc_core::sc_module, public NetworkBuilder {
 public:
  // `rtl_survey`: with sim.rtl, build the network without requiring every RTL parameter set it
  // needs (rtl_source()->survey() lists them; `ccnet run --rtl-sets`).
  Network(sc_core::sc_module_name name, const Config& cfg, bool rtl_survey = false);
  ~Network() override;

  const Config& config() const { return cfg_; }
  const RoutingFunction& routing() const { return *routing_; }
  const Mechanism& mechanism() const { return *mechanism_; }
  NetworkStats& stats() { return *stats_; }

  // NetworkBuilder (what the mechanism's build() sees)
  const Topology& topology() const override { return *topology_; }
  std::uint32_t num_nodes() const override { return static_cast<std::uint32_t>(nics_.size()); }
  std::uint32_t num_routers() const override { return static_cast<std::uint32_t>(routers_.size()); }
  sc_core::sc_clock& clock() override { return clk; }
  sc_core::sc_time period() const override { return period_; }
  // The waveforms of the RTL in the loop's models (sim.rtl), or null: no model runs as RTL.
  rtl_loop::Waves* rtl_waves() const { return blocks_ ? blocks_->waves() : nullptr; }
  std::uint64_t seed() const override { return cfg_.seed; }
  PacketPool& packets() override { return packets_; }
  RouterApi& router(RouterId r) override { return *routers_.at(r); }
  NicApi& nic(NodeId n) override { return *nics_.at(n); }
  RouterHooks* router_hooks(RouterId r) override { return routers_.at(r)->hooks(); }
  NicHooks* nic_hooks(NodeId n) override { return nics_.at(n)->hooks(); }
  void trace(TracedComponent& component) override { traced_.push_back(&component); }
  CounterSet& counters() override { return extension_counters_; }
  const blocks::BlockSource* block_source() const override { return blocks_.get(); }
  const rtl_loop::RtlSource* rtl_source() const { return blocks_.get(); }

  // The mechanism's own traced modules (NetworkBuilder::trace), and the counters of all its
  // parts merged (the `cc` section of stats.json and `timeseries.cc`).
  const std::vector<TracedComponent*>& traced_extensions() const { return traced_; }
  CounterReport mechanism_report();
  std::vector<std::unique_ptr<Router>>& routers() { return routers_; }
  std::vector<std::unique_ptr<Nic>>& nics() { return nics_; }
  TrafficGenerator& generator() { return *generator_; }
  const std::vector<ResolvedClass>& classes() const { return generator_->classes(); }
  std::uint8_t vc_levels() const { return vc_levels_; }
  Cycle now() const;
  // Rethrows a model error a component raised during the last sc_start (ClockDomain).
  void rethrow_error() const { process_error::rethrow(); }
  // Whether the links carry the exact value every cycle (a flit or credit is cleared the cycle
  // after it was written), as waveforms show it, or only the changes (core/flit.hpp, channel
  // protocol; the default). Set before the simulation starts; NetworkTrace sets it.
  void set_exact_channels(bool exact);

  // Sum over routers of flits sent on any output (flit-hops) and of flits buffered.
  std::uint64_t flit_hops() const;
  // Flits sent by the NICs into the network.
  std::uint64_t flits_injected() const;
  std::uint64_t flits_buffered() const;
  // Nothing left anywhere: no queued messages, no packets in flight, no packet waiting in a
  // retransmit buffer for its ACK or its scheduled resend.
  bool empty() const;
  // Packets in flight or waiting for a resend (what the run waits for, queued messages aside).
  bool in_flight() const;
  // Packets delivered to NICs so far, NACKs aside (progress, for the livelock watchdog: a NACK
  // is what a drop-and-resend loop delivers).
  std::uint64_t deliveries() const;
  void dump_state(std::ostream& os) const;
  void check_quiescent() const;

  sc_core::sc_clock clk;

 private:
  Config cfg_;
  sc_core::sc_time period_;
  std::shared_ptr<const Topology> topology_;        // built by load_config (Config::built)
  std::shared_ptr<const RoutingFunction> routing_;
  std::unique_ptr<Mechanism> mechanism_;
  std::unique_ptr<rtl_loop::RtlSource> blocks_;  // RTL in the loop (sim.rtl), or null: the C++ cores
  PacketPool packets_;
  std::unique_ptr<NetworkStats> stats_;
  std::uint8_t vc_levels_ = 1;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::unique_ptr<TrafficGenerator> generator_;
  std::unique_ptr<ClockDomain> domain_;
  // Every channel has exactly one writer by construction (one output port bound per signal),
  // so the kernel's per-write writer check is skipped (core/channel.hpp); it tells its reader
  // when it changed.
  template <class T>
  using Wire = Channel<T>;
  std::vector<std::unique_ptr<Wire<Flit>>> flit_signals_;
  std::vector<std::unique_ptr<Wire<CreditLanes>>> credit_signals_;
  // What the mechanism's build() added.
  void keep(std::shared_ptr<void> object) override { owned_.push_back(std::move(object)); }
  std::vector<std::shared_ptr<void>> owned_;
  std::vector<TracedComponent*> traced_;
  CounterSet extension_counters_;
};

// Something that acts between clock cycles of a run (sim/trace.hpp opens and closes a trace
// window). run_network pauses the simulation before the clock edge of every cycle an observer
// asks for and calls at() there (and once after cycle 0's start-up); finish() runs once after
// the last simulated cycle and may add a section to the results.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // First cycle after `now` at which at() must run (kNever: none).
  virtual Cycle next_stop(Cycle now) const = 0;
  virtual void at(Cycle now) = 0;
  virtual void finish(Cycle now, Json& stats) = 0;
};

struct RunOptions {
  bool progress = false;  // progress line on stderr
  std::vector<RunObserver*> observers;
  // When set, the run stops at the end of the cycle in which *stop becomes non-zero (a signal
  // handler sets it) and returns what was measured, marked interrupted.
  const volatile std::sig_atomic_t* stop = nullptr;
};

struct RunResult {
  Json stats;          // stats.json content
  bool drained = false;
  bool interrupted = false;  // stopped early through RunOptions::stop
  std::string not_drained;   // why the run did not drain (saturation), empty if it did
  double wall_seconds = 0;
};

// Runs warm-up, measurement and drain; returns the results (docs/outputs.md).
RunResult run_network(Network& net, const RunOptions& opt);

// Human summary of a result (a few lines).
std::string summarize(const Json& stats);

}  // namespace ccnet
