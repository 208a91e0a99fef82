#!/usr/bin/env bash
# Installs the build into a temporary prefix and uses it the way another
# project would: a downstream CMake project (test/embedding/downstream), a C
# program against the C API (test/embedding/capi), and the stock mlir-opt-22
# with the plugin. Expects the build to exist (scripts/setup.sh).
#   bash scripts/test-embedding.sh
#   BUILD_DIR=build-asan bash scripts/test-embedding.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build_dir="${BUILD_DIR:-build}"
llvm_bin=/usr/lib/llvm-22/bin

work=$(mktemp -d "${TMPDIR:-/tmp}/tile-embedding.XXXXXX")
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$work"' EXIT
prefix="$work/prefix"
kernel="$root/examples/vector_add.mlir"
bad="$root/test/embedding/Inputs/bad-broadcast.mlir"

# Fails the script with the output that did not contain what it should.
expect() {
  local pattern=$1 file=$2
  grep -qF -- "$pattern" "$file" ||
    { echo "FAIL: '$pattern' not in $file:"; head -40 "$file"; exit 1; }
}

echo "== install into $prefix"
ninja -C "$build_dir" >/dev/null
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for f in lib/cmake/tile/TileConfig.cmake lib/libTileCAPI.so lib/TilePlugin.so \
         include/tile/InitTile.h include/tile-c/Dialect.h \
         include/tile/Dialect/Tile/IR/TileOps.td \
         include/tile/Dialect/Tile/IR/TileOps.h.inc bin/tile-opt; do
  [[ -e "$prefix/$f" ]] || { echo "FAIL: $f was not installed"; exit 1; }
done
"$prefix/bin/tile-opt" "$kernel" >/dev/null

echo "== downstream CMake project"
cmake -G Ninja -S test/embedding/downstream -B "$work/downstream" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
ninja -C "$work/downstream" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
bin="$work/downstream"

"$bin/tile-embed-compile" "$kernel" >"$work/pipeline.ptx"
expect ".target sm_90" "$work/pipeline.ptx"
expect ".visible .entry add_kernel(" "$work/pipeline.ptx"
"$bin/tile-embed-compile" --parse-only test/embedding/downstream/downstream-op.mlir \
  >"$work/downstream-op.mlir"
expect "downstream.num_elements %arg0 : !tile.block<16x32xf32>" "$work/downstream-op.mlir"
if "$bin/tile-embed-compile" "$bad" 2>"$work/bad.txt"; then
  echo "FAIL: bad input compiled"; exit 1
fi
expect "error: 'tile.broadcast' op cannot broadcast 16x2 to 16x32" "$work/bad.txt"

"$bin/tile-embed-translate" --tile-to-ptx --tile-num-warps=8 "$kernel" >"$work/translate.ptx"
expect ".visible .entry add_kernel(" "$work/translate.ptx"
expect ".maxntid 256, 1, 1" "$work/translate.ptx"
"$bin/tile-embed-translate" --tile-to-llvmir "$kernel" >"$work/translate.ll"
expect "define ptx_kernel void @add_kernel(" "$work/translate.ll"
if "$bin/tile-embed-translate" --tile-to-ptx "$bad" 2>"$work/bad-translate.txt"; then
  echo "FAIL: bad input translated"; exit 1
fi
expect "cannot broadcast 16x2 to 16x32" "$work/bad-translate.txt"
if "$bin/tile-embed-translate" --tile-to-ptx test/embedding/Inputs/no-kernel.mlir \
     2>"$work/no-kernel.txt"; then
  echo "FAIL: a module without kernels translated"; exit 1
fi
expect "error: no kernel" "$work/no-kernel.txt"

echo "== C program against the C API"
clang-22 -std=c11 -Wall -Werror test/embedding/capi/tile-capi-test.c \
  -I"$prefix/include" -I"$("$llvm_bin/llvm-config" --includedir)" \
  -L"$prefix/lib" -lTileCAPI -Wl,-rpath,"$prefix/lib" -o "$work/tile-capi-test"
"$work/tile-capi-test" "$kernel" >"$work/capi.txt" || { cat "$work/capi.txt"; exit 1; }
expect "OK" "$work/capi.txt"

echo "== stock mlir-opt-22 with the installed plugin"
"$llvm_bin/mlir-opt" --load-dialect-plugin="$prefix/lib/TilePlugin.so" \
  --load-pass-plugin="$prefix/lib/TilePlugin.so" \
  --pass-pipeline='builtin.module(tile-to-nvvm{chip=sm_90},gpu-module-to-binary{format=isa})' \
  "$kernel" >"$work/plugin.mlir"
expect ".visible .entry add_kernel(" "$work/plugin.mlir"

echo "embedding: all consumers passed"
