// Fills the overlay line/point batches from the topology and the current
// frame. CPU only, so what an overlay shows can be tested without GL.
#pragma once

#include "engine/render/draw_frame.h"
#include "engine/render/draw_topology.h"
#include "engine/render/line_batch.h"
#include "engine/render/render_options.h"

namespace engine::render {

struct OverlayBatches {
    LineBatch surface_lines;  // depth-tested: wireframe, fibres, colour groups
    LineBatch xray_lines;     // drawn over the surface: internal structure, contact normals
    LineBatch xray_points;    // attachments, contacts
};

void buildOverlays(const DrawTopology& topo, const DrawFrame& frame, const RenderOptions& opt,
                   OverlayBatches& out);

}  // namespace engine::render
