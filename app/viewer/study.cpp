#include "app/viewer/study.h"

#include "engine/mesh_builders.h"
#include "sim/simulation.h"

namespace app::viewer {

Study::~Study() {
    cancel_ = true;
    if (worker_.joinable()) worker_.join();
}

sim::SceneDesc Study::hangingMuscle() {
    sim::SceneDesc s;
    s.name = "study: hanging muscle";
    sim::BodyDesc anchor;
    anchor.name = "anchor";
    s.bodies.push_back(anchor);
    // A 20 cm muscle hanging along −Y, held at its upper tendon.
    engine::MeshData m = engine::makeOval(glm::vec3(0.0f, 0.3f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f), 0.1f, 0.02f,
                                          16, 12, 1);
    sim::MuscleDesc md;
    md.name = "hanging";
    md.vertices = m.vertices;
    md.triangles = m.triangles;
    md.origin_sets = m.origin_sets;
    md.insertion_sets = m.insertion_sets;
    for (const auto& set : m.origin_sets)
        for (uint32_t v : set) md.attachments.push_back({v, 0});
    s.muscles.push_back(std::move(md));
    return s;
}

void Study::start(const sim::SolverParams& params, int frames) {
    cancel_ = true;
    if (worker_.joinable()) worker_.join();
    cancel_ = false;
    running_ = true;
    progress_ = 0.0f;
    {
        std::lock_guard lk(mu_);
        result_ = StudyResult{};
    }
    worker_ = std::thread([this, params, frames] { run(params, frames); });
}

StudyResult Study::result() const {
    std::lock_guard lk(mu_);
    return result_;
}

void Study::run(sim::SolverParams params, int frames) {
    const std::vector<int> iters = {1, 2, 4, 8, 16, 32, 64};
    const sim::SceneDesc scene = hangingMuscle();
    params.solver = sim::SolverKind::Sst;
    params.threads = 1;  // leave the cores to the viewer's simulation
    {
        std::lock_guard lk(mu_);
        result_.iterations = iters;
        result_.xpbd.assign(iters.size(), 0.0f);
        result_.pbd.assign(iters.size(), 0.0f);
    }
    const size_t total = iters.size() * 2;
    size_t done = 0;
    for (int mode = 0; mode < 2 && !cancel_; ++mode) {
        for (size_t k = 0; k < iters.size() && !cancel_; ++k) {
            sim::Simulation s;
            auto p = params;
            p.mode = mode == 0 ? sim::ConstraintMode::Xpbd : sim::ConstraintMode::Pbd;
            p.iterations = iters[k];
            std::string err = s.load(scene);
            if (err.empty()) err = s.setParams(p);
            if (!err.empty()) {
                std::lock_guard lk(mu_);
                result_.error = err;
                cancel_ = true;
                break;
            }
            for (int f = 0; f < frames && !cancel_; ++f) s.stepFrame();
            auto st = s.muscleStats();
            float e = st.empty() || st[0].rest_length <= 0.0f ? 0.0f : 100.0f * (st[0].length / st[0].rest_length - 1.0f);
            {
                std::lock_guard lk(mu_);
                (mode == 0 ? result_.xpbd : result_.pbd)[k] = e;
            }
            progress_ = float(++done) / float(total);
        }
    }
    running_ = false;
}

}  // namespace app::viewer
