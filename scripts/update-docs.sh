#!/usr/bin/env bash
# Regenerates docs/reference/ from the ODS definitions.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C build mlir-doc >/dev/null
mkdir -p docs/reference
for doc in TileDialect TilePasses TileConversionPasses; do
  cp "$(find build/docs -name "$doc.md" | head -1)" "docs/reference/$doc.md"
done
