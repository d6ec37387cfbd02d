// ccnet command line:
//   ccnet run CONFIG.yaml [--set key=value]... [--seed N] [--out DIR] [--quiet]
//             [--trace FILE.vcd [--trace-scope PATTERN]... [--trace-window START:END]]
//             [--watch-packet SRC.MSG[.SEQ]]... [--watch-flow SRC:DST]...   (docs/tracing.md)
//   ccnet validate CONFIG.yaml [--set key=value]...
//   ccnet config CONFIG.yaml [--set key=value]... [--json]
//   ccnet docs config            (prints docs/config.md)
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include "core/error.hpp"
#include "core/watch.hpp"
#include "sim/network.hpp"
#include "sim/trace.hpp"

namespace {

// Waveform and packet-watch options of `ccnet run` (docs/tracing.md).
struct DebugOptions {
  std::string trace_file, trace_window;
  std::vector<std::string> trace_scopes, watch_packets, watch_flows;
};

int run_command(const std::string& file, const std::vector<std::string>& sets, long long seed, const std::string& out_dir,
                bool quiet, const DebugOptions& dbg) {
  const ccnet::Config cfg = ccnet::load_config(file, sets, seed);
  // Malformed debug options fail before the network is built.
  ccnet::TraceOptions topt;
  if (!dbg.trace_window.empty()) ccnet::parse_trace_window(dbg.trace_window, topt.start, topt.end);
  ccnet::WatchSelection wsel;
  for (const auto& p : dbg.watch_packets) wsel.packets.push_back(ccnet::parse_watch_packet(p));
  for (const auto& f : dbg.watch_flows) wsel.flows.push_back(ccnet::parse_watch_flow(f));
  // The network lives until the process exits: tearing down a large SystemC hierarchy costs
  // seconds (quadratic port-registry removal) and buys nothing in a one-shot CLI run.
  auto* net_ptr = new ccnet::Network("net", cfg);
  ccnet::Network& net = *net_ptr;
  ccnet::RunOptions opt;
  opt.progress = !quiet && isatty(STDERR_FILENO);
  std::unique_ptr<ccnet::NetworkTrace> trace;
  if (!dbg.trace_file.empty()) {
    topt.file = dbg.trace_file;
    topt.scopes = dbg.trace_scopes;
    trace = std::make_unique<ccnet::NetworkTrace>(net, topt);
    opt.observers.push_back(trace.get());
  }
  std::unique_ptr<ccnet::PacketWatch> watch;
  std::ofstream watch_log;
  if (!wsel.empty()) {
    watch = std::make_unique<ccnet::PacketWatch>(wsel, net.topology().num_nodes());
    std::filesystem::create_directories(out_dir);
    watch_log.open(out_dir + "/watch.log");
    if (!watch_log) throw std::runtime_error("cannot write " + out_dir + "/watch.log");
    watch->add_sink(watch_log);
    if (!quiet) {
      watch->add_sink(std::cout);
      opt.progress = false;  // the progress line would garble the event lines on a terminal
    }
    net.packets().set_watch(watch.get());
  }
  const ccnet::RunResult res = ccnet::run_network(net, opt);
  std::filesystem::create_directories(out_dir);
  const std::string path = out_dir + "/stats.json";
  std::ofstream os(path);
  if (!os) throw std::runtime_error("cannot write " + path);
  os << res.stats.dump(1) << "\n";
  os.close();
  if (!os) throw std::runtime_error("error writing " + path);
  if (!quiet) std::cout << ccnet::summarize(res.stats) << "  results: " << path << "\n";
  int status = 0;
  if (trace) {
    if (!quiet && trace->opened()) std::cout << "  waveform: " << trace->path() << "\n";
    if (!trace->opened()) {
      std::cerr << "ccnet: option error: --trace-window " << dbg.trace_window << " starts after the run ended (cycle "
                << res.stats["cycles_total"].get<std::uint64_t>() << "); no waveform written\n";
      status = 2;
    }
  }
  if (watch) {
    watch_log.close();
    if (!quiet) std::cout << "  packet events: " << out_dir << "/watch.log (" << watch->events() << " events, "
                          << watch->packets_watched() << " packets)\n";
    for (const auto& u : watch->unmatched()) {
      std::cerr << "ccnet: option error: " << u << "\n";
      status = 2;
    }
  }
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(status);  // skip the teardown of the SystemC hierarchy (see above)
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"ccnet: signal-accurate SystemC model of lossless networks with congestion control"};
  app.require_subcommand(1);

  std::string file, out_dir = "out";
  std::vector<std::string> sets;
  long long seed = -1;
  bool quiet = false, json = false;

  auto* run = app.add_subcommand("run", "simulate a configuration and write DIR/stats.json");
  run->add_option("config", file, "YAML configuration")->required()->check(CLI::ExistingFile);
  run->add_option("--set", sets, "override a key: a.b=c (repeatable)");
  run->add_option("--seed", seed, "run seed (overrides `seed`)")->check(CLI::Range(0LL, (1LL << 62)));
  run->add_option("--out", out_dir, "output directory (default: out)");
  run->add_flag("--quiet,-q", quiet, "no summary and no progress line");
  DebugOptions dbg;
  auto* trace_opt = run->add_option("--trace", dbg.trace_file, "write a VCD waveform of the selected routers and NICs");
  run->add_option("--trace-scope", dbg.trace_scopes,
                  "trace only components/signals matching this glob, e.g. net.router_3, 'net.router_1*', "
                  "net.nic_5 (repeatable; default: everything)")
      ->needs(trace_opt);
  run->add_option("--trace-window", dbg.trace_window, "trace cycles START:END only (END exclusive)")->needs(trace_opt);
  run->add_option("--watch-packet", dbg.watch_packets,
                  "print every event of data packet SRC.MSG[.SEQ] (source node, message number there, packet index) "
                  "and write them to DIR/watch.log (repeatable)");
  run->add_option("--watch-flow", dbg.watch_flows,
                  "the same for every data packet from node SRC to node DST (SRC:DST, repeatable)");

  auto* validate = app.add_subcommand("validate", "check a configuration and exit");
  validate->add_option("config", file, "YAML configuration")->required()->check(CLI::ExistingFile);
  validate->add_option("--set", sets, "override a key: a.b=c (repeatable)");

  auto* show = app.add_subcommand("config", "print the effective configuration (defaults filled in)");
  show->add_option("config", file, "YAML configuration")->required()->check(CLI::ExistingFile);
  show->add_option("--set", sets, "override a key: a.b=c (repeatable)");
  show->add_flag("--json", json, "print JSON instead of YAML");

  std::string doc_name;
  auto* docs = app.add_subcommand("docs", "print generated documentation");
  docs->add_option("name", doc_name, "which document")->required()->check(CLI::IsMember({"config"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    if (*run) return run_command(file, sets, seed, out_dir, quiet, dbg);
    if (*validate) {
      const ccnet::Config cfg = ccnet::load_config(file, sets);
      std::cout << file << ": ok (" << cfg.topology.params->create()->describe() << ")\n";
      return 0;
    }
    if (*show) {
      const ccnet::Config cfg = ccnet::load_config(file, sets);
      const auto j = ccnet::effective_config(cfg);
      std::cout << (json ? j.dump(2) + "\n" : ccnet::config::to_yaml(j));
      return 0;
    }
    if (*docs) {
      std::cout << ccnet::config_reference();
      return 0;
    }
  } catch (const ccnet::config::ConfigError& e) {
    std::cerr << "ccnet: config error: " << e.what() << "\n";
    return 2;
  } catch (const ccnet::ModelError& e) {
    std::cerr << "ccnet: model error: " << e.what() << "\n";
    return 3;
  } catch (const ccnet::OptionError& e) {
    std::cerr << "ccnet: option error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ccnet: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
