// ccnet command line:
//   ccnet run CONFIG.yaml [--set key=value]... [--seed N] [--out DIR] [--quiet]
//   ccnet validate CONFIG.yaml [--set key=value]...
//   ccnet config CONFIG.yaml [--set key=value]... [--json]
//   ccnet docs config            (prints docs/config.md)
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <systemc>

#include "core/error.hpp"
#include "sim/network.hpp"

namespace {

int run_command(const std::string& file, const std::vector<std::string>& sets, long long seed, const std::string& out_dir,
                bool quiet) {
  const ccnet::Config cfg = ccnet::load_config(file, sets, seed);
  // The network lives until the process exits: tearing down a large SystemC hierarchy costs
  // seconds (quadratic port-registry removal) and buys nothing in a one-shot CLI run.
  auto* net_ptr = new ccnet::Network("net", cfg);
  ccnet::Network& net = *net_ptr;
  ccnet::RunOptions opt;
  opt.progress = !quiet && isatty(STDERR_FILENO);
  const ccnet::RunResult res = ccnet::run_network(net, opt);
  std::filesystem::create_directories(out_dir);
  const std::string path = out_dir + "/stats.json";
  std::ofstream os(path);
  if (!os) throw std::runtime_error("cannot write " + path);
  os << res.stats.dump(1) << "\n";
  os.close();
  if (!os) throw std::runtime_error("error writing " + path);
  if (!quiet) std::cout << ccnet::summarize(res.stats) << "  results: " << path << "\n";
  std::cout.flush();
  std::_Exit(0);  // skip the teardown of the SystemC hierarchy (see above)
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
    if (*run) return run_command(file, sets, seed, out_dir, quiet);
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
  } catch (const std::exception& e) {
    std::cerr << "ccnet: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
