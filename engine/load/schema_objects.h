// What a load does not copy: views, triggers, stored routines and events of the schemas it reads. A
// trigger or an event downstream would change rows a second time (the replicated rows already carry
// their effect), and a view's or routine's body names the upstream schemas, which routes may rename:
// the DBA creates those downstream on purpose. Each is named in a warning and in the load's status.
#pragma once

#include <string>
#include <vector>

#include "engine/load/load_plan.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// "VIEW `shop`.`v_orders`", "TRIGGER `shop`.`trg`", "PROCEDURE ...", "FUNCTION ...", "EVENT ..." of
// the schemas of `tables` that the user can see, sorted by kind and name, and a note when it cannot see triggers.
std::vector<std::string> objectsNotCopied(source::UpstreamConnection& upstream, const std::vector<LoadTable>& tables);

}  // namespace syncscope::load
