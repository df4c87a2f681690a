#include "shardkit/internal/phase_timing.h"

#include <catch2/catch.hpp>

namespace shardkit {
namespace {

TEST_CASE("phases are recorded only while a recorder is active") {
  { TimedPhase unrecorded("before"); }
  PhaseRecorder recorder;
  {
    TimedPhase outer("outer");
    { TimedPhase inner("inner"); }
  }
  REQUIRE(recorder.phases().size() == 2);
  CHECK(recorder.phases()[0].name == "outer");
  CHECK(recorder.phases()[0].depth == 0);
  CHECK(recorder.phases()[1].name == "inner");
  CHECK(recorder.phases()[1].depth == 1);
  CHECK(recorder.phases()[0].ms >= recorder.phases()[1].ms);
  CHECK(PhaseRecorder::active() == &recorder);
}

TEST_CASE("the innermost recorder collects, and the outer one resumes") {
  PhaseRecorder outer;
  {
    PhaseRecorder inner;
    TimedPhase phase("inside");
  }
  CHECK(outer.phases().empty());
  { TimedPhase phase("after"); }
  REQUIRE(outer.phases().size() == 1);
  CHECK(outer.phases()[0].name == "after");
}

TEST_CASE("formatPhases indents nested phases and merges repeated ones") {
  std::vector<PhaseTiming> phases = {
      {"parse", 0, 10, 9}, {"pipeline", 0, 20, 18}, {"step", 1, 4, 4},
      {"inner", 2, 1, 1},  {"step", 1, 6, 5},       {"inner", 2, 2, 2},
      {"other", 1, 3, 3},
  };
  CHECK(formatPhases(phases) ==
        "   wall time    CPU time\n"
        "       10.0 ms      9.0 ms  parse\n"
        "       20.0 ms     18.0 ms  pipeline\n"
        "       10.0 ms      9.0 ms    step (x2)\n"
        "        3.0 ms      3.0 ms      inner (x2)\n"
        "        3.0 ms      3.0 ms    other\n"
        "       30.0 ms     27.0 ms  total\n");
}

}  // namespace
}  // namespace shardkit
