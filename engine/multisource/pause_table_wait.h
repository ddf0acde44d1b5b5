// A task with one source whose downstream did not answer at start waits here before its engine Task starts: the
// pauses kept in the downstream (paused_sources_table.h) are read again with backoff, and the Task starts only once
// they are read, so that a pause kept there wins over a stale copy beside the audit log. Nothing is lost by
// waiting: the Task's first session reads its checkpoint from the same downstream before it applies anything.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/multisource/paused_sources.h"

namespace syncscope::multisource {

class PauseTableWait {
public:
    static constexpr std::chrono::milliseconds kFirstRetryDelay{1000};  // as the engine's Task retries
    static constexpr std::chrono::milliseconds kMaxRetryDelay{60000};

    struct State {
        bool waiting = false;
        std::string problem;  // why the last reading failed; "" before the first failure
        int attempts = 0;     // readings that failed
    };

    PauseTableWait(std::shared_ptr<PausedSources> paused, std::string taskName);
    ~PauseTableWait();  // cancel()
    PauseTableWait(const PauseTableWait&) = delete;
    PauseTableWait& operator=(const PauseTableWait&) = delete;

    // Reads the table on a thread of its own until it is read, or until a reading fails for a reason a retry does
    // not fix (a wrong password); then `onRead` runs on that thread with what was used for each source
    // (PausedSources::readTable), or with why the copy beside the audit log is used alone.
    void begin(std::function<void(const std::string& told)> onRead);
    // Ends the waiting and joins the thread: `onRead` has run by the time it returns, or never will. Not from
    // `onRead`.
    void cancel();
    State state() const;

private:
    void readUntilRead(std::function<void(const std::string&)> onRead);

    std::shared_ptr<PausedSources> paused_;
    std::string taskName_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool cancelled_ = false;
    State state_;
    std::thread thread_;
};

}  // namespace syncscope::multisource
