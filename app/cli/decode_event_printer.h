// How `syncscope-cli decode` prints a decoded event: one readable line, or one JSON object per line
// (JSON Lines) with file, pos, end_pos, type, timestamp, server_id, the transaction's gtid where
// known, and per kind the statement or the rows with typed values.
#pragma once

#include <ostream>
#include <string>

#include "engine/binlog/event.h"

namespace syncscope::cli {

class DecodeEventPrinter {
public:
    enum class Format { Text, JsonLines };

    // Statements' passwords are printed as '<redacted>' unless `showSecrets`.
    DecodeEventPrinter(std::ostream& out, Format format, bool showSecrets = false)
        : out_(out), format_(format), showSecrets_(showSecrets) {}

    // Prints one event; remembers the GTID of the open transaction for the events inside it.
    void print(const binlog::Event& event);

private:
    void trackGtid(const binlog::Event& event);
    void appendText(std::string& line, const binlog::Event& event) const;
    void appendJson(std::string& line, const binlog::Event& event) const;
    std::string statement(const std::string& text) const;

    std::ostream& out_;
    Format format_;
    bool showSecrets_ = false;
    std::string gtid_;                // of the transaction the next event belongs to
    bool gtidEndsAfterNext_ = false;  // a standalone group (DDL): one event after the GTID
    std::string line_;                // reused between events
};

}  // namespace syncscope::cli
