#include "engine/anatomy/anatomy_reference.h"

namespace engine {

const std::vector<ReferenceVolume>& referenceVolumes() {
    static const std::vector<ReferenceVolume> table = [] {
        const std::string up = "Holzbaur 2007 / MoBL-ARMS", low = "Handsfield 2014 / Rajagopal 2015",
                          trunk = "trunk (docs/anatomy.md)", fore = "forearm estimate (docs/anatomy.md)";
        std::vector<ReferenceVolume> t = {
            {"deltoid_anterior", "deltoid anterior", 170, 1, up},
            {"deltoid_middle", "deltoid middle", 170, 1, up},
            {"deltoid_posterior", "deltoid posterior", 39, 1, up},
            {"biceps", "biceps (long + short head)", 147, 1, up},
            {"brachialis", "brachialis", 144, 1, up},
            {"brachioradialis", "brachioradialis", 65, 1, up},
            {"triceps_long", "triceps long head", 148, 1, up},
            {"triceps_lateral", "triceps lateral head", 117, 1, up},
            {"triceps_medial", "triceps medial head", 117, 1, up},
            {"coracobrachialis", "coracobrachialis", 28, 1, up},
            {"anconeus", "anconeus", 10, 1, up},
            {"pronator_teres", "pronator teres", 39, 1, up},
            {"supinator", "supinator", 18, 1, up},
            {"flexor_carpi_radialis", "flexor carpi radialis", 35, 1, up},
            {"extensor_carpi_radialis_longus", "extensor carpi radialis longus", 39, 1, up},
            {"extensor_carpi_radialis_brevis", "extensor carpi radialis brevis", 21, 1, up},
            // The forearm's finger and wrist muscles: Holzbaur's wrist-crossing
            // share (16.0 % of 2,554) less the three wrist muscles above, split
            // by size (docs/anatomy.md "Forearm"); estimates, not measured.
            {"flexor_carpi_ulnaris", "flexor carpi ulnaris", 44, 1, fore},
            {"flexor_digitorum_superficialis", "flexor digitorum superficialis", 70, 1, fore},
            {"flexor_digitorum_profundus", "flexor digitorum profundus (with flexor pollicis longus)", 100, 1, fore},
            {"extensor_digitorum", "extensor digitorum (with digiti minimi, indicis)", 44, 1, fore},
            {"extensor_carpi_ulnaris", "extensor carpi ulnaris", 28, 1, fore},
            {"abductor_pollicis_longus", "abductor pollicis longus (with the thumb's extensors)", 28, 1, fore},
            {"tfl", "tensor fasciae latae", 65, 1, low},
            {"piriformis", "piriformis", 45, 1, low},
            {"iliacus", "iliacus", 181, 1, low},
            {"psoas", "psoas", 278, 1, low},
            {"sartorius", "sartorius", 168, 1, low},
            {"add_long", "adductor longus", 165, 1, low},
            {"add_brev", "adductor brevis", 108, 1, low},
            {"gracilis", "gracilis", 107, 1, low},
            {"pectineus", "pectineus", 68, 1, low},
            {"quad_fem", "quadratus femoris", 33, 1, low},
            {"vas_lat", "vastus lateralis", 853, 1, low},
            {"vas_med", "vastus medialis", 443, 1, low},
            {"vas_int", "vastus intermedius", 281, 1, low},
            {"rect_fem", "rectus femoris", 277, 1, low},
            {"semimem", "semimembranosus", 253, 1, low},
            {"semiten", "semitendinosus", 190, 1, low},
            {"bifemlh", "biceps femoris long head", 214, 1, low},
            {"bifemsh", "biceps femoris short head", 102, 1, low},
            {"med_gas", "gastrocnemius medial", 265, 1, low},
            {"lat_gas", "gastrocnemius lateral", 154, 1, low},
            {"soleus", "soleus", 454, 1, low},
            {"tib_ant", "tibialis anterior", 140, 1, low},
            {"tib_post", "tibialis posterior", 109, 1, low},
            {"per_long", "peroneus longus", 94, 1, low},
            {"per_brev", "peroneus brevis", 39, 1, low},
            {"ext_dig", "extensor digitorum longus", 70, 1, low},
            {"ext_hal", "extensor hallucis longus", 36, 1, low},
            {"flex_hal", "flexor hallucis longus", 80, 1, low},
            {"flex_dig", "flexor digitorum longus", 31, 1, low},
            {"pec_major", "pectoralis major", 290, 1, trunk},
            {"lat_dorsi", "latissimus dorsi", 262, 1, trunk},
            {"rect_abd", "rectus abdominis", 75, 1, trunk},
        };
        auto split = [&](const std::string& base, const std::string& muscle, double total) {
            for (int k = 1; k <= 3; ++k) t.push_back({base + std::to_string(k), muscle, total / 3.0, 3, low});
        };
        split("glut_max", "gluteus maximus", 873);
        split("glut_med", "gluteus medius", 332);
        split("glut_min", "gluteus minimus", 108);
        split("add_mag", "adductor magnus", 574);
        for (int k = 1; k <= 3; ++k) t.push_back({"trapezius" + std::to_string(k), "trapezius", 460.0 / 3.0, 3, trunk});
        return t;
    }();
    return table;
}

const ReferenceVolume* referenceVolume(const std::string& muscle_name) {
    std::string base = muscle_name;
    for (const char* suf : {"_r", "_l"})
        if (base.size() > 2 && base.compare(base.size() - 2, 2, suf) == 0) base.resize(base.size() - 2);
    for (const ReferenceVolume& r : referenceVolumes())
        if (r.name == base) return &r;
    return nullptr;
}

}  // namespace engine
