// zlib's raw inflate, for reading `.lottie` (zip) archives.
#include <zlib.h>
