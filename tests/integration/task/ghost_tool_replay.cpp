#include "tests/integration/task/ghost_tool_replay.h"

#include <chrono>
#include <thread>

#include "tests/integration/task/online_ddl_fixture.h"

namespace syncscope::test {

GhostToolReplay::GhostToolReplay(source::UpstreamConnection& up, std::string schema, uint32_t seed)
    : up_(up), schema_(std::move(schema)), random_(seed) {}

void GhostToolReplay::createAppTable(int rows) {
    up_.execute("CREATE TABLE `" + schema_ +
                "`.t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, c VARCHAR(64) NOT NULL, "
                "KEY k_idx (k))");
    up_.execute("INSERT INTO `" + schema_ + "`.t (k, c) SELECT seq, CONCAT('row-', seq) FROM `" + schema_ +
                "`.seq_1_to_" + std::to_string(rows));
}

void GhostToolReplay::churn(int writes, const ToolNaming* tool) {
    const std::string t = "`" + schema_ + "`.t";
    const std::string ghost = tool != nullptr ? "`" + schema_ + "`.`" + tool->ghost + "`" : "";
    const std::string note = tool != nullptr ? tool->comment : "";
    int maxId = std::stoi(valueOf(up_, "SELECT COALESCE(MAX(id), 1) FROM " + t));
    for (int write = 0; write < writes; ++write) {
        std::string id = std::to_string(std::uniform_int_distribution<int>(1, maxId)(random_));
        std::string k = std::to_string(random_() % 100000);
        switch (random_() % 3) {
            case 0: {
                up_.execute("INSERT INTO " + t + " (k, c) VALUES (" + k + ", 'new-" + k + "')");
                std::string newId = valueOf(up_, "SELECT LAST_INSERT_ID()");
                if (tool != nullptr) {
                    up_.execute("replace " + note + " into " + ghost + " (id, k, c) values (" + newId + ", " + k +
                                ", 'new-" + k + "')");
                }
                break;
            }
            case 1: {
                up_.execute("UPDATE " + t + " SET k = " + k + ", c = CONCAT('upd-', id) WHERE id = " + id);
                if (tool != nullptr && valueOf(up_, "SELECT COUNT(*) FROM " + t + " WHERE id = " + id) == "1") {
                    up_.execute("update " + note + " " + ghost + " set id = " + id + ", k = " + k +
                                ", c = CONCAT('upd-', " + id + ") where ((id = " + id + "))");
                }
                break;
            }
            default:
                up_.execute("DELETE FROM " + t + " WHERE id = " + id);
                if (tool != nullptr) {
                    up_.execute("delete " + note + " from " + ghost + " where ((id = " + id + "))");
                }
        }
    }
}

void GhostToolReplay::runChange(const ToolNaming& tool, const std::string& alter, const std::function<void()>& midCopy,
                                const std::function<void()>& afterSwap) {
    const std::string s = "`" + schema_ + "`.";
    const std::string& c = tool.comment;
    auto changelog = [&](const std::string& hint, const std::string& value) {
        if (!tool.changelog.empty()) {
            up_.execute("insert " + c + " into " + s + "`" + tool.changelog + "` (id, hint, value) values (NULLIF(" +
                        std::string(hint == "heartbeat" ? "1" : "0") + ", 0), '" + hint + "', " + value +
                        ") on duplicate key update last_update=NOW(), value=VALUES(value)");
        }
    };
    up_.execute("drop " + c + " table if exists " + s + "`" + tool.ghost + "`");
    if (!tool.changelog.empty()) {
        up_.execute("drop " + c + " table if exists " + s + "`" + tool.changelog + "`");
        up_.execute("create " + c + " table " + s + "`" + tool.changelog +
                    "` (id bigint unsigned auto_increment, last_update timestamp not null DEFAULT "
                    "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, hint varchar(64) charset ascii not null, "
                    "value varchar(4096) charset ascii not null, primary key(id), unique key hint_uidx(hint)) "
                    "auto_increment=256");
        changelog("heartbeat", "NOW()");
    }
    up_.execute("create " + c + " table " + s + "`" + tool.ghost + "` like " + s + "t");
    up_.execute("alter " + c + " table " + s + "`" + tool.ghost + "` " + alter);
    changelog("state", "'GhostTableMigrated'");
    churn(5, &tool);

    int maxId = std::stoi(valueOf(up_, "SELECT MAX(id) FROM " + s + "t"));
    constexpr int kChunk = 250;
    int chunks = (maxId + kChunk - 1) / kChunk;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        up_.execute("insert " + c + " ignore into " + s + "`" + tool.ghost + "` (id, k, c) (select id, k, c from " + s +
                    "t force index (`PRIMARY`) where ((id >= " + std::to_string(chunk * kChunk + 1) +
                    ")) and ((id <= " + std::to_string((chunk + 1) * kChunk) + ")) lock in share mode)");
        churn(6, &tool);
        if (chunk % 2 == 0) {
            changelog("heartbeat", "NOW()");
        }
        if (chunk == chunks / 2) {
            midCopy();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    changelog("state", "'AllEventsUpToLockProcessed'");
    if (!tool.changelog.empty()) {  // the atomic cut-over's sentry table
        up_.execute("create " + c + " table " + s + "`" + tool.trash +
                    "` (id int auto_increment primary key) engine=InnoDB comment='ghost-cut-over-sentry'");
        up_.execute("drop " + c + " table if exists " + s + "`" + tool.trash + "`");
    }
    up_.execute("rename " + c + " table " + s + "t to " + s + "`" + tool.trash + "`, " + s + "`" + tool.ghost +
                "` to " + s + "t");
    afterSwap();
    if (!tool.changelog.empty()) {
        up_.execute("drop " + c + " table if exists " + s + "`" + tool.changelog + "`");
    }
    up_.execute("drop " + c + " table if exists " + s + "`" + tool.trash + "`");
}

}  // namespace syncscope::test
