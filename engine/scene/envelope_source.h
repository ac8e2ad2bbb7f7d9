// Which mesh of a scene is the envelope that keeps the muscles inside the
// limb (sim/envelope.h, docs/model.md §3.8), and its description for the
// solver: the node marked extras.msxpbd_envelope, else a translucent skinned
// mesh whose bounds hold the muscles (the generated scenes' `skin`), welded
// into one vertex per position (a UV seam splits a drawn vertex, not the
// surface). A scene without one behaves as before.
#pragma once

#include "engine/scene/scene.h"

namespace engine {

// Chooses the envelope mesh and fills s.desc.envelope, s.envelope_mesh and
// s.envelope_source (nothing when there is none). Call once the meshes,
// the skeleton and the muscles are loaded.
void attachEnvelope(Scene& s);

}  // namespace engine
