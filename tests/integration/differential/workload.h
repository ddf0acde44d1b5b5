// A differential case: the engine's settings, the schema, and a list of steps (upstream statements or
// faults against the engine) generated from one seed. Steps are numbered so that a shrunk case is the
// seed plus the numbers of the steps it keeps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/integration/differential/fuzz_features.h"
#include "tests/integration/differential/schema_model.h"
#include "tests/integration/differential/shard_group.h"

namespace syncscope::differential {

enum class FaultKind {
    None,
    Kill,
    PauseResume,
    StopStart,
    DownstreamRestart,
    StreamCut,
    ResumeFrom,
    ResumeFromEarlier,
    SafeMode,
    UpstreamRestart
};
std::string faultName(FaultKind fault);

// The upstream sessions a step's statements run on: the workload's own; the side session that holds an XA
// transaction prepared while the main session rotates the binlog; the online schema change tool's
// connection, whose sql_mode has NO_AUTO_VALUE_ON_ZERO as pt-online-schema-change and gh-ost set it (its
// triggers keep that mode, so a key changed to 0 stays 0 in the shadow).
enum UpstreamSession : int { kMainSession = 0, kSideSession = 1, kToolSession = 2 };

struct Statement {
    int session = 0;
    std::string sql;
};

struct Step {
    int number = 0;
    std::string label;                  // "insert t2", "xa-rollback t0", "fault kill"
    std::vector<Statement> statements;  // run in order; the first failure stops the step
    std::vector<Statement> onFailure;   // run (errors ignored) after a failure: ROLLBACK, XA ROLLBACK
    FaultKind fault = FaultKind::None;
};

struct EngineSettings {
    bool gtidMode = false;
    int workerCount = 4;
    int batch = 100;
    bool multipleRows = false;
    bool safeMode = false;         // the whole case runs with safe-mode: true
    bool onlineDdl = false;        // the task sets online-ddl: true
    bool shardMerge = false;       // the task routes the shard group into its target, shard-mode: pessimistic
    bool shardOptimistic = false;  // ... with shard-mode: optimistic
};

struct CaseSpec {
    uint64_t seed = 0;
    FeatureSet features;
    EngineSettings engine;
    std::vector<TableSpec> tables;  // as created before the first step
    ShardGroup shardGroup;          // the shard-merge feature's tables, apart from `tables`
    std::vector<Step> steps;
};

struct WorkloadSize {
    int minSteps = 60;
    int maxSteps = 160;
    int maxFaults = 5;
};

CaseSpec generateCase(uint64_t seed, const FeatureSet& features, const WorkloadSize& size = {});

// "3,5-9,12" for the steps kept, and its inverse.
std::string stepList(const std::vector<int>& numbers);
std::vector<int> parseStepList(const std::string& text);

}  // namespace syncscope::differential
