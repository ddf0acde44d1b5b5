// The error for a filter, route or block-allow rule that cannot be built or applied: it names the rule
// and what is wrong with it.
#pragma once

#include <string>

#include "engine/common/error.h"

namespace syncscope::filter {

class FilterError : public Error {
public:
    explicit FilterError(const std::string& message) : Error(message) {}
};

}  // namespace syncscope::filter
