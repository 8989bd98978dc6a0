// fontconfig and FreeType, for the fonts an imported document names (a Lottie file's text):
// LottieImport adds the font files it brings to the application's font set, where Pango's font
// matching sees them, and reads the ascent of the face a name resolves to, to place text by
// its baseline as Core Text would.
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H

// The ascent of the face fontconfig matches for `family`, as a fraction of the em (hhea, as
// FreeType reads it); 0 when nothing matches or the face cannot be opened.
static inline double lamina_font_ascent(const char *family) {
    double ascent = 0;
    FcPattern *pattern = FcPatternCreate();
    if (!pattern) return 0;
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcPatternDestroy(pattern);
    if (!match) return 0;
    FcChar8 *file = NULL;
    int index = 0;
    FT_Library library;
    if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch && FT_Init_FreeType(&library) == 0) {
        FcPatternGetInteger(match, FC_INDEX, 0, &index);
        FT_Face face;
        if (FT_New_Face(library, (const char *)file, index, &face) == 0) {
            if (face->units_per_EM > 0) ascent = (double)face->ascender / face->units_per_EM;
            FT_Done_Face(face);
        }
        FT_Done_FreeType(library);
    }
    FcPatternDestroy(match);
    return ascent;
}
