// Binds SqlValues to the parameters of a Connector/C++ prepared statement with the setter each kind
// needs. Shared by the apply executor and the verifier's queries, so that a value is bound one way.
#pragma once

#include <memory>
#include <sstream>
#include <vector>

#include "engine/apply/sql_value.h"

namespace sql {
class PreparedStatement;
}

namespace syncscope::apply {

// Byte values go through streams that must live until the statement has run: keep a ParameterStreams
// beside the statement and clear it afterwards.
using ParameterStreams = std::vector<std::unique_ptr<std::istringstream>>;

// Binds `value` to parameter `index` (1-based).
void bindSqlValue(sql::PreparedStatement& statement, unsigned int index, const SqlValue& value,
                  ParameterStreams& streams);

}  // namespace syncscope::apply
