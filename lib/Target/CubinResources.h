//===- CubinResources.h - what a kernel uses, read off its cubin -*- C++
//-*-===//
//
// The registers and stack frame of a kernel in a cubin, from the cubin's
// `.nv.info` section (what `cuobjdump -res-usage` prints). Read off the
// cubin, not the assembler's verbose log: nvJitLink serves a PTX it has
// assembled before from the CUDA compute cache, with no log at all.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_CUBINRESOURCES_H
#define TILE_LIB_TARGET_CUBINRESOURCES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tile {

struct KernelResources {
  unsigned registers = 0;
  /// Bytes of local memory per thread for the kernel's stack frame: where
  /// registers spill (and arrays that live in local memory).
  unsigned stackFrameBytes = 0;
};

/// The resources of the function `name` in `cubin` (an ELF image), or
/// nothing if the image does not list them.
std::optional<KernelResources> readKernelResources(llvm::StringRef cubin,
                                                   llvm::StringRef name);

} // namespace mlir::tile

#endif // TILE_LIB_TARGET_CUBINRESOURCES_H
