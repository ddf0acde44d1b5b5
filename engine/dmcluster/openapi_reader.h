// DM's OpenAPI answers read into the cluster's state. Each reader takes the whole answer of one call and
// checks it against the shape DM's document gives it (required fields, types, enumerations); an answer
// that does not fit is refused with the field named ("data[1].status_list[0].stage: expected string, got
// number"), never read with a default. Secrets in an answer (target_config.password) are not read.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/common/error.h"
#include "engine/dmcluster/cluster_state.h"

namespace syncscope::dmcluster {

// An answer that does not have the shape DM's document gives it; what() names the field.
class DmResponseError : public Error {
public:
    using Error::Error;
};

std::vector<DmTask> readTaskList(const nlohmann::json& answer);       // GetTaskListResponse
std::vector<DmSubtask> readTaskStatus(const nlohmann::json& answer);  // GetTaskStatusResponse
std::vector<DmSource> readSourceList(const nlohmann::json& answer);   // GetSourceListResponse
std::vector<DmMaster> readMasterList(const nlohmann::json& answer);   // GetClusterMasterListResponse
std::vector<DmWorker> readWorkerList(const nlohmann::json& answer);   // GetClusterWorkerListResponse
// ErrorWithMessage as one line ("[code 46018] task not found"); the body itself when it is not one.
std::string errorMessageOf(const std::string& body);

// "(mysql-bin.000001, 1979)" as DM writes a location; "" is unknown. Throws DmResponseError naming `field`.
DmLocation parseLocation(const std::string& text, const std::string& gtid, const std::string& field);

}  // namespace syncscope::dmcluster
