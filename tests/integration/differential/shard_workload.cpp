#include "tests/integration/differential/shard_workload.h"

#include <algorithm>

namespace syncscope::differential {

namespace {

constexpr int kRowPercent = 18;           // of the case's steps, a row statement on a shard
constexpr int kStartSequencePercent = 3;  // of the steps without an open sequence, the start of one
constexpr int kNextDdlPercent = 12;       // of the steps with one open, its next shard's DDL
constexpr int kCrossShardPercent = 15;    // of the shard row steps, a transaction over two shards
constexpr int kTextWidening = 8;

std::string withTable(const std::string& ddl, const std::string& table) {
    std::string text = ddl;
    size_t at = text.find("{table}");
    return text.replace(at, std::string("{table}").size(), "`" + table + "`");
}

}  // namespace

ShardWorkload::ShardWorkload(FuzzRandom& random, const ShardGroup& group)
    : random_(random), group_(group), added_(static_cast<size_t>(group.count)) {}

std::optional<Step> ShardWorkload::nextStep(int index) {
    if (open_ && random_.chance(kNextDdlPercent)) {
        return sequenceStep();
    }
    if (!open_ && random_.chance(kStartSequencePercent)) {
        return startSequence(index);
    }
    if (random_.chance(kRowPercent)) {
        if (group_.count > 1 && random_.chance(kCrossShardPercent)) {
            return crossShardTransaction();
        }
        return row(random_.range(1, group_.count));
    }
    return std::nullopt;
}

std::vector<Step> ShardWorkload::finishSteps() {
    std::vector<Step> steps;
    while (open_) {
        steps.push_back(sequenceStep());
    }
    return steps;
}

std::string ShardWorkload::textValue() {
    return "'s" + std::to_string(random_.range(0, kTextDomain)) + "'";
}

std::string ShardWorkload::insert(int shard) {
    const auto& added = added_[static_cast<size_t>(shard - 1)];
    std::string columns = "`id`, `a`, `b`";
    std::string values = std::to_string(shard + kShardIdStride * random_.range(0, kKeyDomain - 1)) + ", " +
                         std::to_string(random_.range(0, kValueDomain)) + ", " + textValue();
    for (const std::string& column : added) {
        if (random_.chance(50)) {  // the others take the column's default
            columns += ", `" + column + "`";
            values += ", " + std::to_string(random_.range(0, kValueDomain));
        }
    }
    return "INSERT IGNORE INTO `" + group_.shardName(shard) + "` (" + columns + ") VALUES (" + values + ")";
}

Step ShardWorkload::row(int shard) {
    const std::string table = "`" + group_.shardName(shard) + "`";
    const std::string oneRow =
        " WHERE `id` = " + std::to_string(shard + kShardIdStride * random_.range(0, kKeyDomain - 1));
    const auto& added = added_[static_cast<size_t>(shard - 1)];
    switch (random_.range(1, 6)) {
        case 1:
        case 2:
            return {0, "shard insert " + group_.shardName(shard), {{0, insert(shard)}}, {}, FaultKind::None};
        case 3: {
            std::string set = "`a` = " + std::to_string(random_.range(0, kValueDomain)) + ", `b` = " + textValue();
            if (!added.empty() && random_.chance(50)) {
                set += ", `" + random_.pick(added) + "` = " + std::to_string(random_.range(0, kValueDomain));
            }
            return {0,
                    "shard update " + group_.shardName(shard),
                    {{0, "UPDATE " + table + " SET " + set + oneRow}},
                    {},
                    FaultKind::None};
        }
        case 4:
            return {0,
                    "shard update-range " + group_.shardName(shard),
                    {{0, "UPDATE " + table + " SET `a` = IFNULL(`a`, 0) + 1 WHERE `id` < " +
                             std::to_string(kShardIdStride * random_.range(1, kKeyDomain))}},
                    {},
                    FaultKind::None};
        case 5:
            return {0,
                    "shard delete " + group_.shardName(shard),
                    {{0, "DELETE FROM " + table + oneRow}},
                    {},
                    FaultKind::None};
        default:
            return {0,
                    "shard delete-range " + group_.shardName(shard),
                    {{0, "DELETE FROM " + table + " WHERE `id` >= " +
                             std::to_string(kShardIdStride * random_.range(kKeyDomain / 2, kKeyDomain)) +
                             " ORDER BY `id` LIMIT 2"}},
                    {},
                    FaultKind::None};
    }
}

// One transaction writing two shards: while a lock waits, one of them may be past the DDL (its rows held
// back) and the other not.
Step ShardWorkload::crossShardTransaction() {
    int first = random_.range(1, group_.count);
    int second = first % group_.count + 1;
    Step step{
        0, "shard transaction " + group_.shardName(first) + "+" + group_.shardName(second), {}, {}, FaultKind::None};
    step.statements = {{0, "BEGIN"}, {0, insert(first)}, {0, insert(second)}, {0, "COMMIT"}};
    step.onFailure = {{0, "ROLLBACK"}};
    return step;
}

Step ShardWorkload::startSequence(int index) {
    Sequence sequence;
    const std::string name = std::to_string(index);
    switch (random_.range(1, 4)) {
        case 1:
            sequence.label = "add column c" + name;
            sequence.addedColumn = "c" + name;
            sequence.ddl = "ALTER TABLE {table} ADD COLUMN `c" + name + "` INT NULL DEFAULT " + name;
            break;
        case 2:
            sequence.label = "add column n" + name;
            sequence.addedColumn = "n" + name;
            sequence.ddl = "ALTER TABLE {table} ADD COLUMN `n" + name + "` INT NULL";
            break;
        case 3:
            sequence.label = "add index i" + name;
            sequence.ddl = "ALTER TABLE {table} ADD INDEX `i" + name + "` (" +
                           (random_.chance(50) ? std::string("`a`") : std::string("`b`, `a`")) + ")";
            break;
        default:
            textWidth_ += kTextWidening;
            sequence.label = "widen b";
            sequence.ddl = "ALTER TABLE {table} MODIFY `b` VARCHAR(" + std::to_string(textWidth_) + ") NULL";
            break;
    }
    for (int shard = 1; shard <= group_.count; ++shard) {
        sequence.order.push_back(shard);
    }
    for (size_t i = sequence.order.size(); i > 1; --i) {  // a shuffle from our own draws, the same on any build
        std::swap(sequence.order[i - 1],
                  sequence.order[static_cast<size_t>(random_.range(0, static_cast<int>(i) - 1))]);
    }
    open_ = sequence;
    return sequenceStep();
}

Step ShardWorkload::sequenceStep() {
    Sequence& sequence = *open_;
    int shard = sequence.order.front();
    sequence.order.erase(sequence.order.begin());
    Step step{0,
              "shard ddl " + sequence.label + " on " + group_.shardName(shard),
              {{0, withTable(sequence.ddl, group_.shardName(shard))}},
              {},
              FaultKind::None};
    if (!sequence.addedColumn.empty()) {
        added_[static_cast<size_t>(shard - 1)].push_back(sequence.addedColumn);
    }
    if (sequence.order.empty()) {
        open_.reset();
    }
    return step;
}

}  // namespace syncscope::differential
