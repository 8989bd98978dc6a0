// libjpeg-turbo's TurboJPEG API: JPEG decoding without setjmp-based error handling.
#include <turbojpeg.h>
