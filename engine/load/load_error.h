// Errors of the snapshot load: what failed and where (table, chunk, server, SQL), and whether a retry
// can heal it (a lost connection, a deadlock) or the DBA must act (a privilege, a differing table).
#pragma once

#include <string>

#include "engine/common/error.h"

namespace syncscope::load {

class LoadError : public Error {
public:
    explicit LoadError(const std::string& message, bool retryable = false) : Error(message), retryable_(retryable) {}
    bool retryable() const { return retryable_; }

private:
    bool retryable_;
};

}  // namespace syncscope::load
