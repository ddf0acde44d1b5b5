#include "engine/apply/sql_value_binding.h"

#include <cppconn/datatype.h>
#include <cppconn/prepared_statement.h>

namespace syncscope::apply {

void bindSqlValue(sql::PreparedStatement& statement, unsigned int index, const SqlValue& value,
                  ParameterStreams& streams) {
    switch (value.kind()) {
        case SqlValueKind::Null:
            statement.setNull(index, sql::DataType::VARCHAR);
            break;
        case SqlValueKind::Signed:
            statement.setInt64(index, value.asSigned());
            break;
        case SqlValueKind::Unsigned:
            statement.setUInt64(index, value.asUnsigned());
            break;
        case SqlValueKind::Double:
            statement.setDouble(index, value.asDouble());
            break;
        case SqlValueKind::Text: {
            const std::string_view text = value.asString();
            statement.setString(index, sql::SQLString(text.data(), text.size()));
            break;
        }
        case SqlValueKind::Bytes:
            if (value.asString().empty()) {
                // An empty stream sends no data at all; an empty string is what is meant.
                statement.setString(index, sql::SQLString());
            } else {
                streams.push_back(std::make_unique<std::istringstream>(std::string(value.asString())));
                statement.setBlob(index, streams.back().get());
            }
            break;
    }
}

}  // namespace syncscope::apply
