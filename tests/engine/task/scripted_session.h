// Worker sessions for the pipeline's seam tests: they "write" nothing, record which row ids each
// transaction committed, and fail, stall or lose their connection when the script says so. Row ids are
// read from the bound values of INSERTs into `seam`.`t` (every second value: id, v).
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/apply/dml_session.h"
#include "engine/apply/downstream_connection.h"

namespace syncscope::test {

struct SessionScript {
    std::mutex mutex;
    std::optional<int32_t> failOnId;  // a statement carrying this id throws this server error
    int failCode = 0;
    bool failOnce = false;  // true: only the first time (a retry then succeeds)
    std::chrono::milliseconds commitDelay{0};
    std::set<int32_t> committed;
    std::set<int32_t> executed;  // sent to the downstream (committed or not)
    int failures = 0;

    bool isCommitted(int32_t id) {
        std::lock_guard lock(mutex);
        return committed.count(id) != 0;
    }
    std::set<int32_t> executedIds() {
        std::lock_guard lock(mutex);
        return executed;
    }
};

class ScriptedSession : public apply::DmlSession {
public:
    explicit ScriptedSession(std::shared_ptr<SessionScript> script) : script_(std::move(script)) {}

    uint64_t execute(const apply::DmlStatement& statement) override {
        std::vector<int32_t> ids;
        if (statement.sql.rfind("INSERT", 0) == 0) {
            for (size_t i = 0; i < statement.params.size(); i += 2) {
                ids.push_back(static_cast<int32_t>(statement.params[i]->asSigned()));
            }
        }
        {
            std::lock_guard lock(script_->mutex);
            for (int32_t id : ids) {
                if (script_->failOnId && *script_->failOnId == id) {
                    ++script_->failures;
                    int code = script_->failCode;
                    if (script_->failOnce) {
                        script_->failOnId.reset();
                    }
                    throw apply::DownstreamError("scripted failure on id " + std::to_string(id), code,
                                                 "scripted failure", statement.describe());
                }
            }
            script_->executed.insert(ids.begin(), ids.end());
        }
        pending_.insert(pending_.end(), ids.begin(), ids.end());
        return ids.empty() ? 1 : ids.size();
    }

    void commit() override {
        std::chrono::milliseconds delay;
        {
            std::lock_guard lock(script_->mutex);
            delay = script_->commitDelay;
        }
        if (delay.count() > 0) {
            std::this_thread::sleep_for(delay);
        }
        std::lock_guard lock(script_->mutex);
        script_->committed.insert(pending_.begin(), pending_.end());
        pending_.clear();
    }

    void rollback() override { pending_.clear(); }
    bool readForeignKeyChecks() override { return false; }
    void setSessionForeignKeyChecks(bool) override {}

private:
    std::shared_ptr<SessionScript> script_;
    std::vector<int32_t> pending_;
};

}  // namespace syncscope::test
