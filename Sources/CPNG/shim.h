// libpng's simplified API (png_image_*), which needs no setjmp. Some of its macros do not import
// into Swift, so their values are restated as constants here.
#include <png.h>

static const unsigned int LAMINA_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const unsigned int LAMINA_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const unsigned int LAMINA_PNG_FORMAT_FLAG_ALPHA = PNG_FORMAT_FLAG_ALPHA;

static inline size_t lamina_png_image_size(png_image image) { return PNG_IMAGE_SIZE(image); }
static inline int lamina_png_image_failed(png_image image) { return PNG_IMAGE_FAILED(image); }
