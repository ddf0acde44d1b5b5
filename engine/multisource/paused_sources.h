// Which sources of a task with several sources the DBA has paused, so that a restart of the task leaves them paused
// (as DM keeps a paused subtask paused): a source paused before its upstream's maintenance must not start applying
// because the process was restarted in between. The truth is kept in the downstream beside the task's checkpoint
// (paused_sources_table.h), so that a restart from another log folder, machine or front end sees it; a copy goes to
// a small JSON file beside the task's audit log (<dir>/<task>-paused-sources.json, written whole then renamed), so
// that a pause given while the downstream is unreachable is still kept by a restart with the same log folder. Both
// are written at once on every pause and resume. A source is paused when the table names it, or when the file
// names it and the pause never reached the table; a file entry that reached the table but is gone from it was
// resumed from elsewhere (the table is the truth).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/multisource/paused_sources_table.h"

namespace syncscope::multisource {

class PausedSources {
public:
    // `file` empty: no file; `table` null: nothing in the downstream. Reads both: a missing file or table is "none
    // paused"; one that cannot be read or parsed throws MultiSourceError naming it (nothing is started on a guess).
    // A pause only the file has (given while the downstream was unreachable, or before pauses were kept there) is
    // written to the table.
    explicit PausedSources(std::string file, std::shared_ptr<const PausedSourcesTable> table = nullptr);

    // A task with one source, which has always started while its downstream was unreachable: a table that cannot
    // be read is not thrown (tableProblem() says why); the file alone answers until readTable() has read the
    // table. The table is read once here when it answers, and a file that cannot be read still throws.
    struct TableMayBeUnreadable {};
    PausedSources(std::string file, std::shared_ptr<const PausedSourcesTable> table, TableMayBeUnreadable);
    // Why the table has not been read yet; "" once it has (or when there is none).
    std::string tableProblem() const;
    // The table was not read for a reason that may pass (the downstream is down or restarting): worth reading
    // again. Not for a wrong password, which a retry does not fix.
    bool tableMayAnswerLater() const;
    // Reads the table and takes it in: the table wins over a stale copy (a pause resumed from elsewhere), and a
    // pause only the file has (given while the downstream could not be written) is written to it. Returns what
    // was used for each source, for the DBA. Throws MultiSourceError naming the table when it still cannot be read.
    std::string readTable();

    // What a start would take as paused (source id -> since), reading both and writing neither (for `status`).
    static std::map<std::string, std::string> readWithoutWriting(const std::string& file,
                                                                 const PausedSourcesTable* table);

    bool isPaused(const std::string& sourceId) const;
    std::string pausedSince(const std::string& sourceId) const;  // "YYYY-MM-DD HH:MM:SS UTC"; "" when not paused
    // Throw Error naming what could not be written and where the pause still is (the command itself has been
    // done). The writes run without the lock that isPaused() and pausedSince() take: a status never waits on them.
    void remember(const std::string& sourceId);
    void forget(const std::string& sourceId);
    const std::string& file() const { return file_; }
    // Where the pause is kept, for messages: "`dm_meta`.`shop_syncscope_paused_sources` on root@... and FILE".
    std::string where() const;

private:
    struct Pause {
        std::string since;          // when it was paused
        bool inDownstream = false;  // the table has it (as the file records it)
    };
    using Pauses = std::map<std::string, Pause>;  // by source id

    static Pauses readFile(const std::string& file);       // throws MultiSourceError naming the file
    static Pauses readFileIfAny(const std::string& file);  // none when `file` is empty or missing
    // Takes the table in over `inFile` (what the file says, or what was kept until the table could be read):
    // merges, writes to the table a pause it lacks, saves the file when it changed.
    void takeTable(const Pauses& inFile, const std::map<std::string, std::string>& inTable);
    // "source a: paused since ..., kept in ... (the copy in FILE did not name it: the table wins)"; one per source.
    std::string describeTableRead(const Pauses& inFile, const std::map<std::string, std::string>& inTable) const;
    // Paused: what the table names, and what the file names unless it reached the table and is gone from it.
    static Pauses merge(const Pauses& inFile, const std::map<std::string, std::string>& inTable, bool hasTable);
    // Writes the pause or resume of `sourceId` to the table, then `pauses` (a copy) to the file; throws naming what
    // failed and where the pause still is.
    void write(const std::string& sourceId, bool paused, Pauses pauses);
    void saveFile(const Pauses& pauses) const;

    std::string file_;
    std::shared_ptr<const PausedSourcesTable> table_;
    std::mutex writeMutex_;  // one pause or resume written at a time, in the order given
    mutable std::mutex mutex_;
    Pauses paused_;
    std::string tableProblem_;     // why the table has not been read yet
    bool tableMayAnswer_ = false;  // ... and it may answer later
};

// <directory of the audit log>/<task>-paused-sources.json; "" when the audit log path is empty.
std::string pausedSourcesFileBeside(const std::string& auditLogPath, const std::string& taskName);

}  // namespace syncscope::multisource
