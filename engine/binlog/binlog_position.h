// A position in a server's binary log: a file name and a byte offset in it. Files are ordered by
// their numeric suffix ("mysql-bin.000010" comes after "mysql-bin.000009"), then by offset.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/common/error.h"

namespace syncscope::binlog {

// Bad text for a position, GTID, GTID set or location; the message quotes the text and says what is wrong.
class PositionError : public Error {
public:
    explicit PositionError(const std::string& message) : Error(message) {}
};

class BinlogPosition {
public:
    // The empty position ("no position known"); it sorts before every real position.
    BinlogPosition() = default;
    // Throws PositionError when the file name has no numeric suffix after its last '.'.
    BinlogPosition(std::string file, uint64_t offset);

    // "mysql-bin.000003:1234" (the last ':' splits file and offset). Throws PositionError.
    static BinlogPosition parse(std::string_view text);
    // The number after the last '.' of a binlog file name ("mysql-bin.000003" -> 3). Throws PositionError.
    static uint64_t fileNumberOf(std::string_view file);
    // The same check without throwing: true when fileNumberOf would succeed.
    static bool isBinlogFileName(std::string_view file);

    bool isEmpty() const { return file_.empty(); }
    const std::string& file() const { return file_; }
    uint64_t offset() const { return offset_; }
    uint64_t fileNumber() const { return fileNumber_; }
    // "mysql-bin" for "mysql-bin.000003".
    std::string_view baseName() const;

    // "mysql-bin.000003:1234"; "" for the empty position. parse(toString()) == *this.
    std::string toString() const;

    // By file number, then offset; the file name itself only breaks ties between differently spelled
    // files with the same number, so that the order is total and consistent with ==.
    std::strong_ordering operator<=>(const BinlogPosition& other) const;
    bool operator==(const BinlogPosition& other) const = default;

private:
    std::string file_;
    uint64_t fileNumber_ = 0;
    uint64_t offset_ = 0;
};

}  // namespace syncscope::binlog
