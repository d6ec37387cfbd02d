#include "blocks/credit_arbiter.hpp"

#include <stdexcept>
#include <string>

namespace ccnet::blocks {

namespace {
[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("credit arbiter: " + what); }
}  // namespace

CreditArbiter::CreditArbiter(const CreditArbiterParams& p, std::vector<std::uint32_t> order, std::vector<std::uint32_t> dist0,
                             std::vector<std::uint32_t> weights)
    : p_(p), order_(std::move(order)), dist0_(std::move(dist0)), weights_(std::move(weights)) {
  if (p_.num_inputs == 0 || p_.num_paths == 0) bad("needs at least one input and one path");
  if (p_.credits == 0) bad("needs at least one credit per path");
  if (order_.size() != p_.num_inputs)
    bad("visiting order has " + std::to_string(order_.size()) + " entries, expected " + std::to_string(p_.num_inputs));
  position_.assign(p_.num_inputs, p_.num_inputs);
  for (std::uint32_t pos = 0; pos < p_.num_inputs; ++pos) {
    const std::uint32_t i = order_[pos];
    if (i >= p_.num_inputs || position_[i] != p_.num_inputs)
      bad("visiting order is not a permutation of the inputs (entry " + std::to_string(i) + ")");
    position_[i] = pos;
  }
  if (dist0_.empty())
    for (std::uint32_t i = 0; i < p_.num_inputs; ++i) dist0_.push_back(i % p_.num_paths);
  if (dist0_.size() != p_.num_inputs) bad("first-path list has " + std::to_string(dist0_.size()) + " entries");
  for (std::uint32_t d : dist0_)
    if (d >= p_.num_paths) bad("first path " + std::to_string(d) + " >= paths " + std::to_string(p_.num_paths));
  if (weights_.empty()) weights_.assign(p_.num_inputs, 1);
  if (weights_.size() != p_.num_inputs)
    bad("weight list has " + std::to_string(weights_.size()) + " entries, expected " + std::to_string(p_.num_inputs));
  for (std::uint32_t w : weights_)
    if (w == 0) bad("weights must be at least 1");
  reset();
}

void CreditArbiter::reset() {
  req_.assign(p_.num_inputs, 0);
  dist_ = dist0_;
  cred_.assign(p_.num_paths, p_.credits);
  cur_.assign(p_.num_inputs, 0);
  ptr_ = 0;
  pending_ = 0;
}

void CreditArbiter::add_request(std::uint32_t input, std::uint32_t n) {
  if (input >= p_.num_inputs) bad("request from input " + std::to_string(input) + " >= inputs " + std::to_string(p_.num_inputs));
  if (!request_ok(input, n))
    bad("request counter of input " + std::to_string(input) + " would reach " + std::to_string(req_[input] + std::uint64_t{n}) +
        " > max_requests " + std::to_string(p_.max_requests));
  req_[input] += n;
  pending_ += n;
}

void CreditArbiter::add_credit(std::uint32_t path) {
  if (path >= p_.num_paths) bad("credit for path " + std::to_string(path) + " >= paths " + std::to_string(p_.num_paths));
  if (!credit_ok(path))
    bad("credit returned for path " + std::to_string(path) + " whose counter is already full (" + std::to_string(p_.credits) + ")");
  ++cred_[path];
}

bool CreditArbiter::eligible(std::uint32_t i, std::uint32_t& path) const {
  if (req_[i] == 0) return false;
  if (p_.strict_path) {
    path = dist_[i];
    return cred_[path] > 0;
  }
  for (std::uint32_t d = 0; d < p_.num_paths; ++d) {
    std::uint32_t b = dist_[i] + d;
    if (b >= p_.num_paths) b -= p_.num_paths;
    if (cred_[b] > 0) {
      path = b;
      return true;
    }
  }
  return false;
}

CreditArbiter::Grant CreditArbiter::pick() const {
  Grant g;
  if (pending_ == 0) return g;
  const std::uint32_t n = p_.num_inputs;
  std::int64_t best = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    std::uint32_t pos = ptr_ + k;
    if (pos >= n) pos -= n;
    const std::uint32_t i = order_[pos];
    std::uint32_t path = 0;
    if (!eligible(i, path)) continue;
    if (!p_.weighted) return Grant{static_cast<int>(i), path};
    const std::int64_t v = cur_[i] + weights_[i];
    if (!g.valid() || v > best) {
      g = Grant{static_cast<int>(i), path};
      best = v;
    }
  }
  return g;
}

void CreditArbiter::commit(const Grant& g) {
  if (!g.valid()) return;
  const auto i = static_cast<std::uint32_t>(g.input);
  if (i >= p_.num_inputs || g.path >= p_.num_paths) bad("commit of a grant outside the arbiter's range");
  if (req_[i] == 0 || cred_[g.path] == 0 || (p_.strict_path && g.path != dist_[i]))
    bad("commit of a grant pick() cannot return (input " + std::to_string(i) + ", path " + std::to_string(g.path) + ")");
  if (p_.weighted) {
    std::int64_t total = 0;
    for (std::uint32_t e = 0; e < p_.num_inputs; ++e) {
      std::uint32_t path = 0;
      if (!eligible(e, path)) continue;
      cur_[e] += weights_[e];
      total += weights_[e];
    }
    cur_[i] -= total;
  }
  --req_[i];
  --pending_;
  --cred_[g.path];
  if (req_[i] == 0) cur_[i] = 0;
  dist_[i] = g.path + 1 == p_.num_paths ? 0 : g.path + 1;
  ptr_ = position_[i] + 1 == p_.num_inputs ? 0 : position_[i] + 1;
}

std::uint32_t CreditArbiter::credits_taken() const {
  std::uint32_t t = 0;
  for (std::uint32_t c : cred_) t += p_.credits - c;
  return t;
}

}  // namespace ccnet::blocks
