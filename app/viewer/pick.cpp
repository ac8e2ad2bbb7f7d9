#include "app/viewer/pick.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/vec4.hpp>

namespace app::viewer {

namespace {

// Möller–Trumbore: the distance along the ray to triangle abc, or < 0.
float hitTriangle(const Ray& r, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 e1 = b - a, e2 = c - a, p = glm::cross(r.dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) return -1.0f;  // parallel (either side: the skin is not in the list)
    const float inv = 1.0f / det;
    const glm::vec3 s = r.origin - a;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f) return -1.0f;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(r.dir, q) * inv;
    if (v < 0.0f || u + v > 1.0f) return -1.0f;
    return glm::dot(e2, q) * inv;
}

}  // namespace

Ray rayThrough(const engine::render::OrbitCamera& cam, float x, float y, float width, float height) {
    const float aspect = height > 0.0f ? width / height : 1.0f;
    const glm::mat4 inv = glm::inverse(cam.projection(aspect) * cam.view());
    const float nx = 2.0f * x / std::max(width, 1.0f) - 1.0f, ny = 1.0f - 2.0f * y / std::max(height, 1.0f);
    glm::vec4 n = inv * glm::vec4(nx, ny, -1.0f, 1.0f), f = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
    n /= n.w;
    f /= f.w;
    Ray r;
    r.origin = glm::vec3(n);
    const glm::vec3 d = glm::vec3(f) - glm::vec3(n);
    const float len = glm::length(d);
    r.dir = len > 0.0f ? d / len : glm::vec3(0.0f, 0.0f, -1.0f);
    return r;
}

bool projectToWindow(const engine::render::OrbitCamera& cam, glm::vec3 p, float width, float height, glm::vec2& out) {
    const float aspect = height > 0.0f ? width / height : 1.0f;
    const glm::vec4 c = cam.projection(aspect) * cam.view() * glm::vec4(p, 1.0f);
    if (c.w <= 0.0f) return false;
    out = glm::vec2((c.x / c.w + 1.0f) * 0.5f * width, (1.0f - c.y / c.w) * 0.5f * height);
    return true;
}

int pickMuscle(const engine::render::DrawTopology& topo, const std::vector<glm::vec3>& x, const Ray& ray,
               const engine::render::RenderOptions& opt) {
    return pickSurface(topo, x, ray, opt).muscle;
}

PickHit pickSurface(const engine::render::DrawTopology& topo, const std::vector<glm::vec3>& x, const Ray& ray,
                    const engine::render::RenderOptions& opt) {
    PickHit hit;
    glm::uvec3 hit_tri(0);
    float nearest = 1e30f;
    for (size_t m = 0; m < topo.muscles.size(); ++m) {
        if (!opt.muscleVisible(m)) continue;
        const engine::render::MuscleDraw& md = topo.muscles[m];
        for (uint32_t t = md.tri_begin; t < md.tri_begin + md.tri_count && t < topo.triangles.size(); ++t) {
            const glm::uvec3 tri = topo.triangles[t];
            if (tri.x >= x.size() || tri.y >= x.size() || tri.z >= x.size()) continue;
            const float d = hitTriangle(ray, x[tri.x], x[tri.y], x[tri.z]);
            if (d > 0.0f && d < nearest) {
                nearest = d;
                hit.muscle = int(m);
                hit_tri = tri;
            }
        }
    }
    if (hit.muscle < 0) return hit;
    hit.distance = nearest;
    const glm::vec3 q = ray.origin + nearest * ray.dir;
    hit.particle = hit_tri.x;
    for (uint32_t i : {hit_tri.y, hit_tri.z})
        if (glm::length(x[i] - q) < glm::length(x[hit.particle] - q)) hit.particle = i;
    return hit;
}

}  // namespace app::viewer
