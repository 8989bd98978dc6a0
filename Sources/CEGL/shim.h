// EGL 1.5 and OpenGL ES 3.0 for the GL renderer. Only the GL renderer imports this module.
#define EGL_NO_X11 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
