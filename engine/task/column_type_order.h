// Whether one column type holds every value of another, as the server writes them in
// information_schema.COLUMNS.COLUMN_TYPE ("int(11)", "bigint(20) unsigned", "varchar(40)", "decimal(10,2)"):
// shard merge's optimistic mode runs a shard's widening of a merged column at once and passes over a
// narrowing (the other shards still write the wider values). Types of different families are Unrelated.
#pragma once

#include <string_view>

namespace syncscope::task {

enum class TypeOrder { Same, Wider, Narrower, Unrelated };

// How `proposed` stands to `current`: Wider when it holds every value of `current` and more.
TypeOrder compareColumnTypes(std::string_view current, std::string_view proposed);

}  // namespace syncscope::task
