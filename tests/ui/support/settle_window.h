// Lets a main window take in what its task has done before a suite looks at it: the adapter refreshes, the
// commands in flight finish, it refreshes again and the event loop paints. Shared by the main window suites.
#pragma once

#include <QtTest>

#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"

namespace syncscope::test {

inline void settle(ui::MainWindow& window) {
    window.adapter()->refreshNow();
    QTRY_COMPARE(window.adapter()->commandsInFlight(), 0);
    window.adapter()->refreshNow();
    QTest::qWait(50);
}

}  // namespace syncscope::test
