#include "sim/trace.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sysc/tracing/sc_tracing_ids.h>
#include <systemc>

#include "core/error.hpp"
#include "core/trace_sink.hpp"
#include "rtl_loop/waves.hpp"

namespace ccnet {

namespace {

bool parse_cycle(const std::string& s, Cycle& v) {
  if (s.empty() || s.size() > 18) return false;
  v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<Cycle>(c - '0');
  }
  return true;
}

bool glob_match(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

// VCD time unit: the clock period when it is 1, 10 or 100 of some unit (then one VCD time step
// per cycle at 1 GHz), else 1 ps, the kernel's resolution.
std::pair<double, sc_core::sc_time_unit> vcd_time_unit(const sc_core::sc_time& period) {
  std::uint64_t ps = period.value();  // the kernel resolution is 1 ps (the default)
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS)) return {1.0, sc_core::SC_PS};
  static const sc_core::sc_time_unit units[] = {sc_core::SC_PS, sc_core::SC_NS, sc_core::SC_US, sc_core::SC_MS};
  for (const auto u : units) {
    if (ps == 1 || ps == 10 || ps == 100) return {static_cast<double>(ps), u};
    if (ps % 1000 != 0) break;
    ps /= 1000;
  }
  return {1.0, sc_core::SC_PS};
}

}  // namespace

void parse_trace_window(const std::string& text, Cycle& start, Cycle& end) {
  const auto colon = text.find(':');
  const std::string a = colon == std::string::npos ? "" : text.substr(0, colon);
  const std::string b = colon == std::string::npos ? "" : text.substr(colon + 1);
  start = 0;
  end = kNever;
  const bool ok = colon != std::string::npos && text.find(':', colon + 1) == std::string::npos &&
                  (a.empty() || parse_cycle(a, start)) && (b.empty() || parse_cycle(b, end)) && !(a.empty() && b.empty());
  if (!ok)
    throw OptionError("--trace-window '" + text +
                      "': expected START:END in cycles (END exclusive; either may be left out), e.g. 20000:21000");
  if (end <= start)
    throw OptionError("--trace-window '" + text + "': the window is empty (END must be greater than START)");
}

std::string trace_path(const std::string& file) {
  if (file.empty()) throw OptionError("--trace: empty file name (expected --trace FILE.vcd)");
  if (file.size() < 4 || file.compare(file.size() - 4, 4, ".vcd") != 0) return file + ".vcd";
  return file;
}

namespace {
// Where the writer puts the file while it is open (SystemC's writer adds ".vcd" to the base).
std::string partial_base(const std::string& path) { return path.substr(0, path.size() - 4) + ".partial"; }
}  // namespace

void check_trace_file(const std::string& file) {
  // stats.json records the file name, and JSON text is UTF-8.
  if (const std::size_t bad = config::first_invalid_utf8(file); bad != std::string::npos)
    throw OptionError("--trace: the file name is " + config::invalid_utf8_text(file, bad));
  const std::string path = trace_path(file);
  const std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OptionError("--trace " + file + ": cannot create the directory " + dir.string() + ": " + ec.message());
  if (std::filesystem::is_directory(p)) throw OptionError("--trace " + file + ": " + path + " is a directory");
  // The writer creates FILE.partial.vcd in the same directory and renames it: try exactly that.
  const std::string probe = partial_base(path) + ".vcd";
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) throw OptionError("--trace " + file + ": cannot write " + probe + ": " + std::strerror(errno));
  std::fclose(f);
  std::remove(probe.c_str());
}

// Collects the registrations of one component after another and keeps what the scope selects.
class NetworkTrace::Collector : public TraceSink {
 public:
  Collector(NetworkTrace& t, std::vector<std::string> patterns)
      : t_(t), patterns_(std::move(patterns)), used_(patterns_.size(), false) {}

  // Starts a component; returns nothing, kept() tells afterwards whether anything was kept.
  void begin(const std::string& component) {
    prefix_ = component;
    kept_ = 0;
    whole_ = patterns_.empty();
    for (std::size_t i = 0; i < patterns_.size(); ++i)
      if (glob_match(patterns_[i], component)) whole_ = used_[i] = true;
  }
  std::size_t kept() const { return kept_; }
  const std::vector<bool>& used() const { return used_; }
  const std::vector<std::string>& patterns() const { return patterns_; }

  void value(const bool& v, const std::string& name) override { keep(Entry::Kind::Bool, &v, name, 1); }
  void value(const std::uint32_t& v, const std::string& name, int width) override {
    keep(Entry::Kind::U32, &v, name, width);
  }
  void value(const std::uint64_t& v, const std::string& name, int width) override {
    keep(Entry::Kind::U64, &v, name, width);
  }
  void flit_channel(const sc_core::sc_port_base& port, const std::string& name, const std::uint64_t* flits) override {
    if (keep(Entry::Kind::Flit, &port, name, 0) && flits) t_.channels_.push_back(Channel{prefix_ + "." + stem(name), flits});
  }
  void credit_channel(const sc_core::sc_port_base& port, const std::string& name) override {
    keep(Entry::Kind::Credit, &port, name, 0);
  }

 private:
  static std::string stem(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
  }
  // A pattern selects a signal when it matches the signal's full name or one of its enclosing
  // scopes (net.router_3.out_4 selects everything under out_4). A channel is kept whole when a
  // pattern matches it or one of its fields (net.router_3.out_4.flit.packet).
  bool selected(const std::string& full, Entry::Kind kind) {
    if (whole_) return true;
    static const char* const flit_fields[] = {"packet", "index", "vc", "head", "tail"};
    static const char* const credit_fields[] = {"count", "vc0", "vc1", "vc2", "vc3"};
    bool any = false;
    for (std::size_t i = 0; i < patterns_.size(); ++i) {
      const std::string& pat = patterns_[i];
      bool m = glob_match(pat, full);
      for (auto pos = full.find('.', prefix_.size() + 1); !m && pos != std::string::npos; pos = full.find('.', pos + 1))
        m = glob_match(pat, full.substr(0, pos));
      if (!m && (kind == Entry::Kind::Flit || kind == Entry::Kind::Credit))
        for (const char* f : kind == Entry::Kind::Flit ? flit_fields : credit_fields)
          if (!m) m = glob_match(pat, full + "." + f);
      if (m) any = used_[i] = true;
    }
    return any;
  }
  bool keep(Entry::Kind kind, const void* ref, const std::string& name, int width) {
    std::string full = prefix_ + "." + name;
    if (!selected(full, kind)) return false;
    t_.entries_.push_back(Entry{kind, ref, std::move(full), width});
    ++kept_;
    return true;
  }

  NetworkTrace& t_;
  std::vector<std::string> patterns_;
  std::vector<bool> used_;
  std::string prefix_;
  bool whole_ = false;
  std::size_t kept_ = 0;
};

NetworkTrace::NetworkTrace(Network& net, TraceOptions opt) : net_(net), opt_(std::move(opt)) {
  net_.set_exact_channels(true);  // the links carry the exact value every cycle, as the waveform shows
  if (opt_.end <= opt_.start) throw OptionError("--trace-window: the window is empty (END must be greater than START)");
  path_ = trace_path(opt_.file);
  const std::string top = std::string(net_.name()) + ".";
  std::vector<std::string> patterns;
  for (const auto& p : opt_.scopes) {
    if (p.empty()) throw OptionError("--trace-scope: empty pattern");
    int depth = 0;
    for (const char c : p) {
      if (c == '[') ++depth;
      else if (c == ']' && depth > 0) --depth;
    }
    if (depth != 0) throw OptionError("--trace-scope '" + p + "': unbalanced '[' in the pattern");
    // Names start with the network's name ("net."); a pattern may leave it out.
    const bool rooted = p.rfind(top, 0) == 0 || p[0] == '*' || p[0] == '?' || p[0] == '[';
    patterns.push_back(rooted ? p : top + p);
  }
  Collector c(*this, patterns);
  for (auto& r : net_.routers()) {
    c.begin(r->name());
    r->trace(c);
    if (c.kept()) {
      routers_.push_back(r.get());
      components_.push_back(r->name());
    }
  }
  for (auto& n : net_.nics()) {
    c.begin(n->name());
    n->trace(c);
    if (c.kept()) {
      nics_.push_back(n.get());
      components_.push_back(n->name());
    }
  }
  for (TracedComponent* e : net_.traced_extensions()) {
    c.begin(e->trace_scope());
    e->trace(c);
    if (c.kept()) {
      extensions_.push_back(e);
      components_.push_back(e->trace_scope());
    }
  }
  std::vector<bool> used = c.used();
  select_rtl(patterns, used);
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (used[i]) continue;
    const auto& routers = net_.routers();
    const auto& nics = net_.nics();
    throw OptionError("--trace-scope '" + opt_.scopes[i] + "' matches no component or signal (components are " +
                      (routers.empty() ? std::string() : std::string(routers.front()->name()) + " .. " + routers.back()->name()) +
                      (nics.empty() ? std::string() : " and " + std::string(nics.front()->name()) + " .. " + nics.back()->name()) +
                      "; signals look like " + top + "router_0.out_1.flit.packet, see docs/tracing.md)");
  }
}

// The RTL in the loop's models a pattern selects: those of a component it matches, of the
// component's `rtl` scope, or the model itself (net.router_3.rtl.switch_allocator).
void NetworkTrace::select_rtl(const std::vector<std::string>& patterns, std::vector<bool>& used) {
  const rtl_loop::Waves* waves = net_.rtl_waves();
  if (!waves) return;
  const auto& models = waves->models();
  rtl_selected_.assign(models.size(), patterns.empty());
  for (std::size_t m = 0; m < models.size(); ++m) {
    const std::string scope = models[m].component + ".rtl";
    for (std::size_t i = 0; i < patterns.size(); ++i)
      if (glob_match(patterns[i], models[m].component) || glob_match(patterns[i], scope) ||
          glob_match(patterns[i], scope + "." + models[m].name))
        rtl_selected_[m] = used[i] = true;
  }
  for (const bool s : rtl_selected_) rtl_models_ += s;
  rtl_path_ = path_.substr(0, path_.size() - 4) + ".rtl.fst";
}

NetworkTrace::~NetworkTrace() {
  // A run that ends in an exception (a model error, e.g. a deadlock) still leaves a complete
  // file: the last cycles before the error are the ones worth looking at.
  if (file_) close(net_.now(), true);
}

Cycle NetworkTrace::next_stop(Cycle now) const {
  if (opened_at_ == kNever && closed_at_ == kNever && opt_.start > now) return opt_.start;
  if (rtl_open_) return std::min(now + 1, opt_.end);  // the RTL's state after every cycle
  if (file_ && opt_.end > now) return opt_.end;
  return kNever;
}

void NetworkTrace::at(Cycle now) {
  if (rtl_open_)
    for (; rtl_next_ < now; ++rtl_next_) net_.rtl_waves()->dump(rtl_next_);
  if (!file_ && opened_at_ == kNever && now >= opt_.start && now < opt_.end) open(now);
  else if (file_ && now >= opt_.end) close(now, false);
}

void NetworkTrace::open(Cycle now) {
  using namespace sc_core;
  // Kernel chatter about the time unit, and the falling clock edge at half cycles (nothing in the
  // model changes there, so VCD steps of one cycle lose nothing).
  sc_report_handler::set_actions(SC_ID_TRACING_TIMESCALE_UNIT_, SC_DO_NOTHING);
  sc_report_handler::set_actions(SC_ID_TRACING_TIMESCALE_DEFAULT_, SC_DO_NOTHING);
  sc_report_handler::set_actions(SC_ID_TRACING_VCD_TIME_RESOLUTION_, SC_DO_NOTHING);
  const std::filesystem::path p(path_);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  file_ = sc_create_vcd_trace_file(partial_base(path_).c_str());
  const auto [v, unit] = vcd_time_unit(net_.period());
  file_->set_time_unit(v, unit);
  for (const Entry& e : entries_) {
    switch (e.kind) {
      case Entry::Kind::Bool: sc_trace(file_, *static_cast<const bool*>(e.ref), e.name); break;
      case Entry::Kind::U32: sc_trace(file_, *static_cast<const std::uint32_t*>(e.ref), e.name, e.width); break;
      case Entry::Kind::U64: sc_trace(file_, *static_cast<const std::uint64_t*>(e.ref), e.name, e.width); break;
      case Entry::Kind::Flit: {
        const auto* port = static_cast<const sc_port_base*>(e.ref);
        const auto* sig = dynamic_cast<const sc_signal_in_if<Flit>*>(port->get_interface());
        if (!sig) throw ModelError("trace: " + e.name + " is not bound to a flit channel");
        ccnet::sc_trace(file_, sig->read(), e.name);
        break;
      }
      case Entry::Kind::Credit: {
        const auto* port = static_cast<const sc_port_base*>(e.ref);
        const auto* sig = dynamic_cast<const sc_signal_in_if<CreditLanes>*>(port->get_interface());
        if (!sig) throw ModelError("trace: " + e.name + " is not bound to a credit channel");
        ccnet::sc_trace(file_, sig->read(), e.name);
        break;
      }
    }
  }
  for (auto* r : routers_) r->set_tracing(true);
  for (auto* n : nics_) n->set_tracing(true);
  for (auto* e : extensions_) e->set_tracing(true);
  for (auto& c : channels_) c.at_open = *c.counter;
  opened_at_ = now;
  if (rtl_models_) {
    net_.rtl_waves()->open(partial_base(rtl_path_) + ".fst", rtl_selected_, net_.period());
    rtl_open_ = true;
    rtl_next_ = now;
  }
}

void NetworkTrace::close(Cycle now, bool at_error) {
  if (rtl_open_) {
    rtl_loop::Waves* waves = net_.rtl_waves();
    for (; rtl_next_ < now; ++rtl_next_) waves->dump(rtl_next_);
    if (at_error) waves->dump(now);  // the state at the error, within its cycle
    waves->close();
    rtl_open_ = false;
    const std::string partial = partial_base(rtl_path_) + ".fst";
    if (std::rename(partial.c_str(), rtl_path_.c_str()) != 0)
      std::cerr << "ccnet: error: cannot rename " << partial << " to " << rtl_path_ << ": " << std::strerror(errno) << "\n";
  }
  for (auto& c : channels_) c.flits = *c.counter - c.at_open;
  for (auto* r : routers_) r->set_tracing(false);
  for (auto* n : nics_) n->set_tracing(false);
  for (auto* e : extensions_) e->set_tracing(false);
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
  closed_at_ = now;
  const std::string partial = partial_base(path_) + ".vcd";
  // Also runs from the destructor while a model error unwinds: report, never throw.
  if (std::rename(partial.c_str(), path_.c_str()) != 0)
    std::cerr << "ccnet: error: cannot rename " << partial << " to " << path_ << ": " << std::strerror(errno) << "\n";
}

void NetworkTrace::finish(Cycle now, Json& stats) {
  if (file_) close(now, false);
  Json t;
  t["file"] = path_;
  t["opened"] = opened();
  t["window"]["start"] = opened() ? opened_at_ : opt_.start;
  t["window"]["end"] = opened() ? closed_at_ : (opt_.end == kNever ? now : opt_.end);
  t["components"] = components_.size();
  t["signals"] = entries_.size();
  Json ch = Json::object();
  for (const auto& c : channels_) ch[c.name]["flits"] = c.flits;
  t["channels"] = std::move(ch);
  if (rtl_models_) {
    t["rtl"]["file"] = rtl_path_;
    t["rtl"]["models"] = rtl_models_;
  }
  stats["trace"] = std::move(t);
}

std::vector<std::string> NetworkTrace::signal_names() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

}  // namespace ccnet
