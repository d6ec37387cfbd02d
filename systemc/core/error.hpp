// Model errors: a violated contract at a block's ports or an impossible state. These abort the
// run with a message naming the component; they are never silently absorbed.
#pragma once

#include <stdexcept>
#include <string>

namespace ccnet {

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A command-line option that is malformed or names something the network does not have (a
// trace scope matching no component, a watched packet that was never created).
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ccnet
