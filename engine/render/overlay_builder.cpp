#include "engine/render/overlay_builder.h"

#include <glm/geometric.hpp>

#include "engine/render/colormap.h"

namespace engine::render {

namespace {
// Particle → muscle lookup through the muscle ranges (hidden muscles draw no overlays).
std::vector<uint8_t> visibleParticles(const DrawTopology& t, const RenderOptions& opt) {
    std::vector<uint8_t> vis(t.particle_count, 1);
    for (size_t m = 0; m < t.muscles.size(); ++m) {
        if (opt.muscleVisible(m)) continue;
        const auto& md = t.muscles[m];
        for (uint32_t i = md.first; i < md.first + md.surface_count + md.branch_count && i < vis.size(); ++i)
            vis[i] = 0;
    }
    return vis;
}
}  // namespace

void buildOverlays(const DrawTopology& t, const DrawFrame& f, const RenderOptions& opt, OverlayBatches& out) {
    out.surface_lines.clear();
    out.xray_lines.clear();
    out.xray_points.clear();
    const auto& x = f.positions;
    if (x.size() != t.particle_count) return;
    const auto vis = visibleParticles(t, opt);
    auto shown = [&](uint32_t i) { return i < vis.size() && vis[i]; };

    if (opt.overlay(Overlay::Wireframe))
        for (const auto& e : t.mesh_edges)
            if (shown(e.x)) out.surface_lines.line(x[e.x], x[e.y], glm::vec4(0.05f, 0.05f, 0.08f, 0.55f));

    if (opt.overlay(Overlay::ColorGroups) && !t.distance_color.empty()) {
        for (size_t k = 0; k < t.distance_edges.size(); ++k) {
            if (t.distance_kind[k] != EdgeKind::Surface) continue;
            auto e = t.distance_edges[k];
            if (shown(e.x)) out.surface_lines.line(x[e.x], x[e.y], glm::vec4(categoricalColor(t.distance_color[k]), 1.0f));
        }
    }

    if (opt.overlay(Overlay::Fibers)) {
        for (const auto& m : t.muscles) {
            for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
                uint32_t j = t.fiber_neighbor[i];
                if (j == i || !shown(i)) continue;
                // Half an edge either side of the vertex, along the current fibre edge.
                glm::vec3 d = 0.45f * (x[j] - x[i]);
                out.surface_lines.line(x[i] - d, x[i] + d, glm::vec4(1.0f, 0.95f, 0.85f, 0.9f));
            }
        }
    }

    if (opt.overlay(Overlay::Internal)) {
        for (size_t k = 0; k < t.distance_edges.size(); ++k) {
            auto e = t.distance_edges[k];
            if (!shown(e.x)) continue;
            if (t.distance_kind[k] == EdgeKind::Medulla)
                out.xray_lines.line(x[e.x], x[e.y], glm::vec4(1.0f, 0.25f, 0.2f, 1.0f));
            else if (t.distance_kind[k] == EdgeKind::Spoke)
                out.xray_lines.line(x[e.x], x[e.y], glm::vec4(0.3f, 0.85f, 1.0f, 0.12f));
        }
        for (const auto& m : t.muscles)
            for (uint32_t i = m.first + m.surface_count; i < m.first + m.surface_count + m.branch_count; ++i)
                if (shown(i)) out.xray_points.point(x[i], glm::vec4(1.0f, 0.3f, 0.2f, 1.0f));
    }

    if (opt.overlay(Overlay::Attachments))
        for (uint32_t i : t.attachments)
            if (shown(i)) out.xray_points.point(x[i], glm::vec4(1.0f, 0.6f, 0.05f, 1.0f));

    if (opt.overlay(Overlay::Contacts)) {
        float len = 0.04f * t.rest_radius;
        for (size_t k = 0; k < f.contact_points.size(); ++k) {
            out.xray_points.point(f.contact_points[k], glm::vec4(0.95f, 0.1f, 0.6f, 1.0f));
            if (k < f.contact_normals.size())
                out.xray_lines.line(f.contact_points[k], f.contact_points[k] + len * f.contact_normals[k],
                                    glm::vec4(0.95f, 0.1f, 0.6f, 1.0f));
        }
    }
}

}  // namespace engine::render
