#include "tests/integration/differential/workload.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include "tests/integration/differential/dml_generator.h"
#include "tests/integration/differential/shard_workload.h"

namespace syncscope::differential {

namespace {

constexpr int kRollbackPercent = 15;
constexpr int kMaxStatementsPerTransaction = 5;
constexpr int kFirstFaultStep = 3;
constexpr int kBigCreateSelectPercent = 30;
// A big copy is a self cross join cut at this many rows: a copy of a copy would square thousands of rows into
// millions, which MariaDB's replica (the oracle) deletes from a keyless table at one table scan per row
// (soak seed 160045: not done after 12 minutes). The group still spans many rows events.
constexpr int kBigCreateSelectRows = 20000;

bool has(const FeatureSet& features, Feature feature) {
    return features.count(feature) != 0;
}

class CaseBuilder {
public:
    CaseBuilder(uint64_t seed, const FeatureSet& features) : random_(seed), features_(features) {}

    CaseSpec build(const WorkloadSize& size) {
        CaseSpec spec;
        spec.features = features_;
        spec.engine.gtidMode = has(features_, Feature::GtidMode) && random_.chance(50);
        spec.engine.workerCount = random_.range(1, 16);
        spec.engine.batch = random_.pick(std::vector<int>{1, 2, 10, 100});
        spec.engine.multipleRows = has(features_, Feature::MultipleRows) && random_.chance(50);
        spec.engine.safeMode = has(features_, Feature::SafeMode) && random_.chance(25);
        spec.engine.onlineDdl = has(features_, Feature::OnlineDdl);
        spec.tables = generateSchema(random_, features_);
        tables_ = spec.tables;
        if (has(features_, Feature::ShardMerge) || has(features_, Feature::ShardOptimistic)) {
            // The same draws either way: a seed gives the same case in both modes.
            spec.engine.shardMerge = true;
            spec.engine.shardOptimistic = has(features_, Feature::ShardOptimistic);
            spec.shardGroup = generateShardGroup(random_);
            shards_.emplace(random_, spec.shardGroup);
        }
        int steps = random_.range(size.minSteps, size.maxSteps);
        std::vector<Step> list;
        for (int i = 0; i < steps; ++i) {
            list.push_back(nextStep(static_cast<int>(list.size())));
        }
        while (online_) {
            list.push_back(onlinePhase());  // a change started is always finished (the replica keeps its tables)
        }
        if (shards_) {
            for (Step& step : shards_->finishSteps()) {
                list.push_back(std::move(step));
            }
        }
        insertFaults(list, size.maxFaults);
        for (size_t i = 0; i < list.size(); ++i) {
            list[i].number = static_cast<int>(i);
        }
        spec.steps = std::move(list);
        return spec;
    }

private:
    const TableSpec& anyTable() { return random_.pick(tables_); }

    const TableSpec* transactionalTable() {
        std::vector<TableSpec> innodb;
        for (const auto& t : tables_) {
            if (t.engine == "InnoDB") {
                innodb.push_back(t);
            }
        }
        if (innodb.empty()) {
            return nullptr;
        }
        chosen_ = random_.pick(innodb);
        return &chosen_;
    }

    Step nextStep(int index) {
        if (shards_) {
            if (auto step = shards_->nextStep(index)) {
                return *step;
            }
        }
        if (has(features_, Feature::OnlineDdl)) {
            if (online_ && random_.chance(12)) {
                return onlinePhase();
            }
            if (!online_ && random_.chance(3)) {
                if (auto started = startOnlineChange(index)) {
                    return *started;
                }
            }
        }
        int roll = random_.range(1, 100);
        if (roll <= 10 && has(features_, Feature::Transaction)) {
            return transaction();
        }
        if (roll <= 16 && has(features_, Feature::Xa)) {
            return xa(index);
        }
        if (roll <= 18 && has(features_, Feature::CreateSelect)) {
            return createSelect(index);
        }
        if (roll <= 20 && has(features_, Feature::Alter)) {
            return alter(index);
        }
        if (roll <= 21 && has(features_, Feature::Truncate)) {
            const TableSpec& t = anyTable();
            // A TRUNCATE fires no trigger: a running change's shadow would miss it (pt-osc's own limit).
            if (!changing(t.name)) {
                return {0, "truncate " + t.name, {{0, "TRUNCATE TABLE `" + t.name + "`"}}, {}, FaultKind::None};
            }
        }
        if (roll <= 24 && has(features_, Feature::Rotate)) {
            return {0, "rotate", {{0, "FLUSH BINARY LOGS"}}, {}, FaultKind::None};
        }
        const TableSpec& t = anyTable();
        DmlGenerator dml(random_, features_);
        auto [label, sql] = dml.any(t);
        return {0, label, {{0, sql}}, {}, FaultKind::None};
    }

    Step transaction() {
        Step step;
        step.label = "transaction";
        step.statements.push_back({0, "BEGIN"});
        DmlGenerator dml(random_, features_);
        int n = random_.range(2, kMaxStatementsPerTransaction);
        for (int i = 0; i < n; ++i) {
            auto [label, sql] = dml.any(anyTable());
            step.label += " " + label;
            step.statements.push_back({0, sql});
        }
        bool rollback = random_.chance(kRollbackPercent);
        step.statements.push_back({0, rollback ? "ROLLBACK" : "COMMIT"});
        step.label += rollback ? " rollback" : " commit";
        step.onFailure = {{0, "ROLLBACK"}};
        return step;
    }

    Step xa(int index) {
        const TableSpec* table = transactionalTable();
        if (table == nullptr) {
            return transaction();
        }
        std::string xid = "'fx" + std::to_string(index) + "'";
        enum Variant { Commit, Rollback, OnePhase, AcrossRotation };
        std::vector<Variant> variants{Commit, Rollback, OnePhase};
        if (has(features_, Feature::Rotate)) {
            variants.push_back(AcrossRotation);
        }
        Variant variant = random_.pick(variants);
        int session = variant == AcrossRotation ? kSideSession : kMainSession;
        Step step;
        step.statements.push_back({session, "XA START " + xid});
        DmlGenerator dml(random_, features_);
        int n = random_.range(1, kMaxStatementsPerTransaction - 1);
        std::string labels;
        for (int i = 0; i < n; ++i) {
            const TableSpec* t = transactionalTable();
            auto [label, sql] = dml.any(*t);
            labels += " " + label;
            step.statements.push_back({session, sql});
        }
        step.statements.push_back({session, "XA END " + xid});
        switch (variant) {
            case OnePhase:
                step.label = "xa-one-phase";
                step.statements.push_back({session, "XA COMMIT " + xid + " ONE PHASE"});
                break;
            case Commit:
            case Rollback:
                step.label = variant == Commit ? "xa-commit" : "xa-rollback";
                step.statements.push_back({session, "XA PREPARE " + xid});
                step.statements.push_back({session, (variant == Commit ? "XA COMMIT " : "XA ROLLBACK ") + xid});
                break;
            case AcrossRotation: {
                bool commit = random_.chance(50);
                step.label = commit ? "xa-commit-after-rotation" : "xa-rollback-after-rotation";
                step.statements.push_back({session, "XA PREPARE " + xid});
                step.statements.push_back({0, "FLUSH BINARY LOGS"});
                step.statements.push_back({0, "INSERT INTO `_fuzz_marker` (`note`) VALUES ('between')"});
                step.statements.push_back({session, (commit ? "XA COMMIT " : "XA ROLLBACK ") + xid});
                break;
            }
        }
        step.label += labels;
        step.onFailure = {{session, "XA END " + xid}, {session, "XA ROLLBACK " + xid}};
        return step;
    }

    Step createSelect(int index) {
        const TableSpec& source = anyTable();
        TableSpec copy;
        copy.name = "cs" + std::to_string(index);
        copy.caseVariants = source.caseVariants;
        bool big = random_.chance(kBigCreateSelectPercent);
        std::string sql = "CREATE TABLE `" + copy.name + "` ";
        // A copy without a key only with the no-key feature: a keyless table replayed after a SIGKILL gets
        // duplicates (README, known gaps), which is the no-key class's record, not this one's.
        const bool keyless = has(features_, Feature::NoKey);
        if (big) {
            // Thousands of rows in one GTID group (CREATE, rows, Xid): what a kill must not split.
            copy.columns = {{"a", ValueKind::Int, "INT", true, {}}, {"b", ValueKind::Text, "VARCHAR(20)", true, {}}};
            if (!keyless) {
                copy.columns.insert(copy.columns.begin(), {"id", ValueKind::Int, "INT", false, {}});
                copy.primaryKey = {"id"};
                sql += "(`id` INT AUTO_INCREMENT PRIMARY KEY) ";
            }
            sql += "ENGINE=InnoDB SELECT x.`a`, x.`b` FROM `" + source.name + "` x, `" + source.name + "` y LIMIT " +
                   std::to_string(kBigCreateSelectRows);
        } else {
            for (const auto& c : source.columns) {
                ColumnSpec plain = c;
                plain.generatedAs.clear();
                copy.columns.push_back(plain);
            }
            if (!source.primaryKey.empty() && (!keyless || random_.chance(50))) {
                copy.primaryKey = source.primaryKey;
                std::string keys;
                for (const auto& k : source.primaryKey) {
                    keys += (keys.empty() ? "`" : ", `") + k + "`";
                }
                sql += "(PRIMARY KEY (" + keys + ")) ";
            }
            sql += "ENGINE=InnoDB SELECT * FROM `" + source.name + "`";
        }
        std::string label = "create-select " + copy.name + " from " + source.name;
        tables_.push_back(copy);  // invalidates `source`
        return {0, label, {{0, sql}}, {}, FaultKind::None};
    }

    Step alter(int index) {
        TableSpec& t = tables_[static_cast<size_t>(random_.range(0, static_cast<int>(tables_.size()) - 1))];
        if (changing(t.name)) {
            // The tool's shadow would not get it (and its copy's columns would no longer match).
            const TableSpec& other = anyTable();
            DmlGenerator dml(random_, features_);
            auto [label, sql] = dml.any(other);
            return {0, label, {{0, sql}}, {}, FaultKind::None};
        }
        if (random_.chance(60)) {
            std::string column = "x" + std::to_string(index);
            t.columns.push_back({column, ValueKind::Int, "INT", true, {}});
            return {0,
                    "alter " + t.name + " add " + column,
                    {{0, "ALTER TABLE `" + t.name + "` ADD COLUMN `" + column + "` INT NULL DEFAULT " +
                             std::to_string(index)}},
                    {},
                    FaultKind::None};
        }
        return {0,
                "alter " + t.name + " add index",
                {{0, "ALTER TABLE `" + t.name + "` ADD INDEX `ix" + std::to_string(index) + "` (`a`)"}},
                {},
                FaultKind::None};
    }

    bool changing(const std::string& table) const { return online_ && online_->table == table; }

    // pt-online-schema-change's sequence, as the tool runs it, in three steps that the workload and faults
    // interleave: the shadow created LIKE the table and altered, with the tool's three triggers; the copy;
    // the swap (RENAME), the old table and the triggers dropped; all on the tool's own session (kToolSession).
    // Only tables with a primary key that no foreign key touches (a cascade fires no trigger; a renamed parent
    // takes its children's keys along).
    std::optional<Step> startOnlineChange(int index) {
        std::vector<const TableSpec*> candidates;
        for (const TableSpec& t : tables_) {
            bool parent = std::any_of(tables_.begin(), tables_.end(),
                                      [&](const TableSpec& other) { return other.parentTable == t.name; });
            if (!t.primaryKey.empty() && t.parentTable.empty() && !parent && t.name.size() < 40) {
                candidates.push_back(&t);
            }
        }
        if (candidates.empty()) {
            return std::nullopt;
        }
        const TableSpec& t = *random_.pick(candidates);
        online_ = OnlineChange{t.name, 0, "o" + std::to_string(index), index};
        return onlinePhase();
    }

    Step onlinePhase() {
        OnlineChange& change = *online_;
        const TableSpec& t = *std::find_if(tables_.begin(), tables_.end(),
                                           [&](const TableSpec& spec) { return spec.name == change.table; });
        const std::string real = "`" + t.name + "`";
        const std::string shadow = "`_" + t.name + "_new`";
        std::string columns, newValues, keyMatch;
        for (const ColumnSpec* column : t.writableColumns()) {
            columns += (columns.empty() ? "`" : ", `") + column->name + "`";
            newValues += (newValues.empty() ? "NEW.`" : ", NEW.`") + column->name + "`";
        }
        for (const std::string& key : t.primaryKey) {
            keyMatch += (keyMatch.empty() ? "" : " AND ") + shadow + ".`" + key + "` <=> OLD.`" + key + "`";
        }
        const std::string trigger = "`pt_osc_" + t.name + "_";
        Step step;
        switch (change.phase++) {
            case 0:
                step.label = "online-ddl " + t.name + " shadow";
                step.statements = {
                    {kToolSession, "CREATE TABLE " + shadow + " LIKE " + real},
                    {kToolSession, "ALTER TABLE " + shadow + " ADD COLUMN `" + change.column + "` INT NULL DEFAULT " +
                                       std::to_string(change.index)},
                    {kToolSession, "CREATE TRIGGER " + trigger + "del` AFTER DELETE ON " + real +
                                       " FOR EACH ROW DELETE IGNORE FROM " + shadow + " WHERE " + keyMatch},
                    {kToolSession, "CREATE TRIGGER " + trigger + "upd` AFTER UPDATE ON " + real +
                                       " FOR EACH ROW BEGIN " + "DELETE IGNORE FROM " + shadow + " WHERE " + keyMatch +
                                       "; REPLACE INTO " + shadow + " (" + columns + ") VALUES (" + newValues +
                                       "); END"},
                    {kToolSession, "CREATE TRIGGER " + trigger + "ins` AFTER INSERT ON " + real +
                                       " FOR EACH ROW REPLACE INTO " + shadow + " (" + columns + ") VALUES (" +
                                       newValues + ")"}};
                break;
            case 1:
                step.label = "online-ddl " + t.name + " copy";
                step.statements = {{kToolSession, "INSERT LOW_PRIORITY IGNORE INTO " + shadow + " (" + columns +
                                                      ") SELECT " + columns + " FROM " + real + " LOCK IN SHARE MODE"}};
                break;
            default: {
                step.label = "online-ddl " + t.name + " swap";
                const std::string old = "`_" + t.name + "_old`";
                step.statements = {
                    {kToolSession, "RENAME TABLE " + real + " TO " + old + ", " + shadow + " TO " + real},
                    {kToolSession, "DROP TABLE IF EXISTS " + old},
                    {kToolSession, "DROP TRIGGER IF EXISTS " + trigger + "del`"},
                    {kToolSession, "DROP TRIGGER IF EXISTS " + trigger + "upd`"},
                    {kToolSession, "DROP TRIGGER IF EXISTS " + trigger + "ins`"}};
                auto spec = std::find_if(tables_.begin(), tables_.end(),
                                         [&](const TableSpec& s) { return s.name == change.table; });
                spec->columns.push_back({change.column, ValueKind::Int, "INT", true, {}});
                online_.reset();
                break;
            }
        }
        return step;
    }

    void insertFaults(std::vector<Step>& list, int maxFaults) {
        std::vector<FaultKind> kinds;
        auto allow = [&](Feature feature, FaultKind kind) {
            if (has(features_, feature)) {
                kinds.push_back(kind);
            }
        };
        allow(Feature::Kill, FaultKind::Kill);
        allow(Feature::Kill, FaultKind::Kill);  // the fault that matters most, twice as often
        allow(Feature::PauseResume, FaultKind::PauseResume);
        allow(Feature::StopStart, FaultKind::StopStart);
        allow(Feature::DownstreamRestart, FaultKind::DownstreamRestart);
        allow(Feature::UpstreamRestart, FaultKind::UpstreamRestart);
        allow(Feature::StreamCut, FaultKind::StreamCut);
        allow(Feature::ResumeFrom, FaultKind::ResumeFrom);
        allow(Feature::ResumeFromEarlier, FaultKind::ResumeFromEarlier);
        allow(Feature::SafeMode, FaultKind::SafeMode);
        if (kinds.empty() || list.size() <= static_cast<size_t>(kFirstFaultStep)) {
            return;
        }
        int faults = random_.range(1, maxFaults);
        for (int i = 0; i < faults; ++i) {
            FaultKind kind = random_.pick(kinds);
            int at = random_.range(kFirstFaultStep, static_cast<int>(list.size()));
            Step step;
            step.label = "fault " + faultName(kind);
            step.fault = kind;
            list.insert(list.begin() + at, step);
        }
    }

    struct OnlineChange {
        std::string table;
        int phase = 0;       // 0: shadow and triggers, 1: copy, 2: swap
        std::string column;  // the column the change adds
        int index = 0;
    };

    FuzzRandom random_;
    FeatureSet features_;
    std::vector<TableSpec> tables_;
    TableSpec chosen_;
    std::optional<OnlineChange> online_;
    std::optional<ShardWorkload> shards_;  // the shard group's steps; its tables are not in tables_
};

}  // namespace

std::string faultName(FaultKind fault) {
    switch (fault) {
        case FaultKind::None:
            return "none";
        case FaultKind::Kill:
            return "kill";
        case FaultKind::PauseResume:
            return "pause-resume";
        case FaultKind::StopStart:
            return "stop-start";
        case FaultKind::DownstreamRestart:
            return "downstream-restart";
        case FaultKind::UpstreamRestart:
            return "upstream-restart";
        case FaultKind::StreamCut:
            return "dump-cut";
        case FaultKind::ResumeFrom:
            return "resume-from";
        case FaultKind::ResumeFromEarlier:
            return "resume-from-earlier";
        case FaultKind::SafeMode:
            return "safe-mode";
    }
    return "unknown";
}

CaseSpec generateCase(uint64_t seed, const FeatureSet& features, const WorkloadSize& size) {
    CaseSpec spec = CaseBuilder(seed, features).build(size);
    spec.seed = seed;
    return spec;
}

std::string stepList(const std::vector<int>& numbers) {
    std::string text;
    for (size_t i = 0; i < numbers.size();) {
        size_t j = i;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) {
            ++j;
        }
        text += (text.empty() ? "" : ",") + std::to_string(numbers[i]);
        if (j > i) {
            text += "-" + std::to_string(numbers[j]);
        }
        i = j + 1;
    }
    return text;
}

std::vector<int> parseStepList(const std::string& text) {
    std::vector<int> numbers;
    std::stringstream parts(text);
    std::string part;
    while (std::getline(parts, part, ',')) {
        if (part.empty()) {
            continue;
        }
        size_t dash = part.find('-');
        int first = std::stoi(part.substr(0, dash));
        int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
        for (int n = first; n <= last; ++n) {
            numbers.push_back(n);
        }
    }
    return numbers;
}

}  // namespace syncscope::differential
