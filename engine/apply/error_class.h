// Which downstream errors heal by themselves (the task resumes on its own with backoff) and which need
// the DBA (the task pauses), by MySQL/MariaDB error code; with what to do about the common ones.
#pragma once

#include <string>

namespace syncscope::apply {

enum class ErrorClass { Retryable, NeedsDba };

const char* errorClassName(ErrorClass errorClass);  // "retryable", "needs the DBA"

ErrorClass classifyDownstreamError(int code);

// One sentence on what the DBA should do, or empty when there is nothing specific to say.
std::string hintForDownstreamError(int code);

}  // namespace syncscope::apply
