// The swap point of the mirrored blocks (RTL in the loop, docs/rtl-verification.md).
//
// The router and the NIC hold their mirrored blocks through a slot (CreditCounterSlot,
// OutputArbiterSlot, SwitchAllocatorSlot): the same calls as the block's C++ core, answered by
// the core itself or, when the slot was given another implementation of the block, by that
// (the Verilated RTL of the block, stepped inside the same cycle with the same inputs, possibly
// checked against the core). A BlockSource hands out those implementations; the default one
// hands out none, so every slot runs its core. The slot forwards with one predictable branch,
// no virtual call, when it runs the core.
//
// An implementation sees exactly the calls the core would see, in the same order: a pure
// evaluation (count, pick, allocate) reads the block's combinational outputs for the inputs of
// the call, and commit applies one clock edge with those inputs held.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "blocks/credit_counter.hpp"
#include "blocks/ecn_marker.hpp"
#include "blocks/output_arbiter.hpp"
#include "blocks/switch_allocator.hpp"

namespace ccnet::blocks {

class CreditCounterImpl {
 public:
  virtual ~CreditCounterImpl() = default;
  virtual std::uint32_t count() = 0;
  virtual bool commit(std::uint32_t give, bool take) = 0;
};

class OutputArbiterImpl {
 public:
  virtual ~OutputArbiterImpl() = default;
  virtual std::uint32_t credits(std::uint32_t vc) = 0;
  virtual int pick(const OutputArbiter::Request* reqs, std::size_t n) = 0;
  virtual bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc, std::uint32_t give_count) = 0;
};

class SwitchAllocatorImpl {
 public:
  virtual ~SwitchAllocatorImpl() = default;
  virtual void allocate(const SwitchAllocator::Request* reqs, std::size_t n, std::vector<SwitchAllocator::Grant>& grants) = 0;
  virtual void commit(const std::vector<SwitchAllocator::Grant>& grants) = 0;
};

class EcnMarkerImpl {
 public:
  virtual ~EcnMarkerImpl() = default;
  virtual bool mark(bool valid, bool data, std::uint32_t occupancy) = 0;
  virtual void commit(bool valid, bool data, std::uint32_t occupancy) = 0;
};

// Hands out the implementations of the blocks a run swaps. `where` names the instance for
// messages (e.g. "net.router_3 output 2 vc 1"). Null: the slot runs the C++ core.
class BlockSource {
 public:
  virtual ~BlockSource() = default;
  virtual std::unique_ptr<CreditCounterImpl> credit_counter(const CreditCounterParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<OutputArbiterImpl> output_arbiter(const OutputArbiterParams&, const std::string& where) const = 0;
  virtual std::unique_ptr<SwitchAllocatorImpl> switch_allocator(const SwitchAllocatorParams&, const std::string& where) const = 0;
  // `max_occupancy`: the largest occupancy the marker is shown (the measured buffer's capacity).
  virtual std::unique_ptr<EcnMarkerImpl> ecn_marker(const EcnMarkerParams&, std::uint32_t max_occupancy,
                                                    const std::string& where) const = 0;
};

class CreditCounterSlot {
 public:
  CreditCounterSlot() = default;
  CreditCounterSlot(const CreditCounterParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->credit_counter(p, where) : nullptr) {}
  std::uint32_t count() const { return alt_ ? alt_->count() : core_.count(); }
  bool commit(std::uint32_t give, bool take) { return alt_ ? alt_->commit(give, take) : core_.commit(give, take); }

 private:
  CreditCounter core_;
  std::unique_ptr<CreditCounterImpl> alt_;
};

class OutputArbiterSlot {
 public:
  OutputArbiterSlot() = default;
  OutputArbiterSlot(const OutputArbiterParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->output_arbiter(p, where) : nullptr) {}
  std::uint32_t credits(std::uint32_t vc) const { return alt_ ? alt_->credits(vc) : core_.credits(vc); }
  int pick(const OutputArbiter::Request* reqs, std::size_t n) const {
    return alt_ ? alt_->pick(reqs, n) : core_.pick(reqs, n);
  }
  bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc, std::uint32_t give_count) {
    return alt_ ? alt_->commit(granted, granted_prio, give_vc, give_count)
                : core_.commit(granted, granted_prio, give_vc, give_count);
  }

 private:
  OutputArbiter core_;
  std::unique_ptr<OutputArbiterImpl> alt_;
};

class SwitchAllocatorSlot {
 public:
  SwitchAllocatorSlot() = default;
  SwitchAllocatorSlot(const SwitchAllocatorParams& p, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->switch_allocator(p, where) : nullptr) {}
  void allocate(const SwitchAllocator::Request* reqs, std::size_t n, std::vector<SwitchAllocator::Grant>& grants) {
    if (alt_) alt_->allocate(reqs, n, grants);
    else core_.allocate(reqs, n, grants);
  }
  void commit(const std::vector<SwitchAllocator::Grant>& grants) {
    if (alt_) alt_->commit(grants);
    else core_.commit(grants);
  }

 private:
  SwitchAllocator core_;
  std::unique_ptr<SwitchAllocatorImpl> alt_;
};

class EcnMarkerSlot {
 public:
  EcnMarkerSlot() = default;
  EcnMarkerSlot(const EcnMarkerParams& p, std::uint32_t max_occupancy, const BlockSource* src, const std::string& where)
      : core_(p), alt_(src ? src->ecn_marker(p, max_occupancy, where) : nullptr) {}
  bool mark(bool valid, bool data, std::uint32_t occupancy) const {
    return alt_ ? alt_->mark(valid, data, occupancy) : core_.mark(valid, data, occupancy);
  }
  void commit(bool valid, bool data, std::uint32_t occupancy) {
    if (alt_) alt_->commit(valid, data, occupancy);
    else core_.commit(valid, data, occupancy);
  }

 private:
  EcnMarker core_;
  std::unique_ptr<EcnMarkerImpl> alt_;
};

}  // namespace ccnet::blocks
