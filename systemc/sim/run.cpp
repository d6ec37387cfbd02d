// Run control: warm-up, measurement window, drain; deadlock watchdog; results JSON.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <sstream>

#include "core/error.hpp"
#include "sim/network.hpp"

namespace ccnet {

namespace {

double peak_rss_mb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Progress line on a terminal: simulated cycles, speed and the time left. Speed and ETA appear
// once a few thousand cycles have run (before that, elaboration and warm-up noise dominate).
class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(std::chrono::steady_clock::now()), last_(start_) {}
  void update(Cycle now, Cycle target, const char* phase) {
    if (!on_) return;
    const auto t = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(t - last_).count() < 0.5) return;
    last_ = t;
    if (!timing_ && now >= kSettleCycles) {  // speed is measured from here on
      timing_ = true;
      t0_ = t;
      c0_ = now;
    }
    const double el = std::chrono::duration<double>(t - t0_).count();
    const double rate = timing_ && el > 0.2 ? static_cast<double>(now - c0_) / el : 0;
    if (rate > 0) {
      const double eta = target > now ? static_cast<double>(target - now) / rate : 0;
      std::fprintf(stderr, "\r[ccnet] cycle %llu/%llu (%s)  %.0f cycles/s  ETA %s   ",
                   static_cast<unsigned long long>(now), static_cast<unsigned long long>(target), phase, rate,
                   duration_text(eta).c_str());
    } else {
      std::fprintf(stderr, "\r[ccnet] cycle %llu/%llu (%s)   ", static_cast<unsigned long long>(now),
                   static_cast<unsigned long long>(target), phase);
    }
    std::fflush(stderr);
    shown_ = true;
  }
  void done() {
    if (shown_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  static constexpr Cycle kSettleCycles = 2000;
  static std::string duration_text(double s) {
    char buf[32];
    if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
    else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    return buf;
  }
  bool on_, shown_ = false, timing_ = false;
  std::chrono::steady_clock::time_point start_, last_, t0_;
  Cycle c0_ = 0;
};

// sim.ejection_series: flits entering each listed node's NIC per series window (its ejection
// link's utilisation), read from the NIC's counter at every window edge, so the simulation's
// hot path is untouched.
class EjectionSeries : public RunObserver {
 public:
  EjectionSeries(Network& net, std::vector<std::uint32_t> nodes, Cycle window)
      : net_(net), nodes_(std::move(nodes)), window_(window), last_(nodes_.size(), 0), sums_(nodes_.size()) {}
  Cycle next_stop(Cycle now) const override { return (now / window_ + 1) * window_; }
  void at(Cycle now) override {
    if (now % window_ == 0 && now > recorded_) record(now);
  }
  void finish(Cycle now, Json& stats) override {
    if (now > recorded_) record(now);  // the last, partial window
    Json j;
    j["window"] = window_;
    Json start = Json::array();
    for (const auto& [from, to] : spans_) start.push_back(from);
    j["start"] = start;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      Json v = Json::array();
      for (std::size_t w = 0; w < spans_.size(); ++w)
        v.push_back(static_cast<double>(sums_[k][w]) / static_cast<double>(spans_[w].second - spans_[w].first));
      j[std::to_string(nodes_[k])] = v;
    }
    stats["timeseries"]["ejection"] = j;
  }

 private:
  void record(Cycle now) {
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const std::uint64_t f = net_.nics()[nodes_[k]]->counters().flits_ejected;
      sums_[k].push_back(f - last_[k]);
      last_[k] = f;
    }
    spans_.emplace_back(recorded_, now);
    recorded_ = now;
  }
  Network& net_;
  std::vector<std::uint32_t> nodes_;
  Cycle window_;
  Cycle recorded_ = 0;  // end of the last recorded window
  std::vector<std::uint64_t> last_;
  std::vector<std::vector<std::uint64_t>> sums_;  // per node, per window
  std::vector<std::pair<Cycle, Cycle>> spans_;     // per window: [start, end)
};

// Pauses the kernel at the end of the cycle in which a stop was requested (a signal handler
// set the flag): an interrupt ends the run after a whole cycle, never in the middle of one.
class StopWatcher : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(StopWatcher);
  StopWatcher(sc_core::sc_module_name name, sc_core::sc_clock& clk, const volatile std::sig_atomic_t* flag)
      : sc_core::sc_module(name), flag_(flag) {
    SC_METHOD(check);
    sensitive << clk.posedge_event();
    dont_initialize();
  }

 private:
  void check() {
    if (*flag_) sc_core::sc_pause();
  }
  const volatile std::sig_atomic_t* flag_;
};

// Watchdog periods (docs/outputs.md, "Watchdogs"). A flit in a router legitimately waits one
// hop's pipeline, link and credit delays for something to move; a network legitimately delivers
// no data while its sources wait out their mechanism's throttle (Mechanism::max_injection_gap).
struct Watchdogs {
  Cycle deadlock;  // flits buffered in routers and no flit moved anywhere (router, NIC injection, ejection)
  Cycle stuck;     // data in flight and no data flit delivered (lost or livelocked packets)
};

Watchdogs watchdogs(const Config& cfg, const Mechanism& mechanism) {
  const StageDelays& d = cfg.router.delays;
  const auto& latencies = cfg.built->link_latency;
  const Cycle link = latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end());
  const Cycle hop = Cycle{d.routing} + d.vc_alloc + d.sw_alloc + d.traversal + d.credit + cfg.nic.credit_delay + 2 * link;
  const Cycle ipd = mechanism.max_injection_gap();
  Watchdogs w;
  w.deadlock = std::max<Cycle>(cfg.sim.watchdog, 4 * hop);
  // A packet crosses a throttled host port (nic.port_speedup) in s cycles per flit.
  const auto packet_cycles = static_cast<Cycle>(std::ceil(cfg.nic.max_packet * cfg.nic.port_speedup));
  w.stuck = w.deadlock + 4 * (ipd + packet_cycles);
  return w;
}

}  // namespace

RunResult run_network(Network& net, const RunOptions& opt) {
  const Config& cfg = net.config();
  const SimConfig& sim = cfg.sim;
  const auto period = net.period();
  const Cycle window_end = sim.warmup + sim.measure;
  const Cycle chunk = 64;
  const Watchdogs watchdog = watchdogs(cfg, net.mechanism());
  Progress progress(opt.progress);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<RunObserver*> observers = opt.observers;
  std::unique_ptr<EjectionSeries> ejection;
  if (!sim.ejection_series.empty() && sim.series_window > 0) {
    ejection = std::make_unique<EjectionSeries>(net, sim.ejection_series, sim.series_window);
    observers.push_back(ejection.get());
  }
  std::unique_ptr<StopWatcher> stop_watcher;
  if (opt.stop) stop_watcher = std::make_unique<StopWatcher>("stop_watcher", net.clk, opt.stop);
  auto stopped = [&] { return opt.stop && *opt.stop; };

  // Simulates `cycles` cycles, pausing where an observer asks (e.g. a trace window's edges);
  // returns early at the end of the cycle in which a stop was requested.
  auto simulate = [&](Cycle cycles) {
    const Cycle target = net.now() + cycles;
    while (net.now() < target && !stopped()) {
      Cycle step = target - net.now();
      for (auto* o : observers) step = std::min(step, o->next_stop(net.now()) - net.now());
      sc_core::sc_start(static_cast<double>(step) * period);
      net.rethrow_error();
      for (auto* o : observers) o->at(net.now());
    }
  };
  std::uint64_t last_moves = 0, last_delivered = 0;
  Cycle last_move_cycle = 0, last_delivery_cycle = 0;
  auto advance = [&](Cycle cycles, const char* phase, Cycle target) {
    simulate(cycles);
    const Cycle now = net.now();
    // Deadlock: packets in flight (flits in routers, or a packet in a NIC stream waiting for
    // credits) but no flit moved anywhere (a router output, a NIC injection or an ejection) for a
    // whole watchdog period.
    const std::uint64_t moves = net.flit_hops() + net.flits_injected() + net.stats().flits_ejected_total();
    if (moves != last_moves) {
      last_moves = moves;
      last_move_cycle = now;
    } else if ((net.flits_buffered() > 0 || net.packets().live() > 0) && now - last_move_cycle >= watchdog.deadlock) {
      std::ostringstream os;
      os << "deadlock: no flit moved for " << (now - last_move_cycle) << " cycles with " << net.flits_buffered()
         << " flits buffered and " << net.packets().live() << " packets live (watchdog " << watchdog.deadlock
         << " cycles)\n";
      net.dump_state(os);
      throw ModelError(os.str());
    }
    // Stuck: data created and not delivered (or packets live), and no packet but refusals (answers of kind Refused)
    // delivered to a NIC for a whole period, while flits may still be moving (packets dropped and
    // resent forever) or not (a packet lost). A backlog of ACKs or grants still draining is progress.
    const std::uint64_t delivered = net.deliveries();
    if (delivered != last_delivered || (net.stats().data_flits_in_flight() == 0 && net.packets().live() == 0)) {
      last_delivered = delivered;
      last_delivery_cycle = now;
    } else if (now - last_delivery_cycle >= watchdog.stuck) {
      std::ostringstream os;
      os << "stuck: no packet but refusals (answers of kind Refused) delivered for " << (now - last_delivery_cycle) << " cycles with "
         << net.stats().data_flits_in_flight() << " data flits created and not delivered and " << net.packets().live()
         << " packets live (watchdog " << watchdog.stuck << " cycles): lost or livelocked packets\n";
      net.dump_state(os);
      throw ModelError(os.str());
    }
    progress.update(now, target, phase);
  };

  // Elaboration and cycle 0.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (auto* o : observers) o->at(net.now());
  while (net.now() < window_end && !stopped()) {
    const Cycle now = net.now();
    advance(std::min(chunk * 16, window_end - now), now < sim.warmup ? "warm-up" : "measure", window_end);
  }
  const Cycle drain_end = window_end + sim.drain_limit;
  // Interrupted before the window closed: nothing was drained, whatever is outstanding.
  bool drained = !stopped() && net.stats().measured_outstanding() == 0;
  while (!drained && net.now() < drain_end && !stopped()) {
    advance(std::min(chunk, drain_end - net.now()), "drain", drain_end);
    drained = net.stats().measured_outstanding() == 0;
  }
  const Cycle drained_at = std::max(net.now(), window_end);
  std::string not_drained;
  if (!drained && !stopped()) {
    not_drained = std::to_string(net.stats().measured_outstanding()) +
                  " flits of measured packets still in flight " + std::to_string(sim.drain_limit) +
                  " cycles after the measurement window (sim.drain_limit): the network is saturated";
  }
  // With all traffic stopped, let the network empty and check every buffer and credit.
  bool quiescent_checked = false;
  TrafficGenerator& gen = net.generator();
  const Cycle traffic_end = gen.last_stop();
  if (sim.check_quiescent && drained && gen.bounded() && !stopped()) {
    while (net.now() < traffic_end && !stopped())
      advance(std::min(chunk * 16, traffic_end - net.now()), "traffic", traffic_end);
    // Classes bounded by a message count: until every source has sent its messages.
    while (!gen.finished(net.now()) && !stopped()) {
      std::string waiting;
      if (net.empty() && gen.waiting_for_deliveries(&waiting))
        throw config::ConfigError(cfg.file + ": traffic class '" + waiting + "': start_after_delivered is never reached (" +
                                  std::to_string(net.stats().data_packets_delivered()) +
                                  " data packets delivered, and no other traffic is left)");
      advance(chunk, "traffic", net.now());
    }
    const Cycle limit = net.now() + sim.drain_limit;
    while (!net.empty() && net.now() < limit && !stopped()) advance(chunk, "empty", limit);
    if (!net.empty() && !stopped()) {
      drained = false;
      not_drained = std::to_string(net.stats().data_flits_in_flight()) + " data flits (and " +
                    std::to_string(net.packets().live()) + " packets of any kind) not yet delivered " +
                    std::to_string(sim.drain_limit) +
                    " cycles after the traffic stopped (sim.drain_limit): the network is saturated";
    }
    if (net.empty() && !stopped()) {
      // Credits still on their way back: a few round trips.
      advance(4 * (router_link_latency_sum(cfg) + cfg.router.delays.credit + cfg.nic.credit_delay + 8), "empty", net.now());
      if (!stopped()) {
        net.check_quiescent();
        // Conservation: with nothing left anywhere, every data flit created was delivered once.
        const auto missing = static_cast<std::int64_t>(net.stats().data_flits_in_flight());
        if (missing != 0)
          throw ModelError("conservation violated at cycle " + std::to_string(net.now()) + ": the network is empty but " +
                           (missing > 0 ? std::to_string(missing) + " data flits were created and never delivered"
                                        : std::to_string(-missing) + " more data flits were delivered than created"));
        quiescent_checked = true;
      }
    }
  }
  progress.done();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Cycle total = net.now();
  const bool interrupted = stopped();

  NetworkStats& st = net.stats();
  // Interrupted inside the window: rates are over the part of the window that ran.
  if (interrupted) st.end_window(total);
  Json j;
  j["ccnet_version"] = CCNET_VERSION;
  j["seed"] = cfg.seed;
  j["topology"] = net.topology().describe();
  j["mechanism"] = net.mechanism().name();
  j["config"] = effective_config(cfg);
  j["cycles"] = st.window_end() - st.window_begin();
  j["cycles_total"] = total;
  j["flit_hops"] = net.flit_hops();
  j["drained"] = drained;
  j["drain_cycles"] = drained_at - window_end;
  j["quiescent_checked"] = quiescent_checked;
  j["interrupted"] = interrupted;
  j["latency"] = st.latency_json();
  j["throughput"] = st.throughput_json();
  std::vector<std::vector<NodeId>> srcs, dsts;
  for (const auto& c : net.classes()) {
    srcs.push_back(c.sources);
    dsts.push_back(c.destinations);
  }
  j["classes"] = st.classes_json(srcs, dsts);
  Json proto = st.protocol_json();
  std::uint64_t drops = 0, dropped_flits = 0, emitted = 0, consumed = 0;
  for (const auto& r : net.routers()) {
    drops += r->counters().packets_dropped;
    dropped_flits += r->counters().flits_dropped;
    emitted += r->counters().control_emitted;
    consumed += r->counters().packets_consumed;
  }
  std::uint64_t retx = 0, retx_peak = 0;
  for (const auto& n : net.nics()) {
    retx += n->counters().retransmissions;
    retx_peak = std::max(retx_peak, n->counters().retransmit_buffer_peak);
  }
  // Whole-run counters (the window counts by kind are above).
  proto["dropped_packets"] = drops;
  proto["dropped_flits"] = dropped_flits;
  proto["retransmissions"] = retx;
  proto["retransmit_buffer_peak"] = retx_peak;
  proto["switch_emitted_control_packets"] = emitted;
  proto["switch_consumed_packets"] = consumed;
  j["protocol"] = proto;
  // The mechanism's own counters, as its hooks and modules registered them.
  const CounterReport cc = net.mechanism_report();
  j["cc"] = cc.counters_json();
  if (sim.series_window) {
    j["timeseries"] = st.timeseries_json();
    Json series = cc.series_json();
    if (!series.is_null()) j["timeseries"]["cc"] = std::move(series);
  }
  const std::uint64_t hops = net.flit_hops();
  for (auto* o : observers) o->finish(total, j);
  j["perf"]["wall_seconds"] = wall;
  j["perf"]["cycles_per_second"] = wall > 0 ? static_cast<double>(total) / wall : 0.0;
  j["perf"]["flit_hops_per_second"] = wall > 0 ? static_cast<double>(hops) / wall : 0.0;
  j["perf"]["peak_rss_mb"] = peak_rss_mb();
  j["perf"]["memory_estimate_mb"] = cfg.built->memory_estimate / 1e6;
  RunResult r;
  r.stats = std::move(j);
  r.drained = drained;
  r.wall_seconds = wall;
  r.interrupted = interrupted;
  r.not_drained = interrupted ? std::string() : not_drained;
  return r;
}

std::string summarize(const Json& s) {
  std::ostringstream os;
  const auto& lat = s["latency"];
  const auto& thr = s["throughput"];
  os << fmt::format("ccnet {}: {}, mechanism {}, seed {}\n", s["ccnet_version"].get<std::string>(),
                    s["topology"].get<std::string>(), s["mechanism"].get<std::string>(), s["seed"].get<std::uint64_t>());
  const bool interrupted = s.value("interrupted", false);
  os << fmt::format("  cycles: measured {} (total {}), {}\n", s["cycles"].get<std::uint64_t>(),
                    s["cycles_total"].get<std::uint64_t>(),
                    interrupted ? fmt::format("INTERRUPTED at cycle {}: partial results", s["cycles_total"].get<std::uint64_t>())
                    : s["drained"].get<bool>()
                        ? fmt::format("drained {} cycles after the window", s["drain_cycles"].get<std::uint64_t>())
                        : std::string("NOT drained (saturated: packets still in flight at sim.drain_limit)"));
  os << fmt::format("  throughput (flits/node/cycle): offered {:.4f}, accepted {:.4f} (min {:.4f}, max {:.4f})\n",
                    thr["offered"]["mean"].get<double>(), thr["accepted"]["mean"].get<double>(),
                    thr["accepted"]["min"].get<double>(), thr["accepted"]["max"].get<double>());
  auto line = [&](const char* what, const Json& h) {
    os << fmt::format("  {} latency (cycles): mean {:.1f}, p50 {}, p99 {}, max {} over {} packets\n", what,
                      h["mean"].get<double>(), h["p50"].get<std::uint64_t>(), h["p99"].get<std::uint64_t>(),
                      h["max"].get<std::uint64_t>(), h["count"].get<std::uint64_t>());
  };
  line("packet ", lat["packet"]);
  line("network", lat["network"]);
  if (s["classes"].size() > 1) {
    for (auto& [name, c] : s["classes"].items())
      os << fmt::format("  class {}: offered {:.4f}, accepted {:.4f}, packet latency mean {:.1f} p99 {}\n", name,
                        c["throughput"]["offered"]["mean"].get<double>(), c["throughput"]["accepted"]["mean"].get<double>(),
                        c["latency"]["packet"]["mean"].get<double>(), c["latency"]["packet"]["p99"].get<std::uint64_t>());
  }
  const auto& perf = s["perf"];
  os << fmt::format("  speed: {:.0f} cycles/s, {:.2f} M flit-hops/s, {:.0f} MB peak, {:.2f} s wall\n",
                    perf["cycles_per_second"].get<double>(), perf["flit_hops_per_second"].get<double>() / 1e6,
                    perf["peak_rss_mb"].get<double>(), perf["wall_seconds"].get<double>());
  return os.str();
}

}  // namespace ccnet
