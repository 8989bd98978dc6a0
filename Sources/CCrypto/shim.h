// OpenSSL's libcrypto, for SHA-256 digests of scenes, settings and rendered segments.
#include <openssl/evp.h>
