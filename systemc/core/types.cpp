#include "core/types.hpp"

#include <cstdlib>

namespace {
// SystemC prints a copyright banner on stdout at start-up unless this variable is set; ccnet's
// stdout carries results, so silence it before main() runs (static initialisation).
struct QuietSystemC {
  QuietSystemC() { setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0); }
} quiet_systemc;
}  // namespace
