// Errors that carry their context: what failed and where (file, offset, table, SQL).
#pragma once

#include <stdexcept>
#include <string>

namespace syncscope {

// The base of every error the engine throws; what() is the full message a person reads.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace syncscope
