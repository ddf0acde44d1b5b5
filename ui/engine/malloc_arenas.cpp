#include "ui/engine/malloc_arenas.h"

#include <malloc.h>

namespace syncscope::ui {

namespace {

// Far more than a fleet's threads (20 local engines with 16 workers each stay below it); glibc's default is 8 per
// core.
constexpr int kMallocArenas = 512;

}  // namespace

void giveThreadsTheirOwnMallocArenas() {
    mallopt(M_ARENA_MAX, kMallocArenas);  // best effort: a C library without arenas ignores it
}

}  // namespace syncscope::ui
