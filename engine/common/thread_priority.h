// The engine's threads (syncer, status publisher, upstream watch, apply workers) may run at a lower
// scheduling priority than the rest of their process, so that a GUI embedding the engine keeps its
// thread responsive on a busy machine (the engine then yields a core to it first). Off by default: the
// headless `syncscope-cli run` keeps the normal priority.
#pragma once

namespace syncscope {

// Process-wide: engine threads started after this call run at the calling thread's nice value plus
// `niceIncrement` (0 to 19). Lowering a thread's priority needs no privilege.
void setEngineThreadNiceIncrement(int niceIncrement);

// Called first by every engine thread; does nothing unless an increment was set. Calling it again, or in a
// thread started by an engine thread, lowers nothing further. Never fails the caller.
void applyEngineThreadPriority();

}  // namespace syncscope
