#include "engine/apply/worker_session.h"

#include <cctype>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"

namespace syncscope::apply {

namespace {

bool allDigits(const std::string& value) {
    if (value.empty()) {
        return false;
    }
    for (unsigned char c : value) {
        if (!std::isdigit(c)) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::unique_ptr<DmlExecutor> connectWorkerSession(
    const ServerSettings& downstream, const std::vector<std::pair<std::string, std::string>>& sessionVariables) {
    auto executor = std::make_unique<DmlExecutor>(connectDownstreamNative(downstream));
    for (const auto& [name, value] : sessionVariables) {
        if (!isPlainSqlName(name)) {
            throw DownstreamError(
                "target-database session variable '" + name + "' is not a variable name (letters, digits and _ only)",
                0);
        }
        // The value is a literal the DBA wrote in the task file; numbers stay numbers (booleans such
        // as foreign_key_checks refuse the string '0').
        std::string literal = value;
        if (!allDigits(value)) {
            literal.assign(1, '\'');
            for (char c : value) {
                if (c == '\'' || c == '\\') {
                    literal.push_back(c);  // '' and \\ stand for themselves inside quotes
                }
                literal.push_back(c);
            }
            literal.push_back('\'');
        }
        executor->executeText("SET SESSION " + name + " = " + literal);
    }
    // A row whose AUTO_INCREMENT key is 0 upstream must stay 0: without this mode an INSERT (or an
    // update merged into INSERT ... ON DUPLICATE KEY UPDATE) of id 0 would take the next value instead.
    executor->executeText(
        "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@SESSION.sql_mode, ''), 'NO_AUTO_VALUE_ON_ZERO')");
    return executor;
}

}  // namespace syncscope::apply
