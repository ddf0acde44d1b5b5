#include "engine/binlog/binlog_position.h"

#include "engine/binlog/position_text.h"

namespace syncscope::binlog {

namespace {

std::optional<uint64_t> suffixNumber(std::string_view file) {
    size_t dot = file.rfind('.');
    if (dot == std::string_view::npos || dot == 0) {
        return std::nullopt;
    }
    return text::parseNumber<uint64_t>(file.substr(dot + 1));
}

}  // namespace

BinlogPosition::BinlogPosition(std::string file, uint64_t offset)
    : file_(std::move(file)), fileNumber_(fileNumberOf(file_)), offset_(offset) {}

uint64_t BinlogPosition::fileNumberOf(std::string_view file) {
    auto number = suffixNumber(file);
    if (!number) {
        throw PositionError("binlog file name " + text::quoted(file) +
                            " has no numeric suffix (expected a name like 'mysql-bin.000003')");
    }
    return *number;
}

bool BinlogPosition::isBinlogFileName(std::string_view file) {
    return suffixNumber(file).has_value();
}

BinlogPosition BinlogPosition::parse(std::string_view input) {
    std::string_view trimmed = text::trim(input);
    size_t colon = trimmed.rfind(':');
    if (colon == std::string_view::npos) {
        throw PositionError("binlog position " + text::quoted(input) +
                            " has no ':' (expected FILE:OFFSET, e.g. 'mysql-bin.000003:1234')");
    }
    std::string_view file = trimmed.substr(0, colon);
    auto offset = text::parseNumber<uint64_t>(trimmed.substr(colon + 1));
    if (!offset) {
        throw PositionError("binlog position " + text::quoted(input) + ": offset " +
                            text::quoted(trimmed.substr(colon + 1)) + " is not a whole number");
    }
    if (file.empty()) {
        throw PositionError("binlog position " + text::quoted(input) + " has no file name");
    }
    if (!isBinlogFileName(file)) {
        throw PositionError("binlog position " + text::quoted(input) + ": file name " + text::quoted(file) +
                            " has no numeric suffix (expected a name like 'mysql-bin.000003')");
    }
    return BinlogPosition(std::string(file), *offset);
}

std::string_view BinlogPosition::baseName() const {
    std::string_view file = file_;
    size_t dot = file.rfind('.');
    return dot == std::string_view::npos ? file : file.substr(0, dot);
}

std::string BinlogPosition::toString() const {
    if (isEmpty()) {
        return {};
    }
    return file_ + ":" + std::to_string(offset_);
}

std::strong_ordering BinlogPosition::operator<=>(const BinlogPosition& other) const {
    if (isEmpty() != other.isEmpty()) {
        return isEmpty() ? std::strong_ordering::less : std::strong_ordering::greater;
    }
    if (auto order = fileNumber_ <=> other.fileNumber_; order != 0) {
        return order;
    }
    if (auto order = offset_ <=> other.offset_; order != 0) {
        return order;
    }
    return file_ <=> other.file_;
}

}  // namespace syncscope::binlog
