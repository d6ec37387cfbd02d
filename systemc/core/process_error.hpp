// Exceptions raised inside kernel processes.
//
// The SystemC kernel turns an exception that leaves a process into a generic sc_report ("E549
// uncaught exception"): its type, and with it the run's exit status (docs/outputs.md), is lost.
// Every clocked process of the model therefore runs its body through guard(): the first exception
// is kept, the simulation stops at the end of the current delta cycle, and rethrow(), which the
// code that calls sc_start calls after it returns, rethrows it with its type. A std::logic_error
// (a block's or mechanism's broken invariant or contract) raised while simulating is a model
// error: it is rethrown as ModelError naming the component that raised it and the cycle.
#pragma once

#include <systemc>

namespace ccnet::process_error {

// Called from a catch block: keeps the exception being handled (the first one only) and stops the
// simulation. `where` is the component whose evaluation raised it, `period` its clock period.
void capture(const sc_core::sc_object& where, sc_core::sc_time period) noexcept;

// Rethrows the kept exception, if any, and forgets it.
void rethrow();

template <class Body>
void guard(const sc_core::sc_object& where, sc_core::sc_time period, Body&& body) {
  try {
    body();
  } catch (...) {
    capture(where, period);
  }
}

}  // namespace ccnet::process_error
