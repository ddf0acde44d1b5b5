#include "engine/load/schema_objects.h"

#include <set>

#include "engine/load/literal_row_reader.h"

namespace syncscope::load {

std::vector<std::string> objectsNotCopied(source::UpstreamConnection& upstream, const std::vector<LoadTable>& tables) {
    std::set<std::string> schemas;
    for (const LoadTable& table : tables) {
        schemas.insert(table.upstream.schema);
    }
    if (schemas.empty()) {
        return {};
    }
    std::string in;
    for (const std::string& schema : schemas) {
        in += (in.empty() ? "" : ", ") + sqlString(schema);
    }
    // information_schema shows an event only to a holder of EVENT and a trigger only to a holder of TRIGGER;
    // mysql.event is readable with SELECT on *.*, which the load usually has. Triggers have no such table.
    auto eventsFrom = [&](const std::string& table, const char* schemaColumn, const char* nameColumn) {
        return " UNION SELECT 'EVENT', " + std::string(schemaColumn) + ", " + nameColumn + " FROM " + table +
               " WHERE " + schemaColumn + " IN (" + in + ")";
    };
    const std::string common =
        "SELECT 'VIEW', TABLE_SCHEMA, TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA IN (" + in +
        ") UNION SELECT 'TRIGGER', TRIGGER_SCHEMA, TRIGGER_NAME FROM information_schema.TRIGGERS WHERE "
        "TRIGGER_SCHEMA IN (" +
        in +
        ") UNION SELECT ROUTINE_TYPE, ROUTINE_SCHEMA, ROUTINE_NAME FROM information_schema.ROUTINES WHERE "
        "ROUTINE_SCHEMA IN (" +
        in + ")" + eventsFrom("information_schema.EVENTS", "EVENT_SCHEMA", "EVENT_NAME");
    std::vector<source::Row> rows;
    try {
        rows = upstream.query(common + eventsFrom("mysql.event", "db", "name") + " ORDER BY 1, 2, 3");
    } catch (const source::UpstreamError&) {
        rows = upstream.query(common + " ORDER BY 1, 2, 3");  // no SELECT on mysql.event
    }
    std::vector<std::string> objects;
    for (const auto& row : rows) {
        if (row.size() == 3 && row[0] && row[1] && row[2]) {
            objects.push_back(*row[0] + " " + TableName{*row[1], *row[2]}.quoted());
        }
    }
    std::string triggerGrant =
        upstream
            .queryValue(
                "SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES WHERE PRIVILEGE_TYPE = 'TRIGGER' AND "
                "GRANTEE = CONCAT(QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', 1)), '@', "
                "QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', -1)))")
            .value_or("0");
    if (triggerGrant == "0") {
        objects.emplace_back(
            "triggers the upstream user cannot see (information_schema shows a trigger only to a "
            "holder of TRIGGER; SHOW TRIGGERS as an administrator lists them)");
    }
    return objects;
}

}  // namespace syncscope::load
