// POST /api/v1/start, pause, resume, stop (no body) and until (a stop point): the DBA's commands on the task
// or, with ?source=ID, on one source's subtask.
#include "engine/control/control_request.h"
#include "engine/control/control_router.h"

namespace syncscope::control {

void addCommandRoutes(ControlRouter& router) {
    router.command("/api/v1/start", "start", [](task::TaskControl& target) { return target.start(); });
    router.command("/api/v1/pause", "pause", [](task::TaskControl& target) { return target.pause(); });
    router.command("/api/v1/resume", "resume", [](task::TaskControl& target) { return target.resume(); });
    router.command("/api/v1/stop", "stop", [](task::TaskControl& target) { return target.stop(); });
    router.post("/api/v1/shard-locks/unlock",
                [&router](const httplib::Request& req, const std::string&, httplib::Response& res) {
                    task::TaskControl& whole = router.task();
                    router.answerCommand(res, "shard-unlock",
                                         whole.unlockShardDdl(req.get_param_value("target"), false), {}, whole, {});
                });
    router.post("/api/v1/until", [&router](const httplib::Request& req, const std::string& body,
                                           httplib::Response& res) {
        UntilRequest request = parseUntilBody(body);
        if (!request.point) {
            router.replyError(res, http_status::kBadRequest, "until: " + request.problem);
            return;
        }
        task::TaskControl* target = router.targetOf(req, res);
        if (target == nullptr) {
            return;
        }
        router.answerCommand(res, "until", target->stopAt(*request.point), {}, *target, req.get_param_value("source"));
    });
}

}  // namespace syncscope::control
