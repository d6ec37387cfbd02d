// ccnet command line:
//   ccnet run CONFIG.yaml [--set key=value]... [--seed N] [--out DIR] [--quiet]
//             [--trace FILE.vcd [--trace-scope PATTERN]... [--trace-window START:END]]
//             [--watch-packet SRC.MSG[.SEQ]]... [--watch-flow SRC:DST]...   (docs/tracing.md)
//             [--rtl BLOCKS [--rtl-check [--rtl-check-window N]]]        (docs/rtl-verification.md)
//   ccnet validate CONFIG.yaml [--set key=value]...
//   ccnet config CONFIG.yaml [--set key=value]... [--json]
//   ccnet list [--json]          (registered names; --json: every key with kind, default, range)
//   ccnet docs config            (prints docs/config.md)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include "core/error.hpp"
#include "core/watch.hpp"
#include "rtl_loop/sets.hpp"
#include "sim/memory_guard.hpp"
#include "sim/network.hpp"
#include "sim/trace.hpp"

namespace {

// Waveform and packet-watch options of `ccnet run` (docs/tracing.md).
struct DebugOptions {
  bool trace = false;  // --trace given (possibly with an empty name, which is an error)
  std::string trace_file, trace_window;
  std::vector<std::string> trace_scopes, watch_packets, watch_flows;
  ccnet::Cycle rtl_check_window = 200;  // --rtl-check-window: waves before an RTL check mismatch
  bool rtl_sets = false;  // --rtl-sets: list the RTL parameter sets the network needs, do not simulate
};

// The command line as given (the RTL check's mismatch re-runs it).
std::vector<std::string> g_args;

// Exit statuses (docs/outputs.md).
constexpr int kExitOk = 0, kExitError = 1, kExitConfig = 2, kExitModel = 3, kExitNotDrained = 4;

// SIGINT/SIGTERM during a run: the run stops at the end of the current cycle and writes what it
// measured. A second signal ends the process at once.
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) {
  if (g_stop_signal) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_stop_signal = sig;
}

std::string errno_text() { return std::strerror(errno); }

// The output directory must exist (it is created) and take new files, before anything runs.
void check_out_dir(const std::string& dir) {
  if (dir.empty()) throw ccnet::OptionError("--out: empty directory name");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ccnet::OptionError("--out " + dir + ": cannot create the directory: " + ec.message());
  if (!std::filesystem::is_directory(dir)) throw ccnet::OptionError("--out " + dir + ": not a directory");
  std::string probe = dir + "/.ccnet-write-test-XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0) throw ccnet::OptionError("--out " + dir + ": cannot write there: " + errno_text());
  close(fd);
  std::remove(probe.c_str());
}

// Writes `text` to `path` through a temporary file in the same directory and a rename, so that
// `path` is either the previous file or the complete new one, never a truncated mix.
void write_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".partial-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + errno_text());
  const mode_t mask = umask(0);  // mkstemp makes the file 0600; give it the usual 0666 & ~umask
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = errno_text();
      close(fd);
      std::remove(tmp.c_str());
      throw std::runtime_error("error writing " + path + ": " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 || close(fd) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    std::remove(tmp.c_str());
    throw std::runtime_error("error writing " + path + ": " + why);
  }
}

// OUT/watch.log, written as OUT/watch.log.partial and renamed when the run ends (however it
// ends: a model error's last events are the ones worth reading).
class WatchLog {
 public:
  explicit WatchLog(const std::string& path) : path_(path), partial_(path + ".partial"), os_(partial_) {
    if (!os_) throw ccnet::OptionError("cannot write " + partial_ + ": " + errno_text());
  }
  ~WatchLog() { finish(); }
  std::ostream& stream() { return os_; }
  void finish() {
    if (done_) return;
    done_ = true;
    os_.close();
    if (std::rename(partial_.c_str(), path_.c_str()) != 0)
      std::cerr << "ccnet: error: cannot rename " << partial_ << " to " << path_ << ": " << errno_text() << "\n";
  }

 private:
  std::string path_, partial_;
  std::ofstream os_;
  bool done_ = false;
};

// The command line of the run that writes the waves around an RTL check mismatch: the same run
// (the simulation is deterministic) without the caller's waveform, watch and quiet options, tracing
// the component that differs over [cycle - window, cycle] into OUT/rtl_mismatch.vcd (and .rtl.fst).
std::vector<std::string> mismatch_args(const ccnet::rtl_loop::Mismatch& m, const std::string& vcd, ccnet::Cycle window) {
  static const char* const with_values[] = {"--trace", "--trace-scope", "--trace-window", "--watch-packet",
                                            "--watch-flow", "--rtl-check-window"};
  static const char* const multi[] = {"--trace-scope", "--watch-packet", "--watch-flow"};  // take several values
  std::vector<std::string> out;
  for (std::size_t i = 0; i < g_args.size(); ++i) {
    const std::string& a = g_args[i];
    if (i > 0 && (a == "-q" || a == "--quiet")) continue;
    bool skip = false;
    for (const char* o : with_values) {
      if (a.rfind(std::string(o) + "=", 0) == 0) skip = true;
      if (a != o) continue;
      skip = true;
      ++i;  // its value
      for (const char* mo : multi)
        if (a == mo)
          while (i + 1 < g_args.size() && g_args[i + 1].rfind('-', 0) != 0) ++i;
    }
    if (!skip) out.push_back(a);
  }
  const ccnet::Cycle start = m.cycle > window ? m.cycle - window : 0;
  for (const std::string& a : {std::string("--quiet"), std::string("--rtl-check-window"), std::string("0"),
                              std::string("--trace"), vcd, std::string("--trace-window"),
                              std::to_string(start) + ":" + std::to_string(m.cycle + 1), std::string("--trace-scope"),
                              m.component})
    out.push_back(a);
  return out;
}

// At an RTL check mismatch: the waves of the window before it (docs/rtl-verification.md, "Waves"),
// from a second process running the same simulation, whose messages go to OUT/rtl_mismatch.log.
void write_mismatch_waves(const ccnet::rtl_loop::Mismatch& m, const std::string& out_dir, ccnet::Cycle window) {
  const std::string vcd = out_dir + "/rtl_mismatch.vcd", fst = out_dir + "/rtl_mismatch.rtl.fst",
                    log = out_dir + "/rtl_mismatch.log";
  std::remove(vcd.c_str());
  std::remove(fst.c_str());
  const std::vector<std::string> args = mismatch_args(m, vcd, window);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) {
    std::cerr << "ccnet: error: cannot run the simulation again for the mismatch waves: " << errno_text() << "\n";
    return;
  }
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const bool same = WIFEXITED(status) && WEXITSTATUS(status) == kExitModel && text.find(m.what()) != std::string::npos;
  if (!same || !std::filesystem::exists(vcd)) {
    std::cerr << "ccnet: error: the run again for the mismatch waves did not stop at the same mismatch (see " << log
              << ")\n";
    return;
  }
  const ccnet::Cycle start = m.cycle > window ? m.cycle - window : 0;
  std::cerr << "ccnet: waves of " << m.component << " over cycles " << start << " to " << m.cycle << " (the last one"
            << " up to the failing call): " << vcd << " (model)";
  if (std::filesystem::exists(fst)) std::cerr << ", " << fst << " (RTL)";
  std::cerr << "\n";
}

void note_if_empty(const ccnet::Config& cfg) {
  if (cfg.empty_file)
    std::cerr << "ccnet: note: " << cfg.file << " holds no settings: every key takes its default (`ccnet config "
              << cfg.file << "` prints them)\n";
}

int run_command(const std::string& file, const std::vector<std::string>& sets, long long seed, const std::string& out_dir,
                bool quiet, const DebugOptions& dbg) {
  const ccnet::Config cfg = ccnet::load_config(file, sets, seed);
  note_if_empty(cfg);
  // Malformed debug options and unusable output locations fail before the network is built.
  ccnet::TraceOptions topt;
  if (!dbg.trace_window.empty()) ccnet::parse_trace_window(dbg.trace_window, topt.start, topt.end);
  ccnet::WatchSelection wsel;
  for (const auto& p : dbg.watch_packets) wsel.packets.push_back(ccnet::parse_watch_packet(p));
  for (const auto& f : dbg.watch_flows) wsel.flows.push_back(ccnet::parse_watch_flow(f));
  check_out_dir(out_dir);
  if (dbg.trace) {
    topt.file = dbg.trace_file;
    ccnet::check_trace_file(topt.file);
  }
  // The network lives until the process exits: tearing down a large SystemC hierarchy costs
  // seconds (quadratic port-registry removal) and buys nothing in a one-shot CLI run.
  auto* net_ptr = new ccnet::Network("net", cfg, dbg.rtl_sets);
  ccnet::Network& net = *net_ptr;
  if (dbg.rtl_sets) {
    if (!net.rtl_source()) throw ccnet::config::ConfigError("--rtl-sets needs --rtl (or sim.rtl): the blocks whose sets to list");
    std::cout << net.rtl_source()->survey();
    std::cout.flush();
    std::_Exit(kExitOk);  // nothing simulated (see the teardown note above)
  }
  ccnet::RunOptions opt;
  opt.progress = !quiet && isatty(STDERR_FILENO);
  opt.stop = &g_stop_signal;
  std::unique_ptr<ccnet::NetworkTrace> trace;
  if (dbg.trace) {
    topt.scopes = dbg.trace_scopes;
    trace = std::make_unique<ccnet::NetworkTrace>(net, topt);
    opt.observers.push_back(trace.get());
  }
  std::unique_ptr<ccnet::PacketWatch> watch;
  std::unique_ptr<WatchLog> watch_log;
  if (!wsel.empty()) {
    watch = std::make_unique<ccnet::PacketWatch>(wsel, net.topology().num_nodes());
    watch_log = std::make_unique<WatchLog>(out_dir + "/watch.log");
    watch->add_sink(watch_log->stream());
    if (!quiet) {
      watch->add_sink(std::cout);
      opt.progress = false;  // the progress line would garble the event lines on a terminal
    }
    net.packets().set_watch(watch.get());
  }
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  ccnet::RunResult res;
  try {
    res = ccnet::run_network(net, opt);
  } catch (const ccnet::rtl_loop::Mismatch& m) {
    std::cerr << "ccnet: model error: " << m.what() << "\n";
    trace.reset();  // closes the caller's waveforms and packet log, as unwinding would
    if (watch_log) watch_log->finish();
    if (dbg.rtl_check_window > 0) write_mismatch_waves(m, out_dir, dbg.rtl_check_window);
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(kExitModel);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const std::string path = out_dir + "/stats.json";
  write_atomically(path, res.stats.dump(1) + "\n");
  if (!quiet) std::cout << ccnet::summarize(res.stats) << "  results: " << path << "\n";
  int status = kExitOk;
  if (trace) {
    if (!quiet && trace->opened()) {
      std::cout << "  waveform: " << trace->path() << "\n";
      if (trace->rtl_models())
        std::cout << "  RTL waveform: " << trace->rtl_path() << " (" << trace->rtl_models() << " Verilated models)\n";
    }
    if (!trace->opened() && !res.interrupted) {
      std::cerr << "ccnet: option error: --trace-window " << dbg.trace_window << " starts after the run ended (cycle "
                << res.stats["cycles_total"].get<std::uint64_t>() << "); no waveform written\n";
      status = kExitConfig;
    }
  }
  if (watch) {
    watch_log->finish();
    if (!quiet) std::cout << "  packet events: " << out_dir << "/watch.log (" << watch->events() << " events, "
                          << watch->packets_watched() << " packets)\n";
    if (!res.interrupted)
      for (const auto& u : watch->unmatched()) {
        std::cerr << "ccnet: option error: " << u << "\n";
        status = kExitConfig;
      }
  }
  if (res.interrupted) {
    std::cerr << "ccnet: interrupted by " << (g_stop_signal == SIGINT ? "SIGINT" : "SIGTERM") << " at cycle "
              << res.stats["cycles_total"].get<std::uint64_t>() << "; partial results in " << path
              << " (interrupted: true)\n";
    status = 128 + g_stop_signal;
  } else if (!res.not_drained.empty()) {
    std::cerr << "ccnet: not drained: " << res.not_drained << "; results in " << path << " (drained: false)\n";
    if (status == kExitOk) status = kExitNotDrained;
  }
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(status);  // skip the teardown of the SystemC hierarchy (see above)
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  g_args.assign(argv, argv + argc);
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
  std::string rtl, rtl_mutant;
  bool rtl_check = false;
  DebugOptions dbg;
  run->add_option("--rtl", rtl,
                  "RTL in the loop: step the Verilated RTL of these blocks (comma-separated, or all) in every router and "
                  "NIC (sets sim.rtl)");
  run->add_flag("--rtl-check", rtl_check, "with --rtl: also run the C++ cores and stop at the first difference (sim.rtl_check)");
  run->add_option("--rtl-mutant", rtl_mutant, "test only: a deliberately broken RTL build (sim.rtl_mutant)");
  run->add_option("--rtl-check-window", dbg.rtl_check_window,
                  "with --rtl-check: at a difference, write the waves of the component that differs over this many "
                  "cycles before it (DIR/rtl_mismatch.vcd and .rtl.fst, from a second run; 0 = none; default 200)")
      ->check(CLI::Range(ccnet::Cycle{0}, ccnet::Cycle{1} << 40));
  run->add_flag("--rtl-sets", dbg.rtl_sets,
                "with --rtl: build the network, print the RTL parameter sets its blocks need (built, missing, beyond-rtl: "
                "block, parameters, first instance) and exit without simulating");
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

  auto* list = app.add_subcommand("list", "print the registered topologies, routing functions, mechanisms and patterns");
  list->add_flag("--json", json, "print every configuration key (kind, default, range, choices) as JSON");

  std::string doc_name;
  auto* docs = app.add_subcommand("docs", "print generated documentation");
  docs->add_option("name", doc_name, "which document")->required()->check(CLI::IsMember({"config"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help); its own exit codes (105-109) are not ours.
    return app.exit(e) == 0 ? kExitOk : kExitConfig;
  }
  dbg.trace = trace_opt->count() > 0;  // `--trace ''` too: an error, not a silent no-trace run
  // The RTL options are the sim.rtl* keys, after the --set overrides.
  if (!rtl.empty()) sets.push_back("sim.rtl=" + rtl);
  if (rtl_check) sets.push_back("sim.rtl_check=true");
  if (!rtl_mutant.empty()) sets.push_back("sim.rtl_mutant=" + rtl_mutant);

  try {
    if (*run) return run_command(file, sets, seed, out_dir, quiet, dbg);
    if (*validate) {
      const ccnet::Config cfg = ccnet::load_config(file, sets);
      note_if_empty(cfg);
      std::cout << file << ": ok (" << cfg.topology.params->create()->describe() << "; about "
                << ccnet::human_bytes(cfg.built->memory_estimate) << " of memory)\n";
      return kExitOk;
    }
    if (*show) {
      const ccnet::Config cfg = ccnet::load_config(file, sets);
      note_if_empty(cfg);
      const auto j = ccnet::effective_config(cfg);
      std::cout << (json ? j.dump(2) + "\n" : ccnet::config::to_yaml(j));
      return kExitOk;
    }
    if (*list) {
      std::cout << (json ? ccnet::config_schema().dump(1) + "\n" : ccnet::registered_names());
      return kExitOk;
    }
    if (*docs) {
      std::cout << ccnet::config_reference();
      return kExitOk;
    }
  } catch (const ccnet::config::ConfigError& e) {
    std::cerr << "ccnet: config error: " << e.what() << "\n";
    return kExitConfig;
  } catch (const ccnet::ModelError& e) {
    std::cerr << "ccnet: model error: " << e.what() << "\n";
    return kExitModel;
  } catch (const ccnet::OptionError& e) {
    std::cerr << "ccnet: option error: " << e.what() << "\n";
    return kExitConfig;
  } catch (const std::exception& e) {
    std::cerr << "ccnet: error: " << e.what() << "\n";
    return kExitError;
  }
  return kExitOk;
}
