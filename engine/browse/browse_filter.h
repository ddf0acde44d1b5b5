// Which events the browser shows: by table, operation, GTID domain, time range and key value. A
// transaction is shown when one of its events matches; only its matching events are listed.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "engine/binlog/event.h"
#include "engine/browse/browsed_event.h"

namespace syncscope::browse {

class KeyMatcher;

struct BrowseFilter {
    std::string schema;  // "" = any (exact, case-sensitive as the binlog spells it)
    std::string table;   // "" = any
    // Any of "insert", "update", "delete", "ddl"; empty = every event, statements and markers included.
    std::set<std::string> operations;
    std::optional<uint32_t> gtidDomain;  // MariaDB GTID domain; transactions without a GTID never match
    std::optional<uint32_t> fromTime;    // transaction timestamps from (inclusive), seconds since the epoch
    std::optional<uint32_t> toTime;      // to (inclusive)
    // Rows whose key has this text: the primary key's values (or the first column's when the binlog
    // does not name the key), comma-separated, as MariaDB prints them unquoted ("42", "2026-01-02,7").
    std::optional<std::string> keyValue;
    bool rowImages = false;  // decode row images into BrowsedEvent::rows (always for key matches)
    // Statements keep the passwords they carry (CREATE USER ... IDENTIFIED BY '...'); by default the
    // summary shows '<redacted>' (engine/common/secret_redaction.h).
    bool showSecrets = false;

    // Whether a filter on events (table, operation, key) is set: markers are then not listed.
    bool selectsEvents() const { return !schema.empty() || !table.empty() || !operations.empty() || keyValue; }
    bool acceptsTransaction(const BrowsedTransaction& trx) const;
    // A statement as the summary shows it (redacted unless showSecrets).
    std::string shown(std::string statement) const;
    // Fills `out` (type, table, rows, ...) and says whether it is shown. `keyMatcher`: keyValue parsed once
    // (KeyMatcher), so that rows are compared without rendering their keys; null: compared as text.
    bool describe(const binlog::Event& event, BrowsedEvent& out, const KeyMatcher* keyMatcher = nullptr) const;

    static std::set<std::string> parseOperations(const std::string& commaSeparated);  // throws BrowseError
};

}  // namespace syncscope::browse
