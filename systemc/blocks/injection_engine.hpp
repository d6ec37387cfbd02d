// NIC injection engine: the send-queue scheduler (mirrored by rtl/ccn_injection_engine.sv).
//
// N send queues (one per destination, queue-pair style). Each cycle, when the NIC's data path
// can take a new packet (`ready`), the engine grants one queue that has a packet (`nonempty`)
// and is eligible, round-robin per packet from the queue after the last grant. Eligibility
// implements InfiniBand-style injection-rate control (paper 003 Table 1, paper 000 section 2):
//   * each queue has a congestion-control table index CCTI (0..ccti_limit) and a timer
//     `next_ok`; its inter-packet delay is IPD = CCTI * ipd_unit cycles;
//   * a queue is eligible when now >= next_ok; granting a packet of `len` flits sets
//     next_ok = now + len + IPD (the gap between one packet's tail and the next head);
//   * a BECN for queue q raises CCTI by ccti_increase (saturating at ccti_limit);
//   * every timer_period cycles (free-running timer, 0 = never) every CCTI > 0 drops by 1.
// With no BECNs the engine is a plain per-packet round-robin scheduler.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace ccnet::blocks {

struct InjectionEngineParams {
  std::uint32_t num_queues = 4;
  std::uint32_t ipd_unit = 0;       // cycles of IPD per CCTI step
  std::uint32_t ccti_increase = 1;  // CCTI steps per BECN
  std::uint32_t ccti_limit = 0;     // 0 = rate control off
  std::uint32_t timer_period = 0;   // cycles between CCTI decrements (0 = never)
};

class InjectionEngine {
 public:
  InjectionEngine() = default;
  explicit InjectionEngine(const InjectionEngineParams& p);

  void reset();

  // Queue occupancy as seen by the engine (the NIC updates it when a queue becomes empty or
  // non-empty).
  void set_nonempty(std::uint32_t q, bool nonempty);
  bool nonempty(std::uint32_t q) const { return (bits_[q >> 6] >> (q & 63)) & 1u; }

  // Combinational grant at cycle `now`: the queue to serve, or -1. Pure.
  int pick(Cycle now, bool ready) const;

  // Clock edge at cycle `now`: `granted` (pick result or -1) started a packet of `len` flits;
  // `becn_queues` received a BECN this cycle (each entry one notification).
  void commit(Cycle now, int granted, std::uint32_t len, const std::uint32_t* becn_queues, std::size_t n_becn);

  std::uint32_t ccti(std::uint32_t q) const { return ccti_[q]; }
  std::uint32_t ipd(std::uint32_t q) const { return ccti_[q] * p_.ipd_unit; }
  Cycle next_ok(std::uint32_t q) const { return next_ok_[q]; }
  std::uint32_t pointer() const { return ptr_; }
  std::uint32_t timer() const { return timer_; }
  const InjectionEngineParams& params() const { return p_; }
  std::size_t throttled() const { return throttled_.size(); }

 private:
  InjectionEngineParams p_;
  std::vector<std::uint64_t> bits_;  // nonempty bitmap
  std::vector<std::uint32_t> ccti_;
  std::vector<Cycle> next_ok_;
  std::vector<std::uint32_t> throttled_;  // queues with CCTI > 0 (decrement list)
  std::vector<std::int32_t> throttled_pos_;
  std::uint32_t ptr_ = 0;
  std::uint32_t timer_ = 0;
};

}  // namespace ccnet::blocks
