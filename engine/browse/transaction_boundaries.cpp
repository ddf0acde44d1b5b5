#include "engine/browse/transaction_boundaries.h"

#include <cctype>
#include <string_view>

namespace syncscope::browse {

namespace {

// "XA COMMIT 'x'" and "XA ROLLBACK 'x'" end a group; "XA START" and "XA END" do not.
bool endsXa(std::string_view query) {
    size_t i = 0;
    auto skipSpace = [&] {
        while (i < query.size() && std::isspace(static_cast<unsigned char>(query[i]))) {
            ++i;
        }
    };
    auto word = [&] {
        skipSpace();
        size_t start = i;
        while (i < query.size() && std::isalpha(static_cast<unsigned char>(query[i]))) {
            ++i;
        }
        std::string text(query.substr(start, i - start));
        for (char& c : text) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        return text;
    };
    if (word() != "XA") {
        return false;
    }
    std::string verb = word();
    return verb == "COMMIT" || verb == "ROLLBACK";
}

}  // namespace

TransactionBoundaries::Step TransactionBoundaries::step(const binlog::Event& event) {
    using binlog::EventType;
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        inside_ = true;
        standalone_ = (gtid->flags & binlog::MariaDbGtidEvent::kStandalone) != 0;
        sawBegin_ = false;
        return Step::Starts;
    }
    if (event.as<binlog::MySqlGtidEvent>() != nullptr) {
        inside_ = true;
        standalone_ = false;
        sawBegin_ = false;
        return Step::Starts;
    }
    if (const auto* query = event.as<binlog::QueryEvent>()) {
        return onQuery(*query);
    }
    if (event.type() == EventType::Xid || event.type() == EventType::XaPrepare) {
        return inside_ ? end() : Step::Outside;
    }
    return inside_ ? Step::Inside : Step::Outside;
}

TransactionBoundaries::Step TransactionBoundaries::onQuery(const binlog::QueryEvent& query) {
    using Kind = binlog::QueryEvent::Kind;
    switch (query.kind) {
        case Kind::Begin:
            sawBegin_ = true;
            if (inside_) {
                return Step::Inside;
            }
            inside_ = true;
            standalone_ = false;
            return Step::Starts;
        case Kind::Commit:
        case Kind::Rollback:
            return inside_ ? end() : Step::Outside;
        case Kind::Xa:
            if (endsXa(query.query)) {
                return inside_ ? end() : Step::StartsAndEnds;
            }
            return inside_ ? Step::Inside : Step::Outside;
        case Kind::Savepoint:
            return inside_ ? Step::Inside : Step::Outside;
        case Kind::Ddl:
        case Kind::Other:
            if (!inside_) {
                return Step::StartsAndEnds;
            }
            if (standalone_ || !sawBegin_) {
                return end();
            }
            return Step::Inside;
    }
    return Step::Outside;
}

}  // namespace syncscope::browse
