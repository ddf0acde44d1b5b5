// One downstream session the apply workers write through: DML in explicit transactions that commit()
// ends. DmlExecutor is the real one (a Connector/C connection to the downstream); tests of the
// pipeline script their own (failures, slow commits, lost connections) behind the same calls.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/apply/dml_statement.h"

namespace syncscope::apply {

class DmlSession {
public:
    virtual ~DmlSession() = default;

    // Each throws DownstreamError carrying the server's code and, for DML, the SQL with its values.
    // execute returns the rows an INSERT/DELETE affected, or an UPDATE found (changed or not).
    virtual uint64_t execute(const DmlStatement& statement) = 0;
    // Runs `statements` in order in the open transaction, as execute() would one by one, and sets
    // `affected` to each one's count. The real session sends them without waiting for each answer
    // (DmlExecutor) and throws the first failure once every answer is in; after a failure the caller
    // rolls back.
    virtual void executeAll(std::span<const DmlStatement> statements, std::vector<uint64_t>& affected) {
        affected.clear();
        for (const DmlStatement& statement : statements) {
            affected.push_back(execute(statement));
        }
    }
    // Whether statements bound over arrays of rows run here (DmlStatement::arrayRows).
    virtual bool takesArrays() const { return false; }
    virtual void commit() = 0;
    virtual void rollback() = 0;

    // The downstream's purge backlog (InnoDB's history list length), read between transactions; nullopt when
    // the downstream does not say or the read failed (a lost connection shows at the next statement).
    virtual std::optional<uint64_t> readPurgeBacklog() { return std::nullopt; }

    // The foreign_key_checks the DBA's target-session variables left the session at (read once).
    virtual bool readForeignKeyChecks() = 0;
    // Remembers that value: a statement that asks for another one gets it set before it runs, and
    // the next statement that does not ask gets the session's value back.
    virtual void setSessionForeignKeyChecks(bool on) = 0;
};

// Opens a new session (the pool's workers each hold one; a lost one is replaced).
using DmlSessionFactory = std::function<std::unique_ptr<DmlSession>()>;

}  // namespace syncscope::apply
