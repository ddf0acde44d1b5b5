// A third MariaDB server for the suites of a task whose sources are on two upstream servers: the upstream of a
// second pair that `scripts/dbpair` starts in its own data folder on the ports after the test pair's
// (SYNCSCOPE_SECOND_UP_PORT / _DOWN_PORT / _REPLICA_PORT, which syncscope_use_second_pair in tests/CMakeLists.txt
// sets; its downstream only idles). stop() stops and removes it; the destructor does when the suite did not.
#pragma once

#include <QString>
#include <QStringList>

#include "tests/support/test_env.h"

namespace syncscope::test {

class SecondPair {
public:
    // `pair` 2: the second pair (SYNCSCOPE_SECOND_*); 3: a third one (SYNCSCOPE_THIRD_*, syncscope_use_third_pair),
    // for a task with three upstream servers.
    explicit SecondPair(int pair = 2) : pair_(pair) {}
    ~SecondPair();
    SecondPair(const SecondPair&) = delete;
    SecondPair& operator=(const SecondPair&) = delete;

    // Stops what an earlier run left, cleans its folder and starts the pair; false with the script's output (or
    // why the port is not set) in `output` when it cannot.
    bool start(QString* output);
    // Stops the pair and removes its data folder (nothing when start() did not run); false with the script's output
    // when that fails.
    bool stop(QString* output);
    // `scripts/dbpair restart up SECONDS` (its upstream's maintenance): stopped by PID, down that long, started.
    bool restartUpstream(int secondsDown, QString* output);

    // The second upstream as root and as the replication user (port 0 when SYNCSCOPE_SECOND_UP_PORT is not set).
    static ServerSettings upstreamRoot(int pair = 2);
    static ServerSettings upstreamReplication(int pair = 2);

private:
    bool run(const QStringList& args, QString* output) const;  // scripts/dbpair ARGS for the second pair

    int pair_ = 2;
    bool started_ = false;
};

}  // namespace syncscope::test
