#pragma once
// Error types shared by every layer. Each carries a message that already names the place
// (file:line, JSON key path, module) so the executable can print it as is and exit non-zero.
#include <stdexcept>
#include <string>

namespace ssd {

// A drive description that cannot be simulated: unknown key, wrong type, impossible geometry.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bad user input other than the config: a malformed trace line, a bad workload spec, a
// missing file.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A bad command-line option value (exit status 2, like a usage error): the message starts
// with the option's name.
struct UsageError : InputError {
  using InputError::InputError;
};

}  // namespace ssd
