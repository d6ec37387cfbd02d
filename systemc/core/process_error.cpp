#include "core/process_error.hpp"

#include <exception>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace ccnet::process_error {

namespace {
std::exception_ptr pending;  // one simulation per process (SystemC has one kernel)
}

void capture(const sc_core::sc_object& where, sc_core::sc_time period) noexcept {
  if (!pending) {
    try {
      throw;
    } catch (const ModelError&) {
      pending = std::current_exception();
    } catch (const std::logic_error& e) {
      const auto cycle = period.value() > 0 ? sc_core::sc_time_stamp().value() / period.value() : 0;
      pending = std::make_exception_ptr(
          ModelError(std::string(where.name()) + " @cycle " + std::to_string(cycle) + ": " + e.what()));
    } catch (...) {
      pending = std::current_exception();
    }
  }
  // Through the kernel the stop is reported as an info message ("stopped by user"): silence it.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_stop();
}

void rethrow() {
  if (!pending) return;
  std::exception_ptr e;
  std::swap(e, pending);
  std::rethrow_exception(e);
}

}  // namespace ccnet::process_error
