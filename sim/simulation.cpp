#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include <omp.h>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/matrix.hpp>

#include "sim/bone_catch.h"
#include "sim/fiber_rest_length.h"
#include "sim/printable.h"

namespace sim {

namespace {
inline bool finite3(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Interpolates a rigid (optionally scaled) transform: translation and scale
// linearly, rotation by short-path slerp.
glm::mat4 interpolateTransform(const glm::mat4& a, const glm::mat4& b, float t) {
    if (t >= 1.0f) return b;
    if (t <= 0.0f) return a;
    auto split = [](const glm::mat4& m, glm::vec3& s, glm::quat& q) {
        glm::mat3 r(m);
        s = glm::vec3(glm::length(r[0]), glm::length(r[1]), glm::length(r[2]));
        for (int i = 0; i < 3; ++i) r[i] /= (s[i] > 0.0f ? s[i] : 1.0f);
        q = glm::quat_cast(r);
    };
    glm::vec3 sa, sb;
    glm::quat qa, qb;
    split(a, sa, qa);
    split(b, sb, qb);
    if (glm::dot(qa, qb) < 0.0f) qb = -qb;
    glm::mat3 r = glm::mat3_cast(glm::slerp(qa, qb, t));
    glm::vec3 s = glm::mix(sa, sb, t);
    glm::mat4 out(1.0f);
    for (int i = 0; i < 3; ++i) out[i] = glm::vec4(r[i] * s[i], 0.0f);
    out[3] = glm::mix(a[3], b[3], t);
    return out;
}

}  // namespace

std::string NanReport::message() const {
    if (!fired) return {};
    std::ostringstream os;
    os << "NaN guard: the simulation produced a non-finite or exploding position";
    if (!muscle.empty()) os << " in muscle '" << printable(muscle) << "'";
    if (!family.empty()) {
        os << " (" << family;
        if (constraint >= 0) os << " constraint " << constraint;
        os << ")";
    }
    os << "; the step was undone and the last good state restored";
    return os.str();
}

float Residuals::max() const { return std::max({distance, penetration, attachment}); }

Simulation::Simulation() : solver_(makeSolver(SolverKind::Sst)) {}
Simulation::~Simulation() = default;

std::string Simulation::load(const SceneDesc& scene) {
    World w;
    if (auto e = buildWorld(scene, w); !e.empty()) return e;
    world_ = std::move(w);
    const size_t n = world_.particles.size();
    volume_grad_.assign(n, glm::vec3(0.0f));
    world_.contacts.reserve(n * 2);
    world_.contact_lambda.reserve(n * 2);
    world_.contact_runs.reserve(n + 1);
    contact_search_.prepare(world_);
    drift_.prepare(world_);
    solver_->rebuild(world_, params_);
    time_ = 0.0;
    frame_ = 0;
    timers_ = PhaseTimers{};
    captureState(initial_);
    return {};
}

std::string Simulation::setParams(const SolverParams& p) {
    if (auto e = validate(p); !e.empty()) return e;
    if (!solver_ || p.solver != solver_->kind()) {
        auto s = makeSolver(p.solver);
        if (!s) return "solver '" + std::string(solverName(p.solver)) + "' is not available";
        solver_ = std::move(s);
        params_ = p;
        solver_->rebuild(world_, params_);
    } else {
        bool rebuild = p.hybrid_groups != params_.hybrid_groups;
        params_ = p;
        if (rebuild) solver_->rebuild(world_, params_);
    }
    return {};
}

void Simulation::setBodyTransforms(const std::vector<glm::mat4>& frame_end) {
    for (size_t i = 0; i < world_.bodies.size() && i < frame_end.size(); ++i) world_.bodies[i].curr = frame_end[i];
}

void Simulation::setEnvelopePose(const std::vector<glm::vec3>& frame_end) {
    Envelope& e = world_.envelope;
    if (!e.active() || frame_end.size() != e.curr.size()) return;
    // A non-finite vertex (a broken pose) keeps the envelope where it was
    // rather than spreading NaN into every muscle that touches it.
    for (const glm::vec3& v : frame_end)
        if (!finite3(v)) return;
    e.curr = frame_end;
}

void Simulation::setActivation(size_t m, float a) {
    if (m >= world_.muscles.size()) return;
    world_.muscles[m].target_activation = std::isfinite(a) ? std::clamp(a, 0.0f, 1.0f) : 0.0f;
}

void Simulation::setAllActivations(float a) {
    for (size_t m = 0; m < world_.muscles.size(); ++m) setActivation(m, a);
}

void Simulation::setOverpressure(size_t m, float kappa) {
    if (m >= world_.muscles.size()) return;
    world_.muscles[m].overpressure = std::isfinite(kappa) ? std::clamp(kappa, 0.0f, 10.0f) : 0.0f;
}

void Simulation::reset() {
    // Exactly the state load() built (frame 0, t = 0): particles and bones in
    // the bind pose, no motion carried over from before the reset.
    restore(initial_);
}

void Simulation::captureState(State& s) const {
    const World& w = world_;
    s.frame = frame_;
    s.time = time_;
    s.x = w.particles.x;
    s.v = w.particles.v;
    s.activation.resize(w.muscles.size());
    s.target_activation.resize(w.muscles.size());
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        s.activation[m] = w.muscles[m].activation;
        s.target_activation[m] = w.muscles[m].target_activation;
    }
    s.bodies.resize(w.bodies.size());
    for (size_t b = 0; b < w.bodies.size(); ++b) {
        const Body& B = w.bodies[b];
        s.bodies[b] = {B.prev, B.curr, B.now, B.step_motion, B.last_step_motion};
    }
    s.sliding.resize(w.sliding.size());
    for (size_t k = 0; k < w.sliding.size(); ++k) s.sliding[k] = {w.sliding[k].q, w.sliding[k].n};
    // The pose the frame starts from (after a step, the one it ended at);
    // the next frame's end pose is the caller's to set.
    s.envelope = w.envelope.prev;
    s.envelope_tri = w.envelope.tri;
}

std::string Simulation::restore(const State& s) {
    World& w = world_;
    if (s.x.size() != w.particles.size() || s.v.size() != w.particles.size() ||
        s.activation.size() != w.muscles.size() || s.target_activation.size() != w.muscles.size() ||
        s.bodies.size() != w.bodies.size() || s.sliding.size() != w.sliding.size() ||
        s.envelope.size() != w.envelope.curr.size() || s.envelope_tri.size() != w.envelope.tri.size())
        return "the saved state belongs to another scene";
    frame_ = s.frame;
    time_ = s.time;
    w.particles.x = s.x;
    w.particles.p = s.x;
    w.particles.v = s.v;
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        w.muscles[m].activation = s.activation[m];
        w.muscles[m].target_activation = s.target_activation[m];
    }
    for (size_t b = 0; b < w.bodies.size(); ++b) {
        Body& B = w.bodies[b];
        const BodyState& S = s.bodies[b];
        B.prev = S.prev;
        B.curr = S.curr;
        B.setNow(S.now);
        B.step_motion = S.step_motion;
        B.last_step_motion = S.last_step_motion;
    }
    for (size_t k = 0; k < w.sliding.size(); ++k) {
        w.sliding[k].q = s.sliding[k].q;
        w.sliding[k].n = s.sliding[k].n;
    }
    w.envelope.prev = w.envelope.curr = w.envelope.now = s.envelope;
    w.envelope.tri = s.envelope_tri;
    // Contacts were found for positions that are gone: a residual or an
    // overlay computed from them would describe the undone step.
    w.contacts.clear();
    w.contact_lambda.clear();
    w.contact_runs.clear();
    return {};
}

// Per frame: filtered activation (docs/model.md §5), σ̂ of every fibre constraint
// (§3.1), volume targets (§3.2) and compliances for the substep length.
void Simulation::prepareFrame(float dt) {
    World& W = world_;
    const float blend = params_.activation_tau > 0.0f ? 1.0f - std::exp(-params_.frame_dt / params_.activation_tau) : 1.0f;
    for (auto& m : W.muscles) m.activation += (m.target_activation - m.activation) * blend;

    const bool xpbd = params_.mode == ConstraintMode::Xpbd;
    const float inv_dt2 = 1.0f / (dt * dt);
    const float inv_iter = 1.0f / float(params_.iterations);
    auto coefficients = [&](float k, float& alpha_tilde, float& scale) {
        if (xpbd) {
            alpha_tilde = std::isinf(k) ? 0.0f : inv_dt2 / k;
            scale = 1.0f;
        } else {
            alpha_tilde = 0.0f;
            scale = params_.mode == ConstraintMode::PbdRaw || k >= 1.0f ? k : 1.0f - std::pow(1.0f - k, inv_iter);
        }
    };
    const FamilyStiffness& k = params_.stiffness();
    for (int f = 0; f < kFamilyCount; ++f) coefficients(k.k[f], coef_.alpha_tilde[f], coef_.scale[f]);
    // The envelope's own scale (EnvelopeDesc::stiffness_scale); PBD's share
    // stays within [0, 1].
    if (W.envelope.stiffness_scale != 1.0f) {
        const float kf = k.k[fi(Family::Fascia)] * W.envelope.stiffness_scale;
        coefficients(xpbd ? kf : std::min(kf, 1.0f), coef_.alpha_tilde[fi(Family::Fascia)], coef_.scale[fi(Family::Fascia)]);
    }
    // Per-muscle overrides (XPBD units) for the muscle-owned families.
    const size_t nm = W.muscles.size();
    std::vector<float>& mat = volume_scratch_;
    mat.resize(nm * 6);
    for (size_t m = 0; m < nm; ++m) {
        auto stiff = [&](Family f) {
            float o = W.muscles[m].stiffness[f];
            return xpbd && o > 0.0f ? o : k[f];
        };
        coefficients(stiff(Family::Fiber), mat[m * 6 + 0], mat[m * 6 + 1]);
        coefficients(stiff(Family::Structure), mat[m * 6 + 2], mat[m * 6 + 3]);
        coefficients(stiff(Family::Volume), mat[m * 6 + 4], mat[m * 6 + 5]);
    }

    DistanceSet& D = W.distances;
    const FiberForm form = params_.fiber_form;
    const int64_t nd = int64_t(D.size());
    const int64_t sb = int64_t(D.structure_begin);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nd; ++c) {
        const Muscle& m = W.muscles[D.muscle[size_t(c)]];
        DistanceConstraint& dc = D.c[size_t(c)];
        dc.rest = fiberRestLength(form, D.rest_edge[size_t(c)], D.phi[size_t(c)], D.fiber[size_t(c)], m.a0, m.activation);
        const float* mc = &mat[D.muscle[size_t(c)] * 6 + (c < sb ? 0 : 2)];
        dc.alpha_tilde = mc[0];
        dc.scale = mc[1];
    }
    for (auto& v : W.volumes) {
        const Muscle& m = W.muscles[v.muscle];
        v.target = 6.0f * m.rest_volume * (1.0f + m.overpressure * m.activation);
        v.alpha_tilde = mat[v.muscle * 6 + 4];
        v.scale = mat[v.muscle * 6 + 5];
    }
}

void Simulation::predict(float dt) {
    ScopedPhase timer(timers_, Phase::Predict);
    auto& P = world_.particles;
    const glm::vec3 g = params_.gravity * (world_.gravity_scale * dt);
    const float damp = std::max(0.0f, 1.0f - params_.damping * dt);
    const float carry = params_.carry;
    const auto& bodies = world_.bodies;
    // The carrier bone's acceleration over this substep at x, as a
    // displacement: where its motion this substep takes x minus where its
    // motion of the substep before would have taken it.
    auto boneKick = [&](int body, glm::vec3 x) {
        const Body& b = bodies[size_t(body)];
        return glm::vec3(b.step_motion * glm::vec4(x, 1.0f)) - glm::vec3(b.last_step_motion * glm::vec4(x, 1.0f));
    };
    const int64_t n = int64_t(P.size());
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        glm::vec3 v = P.v[size_t(i)];
        // Branch points (a few % of the mass) carry no weight: on the soft
        // internal structure they would sag out of the muscle; the surface
        // carries the weight.
        if (P.w[size_t(i)] > 0.0f && !P.branch[size_t(i)]) v += g;
        v *= damp;
        P.v[size_t(i)] = v;
        glm::vec3 p = P.x[size_t(i)] + dt * v;
        const glm::ivec2 c = P.carrier[size_t(i)];
        if (carry > 0.0f && c.x >= 0 && P.w[size_t(i)] > 0.0f) {
            const float wa = P.carrier_weight[size_t(i)];
            glm::vec3 kick = wa * boneKick(c.x, P.x[size_t(i)]);
            if (c.y >= 0) kick += (1.0f - wa) * boneKick(c.y, P.x[size_t(i)]);
            p += carry * kick;
        }
        P.p[size_t(i)] = p;
    }
}

void Simulation::moveBodies(float frame_fraction) {
    ScopedPhase timer(timers_, Phase::Targets);
    for (auto& b : world_.bodies) {
        const glm::mat4 next = interpolateTransform(b.prev, b.curr, frame_fraction);
        b.last_step_motion = b.step_motion;
        // Exactly the identity for a bone at rest (M·M⁻¹ is not, in floats).
        b.step_motion = next == b.now ? glm::mat4(1.0f) : next * glm::inverse(b.now);
        b.setNow(next);
    }
}

void Simulation::placeAttachments() {
    ScopedPhase timer(timers_, Phase::Targets);
    auto& p = world_.particles.p;
    for (const auto& a : world_.attachments)
        p[a.particle] = glm::vec3(world_.bodies[a.body].now * glm::vec4(a.local, 1.0f));
}

void Simulation::updateVelocities(float dt) {
    ScopedPhase timer(timers_, Phase::Update);
    auto& P = world_.particles;
    const float inv_dt = 1.0f / dt;
    const int64_t n = int64_t(P.size());
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        P.v[size_t(i)] = (P.p[size_t(i)] - P.x[size_t(i)]) * inv_dt;
        P.x[size_t(i)] = P.p[size_t(i)];
    }
}

void Simulation::resetLambdas() {
    World& W = world_;
    std::fill(W.distances.lambda.begin(), W.distances.lambda.end(), 0.0f);
    std::fill(W.volume_lambda.begin(), W.volume_lambda.end(), 0.0f);
    std::fill(W.plane_lambda.begin(), W.plane_lambda.end(), 0.0f);
    std::fill(W.sliding_lambda.begin(), W.sliding_lambda.end(), 0.0f);
    std::fill(W.contact_lambda.begin(), W.contact_lambda.end(), 0.0f);
    std::fill(W.envelope.lambda.begin(), W.envelope.lambda.end(), 0.0f);
}

// One animation frame (docs/model.md §2). With `check`, the sequential solver is used
// and the first constraint producing a non-finite value is recorded.
void Simulation::runFrame(FailureSite* check) {
    const int substeps = params_.substeps;
    const float dt = params_.frame_dt / float(substeps);
    prepareFrame(dt);
    std::unique_ptr<Solver> checker;
    Solver* solver = solver_.get();
    if (check) {
        checker = makeSolver(SolverKind::Sst);
        checker->rebuild(world_, params_);  // its sweep order (sim/sweep_order.h)
        solver = checker.get();
    }
    // Contacts are searched within a band around each target (docs/model.md
    // §3.6): wide enough for what a vertex can still move towards a target
    // after the search. A search at every substep sees the predicted
    // positions, so only the solver's corrections are left to cover; a
    // search kept over several substeps must also cover the substeps after it.
    // A sliding connection finds its surface as far as the wide band in either case.
    const float wide_band = std::max(4.0f * params_.contact_radius, 0.01f);
    const bool search_each_substep = substeps == 1 || params_.search_every == 1;
    const float search = search_each_substep ? std::max(2.5f * params_.contact_radius, 0.005f) : wide_band;
    const float muscle_depth = std::max(2.0f * params_.contact_radius, 0.002f);
    if (record_convergence_) convergence_.clear();
    for (int s = 0; s < substeps; ++s) {
        moveBodies(float(s + 1) / float(substeps));
        predict(dt);
        if (check && !finiteState()) {
            for (size_t i = 0; i < world_.particles.size(); ++i)
                if (!sanePosition(world_.particles.p[i])) {
                    *check = {Family::Count, false, 0, uint32_t(i)};
                    return;
                }
        }
        placeAttachments();
        if (envelopeOn(world_, params_)) {
            ScopedPhase timer(timers_, Phase::Envelope);
            placeEnvelope(world_, float(s + 1) / float(substeps), params_.contact_radius);
        }
        {
            ScopedPhase timer(timers_, Phase::Contacts);
            const bool full = params_.search_every > 0 ? s % params_.search_every == 0 : s == 0;
            if (full) {
                // Anchors serve refresh() only: none runs before the next
                // search when every substep searches.
                const bool refreshed = !search_each_substep;
                contact_search_.findContacts(world_, search, muscle_depth, refreshed);
                contact_search_.updateSliding(world_, wide_band, refreshed);
            } else {
                contact_search_.refresh(world_);
            }
        }
        resetLambdas();
        IterationContext ctx{world_, params_, coef_, timers_, volume_grad_, check};
        const std::function<void()> record = [this] { convergence_.push_back(residualsOf(world_.particles.p).max()); };
        if (record_convergence_ && s == substeps - 1) ctx.on_iteration = &record;
        solver->solve(ctx, params_.iterations);
        if (check && check->found()) return;
        if (poke_) applyPoke(world_, *poke_, dt);
        // Hard bones are not entered, whatever the search saw (sim/bone_catch.h).
        if (coef_.alpha_tilde[fi(Family::Contact)] == 0.0f && coef_.scale[fi(Family::Contact)] >= 1.0f) {
            ScopedPhase timer(timers_, Phase::Contact);
            catchBoneCapsules(world_);
        }
        updateVelocities(dt);
    }
}

bool Simulation::finiteState() const {
    for (const auto& x : world_.particles.p)
        if (!sanePosition(x)) return false;
    return true;
}

NanReport Simulation::describe(const FailureSite& site) const {
    NanReport r;
    r.fired = true;
    if (site.particle < world_.particles.size() && !world_.muscles.empty())
        r.muscle = world_.muscles[world_.particles.muscle[site.particle]].name;
    if (site.family == Family::Count) {
        r.family = site.found() ? "predict" : "";
    } else {
        r.family = std::string(familyName(site.family));
        r.constraint = site.index;
    }
    return r;
}

StepReport Simulation::stepFrame() {
    StepReport report;
    if (world_.particles.size() == 0) {
        time_ += params_.frame_dt;
        ++frame_;
        return report;
    }
    omp_set_num_threads(params_.threads > 0 ? params_.threads : omp_get_num_procs());
    auto& P = world_.particles;
    captureState(saved_);

    timers_.beginFrame();
    runFrame(nullptr);
    timers_.endFrame();

    std::copy(P.x.begin(), P.x.end(), P.p.begin());
    if (!finiteState()) {
        // Undo, replay with checks to find the first failing constraint, undo
        // again: the replay and the next step start from the state (bones'
        // substep motion included) this attempt started from.
        // The envelope's end pose is the caller's, not part of the state.
        std::swap(envelope_target_, world_.envelope.curr);
        restore(saved_);
        world_.envelope.curr = envelope_target_;
        FailureSite site;
        PhaseTimers scratch = timers_;
        runFrame(&site);
        timers_ = scratch;
        restore(saved_);
        std::swap(envelope_target_, world_.envelope.curr);
        // The saved velocities may themselves carry the poison (a NaN fed in
        // from outside); the restored state must be steppable.
        for (auto& v : P.v)
            if (!finite3(v)) v = glm::vec3(0.0f);
        report.ok = false;
        report.nan = describe(site);
        return report;
    }
    for (auto& b : world_.bodies) b.prev = b.curr;
    world_.envelope.prev = world_.envelope.curr;
    time_ += params_.frame_dt;
    ++frame_;
    return report;
}

ConstraintCounts Simulation::constraintCounts() const {
    ConstraintCounts c;
    c.fiber = world_.distances.structure_begin;
    c.structure = world_.distances.size() - world_.distances.structure_begin;
    c.volume = world_.volumes.size();
    c.attachment = world_.attachments.size();
    size_t free_particles = 0;
    for (float w : world_.particles.w) free_particles += w > 0.0f;
    c.plane = world_.planes.size() * free_particles;
    c.contact = world_.contacts.size();
    c.sliding = world_.sliding.size();
    return c;
}

std::vector<MuscleStats> Simulation::muscleStats() const {
    std::vector<MuscleStats> out;
    const auto& X = world_.particles.x;
    for (const auto& m : world_.muscles) {
        MuscleStats s;
        s.name = m.name;
        s.rest_volume = m.rest_volume;
        s.volume = float(muscleVolume6(world_, m, X) / 6.0);
        s.rest_length = m.rest_length;
        s.length = glm::length(rootCentroid(X, m.insertion_sets) - rootCentroid(X, m.origin_sets));
        s.activation = m.activation;
        out.push_back(s);
    }
    return out;
}

Residuals Simulation::residuals() const { return residualsOf(world_.particles.x); }

Residuals Simulation::residualsOf(const std::vector<glm::vec3>& X) const {
    Residuals r;
    const World& W = world_;
    const DistanceSet& D = W.distances;
    for (size_t k = 0; k < D.size(); ++k) {
        const auto& c = D.c[k];
        if (W.particles.w[c.i] + W.particles.w[c.j] == 0.0f) continue;
        r.distance = std::max(r.distance, std::abs(glm::length(X[c.i] - X[c.j]) - c.rest));
    }
    for (const auto& v : W.volumes) {
        const double v6 = muscleVolume6(W, W.muscles[v.muscle], X);
        if (v.target > 0.0f) r.volume_rel = std::max(r.volume_rel, float(std::abs(v6 - v.target) / v.target));
    }
    const float rad = params_.contact_radius;
    for (const auto& pl : W.planes)
        for (size_t i = 0; i < X.size(); ++i)
            if (W.particles.w[i] > 0.0f)
                r.penetration = std::max(r.penetration, -(glm::dot(X[i] - pl.origin, pl.normal) - rad));
    for (const auto& c : W.contacts) {
        const ContactPlane s = contactPlane(W, c, X[c.particle]);
        r.penetration = std::max(r.penetration, -(glm::dot(X[c.particle] - s.q, s.n) - rad));
    }
    for (const auto& a : W.attachments) {
        glm::vec3 y = glm::vec3(W.bodies[a.body].now * glm::vec4(a.local, 1.0f));
        r.attachment = std::max(r.attachment, glm::length(X[a.particle] - y));
    }
    return r;
}

namespace {

// Exact depth of p inside a bone's collision mesh at its current transform
// (negative: outside, by the distance to it), as sim/tissue_overlap.cpp
// measures a muscle: the nearest triangle, signed by the parity of a ray's
// crossings (here over every triangle: few vertices are asked, at contacts).
float depthInsideBody(const Body& b, glm::vec3 p) {
    float best = 1e30f;
    int hits = 0;
    auto world = [&](uint32_t v) { return glm::vec3(b.now * glm::vec4(b.vertices[v], 1.0f)); };
    for (const glm::uvec3& t : b.triangles) {
        const glm::vec3 a = world(t.x), c1 = world(t.y), c2 = world(t.z);
        TriFeature f;
        const glm::vec3 q = closestPointOnTriangle(p, a, c1, c2, f);
        best = std::min(best, glm::dot(p - q, p - q));
        hits += skewRayCrosses(p, a, c1, c2) ? 1 : 0;
    }
    const float d = std::sqrt(best);
    return hits % 2 ? d : -d;
}

}  // namespace

Simulation::BonePenetration Simulation::bonePenetration() const {
    BonePenetration worst;
    const World& W = world_;
    const auto& X = W.particles.x;
    for (size_t mi = 0; mi < W.muscles.size(); ++mi) {
        const Muscle& m = W.muscles[mi];
        for (const TargetDesc& t : m.contact_targets) {
            if (t.kind != TargetDesc::Kind::Body) continue;
            const Body& b = W.bodies[size_t(t.index)];
            if (!b.collidesAsCapsule()) continue;
            for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
                if (W.particles.w[i] == 0.0f) continue;
                const ClosestPoint q = closestOnBodyCapsule(X[i], b);
                const float depth = -q.signed_distance - params_.contact_radius;
                if (q.valid && depth > worst.depth) worst = {depth, int(mi), t.index, int(i)};
            }
        }
    }
    // Bone meshes: the contacts on them (their plane, fixed for a substep,
    // flags candidates cheaply) are measured exactly against the meshes the
    // vertex's muscle collides with.
    for (const Contact& c : W.contacts) {
        if (c.tissue != 0 || c.capsule_body >= 0 || c.particle >= X.size()) continue;
        const float plane_depth = -glm::dot(X[c.particle] - c.q, c.n) - params_.contact_radius;
        if (plane_depth <= worst.depth) continue;
        const uint32_t mi = W.particles.muscle[c.particle];
        if (mi >= W.muscles.size()) continue;
        for (const TargetDesc& t : W.muscles[mi].contact_targets) {
            if (t.kind != TargetDesc::Kind::Body) continue;
            const Body& b = W.bodies[size_t(t.index)];
            if (b.triangles.empty()) continue;
            const float depth = depthInsideBody(b, X[c.particle]) - params_.contact_radius;
            if (depth > worst.depth) worst = {depth, int(mi), t.index, int(c.particle)};
        }
    }
    return worst;
}

Simulation::MusclePenetration Simulation::musclePenetration() const {
    const float r = params_.contact_radius;
    const TissueOverlapResult o = tissue_overlap_.measure(world_, world_.particles.x, r + 0.003f);
    MusclePenetration mp;
    if (o.particle >= 0 && o.depth > r) {
        mp.depth = o.depth - r;
        mp.muscle = o.muscle;
        mp.into = o.into;
        mp.particle = o.particle;
    }
    mp.vertices_past_3mm = o.vertices_inside;
    mp.pairs_past_3mm = o.pairs;
    mp.deepest_raw = o.particle >= 0 ? o.depth : 0.0f;
    const std::vector<float>& depth = tissue_overlap_.vertexDepth();
    for (const Muscle& m : world_.muscles)
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
            if (world_.particles.w[i] == 0.0f) continue;
            ++mp.free_vertices;
            if (i < depth.size() && depth[i] > 0.003f) ++mp.vertices_past_3mm_raw;
        }
    for (TissuePairOverlap& q : mp.pairs_past_3mm) q.deepest -= r;
    return mp;
}

void Simulation::musclePenetrationPerVertex(std::vector<float>& out) const {
    const float r = params_.contact_radius;
    tissue_overlap_.measure(world_, world_.particles.x, r + 0.003f);
    const std::vector<float>& d = tissue_overlap_.vertexDepth();
    out.resize(d.size());
    for (size_t i = 0; i < d.size(); ++i) out[i] = std::max(0.0f, d[i] - r);
}

uint64_t positionsHash(const std::vector<glm::vec3>& X) {
    uint64_t h = 1469598103934665603ull;
    for (const auto& x : X) {
        unsigned char bytes[sizeof(float) * 3];
        std::memcpy(bytes, &x, sizeof bytes);
        for (unsigned char b : bytes) {
            h ^= b;
            h *= 1099511628211ull;
        }
    }
    return h;
}

EnvelopeOutside Simulation::envelopeOutside() const {
    return measureOutside(world_, world_.particles.x, world_.envelope.prev);
}

void Simulation::outsidePerVertex(std::vector<float>& out) const {
    measureOutside(world_, world_.particles.x, world_.envelope.prev, true, &out);
}

DriftResult Simulation::drift() const { return drift_.measure(world_, world_.particles.x, world_.envelope.prev); }

void Simulation::driftPerVertex(std::vector<float>& out) const {
    drift_.measure(world_, world_.particles.x, world_.envelope.prev);
    out = drift_.vertexDrift();
}

uint64_t Simulation::positionsHash() const { return sim::positionsHash(world_.particles.x); }

int Simulation::colorsWithoutRemedy() const { return solver_ ? solver_->colorsWithoutRemedy() : 0; }
int Simulation::colorCount() const { return solver_ ? solver_->colorCount() : 0; }
std::vector<uint32_t> Simulation::colorSizes() const { return solver_ ? solver_->colorSizes() : std::vector<uint32_t>{}; }
std::vector<int> Simulation::distanceColors() const {
    return solver_ ? solver_->distanceColors() : std::vector<int>{};
}

}  // namespace sim
