// Pango text layout (HarfBuzz shaping, fontconfig font selection, bidi) drawn through cairo:
// ContentRaster renders text-layer content with it.
#include <pango/pangocairo.h>

// PANGO_SCALE is a plain macro and imports; the conversion helpers below are function-like
// macros, which do not.
static inline int lamina_pango_units_from_double(double d) { return pango_units_from_double(d); }

#include <fontconfig/fontconfig.h>
#include <pango/pangofc-fontmap.h>

// Font files added to fontconfig's application set after this thread's Pango font map was made
// (an imported Lottie file's fonts) are only matched once the map is told its config changed.
static inline void lamina_pango_refresh_application_fonts(void) {
    static __thread int seen = 0;
    FcFontSet *set = FcConfigGetFonts(NULL, FcSetApplication);
    int count = set ? set->nfont : 0;
    if (count == seen) return;
    seen = count;
    PangoFontMap *map = pango_cairo_font_map_get_default();
    if (PANGO_IS_FC_FONT_MAP(map)) pango_fc_font_map_config_changed(PANGO_FC_FONT_MAP(map));
}
