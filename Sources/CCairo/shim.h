// cairo's 2-D drawing API: ContentRaster fills and strokes shape-layer paths with it into
// ARGB32 image surfaces.
#include <cairo.h>
