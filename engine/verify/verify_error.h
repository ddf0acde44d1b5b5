// Errors of the verifier: what failed (a query, a connection, a table's structure) and where.
#pragma once

#include "engine/common/error.h"

namespace syncscope::verify {

class VerifyError : public Error {
public:
    using Error::Error;
};

}  // namespace syncscope::verify
