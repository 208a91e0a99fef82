# Sourced by the GPU scripts: installs dist/tile-*.whl (built on the build
# machine by scripts/build-wheel.sh; carry dist), or the wheel $TILE_WHEEL
# names, into a folder of its own, from the carried file alone, and points
# Python at it with a fresh kernel cache and no toolkit or library paths
# configured. Sets $wheel and $site. With $TILE_SITE (a folder this script
# installed before, as gpu/ab_wheels.sh keeps one per wheel) it installs
# nothing (and sets no $wheel) and points Python at that folder and its cache.
if [[ -n "${TILE_SITE:-}" ]]; then
  site=$TILE_SITE
else
  wheel=${TILE_WHEEL:-$(ls dist/tile-*.whl 2>/dev/null | head -1)}
  [[ -n "$wheel" && -f "$wheel" ]] ||
    { echo "no wheel ${TILE_WHEEL:-dist/tile-*.whl}: build it with scripts/build-wheel.sh and carry it"; exit 2; }
  site=$(mktemp -d "${TMPDIR:-/tmp}/tile-site.XXXXXX")
  python3 -m pip install -q --no-index --no-deps --target "$site" "$wheel" ||
    { echo "pip could not install $wheel"; exit 2; }
fi
export PYTHONPATH="$site" TILE_TEST_INSTALLED=1 PYTHONUNBUFFERED=1
export TILE_CACHE_DIR="$site/.cache"    # the site's own cache: every kernel compiles here
unset CUDA_HOME CUDA_PATH TILE_ASSEMBLER TILE_LIBRARY TILE_INTERPRET
