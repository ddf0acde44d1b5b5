#include "engine/task/online_ddl_start_check.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "engine/common/error.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::task {

namespace {

using filter::TableName;

constexpr size_t kPageEvents = 20000;

// One statement of the binary log as SHOW BINLOG EVENTS gives it.
struct LoggedStatement {
    binlog::BinlogPosition at;
    std::string defaultSchema;
    std::string sql;
};

// MariaDB writes a QUERY event's Info as "use `db`; SQL" when it has a default database.
LoggedStatement loggedStatement(const std::string& file, uint64_t position, const std::string& info) {
    LoggedStatement statement{binlog::BinlogPosition(file, position), {}, info};
    if (info.rfind("use `", 0) == 0) {
        size_t close = 5;
        std::string schema;
        while (close < info.size()) {
            if (info[close] == '`' && close + 1 < info.size() && info[close + 1] == '`') {
                schema += '`';
                close += 2;
                continue;
            }
            if (info[close] == '`') {
                break;
            }
            schema += info[close++];
        }
        size_t sqlStart = info.find("; ", close);
        if (sqlStart != std::string::npos) {
            statement.defaultSchema = schema;
            statement.sql = info.substr(sqlStart + 2);
        }
    }
    return statement;
}

// Reads QUERY events from `from` onward through the following files, page by page, until `visit` says stop,
// the end, or `budget` events were read. Returns false when the budget ran out.
bool scanStatements(source::UpstreamConnection& upstream, const std::vector<std::string>& files,
                    const binlog::BinlogPosition& from, const std::optional<binlog::BinlogPosition>& until,
                    size_t& budget, const std::function<bool(const LoggedStatement&)>& visit) {
    auto file = std::find(files.begin(), files.end(), from.file());
    uint64_t offset = from.offset();
    for (; file != files.end(); ++file, offset = 4) {
        while (true) {
            if (budget == 0) {
                return false;
            }
            size_t page = std::min(budget, kPageEvents);
            auto rows = upstream.query("SHOW BINLOG EVENTS IN '" + *file + "' FROM " + std::to_string(offset) +
                                       " LIMIT " + std::to_string(page));
            budget -= std::min(budget, rows.size());
            for (const auto& row : rows) {
                if (row.size() < 6 || !row[1] || !row[2] || !row[4]) {
                    continue;
                }
                uint64_t position = std::stoull(*row[1]);
                if (until && *file == until->file() && position >= until->offset()) {
                    return true;
                }
                if (*row[2] == "Query" && row[5] && !visit(loggedStatement(*file, position, *row[5]))) {
                    return true;
                }
                offset = std::stoull(*row[4]);
            }
            if (rows.size() < page) {
                break;
            }
        }
        if (until && *file == until->file()) {
            return true;
        }
    }
    return true;
}

// The statement's Changed tables include `table`.
std::optional<filter::StatementKind> statementOn(const LoggedStatement& statement, const TableName& table) {
    filter::ClassifiedStatement classified = filter::DdlClassifier::classify(statement.sql, statement.defaultSchema);
    for (const TableName& changed : classified.tablesIn(filter::TableRole::Changed)) {
        if (changed == table) {
            return classified.kind;
        }
    }
    return std::nullopt;
}

}  // namespace

void OnlineDdlStartCheck::check(const binlog::Location& start,
                                const std::vector<checkpoint::OnlineDdlEntry>& followed) const {
    if (!setup_.onlineDdl || start.position().isEmpty()) {
        return;
    }
    const filter::OnlineDdlRules& rules = *setup_.onlineDdl;
    try {
        source::UpstreamConnection upstream(setup_.upstream);
        std::vector<TableName> unfollowed;
        for (const auto& row : upstream.query(
                 "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' "
                 "AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')")) {
            if (row.size() < 2 || !row[0] || !row[1] || rules.roleOf(*row[1]) != filter::OnlineDdlRole::Shadow) {
                continue;
            }
            TableName shadow{*row[0], *row[1]};
            TableName real{shadow.schema, rules.realNameOf(shadow.table)};
            bool known = std::any_of(followed.begin(), followed.end(), [&](const checkpoint::OnlineDdlEntry& entry) {
                return entry.shadowSchema == shadow.schema && entry.shadowTable == shadow.table;
            });
            if (!known && (!setup_.blockAllow || setup_.blockAllow->allows(real))) {
                unfollowed.push_back(shadow);
            }
        }
        if (unfollowed.empty()) {
            return;
        }
        std::vector<std::string> files;
        for (const auto& row : upstream.query("SHOW BINARY LOGS")) {
            if (!row.empty() && row[0]) {
                files.push_back(*row[0]);
            }
        }
        // Forward: the first statement on each unfollowed shadow after the start point.
        std::map<TableName, std::optional<LoggedStatement>> firstAfter;
        for (const TableName& shadow : unfollowed) {
            firstAfter[shadow] = std::nullopt;
        }
        size_t budget = kMaxScannedEvents;
        size_t undecided = unfollowed.size();
        bool complete = scanStatements(upstream, files, start.position(), std::nullopt, budget,
                                       [&](const LoggedStatement& statement) {
                                           for (auto& [shadow, first] : firstAfter) {
                                               if (!first && statementOn(statement, shadow)) {
                                                   first = statement;
                                                   --undecided;
                                               }
                                           }
                                           return undecided > 0;
                                       });
        std::vector<TableName> inside;
        for (const auto& [shadow, first] : firstAfter) {
            if (first && statementOn(*first, shadow) == filter::StatementKind::CreateTable) {
                continue;  // created after the start point: its DDLs will be read
            }
            if (!first && !complete) {
                spdlog::warn(
                    "task {}: the shadow table {} of a running online schema change exists upstream and none of its "
                    "statements were found in the {} binary log events after the start point {}; if its DDLs lie "
                    "before that point, the swap will be refused when it is read",
                    setup_.taskName, shadow.quoted(), kMaxScannedEvents, start.toString());
                continue;
            }
            inside.push_back(shadow);
        }
        if (inside.empty()) {
            return;
        }
        const TableName& shadow = inside.front();
        TableName real{shadow.schema, rules.realNameOf(shadow.table)};
        // Back: the last CREATE of the shadow before the start point, in this file and the ones before it.
        std::optional<binlog::BinlogPosition> created;
        auto startFile = std::find(files.begin(), files.end(), start.position().file());
        size_t back = 0;
        for (auto file = startFile; file != files.end() && back < kMaxFilesBack && !created; ++back) {
            size_t backBudget = kMaxScannedEvents;
            std::optional<binlog::BinlogPosition> until;
            if (file == startFile) {
                until = start.position();
            }
            scanStatements(upstream, {*file}, binlog::BinlogPosition(*file, 4), until, backBudget,
                           [&](const LoggedStatement& statement) {
                               if (statementOn(statement, shadow) == filter::StatementKind::CreateTable) {
                                   created = statement.at;
                               }
                               return true;
                           });
            if (file == files.begin()) {
                break;
            }
            --file;
        }
        std::string instead = created ? "start from " + created->toString() + " (where " + shadow.quoted() +
                                            " was created, before its DDLs)"
                                      : "start from a point before " + shadow.quoted() +
                                            " was created (not found in the binary log files read back)";
        instead +=
            ", or from a point after the tool's swap once it has finished (if the tool is no longer "
            "running, and " +
            shadow.quoted() + " is a leftover of an aborted run, drop it upstream)";
        throw Error(
            "cannot start at " + start.toString() + ": it lies inside the online schema change of " + real.quoted() +
            " by " + filter::OnlineDdlRules::toolOf(shadow.table) + ", whose shadow table " + shadow.quoted() +
            " exists upstream but whose DDLs lie before this point and were never recorded (online-ddl); at "
            "the swap " +
            real.quoted() + " downstream would keep its old definition. Instead, " + instead + ". Nothing was changed");
    } catch (const source::UpstreamError& e) {
        spdlog::warn(
            "task {}: could not look for running online schema changes at the start point {} ({}); a swap whose "
            "DDLs were never read will be refused when it is read",
            setup_.taskName, start.toString(), e.what());
    }
}

}  // namespace syncscope::task
