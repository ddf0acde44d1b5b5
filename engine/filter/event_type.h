// DM's binlog event names, as filters list them under `events` ("all ddl", "insert", "create table"...).
// A name is either a group (all, all dml, all ddl, none, none dml, none ddl, incompatible ddl changes)
// or one kind of event, in one of three classes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncscope::filter {

enum class EventClass {
    Group,            // all, all dml, all ddl, none, none dml, none ddl, incompatible ddl changes
    Dml,              // insert, update, delete
    Ddl,              // create database, create table, alter table, create index ...
    IncompatibleDdl,  // drop table, truncate table, rename table, drop index ... (DM's "incompatible")
};

// DM's canonical spelling of an event name (lower case; "create schema" becomes "create database"),
// or nullopt when DM does not know the name.
std::optional<std::string> canonicalEventName(std::string_view name);

// The class of a canonical name; nullopt for an unknown one.
std::optional<EventClass> eventClassOf(std::string_view canonicalName);

// Every name canonicalEventName accepts, for error messages and the GUI's choices.
const std::vector<std::string_view>& knownEventNames();

// Event names for row events.
inline constexpr std::string_view kInsertEvent = "insert";
inline constexpr std::string_view kUpdateEvent = "update";
inline constexpr std::string_view kDeleteEvent = "delete";

}  // namespace syncscope::filter
