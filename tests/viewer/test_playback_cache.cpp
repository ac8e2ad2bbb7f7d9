// Playback from the frame cache (docs/architecture.md "Playback from the
// cache"): a frame simulated with the current settings plays again from the
// cache — the next loop steps nothing and shows the same positions — and a
// change of settings simulates again from the frame it was made at.
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/frame_cache.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/study.h"
#include "sim_rig.h"

using namespace app::viewer;

// Named (not anonymous): the unity build may put this file with test_actions.cpp.
namespace playback_test {

using viewer_test::Rig;
using viewer_test::waitFor;

// FNV-1a over the positions' bytes: the same bits give the same hash.
uint64_t hashOf(const std::vector<glm::vec3>& x) {
    uint64_t h = 1469598103934665603ull;
    const auto* p = reinterpret_cast<const unsigned char*>(x.data());
    for (size_t i = 0; i < x.size() * sizeof(glm::vec3); ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

std::string sceneAsset(const char* file) { return std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/" + file; }

// Paused on `scene`, with `setup` commands applied (each checked).
bool openPaused(Rig& r, const std::string& scene, std::initializer_list<const char*> setup) {
    r.state.controls.playing = false;
    r.state.controls.want_skin_wrap = false;  // the test looks at the muscles, not the drawn skin
    r.sim.setControls(r.state.controls);
    r.sim.start();
    r.actions.openScene(scene);
    if (!waitFor(r.sim, [](const SimFrame& f) { return f.scene && f.scene->topology; })) return false;
    r.actions.adoptScene(*r.sim.latest().scene);
    for (const char* c : setup)
        if (!r.actions.execute(c).empty()) return false;
    return waitFor(r.sim, [](const SimFrame& f) { return f.position == 0 && f.params.threads == 1; });
}

// One frame of playback, stepped through the action layer.
const SimFrame& next(Rig& r) {
    const int64_t want = r.sim.latest().position + 1;
    r.actions.stepForward(1);
    EXPECT_TRUE(waitFor(r.sim, [&](const SimFrame& f) { return f.position == want; })) << "frame " << want;
    return r.sim.latest();
}

sim::State stateOf(int64_t frame, size_t n) {
    sim::State s;
    s.frame = frame;
    s.x.assign(n, glm::vec3(float(frame)));
    s.v.assign(n, glm::vec3(0.0f));
    return s;
}

}  // namespace playback_test


// Past its budget the cache keeps the frames stored last (a run that does not
// fit keeps its most recent frames), and the timeline's mask shows which.
TEST(FrameCache, KeepsTheMostRecentFramesWithinItsBudget) {
    const size_t one = playback_test::stateOf(0, 1000).bytes();
    FrameCache c(4 * one + one / 2);
    for (int64_t f = 0; f < 10; ++f) c.store(playback_test::stateOf(f, 1000));
    EXPECT_EQ(c.size(), 4u);
    EXPECT_LE(c.bytes(), c.budget());
    for (int64_t f = 0; f < 6; ++f) EXPECT_FALSE(c.has(f)) << f;
    for (int64_t f = 6; f < 10; ++f) {
        ASSERT_TRUE(c.has(f)) << f;
        EXPECT_EQ(c.at(f)->x[0].x, float(f));
    }
    EXPECT_EQ(c.atOrBefore(7)->frame, 7);
    EXPECT_EQ(c.atOrBefore(5), nullptr);
    std::vector<uint8_t> mask;
    c.mask(11, mask);
    ASSERT_EQ(mask.size(), 12u);
    EXPECT_EQ(mask, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0}));
    // Storing an old frame again makes it the most recent: frame 6 goes now.
    c.store(playback_test::stateOf(2, 1000));
    EXPECT_TRUE(c.has(2));
    EXPECT_FALSE(c.has(6));
    c.setBudget(2 * one + one / 2);
    EXPECT_EQ(c.size(), 2u);
    EXPECT_TRUE(c.has(9) && c.has(2));
}

// The presenter case: T7 played once, played again. The second loop
// steps no simulation (the step counter stays) and shows, frame by frame, the
// same positions as the first; a parameter change then simulates again from
// the frame it was made at. (One iteration, one substep: the cache is under
// test here, not the solver; the whole loop still takes ~20 s on one core.)
TEST(PlaybackFromCache, T7SecondLoopStepsNothingAndShowsTheSameFrames) {
    viewer_test::Rig r;
    ASSERT_TRUE(playback_test::openPaused(r, playback_test::sceneAsset("t7-body-walk-run.glb"),
                           {"set threads 1", "set iterations 1", "set substeps 1", "set search-every 0"}));
    const SimFrame& start = r.sim.latest();
    ASSERT_GT(start.duration, 7.0);
    const int64_t frames_per_loop = int64_t(start.cache_mask.size());
    ASSERT_GE(frames_per_loop, 240);
    std::vector<uint64_t> first(size_t(frames_per_loop), 0);
    first[0] = playback_test::hashOf(start.x);
    const uint64_t steps0 = start.steps;
    for (int64_t i = 1; i < frames_per_loop; ++i) {
        const SimFrame& f = playback_test::next(r);
        ASSERT_EQ(f.frame, i);
        EXPECT_FALSE(f.from_cache);
        first[size_t(i)] = playback_test::hashOf(f.x);
    }
    EXPECT_EQ(r.sim.latest().steps - steps0, uint64_t(frames_per_loop - 1)) << "the first loop simulates";
    const uint64_t steps1 = r.sim.latest().steps;
    size_t same = 0;
    for (int64_t i = 0; i < frames_per_loop; ++i) {
        const SimFrame& f = playback_test::next(r);
        ASSERT_EQ(f.frame, i) << "the loop starts again at frame 0";
        EXPECT_EQ(f.loop, 1);
        EXPECT_TRUE(f.from_cache) << "frame " << i;
        same += playback_test::hashOf(f.x) == first[size_t(i)];
    }
    EXPECT_EQ(r.sim.latest().steps, steps1) << "the second loop steps no simulation";
    EXPECT_EQ(same, size_t(frames_per_loop)) << "the second loop shows the first loop's positions";
    ASSERT_EQ(r.sim.latest().loops.size(), 2u);
    EXPECT_EQ(r.sim.latest().loops[1].cached, frames_per_loop);
    EXPECT_EQ(r.sim.latest().loops[1].simulated, 0);

    // Back to frame 100 (from the cache), a change, and on: simulated again.
    ASSERT_EQ(r.actions.execute("scrub " + std::to_string(100.0 * double(r.sim.latest().params.frame_dt))), "");
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.frame == 100; }));
    EXPECT_EQ(r.sim.latest().steps, steps1) << "scrubbing back restores, it does not simulate";
    EXPECT_EQ(playback_test::hashOf(r.sim.latest().x), first[100]);
    ASSERT_EQ(r.actions.execute("set iterations 2"), "");
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.params.iterations == 2; }));
    EXPECT_EQ(r.sim.latest().frame, 100) << "a change keeps the frame shown";
    EXPECT_EQ(playback_test::hashOf(r.sim.latest().x), first[100]);
    const SimFrame& after = playback_test::next(r);
    EXPECT_EQ(after.frame, 101);
    EXPECT_FALSE(after.from_cache);
    EXPECT_EQ(after.steps, steps1 + 1) << "the changed run simulates on from the frame it was changed at";
    EXPECT_NE(playback_test::hashOf(after.x), first[101]) << "with two iterations, not one";
    r.sim.stop();
}

// A change in the middle of a pass: the run goes on from there; the next
// pass from frame 0 simulates afresh under the new settings (the frames
// cached after the change began from the old settings' state), and the pass
// after that plays from the cache. T3 (the biceps and its elbow, 4 s).
TEST(PlaybackFromCache, AChangeMidLoopSimulatesTheNextLoopAfreshThenPlaysItFromTheCache) {
    viewer_test::Rig r;
    ASSERT_TRUE(playback_test::openPaused(r, playback_test::sceneAsset("t3-biceps-elbow.glb"), {"set threads 1"}));
    const int64_t n = int64_t(r.sim.latest().cache_mask.size());
    ASSERT_GE(n, 60);
    for (int64_t i = 1; i <= 40; ++i) playback_test::next(r);
    ASSERT_EQ(r.actions.execute("set iterations 5"), "");
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.params.iterations == 5; }));
    EXPECT_EQ(r.sim.latest().cached_frames, 1u) << "only the frame shown is kept: the run goes on from it";
    const uint64_t s0 = r.sim.latest().steps;
    for (int64_t i = 41; i < n; ++i) playback_test::next(r);
    EXPECT_EQ(r.sim.latest().steps - s0, uint64_t(n - 41));
    // The second pass: frame 0 is the rest pose; 1..n−1 simulated again.
    const uint64_t s1 = r.sim.latest().steps;
    std::vector<uint64_t> second;
    for (int64_t i = 0; i < n; ++i) second.push_back(playback_test::hashOf(playback_test::next(r).x));
    EXPECT_EQ(r.sim.latest().steps - s1, uint64_t(n - 1));
    std::vector<uint8_t> all(size_t(n), 1);
    EXPECT_EQ(r.sim.latest().cache_mask, all) << "the whole pass is cached";
    // The third pass plays the second from the cache.
    const uint64_t s2 = r.sim.latest().steps;
    for (int64_t i = 0; i < n; ++i) {
        const SimFrame& f = playback_test::next(r);
        EXPECT_TRUE(f.from_cache) << i;
        EXPECT_EQ(playback_test::hashOf(f.x), second[size_t(i)]) << i;
    }
    EXPECT_EQ(r.sim.latest().steps, s2);
    r.sim.stop();
}

// The budget is a setting: `cache-mb N` (and the timeline's field) take it,
// out-of-range values are refused with the range.
TEST(PlaybackFromCache, TheBudgetIsASettingWithARange) {
    viewer_test::Rig r;
    EXPECT_EQ(r.state.controls.cache_mb, FrameCache::kDefaultBudgetMb);
    EXPECT_EQ(r.actions.execute("cache-mb 2048"), "");
    EXPECT_EQ(r.state.controls.cache_mb, 2048u);
    EXPECT_NE(r.actions.execute("cache-mb 1").find("out of range"), std::string::npos);
    EXPECT_NE(r.actions.execute("cache-mb 1e12"), "");
    EXPECT_NE(r.actions.execute("cache-mb lots"), "");
    EXPECT_EQ(r.state.controls.cache_mb, 2048u);
}
