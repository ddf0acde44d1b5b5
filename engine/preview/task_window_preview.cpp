#include "engine/preview/task_window_preview.h"

#include "engine/binlog/location.h"
#include "engine/browse/browse_page.h"
#include "engine/browse/point_resolver.h"
#include "engine/browse/server_binlog_history.h"
#include "engine/browse/transaction_boundaries.h"
#include "engine/common/error.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"

namespace syncscope::preview {

verify::WindowPreviewRequest windowRequestFor(const task::TaskSetup& setup) {
    verify::WindowPreviewRequest request;
    request.upstream = setup.upstream;
    request.downstream = setup.downstream;
    if (auto router = setup.router) {
        request.route = [router](const schema::TableName& name) {
            filter::TableName routed = router->route({name.schema, name.table});
            return schema::TableName{routed.schema, routed.table};
        };
    }
    if (auto blockAllow = setup.blockAllow) {
        request.replicated = [blockAllow](const schema::TableName& name) {
            return blockAllow->allows({name.schema, name.table});
        };
    }
    return request;
}

ResumeWindow resumeWindowOf(const task::PointView& persistedGlobal, const task::ResumeTarget& target) {
    const std::string where =
        target.file.empty() ? "GTID " + target.gtid : target.file + ":" + std::to_string(target.pos);
    if (target.file.empty()) {
        throw Error("no preview of a resume-from " + where +
                    ": the preview reads the binlog between two positions, give the target as FILE:POS (find the "
                    "GTID's position with `syncscope-cli events --server ... --from GTID`)");
    }
    if (!persistedGlobal.known()) {
        throw Error("no preview of a resume-from " + where +
                    ": the task has no persisted global point yet, so there is no window to read");
    }
    ResumeWindow window;
    try {
        binlog::BinlogPosition chosen(target.file, target.pos);
        binlog::BinlogPosition persisted(persistedGlobal.file, persistedGlobal.pos);
        if (chosen == persisted) {
            throw Error("the target is the persisted global point itself: nothing is skipped or applied again");
        }
        window.skips = persisted < chosen;
        window.from = window.skips ? persisted : chosen;
        window.to = window.skips ? chosen : persisted;
    } catch (const std::exception& e) {
        throw Error("no window between the persisted global point " + persistedGlobal.text() + " and " + where + ": " +
                    e.what());
    }
    return window;
}

void checkResumeTarget(const task::TaskSetup& setup, const task::ResumeTarget& target,
                       const std::atomic<bool>* cancel) {
    browse::ServerBinlogHistory history(setup.upstream);
    browse::PointResolver resolver(history, cancel);
    try {
        if (!target.file.empty()) {
            resolver.checkTransactionBoundary({target.file, target.pos});
        } else if (binlog::detectGtidFlavor(target.gtid) == binlog::GtidFlavor::MariaDB) {
            resolver.checkGtidInHistory(target.gtid);
        }
    } catch (const browse::BrowseError& e) {
        throw RefusedResumeTarget(e.what());
    }
}

task::ResumeTarget locateResumeTarget(const task::TaskSetup& setup, const task::ResumeTarget& target,
                                      const std::atomic<bool>* cancel) {
    if (!target.file.empty()) {
        return target;
    }
    // The dump after a GTID first sends what lies between transactions (the file's FORMAT_DESCRIPTION,
    // GTID_LIST, BINLOG_CHECKPOINTs: more after rotations); the target is the first transaction's start.
    browse::ServerBinlogHistory history(setup.upstream);
    std::unique_ptr<browse::EventStream> stream;
    try {
        stream = history.openAfterGtid(target.gtid);
    } catch (const std::exception& e) {
        throw Error("the position of GTID " + target.gtid + " in " + history.describe() +
                    "'s binlog is not known: " + e.what());
    }
    task::ResumeTarget located = target;
    browse::TransactionBoundaries boundaries;
    std::vector<binlog::Event> events;
    while ((cancel == nullptr || !cancel->load()) && stream->next(events)) {
        for (const auto& event : events) {
            const auto step = boundaries.step(event);
            if (step == browse::TransactionBoundaries::Step::Starts ||
                step == browse::TransactionBoundaries::Step::StartsAndEnds) {
                located.file = std::string(event.file);
                located.pos = event.pos;
                return located;
            }
        }
    }
    if (cancel != nullptr && cancel->load()) {
        throw Error("placing GTID " + target.gtid + " in the binlog was cancelled");
    }
    std::vector<binlog::BinlogFileSize> files = history.files();
    if (files.empty()) {
        throw Error("the position of GTID " + target.gtid + ": " + history.describe() + " lists no binary logs");
    }
    located.file = files.back().file;  // nothing written after it yet: the end of the binlog
    located.pos = files.back().size;
    return located;
}

verify::WindowPreview previewSkip(const task::TaskSetup& setup, const task::PointView& failedEvent,
                                  const std::atomic<bool>* cancel) {
    if (!failedEvent.known()) {
        throw Error("the failed event's position is not known: no transaction to preview");
    }
    const browse::BrowsePoint failed{failedEvent.file, failedEvent.pos};
    browse::ServerBinlogHistory history(setup.upstream);
    browse::PageRequest around;
    around.around = failed;
    around.before = 0;
    around.count = 0;
    browse::Page page = browse::readPage(history, around, cancel);
    if (!page.error.empty() || !page.target || *page.target >= page.transactions.size()) {
        throw Error("the failed event's transaction at " + failed.toString() + " was not found in " +
                    history.describe() + "'s binlog: " + (page.error.empty() ? page.note : page.error));
    }
    const browse::BrowsedTransaction& transaction = page.transactions[*page.target];
    verify::WindowPreviewRequest request = windowRequestFor(setup);
    request.from = binlog::BinlogPosition(transaction.file, transaction.pos);
    request.to = binlog::BinlogPosition(transaction.endFile, transaction.endPos);
    verify::WindowPreviewer previewer;
    previewer.setCancelFlag(cancel);
    return previewer.preview(request);
}

verify::WindowPreview previewResumeFrom(const task::TaskSetup& setup, const ResumeWindow& window,
                                        const std::atomic<bool>* cancel) {
    verify::WindowPreviewRequest request = windowRequestFor(setup);
    request.from = window.from;
    request.to = window.to;
    verify::WindowPreviewer previewer;
    previewer.setCancelFlag(cancel);
    return previewer.preview(request);
}

}  // namespace syncscope::preview
