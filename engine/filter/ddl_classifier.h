// Classifies the SQL text of a QUERY event (CREATE/ALTER/DROP/RENAME/TRUNCATE of tables, databases and
// indexes; transaction control; statements DM never replicates) and finds the tables it touches, with
// the event's default database for unqualified names. A small tokenizer, not a full parser: robust to
// comments, backticks, letter case and any characters in names; what it cannot classify it says so
// (StatementKind::Unclassified with a note), and the engine reports that instead of guessing.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "engine/filter/classified_statement.h"

namespace syncscope::filter {

class DdlClassifier {
public:
    static ClassifiedStatement classify(std::string_view sql, std::string_view defaultDatabase,
                                        bool ansiQuotes = false);

    // The SQL with every table reference replaced by the fully qualified, quoted name `route` gives
    // for it (schema-level references by the quoted schema): how a routed DDL is written downstream.
    static std::string rewriteTables(std::string_view sql, const ClassifiedStatement& statement,
                                     const std::function<TableName(const TableName&)>& route);
};

}  // namespace syncscope::filter
