// What a differential case may use: schema shapes, statements, faults and engine modes, each a feature
// that can be switched off. The fixed-seed test uses the features the engine is expected to handle;
// the soak takes a list from the command line or SYNCSCOPE_FUZZ_FEATURES.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace syncscope::differential {

enum class Feature {
    // schema
    CompositeKey,
    TextKey,
    UniqueKey,
    NoKey,
    CiCollation,
    GeneratedColumn,
    ForeignKey,
    MyIsam,
    // workload
    KeyMove,
    UniqueMove,
    Transaction,
    Xa,
    CreateSelect,
    Alter,
    Truncate,
    Rotate,
    OnlineDdl,        // a pt-online-schema-change style change (shadow, triggers, copy, swap) under the workload,
                      // replicated with online-ddl: true
    ShardMerge,       // a shard group routed into one table (shard-mode: pessimistic), its DDLs run shard by shard
    ShardOptimistic,  // the same shard group and DDLs with shard-mode: optimistic ("shard-optimistic")
    // faults
    Kill,
    PauseResume,
    StopStart,
    DownstreamRestart,
    UpstreamRestart,  // the upstream server restarts (a new binlog file, a cut stream, reconnects)
    StreamCut,        // the upstream kills the engine's Binlog Dump thread: resumed in place ("dump-cut")
    ResumeFrom,
    ResumeFromEarlier,  // resume-from the earliest step boundary kept: a replay over many steps and their DDLs
    SafeMode,
    // engine modes
    GtidMode,
    MultipleRows,
    // checks beyond "equal rows"
    ExitSafeCheck,   // after a graceful stop the exit-safe point is not ahead of the global point
    GlobalEndCheck,  // caught up and stopped gracefully, the global point is the upstream's end
};

using FeatureSet = std::set<Feature>;

const std::vector<Feature>& allFeatures();
std::string featureName(Feature feature);
// "a,b,c" (names as featureName gives them), "all", "stable" (what the engine handles today), or
// "all,-xa" (a set minus some). Throws std::invalid_argument naming an unknown word.
FeatureSet parseFeatures(const std::string& text);
std::string featureList(const FeatureSet& features);
// The features the engine handles today (the fixed-seed test's set); kept current as defects are fixed.
FeatureSet stableFeatures();

}  // namespace syncscope::differential
