// SIGPIPE blocked in this thread for the life of a scope (one HTTP request): a server that closes the
// connection while a body is still being written raises it over TLS, which would end the whole program.
// One raised meanwhile is taken before the mask is restored.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace syncscope {

class SigpipeBlocked {
public:
    SigpipeBlocked() {
        sigemptyset(&pipe_);
        sigaddset(&pipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
    }
    ~SigpipeBlocked() {
        if (sigismember(&previous_, SIGPIPE) == 0) {
            timespec none{};
            while (sigtimedwait(&pipe_, nullptr, &none) > 0) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    SigpipeBlocked(const SigpipeBlocked&) = delete;
    SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

private:
    sigset_t pipe_{};
    sigset_t previous_{};
};

}  // namespace syncscope
