// The GUI process's threads each get a malloc arena of their own. glibc gives a process 8 arenas per core and
// then makes threads share them, the GUI thread's among them: on a 2-core machine with a fleet open (each local
// engine has a reader, workers, a flusher and a publisher; each remote engine a poller) the GUI thread's
// allocations waited on the arena lock of an engine thread that held it while it waited for a core at its lower
// priority (bench_gui_fleet under load: 100-350 ms in __lll_lock_wait_private from malloc). An arena costs
// address space reserved on demand, not memory.
#pragma once

namespace syncscope::ui {

// Call first in main, before any thread starts.
void giveThreadsTheirOwnMallocArenas();

}  // namespace syncscope::ui
