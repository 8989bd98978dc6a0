// cairo's 2-D drawing API: ContentRaster fills and strokes shape-layer paths with it into
// ARGB32 image surfaces.
#include <cairo.h>
// glibc's allocator settings: ContentRaster keeps large raster buffers in the heap (RasterMemory).
#include <malloc.h>
