#include "sim/bone_catch.h"

#include "sim/geometry.h"

namespace sim {

size_t catchBoneCapsules(World& w) {
    auto& P = w.particles;
    size_t moved = 0;
    const int64_t muscles = int64_t(w.muscles.size());
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : moved)
    for (int64_t mi = 0; mi < muscles; ++mi) {
        const Muscle& m = w.muscles[size_t(mi)];
        for (const TargetDesc& t : m.contact_targets) {
            if (t.kind != TargetDesc::Kind::Body) continue;
            const Body& b = w.bodies[size_t(t.index)];
            // Bone meshes keep the search's planes (their exact inside test
            // costs a ray over every triangle).
            if (!b.collidesAsCapsule()) continue;
            for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
                if (P.w[i] == 0.0f || b.capsuleAxisFartherThan(P.p[i], b.capsule_radius)) continue;
                const ClosestPoint c = closestOnBodyCapsule(P.p[i], b);
                if (!c.valid || !(c.signed_distance < 0.0f)) continue;
                P.p[i] -= c.signed_distance * c.normal;
                ++moved;
            }
        }
    }
    return moved;
}

}  // namespace sim
