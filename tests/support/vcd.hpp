// Test helper: a small VCD reader (what SystemC's VCD writer produces: nested $scope, $var
// wire, binary vectors "b101 id" and scalars "1id"). Each signal keeps its value changes.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccnet::test {

struct VcdSignal {
  std::string name;  // full name with '.' between scopes, without the writer's top scope "SystemC"
  int width = 1;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> changes;  // (time, value), in time order
  // Value at time t (the last change at or before t); `none` before the first change.
  std::uint64_t at(std::uint64_t t, std::uint64_t none = ~0ull) const {
    std::uint64_t v = none;
    for (const auto& [ct, cv] : changes) {
      if (ct > t) break;
      v = cv;
    }
    return v;
  }
};

struct Vcd {
  std::map<std::string, VcdSignal> signals;
  std::uint64_t first_time = 0, last_time = 0;  // time of $dumpvars, last time stamp
  std::string timescale;

  const VcdSignal& operator[](const std::string& name) const {
    const auto it = signals.find(name);
    if (it == signals.end()) throw std::runtime_error("VCD has no signal " + name);
    return it->second;
  }
  bool has(const std::string& name) const { return signals.count(name) != 0; }
};

inline Vcd read_vcd(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  Vcd vcd;
  std::map<std::string, std::vector<std::string>> by_id;  // id code -> signal names
  std::vector<std::string> scopes;
  std::string tok;
  std::uint64_t now = 0;
  bool defs = true, have_time = false;
  auto assign = [&](const std::string& id, std::uint64_t v) {
    for (const auto& n : by_id[id]) {
      auto& ch = vcd.signals[n].changes;
      if (!ch.empty() && ch.back().first == now) ch.back().second = v;
      else ch.emplace_back(now, v);
    }
  };
  while (in >> tok) {
    if (defs) {
      if (tok == "$scope") {
        std::string kind, name;
        in >> kind >> name >> tok;
        scopes.push_back(name);
      } else if (tok == "$upscope") {
        in >> tok;
        scopes.pop_back();
      } else if (tok == "$var") {
        std::string type, id, name;
        int width = 0;
        in >> type >> width >> id >> name;
        while (in >> tok && tok != "$end") {
        }
        std::string full;
        for (std::size_t i = 1; i < scopes.size(); ++i) full += scopes[i] + ".";  // scopes[0] = "SystemC"
        full += name;
        vcd.signals[full].name = full;
        vcd.signals[full].width = width;
        by_id[id].push_back(full);
      } else if (tok == "$timescale") {
        std::string t;
        while (in >> tok && tok != "$end") t += (t.empty() ? "" : " ") + tok;
        vcd.timescale = t;
      } else if (tok == "$enddefinitions") {
        in >> tok;
        defs = false;
      } else if (tok[0] == '$') {
        while (tok != "$end" && in >> tok) {
        }
      }
      continue;
    }
    if (tok == "$comment") {
      // SystemC states the time of the initial values in a comment ("... = 2000 timescale units.").
      std::string prev;
      while (in >> tok && tok != "$end") {
        if (tok == "timescale" && !have_time && !prev.empty() && prev.find_first_not_of("0123456789") == std::string::npos) {
          now = std::stoull(prev);
          vcd.first_time = vcd.last_time = now;
          have_time = true;
        }
        prev = tok;
      }
    } else if (tok == "$dumpvars" || tok == "$end") {
    } else if (tok[0] == '#') {
      now = std::stoull(tok.substr(1));
      if (!have_time) vcd.first_time = now;
      have_time = true;
      vcd.last_time = now;
    } else if (tok[0] == 'b' || tok[0] == 'B') {
      std::string id;
      in >> id;
      std::uint64_t v = 0;
      for (std::size_t i = 1; i < tok.size(); ++i) v = (v << 1) | (tok[i] == '1' ? 1u : 0u);
      assign(id, v);
    } else if (tok[0] == '0' || tok[0] == '1' || tok[0] == 'x' || tok[0] == 'z') {
      assign(tok.substr(1), tok[0] == '1' ? 1u : 0u);
    }
  }
  return vcd;
}

}  // namespace ccnet::test
