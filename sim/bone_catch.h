// Catching a vertex the solve carried into a bone capsule it had no contact
// with (docs/model.md §3.6). The contact search runs on the predicted
// positions; within one substep the envelope and the muscle's own
// constraints can carry a vertex 20–30 mm (T5's brachioradialis at full
// flexion, pressed by the elbow's skin), farther than any search band, into
// a bone it was nowhere near. Capsules are exact and cheap, so after the
// solve every surface vertex is checked against its muscle's capsule bones
// and one found inside is set back on the surface: where the bone is hard
// (the default), it is not entered whatever the search saw. Only vertices
// inside are moved, and only to the surface (the next search's contact keeps
// them at the contact radius): pushing every vertex within the radius out to
// it moved T6's extensor carpi radialis longus, which lies on the humerus
// at its origin, 32 mm into the brachioradialis.
#pragma once

#include "sim/world.h"

namespace sim {

// Moves every free surface vertex inside one of its muscle's bone capsules
// out to the capsule's surface, along its normal. Each vertex moves only
// itself: the same bits on any thread count. Returns how many vertices moved.
size_t catchBoneCapsules(World& w);

}  // namespace sim
