#include <turbojpeg.h>
#include <stdio.h>
int main(int argc, char **argv) {
    unsigned char px[16 * 16 * 3];
    const unsigned char q[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {128, 128, 128}};
    for (int y = 0; y < 16; y++) for (int x = 0; x < 16; x++) {
        const unsigned char *c = q[(y / 8) * 2 + x / 8];
        for (int k = 0; k < 3; k++) px[(y * 16 + x) * 3 + k] = c[k];
    }
    tjhandle h = tjInitCompress();
    unsigned char *jpeg = NULL; unsigned long size = 0;
    if (tjCompress2(h, px, 16, 0, 16, TJPF_RGB, &jpeg, &size, TJSAMP_444, 95, 0) != 0) { puts(tjGetErrorStr2(h)); return 1; }
    FILE *f = fopen(argv[1], "wb"); fwrite(jpeg, 1, size, f); fclose(f);
    tjFree(jpeg); tjDestroy(h); return 0;
}
