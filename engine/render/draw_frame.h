// One frame as the renderer sees it: views into a published simulation frame.
// The renderer only reads; the viewer keeps the storage alive while drawing.
#pragma once

#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace engine::render {

struct DrawFrame {
    // The published simulation frame these views belong to (its serial): the
    // renderer re-derives and re-uploads nothing for a frame it has already
    // drawn with the same options. 0: unknown, everything is redone.
    uint64_t serial = 0;
    std::span<const glm::vec3> positions;        // every particle (surface + branch points)
    std::span<const float> muscle_activation;    // per muscle, [0, 1]
    std::span<const float> vertex_error;         // per particle relative strain (may be empty)
    std::span<const float> vertex_overlap;       // per particle m past the contact radius inside another muscle (may be empty)
    std::span<const float> vertex_drift;         // per particle m off its nearest other surface beyond rest (may be empty)
    std::span<const float> vertex_outside;       // per particle m outside the skin as posed from the file (may be empty)
    std::span<const glm::vec3> contact_points;   // particle positions in contact
    std::span<const glm::vec3> contact_normals;
    std::span<const glm::mat4> joint_globals;    // skeleton global transforms
    std::span<const glm::mat4> body_transforms;  // sim bodies
    std::span<const float> morph_weights;        // engine::Scene::morphWeights (empty: the meshes' defaults)
    // The skin envelope as drawn, wrapped over the muscles (sim/skin_wrap.h),
    // in the envelope's vertex order (empty: its skinned pose).
    std::span<const glm::vec3> skin_wrap;
};

}  // namespace engine::render
