// Pango text layout (HarfBuzz shaping, fontconfig font selection, bidi) drawn through cairo:
// ContentRaster renders text-layer content with it.
#include <pango/pangocairo.h>

// PANGO_SCALE is a plain macro and imports; the conversion helpers below are function-like
// macros, which do not.
static inline int lamina_pango_units_from_double(double d) { return pango_units_from_double(d); }
