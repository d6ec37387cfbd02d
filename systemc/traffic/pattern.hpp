// Destination patterns, registered by name (`pattern: {type: uniform}`).
#pragma once

#include <memory>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "traffic/traffic_config.hpp"

namespace ccnet {

class Pattern {
 public:
  virtual ~Pattern() = default;
  // Destination of the next message from `src`.
  virtual NodeId destination(NodeId src) = 0;
};

}  // namespace ccnet
