// The binlog stream's connection as a DBA sees it: reading, or resuming a lost connection in place.
#pragma once

#include <cstdint>
#include <string>

namespace syncscope::task {

struct StreamConnectionView {
    bool connected = false;  // the dump is running (false while the first connection is made)
    bool reconnecting = false;
    int attempt = 0;          // the reconnect attempt under way (1, 2, ...)
    std::string lastError;    // why the previous attempt failed ("" on the first)
    uint64_t reconnects = 0;  // lost connections resumed in place so far
    std::string lastCut;      // where and why the last one was lost ("" when none)
};

}  // namespace syncscope::task
