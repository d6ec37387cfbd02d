#include "blocks/saa_link_unit.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet::blocks {

const char* describe(SaaLinkViolation v) {
  switch (v) {
    case SaaLinkViolation::None: return "no violation";
    case SaaLinkViolation::TwoOps: return "more than one operation in one lane";
    case SaaLinkViolation::ZeroWeight: return "a flow weight w_f of 0";
    case SaaLinkViolation::Overflow: return "announce-start would overflow W_l";
    case SaaLinkViolation::CountOverflow: return "announce-start would overflow the link's flow count";
    case SaaLinkViolation::Negative: return "announce-end would make W_l negative";
    case SaaLinkViolation::NoFlow: return "announce-end on a link without flows would make W_l negative";
    case SaaLinkViolation::Residue: return "announce-end would leave W_l below one flit per remaining flow (not back to 0)";
  }
  return "unknown violation";
}

SaaLinkUnit::SaaLinkUnit(const SaaLinkUnitParams& p) : p_(p) {
  if (p.weight_width < 1 || p.weight_width > 64) throw std::invalid_argument("SaaLinkUnit: weight_width must be in 1..64");
  if (p.count_width < 1 || p.count_width > 32) throw std::invalid_argument("SaaLinkUnit: count_width must be in 1..32");
  max_weight_ = p.weight_width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p.weight_width) - 1;
  max_flows_ = p.count_width >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << p.count_width) - 1;
  reset();
}

void SaaLinkUnit::reset() {
  weight_ = 0;
  flows_ = 0;
  error_ = false;
}

SaaLinkResult SaaLinkUnit::eval(const SaaLinkLane& lane) const {
  SaaLinkResult r;
  auto bad = [&](SaaLinkViolation v) {
    r.violation = v;
    r.wmax = 0;
    return r;
  };
  const int ops = int{lane.start} + int{lane.end} + int{lane.probe};
  if (ops > 1) return bad(SaaLinkViolation::TwoOps);
  if ((lane.start || lane.end) && lane.weight == 0) return bad(SaaLinkViolation::ZeroWeight);
  r.wmax = lane.wmax;
  if (lane.start) {
    if (lane.weight > max_weight_ - weight_) return bad(SaaLinkViolation::Overflow);
    if (flows_ == max_flows_) return bad(SaaLinkViolation::CountOverflow);
    r.wmax = std::max(lane.wmax, weight_ + lane.weight);
  } else if (lane.end) {
    if (lane.weight > weight_) return bad(SaaLinkViolation::Negative);
    if (flows_ == 0) return bad(SaaLinkViolation::NoFlow);
    if (weight_ - lane.weight < flows_ - 1) return bad(SaaLinkViolation::Residue);
    if (flows_ == 1 && weight_ != lane.weight) return bad(SaaLinkViolation::Residue);
  } else if (lane.probe) {
    r.wmax = std::max(lane.wmax, weight_);
  }
  return r;
}

SaaLinkResult SaaLinkUnit::apply(const SaaLinkLane& lane) {
  const SaaLinkResult r = eval(lane);
  if (r.bad()) {
    error_ = true;
    return r;
  }
  if (lane.start) {
    weight_ += lane.weight;
    ++flows_;
  } else if (lane.end) {
    weight_ -= lane.weight;
    --flows_;
  }
  return r;
}

}  // namespace ccnet::blocks
