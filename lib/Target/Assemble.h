//===- Assemble.h - PTX to cubin: ptxas or nvJitLink ------------*- C++ -*-===//
//
// Two assemblers with one contract: PTX text and a chip in, a cubin or an
// error message out. ptxas runs as a program (a CUDA toolkit's, or one from
// NVIDIA's pip wheels); nvJitLink is loaded into the process with dlopen
// (NVIDIA's `nvidia-nvjitlink` wheel ships it), so no toolkit is needed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_ASSEMBLE_H
#define TILE_LIB_TARGET_ASSEMBLE_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tile {

/// The option of both assemblers that keeps the PTX's `.loc` line table in
/// the cubin (for Nsight, cuobjdump and nvdisasm -g).
constexpr const char *kLineInfoFlag = "-lineinfo";

struct AssembleResult {
  bool succeeded = false;
  std::string cubin;
  /// Why it failed: the assembler's own log where it gave one.
  std::string error;
  /// What the assembler said where it succeeded (ptxas' info lines, such as
  /// "(C7512) ... wgmma.mma_async instructions are serialized").
  std::string log;
  /// Which assembler ran, e.g. "nvJitLink 13.0 (/path/libnvJitLink.so.13)".
  std::string assembler;
};

/// Assembles with the ptxas at `ptxas`, or with `<toolkit>/bin/ptxas`, or,
/// when both are empty or missing and the toolkit is only the build's
/// default (`toolkitGivenBy` empty; else "--cuda-path" or "CUDA_HOME"), the
/// first ptxas on PATH. `assembler` in the result names the one that ran.
/// `lineInfo` passes kLineInfoFlag.
AssembleResult assembleWithPtxas(llvm::StringRef ptxas, llvm::StringRef toolkit,
                                 llvm::StringRef toolkitGivenBy,
                                 llvm::StringRef chip, llvm::StringRef ptx,
                                 bool lineInfo);

/// Assembles in-process with the nvJitLink library at `library`.
AssembleResult assembleWithNvJitLink(llvm::StringRef library,
                                     llvm::StringRef chip, llvm::StringRef ptx,
                                     bool lineInfo);

} // namespace mlir::tile

#endif // TILE_LIB_TARGET_ASSEMBLE_H
