#include "engine/filter/event_type.h"

#include <algorithm>
#include <utility>

#include "engine/filter/name_case.h"

namespace syncscope::filter {

namespace {

struct KnownEvent {
    std::string_view name;
    EventClass eventClass;
};

// DM's list (pkg/binlog-filter): names and classes as DM has them.
const std::vector<KnownEvent>& knownEvents() {
    static const std::vector<KnownEvent> events = {
        {"all", EventClass::Group},
        {"all dml", EventClass::Group},
        {"all ddl", EventClass::Group},
        {"none", EventClass::Group},
        {"none dml", EventClass::Group},
        {"none ddl", EventClass::Group},
        {"incompatible ddl changes", EventClass::Group},
        {"insert", EventClass::Dml},
        {"update", EventClass::Dml},
        {"delete", EventClass::Dml},
        {"create database", EventClass::Ddl},
        {"alter database", EventClass::Ddl},
        {"create table", EventClass::Ddl},
        {"create index", EventClass::Ddl},
        {"create view", EventClass::Ddl},
        {"drop view", EventClass::Ddl},
        {"alter table", EventClass::Ddl},
        {"add table partition", EventClass::Ddl},
        {"drop database", EventClass::IncompatibleDdl},
        {"drop table", EventClass::IncompatibleDdl},
        {"drop index", EventClass::IncompatibleDdl},
        {"rename table", EventClass::IncompatibleDdl},
        {"truncate table", EventClass::IncompatibleDdl},
        {"drop table partition", EventClass::IncompatibleDdl},
        {"truncate table partition", EventClass::IncompatibleDdl},
        {"value range decrease", EventClass::IncompatibleDdl},
        {"precision decrease", EventClass::IncompatibleDdl},
        {"modify column", EventClass::IncompatibleDdl},
        {"rename column", EventClass::IncompatibleDdl},
        {"rename index", EventClass::IncompatibleDdl},
        {"drop column", EventClass::IncompatibleDdl},
        {"drop primary key", EventClass::IncompatibleDdl},
        {"drop unique key", EventClass::IncompatibleDdl},
        {"modify default value", EventClass::IncompatibleDdl},
        {"modify constraint", EventClass::IncompatibleDdl},
        {"modify columns order", EventClass::IncompatibleDdl},
        {"modify charset", EventClass::IncompatibleDdl},
        {"modify collation", EventClass::IncompatibleDdl},
        {"remove auto increment", EventClass::IncompatibleDdl},
        {"modify storage engine", EventClass::IncompatibleDdl},
        {"reorganize table partition", EventClass::IncompatibleDdl},
        {"rebuild table partition", EventClass::IncompatibleDdl},
        {"coalesce table partition", EventClass::IncompatibleDdl},
        {"split table partition", EventClass::IncompatibleDdl},
        {"exchange table partition", EventClass::IncompatibleDdl},
        {"add foreign key", EventClass::IncompatibleDdl},
        {"drop foreign key", EventClass::IncompatibleDdl},
        {"modify schema charset and collate", EventClass::IncompatibleDdl},
        {"modify table charset and collate", EventClass::IncompatibleDdl},
        {"modify table comment", EventClass::IncompatibleDdl},
        {"recover table", EventClass::IncompatibleDdl},
        {"alter table partitioning", EventClass::IncompatibleDdl},
        {"remove table partitioning", EventClass::IncompatibleDdl},
        {"add column", EventClass::IncompatibleDdl},
        {"set default value", EventClass::IncompatibleDdl},
        {"rebase auto id", EventClass::IncompatibleDdl},
        {"add primary key", EventClass::IncompatibleDdl},
        {"alter index visibility", EventClass::IncompatibleDdl},
        {"alter ttl info", EventClass::IncompatibleDdl},
        {"alter ttl remove", EventClass::IncompatibleDdl},
        {"multi schema change", EventClass::IncompatibleDdl},
    };
    return events;
}

// DM's aliases.
const std::vector<std::pair<std::string_view, std::string_view>>& aliases() {
    static const std::vector<std::pair<std::string_view, std::string_view>> list = {
        {"create schema", "create database"},
        {"drop schema", "drop database"},
        {"alter schema", "alter database"},
    };
    return list;
}

}  // namespace

std::optional<std::string> canonicalEventName(std::string_view name) {
    const std::string folded = foldNameCase(name, false);
    for (const auto& [alias, canonical] : aliases()) {
        if (folded == alias)
            return std::string(canonical);
    }
    for (const auto& event : knownEvents()) {
        if (folded == event.name)
            return folded;
    }
    return std::nullopt;
}

std::optional<EventClass> eventClassOf(std::string_view canonicalName) {
    for (const auto& event : knownEvents()) {
        if (canonicalName == event.name)
            return event.eventClass;
    }
    return std::nullopt;
}

const std::vector<std::string_view>& knownEventNames() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> list;
        for (const auto& event : knownEvents())
            list.push_back(event.name);
        for (const auto& alias : aliases())
            list.push_back(alias.first);
        return list;
    }();
    return names;
}

}  // namespace syncscope::filter
