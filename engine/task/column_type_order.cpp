#include "engine/task/column_type_order.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::task {

namespace {

// One type as far as widening is concerned: its family, its rank within the family (integer and text
// sizes) and its arguments (length; precision and scale).
struct TypeShape {
    std::string family;
    int rank = 0;
    std::vector<long> arguments;
    bool isUnsigned = false;
    std::string text;  // lower case, for what is only ever Same or Unrelated
};

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

struct Ranked {
    const char* name;
    const char* family;
    int rank;
};

constexpr std::array<Ranked, 20> kRanked{{
    {"tinyint", "integer", 1}, {"smallint", "integer", 2}, {"mediumint", "integer", 3}, {"int", "integer", 4},
    {"integer", "integer", 4}, {"bigint", "integer", 5},   {"float", "float", 1},       {"double", "float", 2},
    {"tinytext", "text", 1},   {"text", "text", 2},        {"mediumtext", "text", 3},   {"longtext", "text", 4},
    {"tinyblob", "blob", 1},   {"blob", "blob", 2},        {"mediumblob", "blob", 3},   {"longblob", "blob", 4},
    {"char", "char", 1},       {"varchar", "char", 2},     {"binary", "binary", 1},     {"varbinary", "binary", 2},
}};

std::optional<TypeShape> shapeOf(std::string_view columnType) {
    TypeShape shape;
    shape.text = lower(columnType);
    const std::string& text = shape.text;
    size_t nameEnd = 0;
    while (nameEnd < text.size() && (std::isalpha(static_cast<unsigned char>(text[nameEnd])) != 0)) {
        ++nameEnd;
    }
    const std::string name = text.substr(0, nameEnd);
    if (name.empty()) {
        return std::nullopt;
    }
    size_t rest = nameEnd;
    if (rest < text.size() && text[rest] == '(') {
        size_t close = text.find(')', rest);
        if (close == std::string::npos) {
            return std::nullopt;
        }
        std::string arguments = text.substr(rest + 1, close - rest - 1);
        size_t start = 0;
        while (start <= arguments.size()) {
            size_t comma = arguments.find(',', start);
            std::string argument =
                arguments.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (argument.empty() || !std::all_of(argument.begin(), argument.end(),
                                                 [](unsigned char c) { return std::isdigit(c) != 0 || c == ' '; })) {
                shape.family = "other:" + name;  // enum('a','b'), set(...): compared as text only
                return shape;
            }
            shape.arguments.push_back(std::stol(argument));
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
        rest = close + 1;
    }
    shape.isUnsigned = text.find("unsigned", rest) != std::string::npos;
    for (const Ranked& ranked : kRanked) {
        if (name == ranked.name) {
            shape.family = ranked.family;
            shape.rank = ranked.rank;
            if (shape.family == "integer") {
                shape.arguments.clear();  // the display width holds no values
            }
            return shape;
        }
    }
    shape.family = name == "numeric" ? "decimal" : name;
    return shape;
}

TypeOrder byNumber(long current, long proposed) {
    return proposed == current ? TypeOrder::Same : proposed > current ? TypeOrder::Wider : TypeOrder::Narrower;
}

// Combines two orders that must agree (rank and length, or integer and fraction digits).
TypeOrder both(TypeOrder a, TypeOrder b) {
    if (a == TypeOrder::Same) {
        return b;
    }
    if (b == TypeOrder::Same || a == b) {
        return a;
    }
    return TypeOrder::Unrelated;
}

}  // namespace

TypeOrder compareColumnTypes(std::string_view current, std::string_view proposed) {
    std::optional<TypeShape> from = shapeOf(current);
    std::optional<TypeShape> to = shapeOf(proposed);
    if (!from || !to || from->family != to->family) {
        return TypeOrder::Unrelated;
    }
    const std::string& family = from->family;
    if (family == "integer") {
        if (from->isUnsigned != to->isUnsigned) {
            // A signed type holds an unsigned one's values only when it is larger.
            if (!from->isUnsigned || to->rank <= from->rank) {
                return TypeOrder::Unrelated;
            }
            return TypeOrder::Wider;
        }
        return byNumber(from->rank, to->rank);
    }
    if (family == "decimal") {
        if (from->arguments.size() != 2 || to->arguments.size() != 2 || from->isUnsigned != to->isUnsigned) {
            return from->text == to->text ? TypeOrder::Same : TypeOrder::Unrelated;
        }
        const long fromInteger = from->arguments[0] - from->arguments[1];
        const long toInteger = to->arguments[0] - to->arguments[1];
        return both(byNumber(fromInteger, toInteger), byNumber(from->arguments[1], to->arguments[1]));
    }
    if (family == "char" || family == "binary") {
        if (from->arguments.size() != 1 || to->arguments.size() != 1) {
            return TypeOrder::Unrelated;
        }
        // CHAR pads and VARCHAR does not: only a longer VARCHAR of the same values is a widening.
        if (from->rank != to->rank) {
            return from->rank < to->rank && to->arguments[0] >= from->arguments[0] ? TypeOrder::Wider
                                                                                   : TypeOrder::Unrelated;
        }
        return byNumber(from->arguments[0], to->arguments[0]);
    }
    if (family == "text" || family == "blob" || family == "float") {
        if (!from->arguments.empty() || !to->arguments.empty() || from->isUnsigned != to->isUnsigned) {
            return from->text == to->text ? TypeOrder::Same : TypeOrder::Unrelated;
        }
        return byNumber(from->rank, to->rank);
    }
    return from->text == to->text ? TypeOrder::Same : TypeOrder::Unrelated;
}

}  // namespace syncscope::task
