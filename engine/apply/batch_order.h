// The order of a batch's steps before they merge into statements (DmlBuilder): each table's steps
// together, and within a table by conflict round or key round (key_rounds.h) where that is exact, so that
// the deletes, inserts and updates of a round come together.
#pragma once

#include <vector>

#include "engine/apply/dml_step.h"

namespace syncscope::apply {

// Whether two structures of a table name the same columns at the same positions with the same row key.
bool sameShape(const schema::TableSchema& a, const schema::TableSchema& b);

// Puts each table's steps (a cascade family's: its tables together) in one run, keeping their order.
void groupByTable(std::vector<Step>& steps);

// Orders each table's run by rounds and sets Step::round where conflict rounds apply.
void orderEachTableByRounds(std::vector<Step>& steps, bool foreignKeyChecks);

}  // namespace syncscope::apply
