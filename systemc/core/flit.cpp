#include "core/flit.hpp"

#include <sstream>
#include <systemc>

namespace ccnet {

std::ostream& operator<<(std::ostream& os, const Flit& f) {
  if (!f.valid()) return os << "idle";
  return os << "p" << f.packet << "." << f.index << "@vc" << f.vc << (f.head ? "H" : "")
            << (f.tail ? "T" : "");
}

std::string to_text(const Flit& f) {
  std::ostringstream os;
  os << f;
  return os.str();
}

void sc_trace(sc_core::sc_trace_file* tf, const Flit& f, const std::string& name) {
  // Traced as separate wires so GTKWave shows them like the RTL ports.
  sc_core::sc_trace(tf, f.packet, name + ".packet");
  sc_core::sc_trace(tf, f.index, name + ".index");
  sc_core::sc_trace(tf, f.vc, name + ".vc");
  sc_core::sc_trace(tf, f.head, name + ".head");
  sc_core::sc_trace(tf, f.tail, name + ".tail");
}

std::ostream& operator<<(std::ostream& os, const CreditLanes& c) {
  os << "{";
  for (int i = 0; i < c.count; ++i) os << (i ? "," : "") << c.vc[i];
  return os << "}";
}

void sc_trace(sc_core::sc_trace_file* tf, const CreditLanes& c, const std::string& name) {
  sc_core::sc_trace(tf, c.count, name + ".count");
  for (int i = 0; i < kMaxCreditLanes; ++i)
    sc_core::sc_trace(tf, c.vc[i], name + ".vc" + std::to_string(i));
}

}  // namespace ccnet
