#include "tests/integration/task/online_ddl_fixture.h"

#include <algorithm>
#include <regex>

namespace syncscope::test {

using source::UpstreamConnection;

namespace {

const char* const kMetaSchema = "dm_meta";

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "'";
}

std::string name(const std::string& schema, const std::string& table) {
    return "`" + schema + "`.`" + table + "`";
}

}  // namespace

BinlogPoint masterPoint(UpstreamConnection& up) {
    auto rows = up.query("SHOW MASTER STATUS");
    return {rows.front()[0].value_or(""), std::stoull(rows.front()[1].value_or("0"))};
}

std::vector<BinlogEvent> binlogEventsSince(UpstreamConnection& up, const BinlogPoint& from) {
    std::vector<BinlogEvent> events;
    bool reached = false;
    for (const auto& log : up.query("SHOW BINARY LOGS")) {
        std::string file = log[0].value_or("");
        reached = reached || file == from.file;
        if (!reached) {
            continue;
        }
        std::string sql = "SHOW BINLOG EVENTS IN " + quoted(file);
        if (file == from.file) {
            sql += " FROM " + std::to_string(from.pos);
        }
        for (const auto& row : up.query(sql)) {
            events.push_back({{file, std::stoull(row[1].value_or("0"))}, row[2].value_or(""), row[5].value_or("")});
        }
    }
    return events;
}

std::vector<BinlogEvent> eventsWith(const std::vector<BinlogEvent>& events, const std::string& type,
                                    const std::string& fragment) {
    std::vector<BinlogEvent> found;
    std::copy_if(events.begin(), events.end(), std::back_inserter(found), [&](const BinlogEvent& event) {
        return event.type == type && event.info.find(fragment) != std::string::npos;
    });
    return found;
}

std::string valueOf(UpstreamConnection& server, const std::string& sql) {
    try {
        return server.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

void resetSchema(UpstreamConnection& server, const std::string& schema) {
    server.execute("SET SESSION sql_log_bin = 0");
    server.execute("DROP DATABASE IF EXISTS `" + schema + "`");
    server.execute("CREATE DATABASE `" + schema + "`");
    server.execute("SET SESSION sql_log_bin = 1");
}

void dropTaskMeta(UpstreamConnection& down, const std::string& task) {
    std::string like = task;
    for (size_t at = like.find('_'); at != std::string::npos; at = like.find('_', at + 2)) {
        like.insert(at, "\\");
    }
    auto rows = down.query(std::string("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '") +
                           kMetaSchema + "' AND TABLE_NAME LIKE " + quoted(like + "\\_%"));
    for (const auto& row : rows) {
        down.execute("DROP TABLE IF EXISTS " + name(kMetaSchema, row[0].value_or("")));
    }
}

std::string tableDefinition(UpstreamConnection& server, const std::string& schema, const std::string& table) {
    try {
        auto rows = server.query("SHOW CREATE TABLE " + name(schema, table));
        static const std::regex kAutoIncrement(" AUTO_INCREMENT=[0-9]+");
        return std::regex_replace(rows.front()[1].value_or(""), kAutoIncrement, "");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

std::string tableState(UpstreamConnection& server, const std::string& schema, const std::string& table) {
    std::string checksum;
    try {
        checksum = server.query("CHECKSUM TABLE " + name(schema, table)).front()[1].value_or("NULL");
    } catch (const std::exception& e) {
        checksum = std::string("ERROR: ") + e.what();
    }
    return "rows " + valueOf(server, "SELECT COUNT(*) FROM " + name(schema, table)) + ", checksum " + checksum + "\n" +
           tableDefinition(server, schema, table);
}

std::vector<std::string> tablesIn(UpstreamConnection& server, const std::string& schema) {
    std::vector<std::string> tables;
    for (const auto& row : server.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = " +
                                        quoted(schema) + " ORDER BY TABLE_NAME")) {
        tables.push_back(row[0].value_or(""));
    }
    return tables;
}

std::string schemaState(UpstreamConnection& server, const std::string& schema) {
    std::string state;
    try {
        for (const auto& table : tablesIn(server, schema)) {
            state += "== " + table + ": " + tableState(server, schema, table) + "\n";
        }
    } catch (const std::exception& e) {
        state += std::string("ERROR: ") + e.what();
    }
    return state;
}

std::optional<std::vector<std::string>> onlineDdlRows(UpstreamConnection& down, const std::string& task,
                                                      const std::string& schema) {
    std::string table = task + "_onlineddl";
    if (valueOf(down, std::string("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '") +
                          kMetaSchema + "' AND TABLE_NAME = " + quoted(table)) != "1") {
        return std::nullopt;
    }
    std::vector<std::string> rows;
    for (const auto& row : down.query("SELECT ghost_table, ddls FROM " + name(kMetaSchema, table) +
                                      " WHERE ghost_schema = " + quoted(schema) + " ORDER BY ghost_table")) {
        rows.push_back(row[0].value_or("NULL") + ": " + row[1].value_or("NULL"));
    }
    return rows;
}

std::string joined(const std::vector<std::string>& lines, const std::string& separator) {
    std::string text;
    for (const auto& line : lines) {
        text += (text.empty() ? "" : separator) + line;
    }
    return text;
}

}  // namespace syncscope::test
