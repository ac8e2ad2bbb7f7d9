// Measured adult muscle volumes the generated scenes are sized to
// (docs/anatomy.md "Reference muscle volumes"): upper limb from Holzbaur et
// al. 2007 with the MoBL-ARMS splits, lower limb from Handsfield et al. 2014
// as used by the Rajagopal 2015 model, trunk from the weaker sources listed
// there. Muscles the generator splits into parts (gluteus maximus 1–3, …)
// share their muscle's volume equally.
#pragma once

#include <string>
#include <vector>

namespace engine {

struct ReferenceVolume {
    std::string name;     // generator name without side suffix ("triceps_long", "glut_max1")
    std::string muscle;   // anatomical name the figure belongs to ("gluteus maximus")
    double cm3 = 0.0;     // this part's share of the reference volume
    int parts = 1;        // how many generator muscles share `muscle`
    std::string source;
};

const std::vector<ReferenceVolume>& referenceVolumes();
// The entry for a generated muscle name ("biceps_r", "glut_max2_l"), or nullptr.
const ReferenceVolume* referenceVolume(const std::string& muscle_name);

}  // namespace engine
