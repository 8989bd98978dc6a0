#!/usr/bin/env bash
# Installs the Debian packages Lamina's build and tests need, only those missing.
# Idempotent and fast when everything is present (one dpkg query, no apt-get).
set -euo pipefail

# Packages the targets link (headers, pkg-config files) and the GL tests run on (Mesa's EGL).
packages=(
  pkg-config
  libegl-dev
  libgles-dev
  libegl-mesa0
  libgl1-mesa-dri
  libpng-dev
  libturbojpeg0-dev
  # ContentRaster: shape paths through cairo, text through Pango (HarfBuzz shaping, fontconfig).
  libcairo2-dev
  libpango1.0-dev
  libharfbuzz-dev
  # LottieImport: fonts shipped beside an animation (fontconfig) and their ascent (FreeType).
  libfontconfig-dev
  libfreetype-dev
  # The only fonts the ContentRaster tests use (present on a fresh machine, listed to be sure).
  fonts-dejavu-core
  fonts-dejavu-extra
  # Export: SHA-256 digests of scenes and segments (OpenSSL's libcrypto).
  libssl-dev
  # lamina-dask's tests: a virtual environment (tools/python-env.sh) with Dask from PyPI.
  python3-venv
  # Export: encoding (x264, libvpx, ProRes, GIF) and decoding through the ffmpeg program.
  ffmpeg
  # The browser tests of `lamina preview` and `bench --html`: headless Chromium, driven by
  # Selenium (from PyPI, tools/python-env.sh) through chromedriver.
  chromium
  chromium-driver
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "tools/install.sh: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
